// The OAI-PMH tombstones the records service writes, kept in step with published records'
// visibility. Built before the records service, which reports every re-index of a published record
// to it inside the write's transaction, so a harvester learns of a record that stopped being public
// as a deleted header.
import type { Db } from "../db/port";
import type { VisibilityChange } from "../records/context";
import * as store from "./store";

export type TombstoneWriter = ReturnType<typeof createTombstoneWriter>;

export function createTombstoneWriter(db: Db) {
  return {
    /** Inside the caller's write transaction (`db` joins it). */
    async noteVisibilityChange(change: VisibilityChange) {
      if (change.isPublic) await store.deleteTombstone(db, change.recordId);
      else if (change.wasPublic) await store.upsertTombstone(db, change.recordId, change.at);
    },
  };
}
