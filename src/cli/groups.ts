// `cairn groups create|add-member`.
import { systemActor } from "../core/actor";
import { parse, requireString, UsageError, type Command } from "./args";
import { userByEmail, withServices } from "./services";

export const groupsCommand: Command = {
  name: "groups",
  summary: "Create groups and add users to them.",
  usage: `cairn groups create NAME [--description D]
    Prints the new group's id.
cairn groups add-member NAME --email E`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "create") {
      const { values, positionals } = parse(rest, { description: { type: "string" } }, 1);
      const name = positionals[0];
      if (!name) throw new UsageError("groups create needs a NAME");
      const group = await withServices(values, (s) => s.groups.createGroup(systemActor, { name, description: values.description }));
      console.log(group.id);
      return 0;
    }
    if (sub === "add-member") {
      const { values, positionals } = parse(rest, { email: { type: "string" } }, 1);
      const name = positionals[0];
      if (!name) throw new UsageError("groups add-member needs the group NAME");
      const email = requireString(values, "email");
      const { added, group } = await withServices(values, async (s) => s.groups.addMember(systemActor, name, (await userByEmail(s, email)).id));
      console.log(added ? `added ${email} to ${group.name}` : `${email} is already in ${group.name}`);
      return 0;
    }
    throw new UsageError(sub ? `unknown groups command '${sub}' (create, add-member)` : "groups needs a command: create or add-member");
  },
};
