// The items of an OAI-PMH list: public records and tombstones merged in one (datestamp, id)
// order, selected by date range and set, paged by position so each appears exactly once.
import type { Db } from "../db/port";
import type { RecordsService } from "../records/service";
import * as store from "./store";

export type HarvestRecords = Pick<RecordsService, "listHarvestable" | "countHarvestable" | "selectedRecordIds" | "earliestHarvestable" | "findHarvestHeader" | "readPublicRecords">;

export interface Item {
  id: string;
  datestamp: number;
  deleted: boolean;
}

export interface Selection {
  /** Query strings of the requested set and its sub-sets; undefined: no set asked. */
  patterns?: string[];
  from?: number;
  until?: number;
}

const TOMBSTONE_BATCH = 500;

const before = (a: Item, b: Item) => a.datestamp < b.datestamp || (a.datestamp === b.datestamp && a.id < b.id);

export function createListing(db: Db, records: HarvestRecords) {
  /** Up to `limit` tombstones after `after` whose records the set selects (all, without a set). */
  async function nextTombstones(selection: Selection, after: [number, string] | null, limit: number): Promise<Item[]> {
    const out: Item[] = [];
    let position = after;
    for (;;) {
      const batch = await store.listTombstones(db, selection, position, selection.patterns ? TOMBSTONE_BATCH : limit);
      const kept = selection.patterns
        ? await records.selectedRecordIds(
            batch.map((t) => t.recordId),
            selection.patterns,
          )
        : null;
      for (const t of batch) if (!kept || kept.has(t.recordId)) out.push({ id: t.recordId, datestamp: t.datestamp, deleted: true });
      if (out.length >= limit || batch.length < TOMBSTONE_BATCH || !selection.patterns) return out.slice(0, limit);
      const last = batch[batch.length - 1]!;
      position = [last.datestamp, last.recordId];
    }
  }

  return {
    /** The next `limit` items after `after`, records and tombstones merged. */
    async nextItems(selection: Selection, after: [number, string] | null, limit: number): Promise<Item[]> {
      const filter = { patterns: selection.patterns, fromMs: selection.from, untilMs: selection.until };
      const live: Item[] = (await records.listHarvestable(filter, after && { updated: after[0], id: after[1] }, limit)).map((r) => ({
        id: r.id,
        datestamp: r.updated,
        deleted: false,
      }));
      const dead = await nextTombstones(selection, after, limit);
      if (dead.length === 0) return live;
      const merged: Item[] = [];
      let i = 0;
      let j = 0;
      while (merged.length < limit && (i < live.length || j < dead.length)) {
        if (j >= dead.length || (i < live.length && before(live[i]!, dead[j]!))) merged.push(live[i++]!);
        else merged.push(dead[j++]!);
      }
      return merged;
    },

    /** completeListSize: every item the selection holds. */
    async countItems(selection: Selection): Promise<number> {
      const live = await records.countHarvestable({ patterns: selection.patterns, fromMs: selection.from, untilMs: selection.until });
      let dead = 0;
      let after: [number, string] | null = null;
      for (;;) {
        const batch = await nextTombstones(selection, after, TOMBSTONE_BATCH);
        dead += batch.length;
        if (batch.length < TOMBSTONE_BATCH) return live + dead;
        const last = batch[batch.length - 1]!;
        after = [last.datestamp, last.id];
      }
    },

    /** One item by record id: public, a tombstone, or null (never public, or unknown). */
    async findItem(id: string): Promise<Item | null> {
      const header = await records.findHarvestHeader(id);
      if (header?.isPublic) return { id, datestamp: header.updated, deleted: false };
      const tombstone = await store.findTombstone(db, id);
      return tombstone ? { id, datestamp: tombstone.datestamp, deleted: true } : null;
    },

    async earliestDatestamp(): Promise<number | null> {
      const times = [await records.earliestHarvestable(), await store.earliestTombstone(db)].filter((t): t is number => t !== null);
      return times.length ? Math.min(...times) : null;
    },
  };
}

export type Listing = ReturnType<typeof createListing>;
