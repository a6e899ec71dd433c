// `cairn users create|list|set-password`.
import { systemActor } from "../core/actor";
import { parse, printTable, requireString, UsageError, when, type Command } from "./args";
import { withServices } from "./services";

/** The first line of standard input (a password piped in, so it stays out of the shell's history). */
async function readLine(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text();
  return text.split(/\r?\n/)[0] ?? "";
}

export const usersCommand: Command = {
  name: "users",
  summary: "Create and list user accounts.",
  usage: `cairn users create --email E [--username U] [--password P] [--name "Full Name"] [--admin] [--visibility public|restricted]
    Prints the new user's id. Without --password the account can only use API tokens.
    --visibility: whether the profile is listed in the users directory (default ACCOUNTS_DEFAULT_USER_VISIBILITY).
cairn users list
    Lists every account.
cairn users set-password --login EMAIL_OR_USERNAME [--password P]
    Sets the password used to sign in to the web pages (read from standard input without
    --password), lifts the wait after failed sign-ins, and ends the account's browser sessions.`,
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
        users.map((u) => ({ id: u.id, email: u.email, username: u.username, admin: u.isAdmin ? "yes" : "no", active: u.active ? "yes" : "no", created: when(u.created) })),
        ["id", "email", "username", "admin", "active", "created"],
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
    throw new UsageError(sub ? `unknown users command '${sub}' (create, list, set-password)` : "users needs a command: create, list or set-password");
  },
};
