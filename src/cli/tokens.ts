// `cairn tokens create|list|revoke`.
import { systemActor } from "../core/actor";
import { parse, printTable, requireString, UsageError, when, type Command } from "./args";
import { userByEmail, withServices } from "./services";

export const tokensCommand: Command = {
  name: "tokens",
  summary: "Create, list and revoke personal access tokens.",
  usage: `cairn tokens create --email E [--name N] [--scope S]...
    Prints only the token: it is stored hashed and cannot be shown again.
cairn tokens list --email E
cairn tokens revoke ID`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "create") {
      const { values } = parse(rest, { email: { type: "string" }, name: { type: "string" }, scope: { type: "string", multiple: true } });
      const email = requireString(values, "email");
      const secret = await withServices(values, async (s) => {
        const user = await userByEmail(s, email);
        return (await s.tokens.createToken(systemActor, { userId: user.id, name: values.name ?? "cli", scopes: values.scope })).secret;
      });
      console.log(secret);
      return 0;
    }
    if (sub === "list") {
      const { values } = parse(rest, { email: { type: "string" } });
      const email = requireString(values, "email");
      const tokens = await withServices(values, async (s) => s.tokens.listTokens(systemActor, (await userByEmail(s, email)).id));
      printTable(
        tokens.map((t) => ({ id: t.id, name: t.name, scopes: t.scopes.join(",") || null, created: when(t.created), last_used: when(t.lastUsed), revoked: when(t.revokedAt) })),
        ["id", "name", "scopes", "created", "last_used", "revoked"],
      );
      return 0;
    }
    if (sub === "revoke") {
      const { values, positionals } = parse(rest, {}, 1);
      const id = positionals[0];
      if (!id || !/^\d+$/.test(id)) throw new UsageError("tokens revoke needs the token id (a number; see tokens list)");
      await withServices(values, (s) => s.tokens.revokeToken(systemActor, Number(id)));
      console.log(`revoked token ${id}`);
      return 0;
    }
    throw new UsageError(sub ? `unknown tokens command '${sub}' (create, list, revoke)` : "tokens needs a command: create, list or revoke");
  },
};
