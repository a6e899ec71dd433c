// `cairn audit list`: the administrators' audit log, newest first, as a table or JSON.
import { systemActor } from "../core/actor";
import { parse, printTable, UsageError, when, type Command } from "./args";
import { withServices } from "./services";

export const auditCommand: Command = {
  name: "audit",
  summary: "Show the audit log of administrators' actions.",
  usage: `cairn audit list [--action A] [--target-type T] [--target-id ID] [--size N] [--json]
    The newest N entries (default 25, at most 100) of the log of administrators' actions (from the
    pages, the REST API and the CLI): when, who, what (e.g. user.block), on what, from where, how.
    --action, --target-type, --target-id: only entries with exactly that value.
    --json: the entries as a JSON array (at as an ISO time).`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub !== "list") throw new UsageError(sub ? `unknown audit command '${sub}' (list)` : "audit needs a command: list");
    const { values } = parse(rest, {
      action: { type: "string" },
      "target-type": { type: "string" },
      "target-id": { type: "string" },
      size: { type: "string" },
      json: { type: "boolean" },
    });
    const { entries } = await withServices(values, (s) =>
      s.audit.search(systemActor, { action: values.action, targetType: values["target-type"], targetId: values["target-id"], size: values.size }),
    );
    const rows = entries.map((e) => ({ ...e, at: when(e.at) }));
    if (values.json) {
      console.log(JSON.stringify(rows, null, 2));
      return 0;
    }
    printTable(
      rows.map((e) => ({
        at: e.at,
        actor: e.actorLabel,
        action: e.action,
        target: `${e.targetType} ${e.targetId}`,
        address: e.address,
        via: e.via,
        details: Object.keys(e.details).length ? JSON.stringify(e.details) : null,
      })),
      ["at", "actor", "action", "target", "address", "via", "details"],
    );
    return 0;
  },
};
