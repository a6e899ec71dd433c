// The all-time counts records show as their `stats`, read on every record read. Built before the
// records service (which shows them) and handed to the statistics service (which changes them):
// all-time totals change only when this process aggregates, so they are served from memory
// until then.
import type { Db } from "../db/port";
import type { Counts } from "./model";
import { presentRecordStats } from "./present";
import * as store from "./store";

/** Ids kept per scope before the cache starts over (a bound on memory, not a tuning knob). */
const MAX_CACHED = 25_000;

export type StatsTotals = ReturnType<typeof createStatsTotals>;

export function createStatsTotals(db: Db) {
  // One map per scope, keyed by the id itself: a built `scope:id` key cost more than the lookup.
  const totals = { record: new Map<string, Counts>(), parent: new Map<string, Counts>() };
  // Bumped by clear(): a read that was under way across it may hold counts from before, not kept.
  let generation = 0;
  const cached = async (scope: "record" | "parent", id: string) => {
    const known = totals[scope];
    let found = known.get(id);
    if (!found) {
      const before = generation;
      found = await store.findTotals(db, scope, id);
      if (before === generation) {
        if (known.size >= MAX_CACHED) known.clear();
        known.set(id, found);
      }
    }
    return found;
  };

  return {
    /** `stats` of a published record: this version and all versions, all time. */
    recordStats: async (recordId: string, parentId: string) => presentRecordStats(await cached("record", recordId), await cached("parent", parentId)),

    /** Forgets what was read: called after every aggregation run. */
    clear() {
      generation++;
      totals.record.clear();
      totals.parent.clear();
    },
  };
}
