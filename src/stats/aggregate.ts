// Folds raw events into daily totals per record and per parent, in chunks after a watermark: each
// chunk adds its deltas and moves the watermark in one transaction, so a run stopped half way
// resumes where it stopped and nothing is counted twice. A unique view or download is the first
// of its visitor-session (visitor + clock hour) for the record, or for the parent across versions.
import { formatDate } from "../core/time";
import type { Db } from "../db/connection";
import { VIEW, type DayTotals, type EventRow } from "./model";
import * as store from "./store";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const WATERMARK = "aggregation_watermark";
export const DEFAULT_CHUNK = 50_000;

export interface Popularity {
  parentId: string;
  /** All versions' unique views and unique downloads. */
  views: number;
  downloads: number;
}

export interface AggregateResult {
  events: number;
  chunks: number;
  parents: number;
  watermark: number;
}

function dayTotals(map: Map<string, DayTotals>, id: string, day: number, parentId: string): DayTotals {
  const key = `${id}\u0000${day}`;
  let t = map.get(key);
  if (!t) {
    t = { id, day: formatDate(day * DAY_MS), parentId, views: 0, uniqueViews: 0, downloads: 0, uniqueDownloads: 0, volume: 0, uniqueInvestigations: 0, machineDownloads: 0, machineUniqueDownloads: 0, machineVolume: 0 };
    map.set(key, t);
  }
  return t;
}

function count(t: DayTotals, kind: number, unique: boolean, bytes: number, machine: boolean) {
  if (kind === VIEW) {
    t.views++;
    if (unique) t.uniqueViews++;
    return;
  }
  t.downloads++;
  t.volume += bytes;
  if (unique) t.uniqueDownloads++;
  if (machine) {
    t.machineDownloads++;
    t.machineVolume += bytes;
    if (unique) t.machineUniqueDownloads++;
  }
}

export function createAggregator(db: Db, onPopularity: (rows: Popularity[]) => void) {
  // Sessions already counted, per hour; exact for the watermark they were built at. Another
  // process aggregating (cairn jobs run) moves the watermark, and the sets are rebuilt from events.
  let built = -1;
  const hours = new Map<number, Set<string>>();

  function sessionsOf(hour: number, watermark: number): Set<string> {
    let set = hours.get(hour);
    if (!set) {
      set = new Set();
      for (const [kind, recordId, parentId, visitor] of store.listAggregatedInHour(db, hour * HOUR_MS, (hour + 1) * HOUR_MS, watermark)) {
        set.add(`r${kind}${recordId}\u0000${visitor}`);
        set.add(`p${kind}${parentId}\u0000${visitor}`);
        set.add(`i${recordId}\u0000${visitor}`);
      }
      hours.set(hour, set);
    }
    return set;
  }

  function fold(rows: EventRow[], watermark: number, touched: Set<number>) {
    const records = new Map<string, DayTotals>();
    const parents = new Map<string, DayTotals>();
    let hour = -1;
    let sessions: Set<string> | null = null;
    for (const [, kind, ts, recordId, parentId, visitor, bytes, machine] of rows) {
      const h = Math.floor(ts / HOUR_MS);
      if (h !== hour || !sessions) {
        hour = h;
        sessions = sessionsOf(h, watermark);
        touched.add(h);
      }
      const day = Math.floor(ts / DAY_MS);
      const recordKey = `r${kind}${recordId}\u0000${visitor}`;
      const parentKey = `p${kind}${parentId}\u0000${visitor}`;
      const recordUnique = !sessions.has(recordKey);
      if (recordUnique) sessions.add(recordKey);
      const parentUnique = !sessions.has(parentKey);
      if (parentUnique) sessions.add(parentKey);
      const investigationKey = `i${recordId}\u0000${visitor}`;
      const record = dayTotals(records, recordId, day, parentId);
      if (!sessions.has(investigationKey)) {
        sessions.add(investigationKey);
        record.uniqueInvestigations++;
      }
      count(record, kind, recordUnique, bytes, machine === 1);
      count(dayTotals(parents, parentId, day, parentId), kind, parentUnique, bytes, false);
    }
    return { records, parents };
  }

  /** One chunk in one transaction; null when nothing is left. */
  function aggregateChunk(limit: number, changedParents: Set<string>): number | null {
    const touched = new Set<number>();
    try {
      const done = db.$client.transaction(() => {
        const watermark = Number(store.readState(db, WATERMARK) ?? 0);
        if (built !== watermark) hours.clear();
        const rows = store.listEventsAfter(db, watermark, limit);
        if (rows.length === 0) return null;
        const { records, parents } = fold(rows, watermark, touched);
        store.addDeltas(db, records.values(), parents.values());
        const last = rows[rows.length - 1]![0];
        store.writeState(db, WATERMARK, String(last));
        for (const p of parents.values()) changedParents.add(p.id);
        return { last, count: rows.length };
      }).immediate();
      if (!done) return null;
      built = done.last;
      for (const h of hours.keys()) if (!touched.has(h)) hours.delete(h);
      return done.count;
    } catch (err) {
      built = -1; // the sets may hold sessions of the rolled-back chunk
      hours.clear();
      throw err;
    }
  }

  return {
    /** Aggregates everything after the watermark (or `maxChunks` chunks); stops between chunks when aborted. Safe to run twice at once. */
    async run(options: { chunk?: number; maxChunks?: number; signal?: AbortSignal } = {}): Promise<AggregateResult> {
      const changed = new Set<string>();
      let events = 0;
      let chunks = 0;
      while (!options.signal?.aborted && chunks < (options.maxChunks ?? Infinity)) {
        const n = aggregateChunk(options.chunk ?? DEFAULT_CHUNK, changed);
        if (n === null) break;
        events += n;
        chunks++;
        // A long backlog lets requests through between chunks.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (changed.size) onPopularity(store.listParentPopularity(db, [...changed]));
      return { events, chunks, parents: changed.size, watermark: Number(store.readState(db, WATERMARK) ?? 0) };
    },

    /** Deletes aggregated events older than the retention period. */
    prune(now: number, retentionDays: number) {
      const watermark = Number(store.readState(db, WATERMARK) ?? 0);
      return { deleted: store.deleteEventsBefore(db, now - retentionDays * DAY_MS, watermark) };
    },
  };
}

export type Aggregator = ReturnType<typeof createAggregator>;
