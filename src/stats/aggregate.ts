// Folds raw events into daily totals per record and per parent after a watermark. Events are read
// in chunks and folded in memory; a batch of chunks is written with the new watermark in one
// transaction, and only if the watermark is still the one the batch started from. So a run stopped
// half way resumes where its last batch ended, two runs never count an event twice, and re-running
// adds nothing. A unique view or download is the first of its visitor-session (visitor + clock
// hour) for the record, or for the parent across its versions.
import { DAY_MS, formatDate, HOUR_MS } from "../core/time";
import type { Db } from "../db/port";
import { withPageCache } from "../db/sqlite/connection";
import { VIEW, type DayTotals, type EventRow } from "./model";
import * as store from "./store";

/** stats_state's key of the time up to which events are folded in: it moves with every aggregation, by any process. */
export const WATERMARK = "aggregation_watermark";
const DEFAULT_CHUNK = 50_000;
/** A batch is written once it holds this many distinct (item, day) totals or events (memory bound, ~300 MB). */
const MAX_PENDING = 800_000;
const MAX_BATCH_EVENTS = 2_000_000;
/** SQLite page cache while a big batch is written (128 MiB). */
const BIG_BATCH_CACHE_KIB = 131_072;
// Session keys are numbers: (visitor * 8 + scope * 2 + kind) * ITEMS + item, below 2^53 (visitors
// are coded per hour, so far fewer than 2^28).
const ITEMS = 2 ** 22;
const SCOPE_RECORD = 0;
const SCOPE_PARENT = 1;
const SCOPE_INVESTIGATION = 2;

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

export interface RunOptions {
  /** Hold the changed parents' popularity back until a run without it (the timer's frequent small runs). */
  deferPopularity?: boolean;
  chunk?: number;
  maxChunks?: number;
  signal?: AbortSignal;
}

/** Ids -> small integers, so session and totals keys are numbers rather than built strings. */
function interner<T = string>() {
  const codes = new Map<T, number>();
  const values: T[] = [];
  return {
    code(value: T): number {
      let c = codes.get(value);
      if (c === undefined) {
        codes.set(value, (c = values.length));
        values.push(value);
      }
      return c;
    },
    value: (code: number) => values[code]!,
    get size() {
      return codes.size;
    },
  };
}

/**
 * One clock hour's counted sessions. Visitors are coded per hour: a session never spans hours, and
 * an hour's few thousand visitors make a small, cache-friendly map (a million-entry map of every
 * visitor cost more than the rest of the fold).
 */
interface HourSessions {
  visitors: ReturnType<typeof interner<number>>;
  sessions: Set<number>;
}

/**
 * A batch's totals: per day (since the epoch), an array indexed by item code. Events come in time
 * order, so the fold finds a day's array once and then indexes it (a map keyed by item and day
 * cost twice as much).
 */
class Totals {
  readonly days = new Map<number, (DayTotals | undefined)[]>();
  size = 0;
  private lastDay = -1;
  private last: (DayTotals | undefined)[] = [];

  /** The day's array, at least `items` long (filled, so it stays a dense array). */
  day(day: number, items: number): (DayTotals | undefined)[] {
    if (day !== this.lastDay) {
      let found = this.days.get(day);
      if (!found) this.days.set(day, (found = []));
      this.lastDay = day;
      this.last = found;
    }
    while (this.last.length < items) this.last.push(undefined);
    return this.last;
  }
}

/** `YYYY-MM-DD` of a day number, formatted once per day rather than once per totals row. */
const dayNames = new Map<number, string>();
function dayName(day: number): string {
  let name = dayNames.get(day);
  if (name === undefined) dayNames.set(day, (name = formatDate(day * DAY_MS)));
  return name;
}

function newTotals(id: string, day: number, parentId: string): DayTotals {
  return {
    id,
    day: dayName(day),
    parentId,
    views: 0,
    uniqueViews: 0,
    downloads: 0,
    uniqueDownloads: 0,
    volume: 0,
    uniqueInvestigations: 0,
    machineDownloads: 0,
    machineUniqueDownloads: 0,
    machineVolume: 0,
  };
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

/**
 * The batch's totals in the tables' key order (id, day), so the B-tree writes stay local (twice as
 * fast as random): the ids present sorted once, then each id's days in order.
 */
function inKeyOrder(totals: Totals, names: (code: number) => string, codeOf: (name: string) => number): DayTotals[] {
  const days = [...totals.days.keys()].sort((a, b) => a - b).map((d) => totals.days.get(d)!);
  const present = new Set<number>();
  for (const day of days) day.forEach((t, code) => t && present.add(code));
  const out: DayTotals[] = [];
  for (const name of Array.from(present, names).sort()) {
    const code = codeOf(name);
    for (const day of days) {
      const t = day[code];
      if (t) out.push(t);
    }
  }
  return out;
}

export function createAggregator(db: Db, onPopularity: (rows: Popularity[]) => void | Promise<void>) {
  // Sessions already counted, per clock hour: exact for the watermark `built`. When another process
  // moved the watermark (cairn jobs run) everything is rebuilt from the stored events.
  let built = -1;
  let hours = new Map<number, HourSessions>();
  let items = interner();
  // Events carry record keys (stats_keys): each is coded once, with its record id and its parent's
  // code looked up then (a record version never changes parent), so events are read as numbers.
  let recordCodes = new Map<number, number>();
  let parentOf: number[] = [];
  let running: Promise<AggregateResult> | null = null;
  const deferred = new Set<string>();

  function reset() {
    built = -1;
    hours = new Map();
    items = interner();
    recordCodes = new Map();
    parentOf = [];
  }

  /**
   * Codes the records of these events that have none yet, reading their ids and their parents' (from
   * the event): the only queries the fold needs, made before it so that it runs without waiting.
   */
  async function codeRecords(events: readonly { id: number; record_key: number }[]) {
    for (const { id, record_key: key } of events) {
      if (recordCodes.has(key)) continue;
      const record = items.code(await store.findRecordOfKey(db, key));
      recordCodes.set(key, record);
      // A record version never changes parent.
      if (parentOf[record] === undefined) parentOf[record] = items.code(await store.findEventParent(db, id));
    }
  }

  const sessionKey = (visitor: number, scope: number, kind: number, item: number) => ((visitor * 4 + scope) * 2 + kind) * ITEMS + item;

  /** Loads the sessions already counted in the hours of these events that are not known yet. */
  async function loadHours(rows: EventRow[], watermark: number) {
    let hour = -1;
    for (const { ts } of rows) {
      const h = Math.floor(ts / HOUR_MS);
      if (h === hour) continue;
      hour = h;
      if (hours.has(h)) continue;
      const aggregated = await store.listAggregatedInHour(db, h * HOUR_MS, (h + 1) * HOUR_MS, watermark);
      await codeRecords(aggregated);
      const known: HourSessions = { visitors: interner<number>(), sessions: new Set() };
      const set = known.sessions;
      for (const { kind, record_key: recordKey, visitor_key: visitorKey } of aggregated) {
        const visitor = known.visitors.code(visitorKey);
        const record = recordCodes.get(recordKey)!;
        set.add(sessionKey(visitor, SCOPE_RECORD, kind, record));
        set.add(sessionKey(visitor, SCOPE_PARENT, kind, parentOf[record]!));
        set.add(sessionKey(visitor, SCOPE_INVESTIGATION, 0, record));
      }
      hours.set(h, known);
    }
  }

  /** Adds events to the batch's daily totals; `touched` collects their hours. Their records and hours are loaded (codeRecords, loadHours). */
  function fold(rows: EventRow[], batch: { records: Totals; parents: Totals }, touched: Set<number>) {
    let hour = -1;
    let sessions = new Set<number>();
    let visitors = interner<number>();
    for (const { kind, ts, record_key: recordKey, visitor_key: visitorKey, bytes, is_machine: machine } of rows) {
      const h = Math.floor(ts / HOUR_MS);
      if (h !== hour) {
        hour = h;
        ({ sessions, visitors } = hours.get(h)!);
        touched.add(h);
      }
      const day = Math.floor(ts / DAY_MS);
      const visitor = visitors.code(visitorKey);
      const record = recordCodes.get(recordKey)!;
      const parent = parentOf[record]!;
      const recordSession = sessionKey(visitor, SCOPE_RECORD, kind, record);
      const recordUnique = !sessions.has(recordSession);
      if (recordUnique) sessions.add(recordSession);
      const parentSession = sessionKey(visitor, SCOPE_PARENT, kind, parent);
      const parentUnique = !sessions.has(parentSession);
      if (parentUnique) sessions.add(parentSession);
      const investigation = sessionKey(visitor, SCOPE_INVESTIGATION, 0, record);
      const newInvestigation = !sessions.has(investigation);
      if (newInvestigation) sessions.add(investigation);

      const recordDay = batch.records.day(day, items.size);
      let r = recordDay[record];
      if (!r) {
        recordDay[record] = r = newTotals(items.value(record), day, items.value(parent));
        batch.records.size++;
      }
      if (newInvestigation) r.uniqueInvestigations++;
      count(r, kind, recordUnique, bytes, machine === 1);
      const parentDay = batch.parents.day(day, items.size);
      let p = parentDay[parent];
      if (!p) {
        const parentId = items.value(parent);
        parentDay[parent] = p = newTotals(parentId, day, parentId);
        batch.parents.size++;
      }
      count(p, kind, parentUnique, bytes, false);
    }
  }

  /** Writes a batch if the watermark is still `from`; false when another run got there first. */
  async function commit(from: number, to: number, batch: { records: Totals; parents: Totals }): Promise<boolean> {
    // Big batches update rows all over the daily tables: a larger page cache for the write saves
    // re-reading pages from the OS (SQLite's default is 2 MB).
    if (batch.records.size > 10_000) return withPageCache(db, BIG_BATCH_CACHE_KIB, () => write(from, to, batch));
    return write(from, to, batch);
  }

  function write(from: number, to: number, batch: { records: Totals; parents: Totals }): Promise<boolean> {
    return db.write(async (tx) => {
      if (Number((await store.readState(tx, WATERMARK)) ?? 0) !== from) return false;
      const order = (totals: Totals) => inKeyOrder(totals, items.value, items.code);
      await store.addDeltas(tx, order(batch.records), order(batch.parents));
      await store.writeState(tx, WATERMARK, String(to));
      return true;
    });
  }

  async function runBatches(options: RunOptions): Promise<AggregateResult> {
    const changed = new Set<string>();
    let events = 0;
    let chunks = 0;
    const more = () => !options.signal?.aborted && chunks < (options.maxChunks ?? Infinity);
    while (more()) {
      const from = Number((await store.readState(db, WATERMARK)) ?? 0);
      if (built !== from) reset();
      const batch = { records: new Totals(), parents: new Totals() };
      const touched = new Set<number>();
      let cursor = from;
      let read = 0;
      try {
        while (more() && batch.records.size < MAX_PENDING && read < MAX_BATCH_EVENTS) {
          const rows = await store.listEventsAfter(db, cursor, options.chunk ?? DEFAULT_CHUNK);
          if (rows.length === 0) break;
          await loadHours(rows, from);
          await codeRecords(rows);
          fold(rows, batch, touched);
          cursor = rows[rows.length - 1]!.id;
          read += rows.length;
          chunks++;
          // A long backlog lets requests through between chunks.
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (read === 0) break;
        if (!(await commit(from, cursor, batch))) {
          reset(); // another process aggregated these events: start again from its watermark
          continue;
        }
      } catch (err) {
        reset(); // the sets may hold sessions of events that were not written
        throw err;
      }
      events += read;
      built = cursor;
      for (const day of batch.parents.days.values()) for (const p of day) if (p) changed.add(p.id);
      // Events come about in time order: only the last hours are kept (an older one is rebuilt from
      // the stored events if a late event needs it), which bounds the memory of a long backlog.
      const latest = Math.max(...touched);
      for (const h of hours.keys()) if (h < latest - 1) hours.delete(h);
      // Codes must stay below their key widths: a batch adds fewer than MAX_BATCH_EVENTS of each.
      if (items.size >= ITEMS / 2) reset();
    }
    for (const id of changed) deferred.add(id);
    if (deferred.size && !options.deferPopularity) {
      await onPopularity(await store.listParentPopularity(db, [...deferred]));
      deferred.clear();
    }
    return { events, chunks, parents: changed.size, watermark: Number((await store.readState(db, WATERMARK)) ?? 0) };
  }

  return {
    /** Aggregates everything after the watermark (or `maxChunks` chunks); stops between chunks when aborted. One run at a time per process. */
    async run(options: RunOptions = {}): Promise<AggregateResult> {
      while (running) await running.catch(() => {});
      running = runBatches(options);
      try {
        return await running;
      } finally {
        running = null;
      }
    },

    /** Deletes aggregated events older than the retention period. */
    async prune(now: number, retentionDays: number) {
      const watermark = Number((await store.readState(db, WATERMARK)) ?? 0);
      return { deleted: await store.deleteEventsBefore(db, now - retentionDays * DAY_MS, watermark) };
    },
  };
}
