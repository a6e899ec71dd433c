// `cairn records delete|restore|owner`: what an administrator does through DELETE
// /api/records/{id}/delete, POST /api/records/{id}/restore and PUT /api/records/{id}/access with
// `owned_by`, from the command line, as the system and audited via the CLI.
import { systemActor } from "../core/actor";
import { parse, requireString, UsageError, type Command } from "./args";
import { withServices } from "./services";

const CLI = { via: "cli", address: null } as const;

/** `records owner ID --login L` (or `--id ID`): the record, every version and draft, given to another account. */
async function runOwner(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { id: { type: "string" }, login: { type: "string" } }, 1);
  const id = positionals[0] ?? values.id;
  if (!id) throw new UsageError("records owner needs the record ID (--id ID)");
  const login = requireString(values, "login");
  const userId = await withServices(values, async (s) => {
    const owner = await s.userAdmin.userIdOf(systemActor, login);
    await s.access.updateSettings(systemActor, id, { owned_by: { user: String(owner) } }, CLI);
    return owner;
  });
  console.log(`${id} is now owned by ${login} (id ${userId})`);
  return 0;
}

export const recordsCommand: Command = {
  name: "records",
  summary: "Delete a published record (leaving a tombstone), restore a deleted one, give a record another owner.",
  usage: `cairn records delete ID --reason REASON [--note TEXT] [--citation-text TEXT] [--hidden]
    REASON is an id of the removalreasons vocabulary (duplicate, spam, retracted, copyright,
    personal-data, ...). The record answers 410 with its tombstone (404 with --hidden), leaves
    searches, stays in OAI-PMH as a deleted header; its files are kept, not served.
cairn records restore ID
    Undoes a deletion.
cairn records owner ID --login EMAIL_OR_USERNAME     (or --id ID)
    Gives the record (every version and draft; a draft's id works too) to another account.
Each is written to the audit log (cairn audit list: record.tombstone, record.restore,
record.owner) as done by the system, via the CLI.`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "delete") {
      const { values, positionals } = parse(rest, { reason: { type: "string" }, note: { type: "string" }, "citation-text": { type: "string" }, hidden: { type: "boolean" } }, 1);
      const id = positionals[0];
      if (!id) throw new UsageError("records delete needs the record ID");
      const tombstone = { removal_reason: { id: requireString(values, "reason") }, note: values.note, citation_text: values["citation-text"], is_visible: !values.hidden };
      await withServices(values, (s) => s.records.deleteRecord(systemActor, id, tombstone, CLI));
      console.log(`deleted ${id}${values.hidden ? " (tombstone hidden)" : ""}`);
      return 0;
    }
    if (sub === "restore") {
      const { values, positionals } = parse(rest, {}, 1);
      const id = positionals[0];
      if (!id) throw new UsageError("records restore needs the record ID");
      await withServices(values, (s) => s.records.restoreRecord(systemActor, id, CLI));
      console.log(`restored ${id}`);
      return 0;
    }
    if (sub === "owner") return runOwner(rest);
    throw new UsageError(sub ? `unknown records command '${sub}' (delete, restore, owner)` : "records needs a command: delete, restore or owner");
  },
};
