// `cairn users create|list|set-password` and the administrators' account actions (block, restore, …).
import { systemActor } from "../core/actor";
import { USER_ACTIONS, type UserAction } from "../users/admin";
import { parse, printTable, requireString, UsageError, when, type Command } from "./args";
import { runQuota } from "./quota";
import { runDelete, runResetPassword } from "./users-delete";
import { withServices } from "./services";

/** The first line of standard input (a password piped in, so it stays out of the shell's history). */
async function readLine(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text();
  return text.split(/\r?\n/)[0] ?? "";
}

const SUBCOMMANDS = ["create", "list", "set-password", ...USER_ACTIONS, "quota", "delete", "reset-password"];

/** `cairn users ACTION --login L`: the action as the system, via the CLI; prints the account's state after it. */
async function runAction(action: UserAction, argv: string[]): Promise<number> {
  const { values } = parse(argv, { login: { type: "string" } });
  const login = requireString(values, "login");
  const user = await withServices(values, async (s) => {
    const id = await s.userAdmin.userIdOf(systemActor, login);
    return s.userAdmin[action](systemActor, id, { via: "cli", address: null });
  });
  const state = [
    user.active ? "active" : "inactive",
    ...(user.blocked_at ? [`blocked ${user.blocked_at}`] : []),
    ...(user.verified_at ? [`verified ${user.verified_at}`] : []),
    ...(user.is_admin ? ["administrator"] : []),
  ];
  console.log(`${action}: ${user.email} (id ${user.id}): ${state.join(", ")}`);
  return 0;
}

export const usersCommand: Command = {
  name: "users",
  summary: "Create, list, block, restore, (de)activate, approve, promote, demote and delete user accounts; quotas; password-reset links.",
  usage: `cairn users create --email E [--username U] [--password P] [--name "Full Name"] [--admin] [--visibility public|restricted]
    Prints the new user's id. Without --password the account can only use API tokens.
    --visibility: whether the profile is listed in the users directory (default ACCOUNTS_DEFAULT_USER_VISIBILITY).
cairn users list
    Lists every account, with its state (admin, active, blocked, verified).
cairn users set-password --login EMAIL_OR_USERNAME [--password P]
    Sets the password used to sign in to the web pages (read from standard input without
    --password), lifts the wait after failed sign-ins, and ends the account's browser sessions.
cairn users block|restore|deactivate|activate|approve|promote|demote --login EMAIL_OR_USERNAME
    block: no sign-in by any way, sessions ended, tokens refused (403), the requests it opened
      cancelled; with ACCOUNTS_MODERATION=first-publish its moderation request declined and what
      it published tombstoned (reason spam). restore: undoes a block or a deactivation.
    deactivate: no sign-in, sessions ended. activate: undoes a deactivation. approve: marks the
      account verified and publishes the uploads moderation held. promote / demote: makes
    it an administrator or not. Each is written to the audit log (cairn audit list) as done by the
    system, via the CLI; prints the account's new state.
cairn users quota --login EMAIL_OR_USERNAME [--size 20GB [--max-file-size 5GB] [--notes "…"]]
    With --size: sets the most bytes the user's files take across all their drafts and records
    (0: no limit; units of 1024 as in the settings), and their largest file (without
    --max-file-size: RDM_FILES_DEFAULT_MAX_FILE_SIZE); audited. Prints the quota and the usage.
cairn users delete --login EMAIL_OR_USERNAME --records keep|remove
    Deletes the account: its drafts (and their files), tokens, sessions, linked identities and
    memberships go, the requests it opened are cancelled. --records is required: keep (the
    published records stay, owned by a placeholder shown as "Deleted user") or remove (tombstoned
    with the reason spam). Refused for the last active administrator and for the only owner of a
    community (give it another owner first). Audited as user.delete.
cairn users reset-password --login EMAIL_OR_USERNAME
    Mails the account the password-reset link /lost-password sends (active accounts only); audited.`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "create") {
      const { values } = parse(rest, {
        email: { type: "string" },
        username: { type: "string" },
        password: { type: "string" },
        name: { type: "string" },
        admin: { type: "boolean" },
        visibility: { type: "string" },
      });
      const email = requireString(values, "email");
      const user = await withServices(values, (s) =>
        s.users.createUser(systemActor, {
          email,
          username: values.username,
          password: values.password,
          fullName: values.name,
          admin: values.admin,
          visibility: values.visibility,
        }),
      );
      console.log(user.id);
      return 0;
    }
    if (sub === "list") {
      const { values } = parse(rest, {});
      const users = await withServices(values, (s) => s.users.listUsers(systemActor));
      printTable(
        users.map((u) => ({
          id: u.id,
          email: u.email,
          username: u.username,
          admin: u.isAdmin ? "yes" : "no",
          active: u.active ? "yes" : "no",
          blocked: when(u.blockedAt),
          verified: when(u.verifiedAt),
          created: when(u.created),
        })),
        ["id", "email", "username", "admin", "active", "blocked", "verified", "created"],
      );
      return 0;
    }
    if (sub === "set-password") {
      const { values } = parse(rest, { login: { type: "string" }, password: { type: "string" } });
      const login = requireString(values, "login");
      const password = values.password ?? (await readLine());
      const user = await withServices(values, (s) => s.sessions.setPassword(systemActor, login, password));
      console.log(`password set for ${user.email} (id ${user.id})`);
      return 0;
    }
    if ((USER_ACTIONS as readonly string[]).includes(sub ?? "")) return runAction(sub as UserAction, rest);
    if (sub === "quota") return runQuota(rest);
    if (sub === "delete") return runDelete(rest);
    if (sub === "reset-password") return runResetPassword(rest);
    throw new UsageError(sub ? `unknown users command '${sub}' (${SUBCOMMANDS.join(", ")})` : `users needs a command: ${SUBCOMMANDS.join(", ")}`);
  },
};
