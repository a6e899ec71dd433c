// The all-time counts records show as their `stats`, read on every record read. Built before the
// records service (which shows them) and handed to the statistics service (which changes them):
// all-time totals change only when this process aggregates, so they are served from memory
// until then.
import { andThen, whenAll } from "../core/settled";
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
  /** The counts kept in memory, or a read of them that keeps them. */
  const cached = (scope: "record" | "parent", id: string): Counts | Promise<Counts> => totals[scope].get(id) ?? read(scope, id);
  async function read(scope: "record" | "parent", id: string): Promise<Counts> {
    const before = generation;
    const found = await store.findTotals(db, scope, id);
    if (before === generation) {
      const known = totals[scope];
      if (known.size >= MAX_CACHED) known.clear();
      known.set(id, found);
    }
    return found;
  }

  return {
    /** `stats` of a published record: this version and all versions, all time; at once when both are in memory (most reads). */
    recordStats(recordId: string, parentId: string): Record<string, unknown> | Promise<Record<string, unknown>> {
      return andThen(whenAll([cached("record", recordId), cached("parent", parentId)] as const), ([version, all]) => presentRecordStats(version, all));
    },

    /** Forgets what was read: called after every aggregation run. */
    clear() {
      generation++;
      totals.record.clear();
      totals.parent.clear();
    },
  };
}
