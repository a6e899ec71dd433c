// Who may see which statistics: those of a record go to whoever may read the record (the records
// module decides, through its service); the COUNTER export is for administrators.
import { requireAdmin, type Actor } from "../core/actor";

/** What statistics need of the records service. */
export interface RecordAccess {
  /** False for an unknown id; 401/403 (thrown) when the actor may not read the record or parent. */
  statsReadable(actor: Actor, scope: "record" | "parent", id: string): Promise<boolean>;
}

export async function requireStatsRead(records: RecordAccess, actor: Actor, scope: "record" | "parent", id: string): Promise<boolean> {
  return records.statsReadable(actor, scope, id);
}

export const requireExport = (actor: Actor) => requireAdmin(actor);
