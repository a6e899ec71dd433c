// The narrow view of requests other modules consume before the engine exists (records ask which
// reviews and inclusion requests are open on a record, for their permission levels): built from
// the store alone, like the communities directory.
import type { Db } from "../db/port";
import * as store from "./store";
import type { EntityRef, RequestView } from "./request-type";

export interface RequestDirectory {
  /** Open (submitted) requests of the type about the topic, oldest first. */
  openAbout(type: string, topic: EntityRef): Promise<RequestView[]>;
  /** The newest request of the type about the topic, whatever its status; null when there is none. */
  latestAbout(type: string, topic: EntityRef): Promise<RequestView | null>;
  /** Deletes the unsubmitted (`created`) requests about the topic, in the caller's transaction (a draft deleted with its review). */
  discardUnsubmitted(topic: EntityRef): Promise<void>;
}

export function createRequestDirectory(db: Db): RequestDirectory {
  return {
    openAbout: async (type, topic) => (await store.listRequestsBy(db, { type, topic, openOnly: true }, 100)).map(store.viewOf),
    async latestAbout(type, topic) {
      const row = await store.findLatestRequest(db, { type, topic });
      return row ? store.viewOf(row) : null;
    },
    async discardUnsubmitted(topic) {
      for (const row of await store.listRequestsBy(db, { topic }, 1000)) if (row.status === "created") await store.deleteRequest(db, row.id);
    },
  };
}
