// `cairn users create|list`.
import { systemActor } from "../core/actor";
import { parse, printTable, requireString, UsageError, when, type Command } from "./args";
import { withServices } from "./services";

export const usersCommand: Command = {
  name: "users",
  summary: "Create and list user accounts.",
  usage: `cairn users create --email E [--username U] [--password P] [--name "Full Name"] [--admin] [--visibility public|restricted]
    Prints the new user's id. Without --password the account can only use API tokens.
    --visibility: whether the profile is listed in the users directory (default ACCOUNTS_DEFAULT_USER_VISIBILITY).
cairn users list
    Lists every account.`,
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
    throw new UsageError(sub ? `unknown users command '${sub}' (create, list)` : "users needs a command: create or list");
  },
};
