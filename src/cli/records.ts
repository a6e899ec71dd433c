// `cairn records delete|restore`: what an administrator does through DELETE /api/records/{id}/delete
// and POST /api/records/{id}/restore, from the command line (records/deletion.ts).
import { systemActor } from "../core/actor";
import { parse, requireString, UsageError, type Command } from "./args";
import { withServices } from "./services";

export const recordsCommand: Command = {
  name: "records",
  summary: "Delete a published record (leaving a tombstone) or restore a deleted one.",
  usage: `cairn records delete ID --reason REASON [--note TEXT] [--citation-text TEXT] [--hidden]
    REASON is an id of the removalreasons vocabulary (duplicate, spam, retracted, copyright,
    personal-data, ...). The record answers 410 with its tombstone (404 with --hidden), leaves
    searches, stays in OAI-PMH as a deleted header; its files are kept, not served.
cairn records restore ID
    Undoes a deletion.`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "delete") {
      const { values, positionals } = parse(rest, { reason: { type: "string" }, note: { type: "string" }, "citation-text": { type: "string" }, hidden: { type: "boolean" } }, 1);
      const id = positionals[0];
      if (!id) throw new UsageError("records delete needs the record ID");
      const tombstone = { removal_reason: { id: requireString(values, "reason") }, note: values.note, citation_text: values["citation-text"], is_visible: !values.hidden };
      await withServices(values, (s) => s.records.deleteRecord(systemActor, id, tombstone));
      console.log(`deleted ${id}${values.hidden ? " (tombstone hidden)" : ""}`);
      return 0;
    }
    if (sub === "restore") {
      const { values, positionals } = parse(rest, {}, 1);
      const id = positionals[0];
      if (!id) throw new UsageError("records restore needs the record ID");
      await withServices(values, (s) => s.records.restoreRecord(systemActor, id));
      console.log(`restored ${id}`);
      return 0;
    }
    throw new UsageError(sub ? `unknown records command '${sub}' (delete, restore)` : "records needs a command: delete or restore");
  },
};
