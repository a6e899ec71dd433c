// SQL of the statistics tables (stats_events, stats_record_daily, stats_parent_daily, stats_totals,
// stats_state). Fixed statements the port caches: these run per event batch and per aggregated chunk.
import type { Db } from "../db/port";
import type { Counts, DayTotals, EventRow, NewEvent } from "./model";

/** Rows per INSERT statement: one statement for many events is several times cheaper than one each. */
const INSERT_ROWS = 64;
const insertSql = (rows: number) =>
  `INSERT INTO stats_events (kind, ts, record_id, parent_id, visitor, file_key, bytes, is_machine, record_key, visitor_key) VALUES ${Array(rows).fill("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`;
const FULL_INSERT = insertSql(INSERT_ROWS);

/** A string as a 52-bit number (wyhash): a map keyed by it holds no strings, and collisions are about 1 in 10^15 a pair. */
export const hash52 = (value: string) => Number(Bun.hash.wyhash(value) & 0xf_ffff_ffff_ffffn);

/** A visitor as a number: what the aggregation's sessions are keyed by. */
export const visitorKey = hash52;

// Record ids' keys never change once given: each process remembers those it has seen, per database
// (a transaction's `tx` shares the port's `database`).
const recordKeys = new WeakMap<object, Map<string, number>>();

const KEY_BATCH = 500;

/**
 * The record ids' keys in stats_keys, added when new: many at once (two statements a batch of ids
 * this process has not seen). One id at a time was two round trips each on PostgreSQL, inside the
 * write lock: 5.3 s for a batch of views of thousands of records, every other write waiting.
 */
async function recordKeysOf(db: Db, recordIds: Iterable<string>): Promise<Map<string, number>> {
  let known = recordKeys.get(db.database);
  if (!known) recordKeys.set(db.database, (known = new Map()));
  const keys = new Map<string, number>();
  const missing: string[] = [];
  for (const id of recordIds) {
    const key = known.get(id);
    if (key === undefined) missing.push(id);
    else keys.set(id, key);
  }
  for (let start = 0; start < missing.length; start += KEY_BATCH) {
    const ids = missing.slice(start, start + KEY_BATCH);
    const marks = ids.map(() => "(?)").join(", ");
    await db.statements.run(`INSERT INTO stats_keys (value) VALUES ${marks} ON CONFLICT (value) DO NOTHING`, ids);
    const rows = await db.statements.all<{ key: number; value: string }>(`SELECT key, value FROM stats_keys WHERE value IN (${ids.map(() => "?").join(", ")})`, ids);
    if (known.size + rows.length > 100_000) known.clear();
    for (const { key, value } of rows) {
      known.set(value, key);
      keys.set(value, key);
    }
  }
  return keys;
}

/** The record id of a key of stats_keys. */
export const findRecordOfKey = async (db: Db, key: number) => (await db.statements.get<{ value: string }>("SELECT value FROM stats_keys WHERE key = ?", [key]))!.value;

export async function insertEvents(db: Db, events: NewEvent[]) {
  await db.write(async (tx) => {
    // Keys first (queries only for records this process has not seen), so the rows are built without waiting.
    const keys = await recordKeysOf(tx, new Set(events.map((e) => e.recordId)));
    for (let start = 0; start < events.length; start += INSERT_ROWS) {
      const rows = Math.min(INSERT_ROWS, events.length - start);
      const values: (string | number | null)[] = [];
      for (let i = start; i < start + rows; i++) {
        const e = events[i]!;
        values.push(e.kind, e.ts, e.recordId, e.parentId, e.visitor, e.fileKey, e.bytes, e.isMachine ? 1 : 0, keys.get(e.recordId)!, visitorKey(e.visitor));
      }
      // Full statements are prepared once and cached; only a batch's last, shorter one varies.
      await tx.statements.run(rows === INSERT_ROWS ? FULL_INSERT : insertSql(rows), values);
    }
  });
}

export async function readState(db: Db, key: string): Promise<string | null> {
  return (await db.statements.get<{ value: string }>("SELECT value FROM stats_state WHERE key = ?", [key]))?.value ?? null;
}

export async function writeState(db: Db, key: string, value: string) {
  await db.statements.run("INSERT INTO stats_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]);
}

/** Keeps an existing value (another process may have written it first); returns the stored one. */
export async function insertStateIfMissing(db: Db, key: string, value: string): Promise<string> {
  await db.statements.run("INSERT INTO stats_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", [key, value]);
  return (await readState(db, key))!;
}

/** Deletes the state rows whose key starts with `prefix`, except those named in `keep`. */
export async function deleteStatesLike(db: Db, prefix: string, keep: string[]) {
  await db.statements.run(`DELETE FROM stats_state WHERE key LIKE ? || '%' AND key NOT IN (${keep.map(() => "?").join(", ") || "NULL"})`, [prefix, ...keep]);
}

/** Events after the watermark, oldest first (parents: findEventParent). */
export const listEventsAfter = (db: Db, afterId: number, limit: number) =>
  db.statements.all<EventRow>(`SELECT id, kind, ts, record_key, visitor_key, bytes, is_machine FROM stats_events WHERE id > ? ORDER BY id LIMIT ?`, [afterId, limit]);

/** The parent of an event's record. */
export const findEventParent = async (db: Db, id: number) => (await db.statements.get<{ parent_id: string }>("SELECT parent_id FROM stats_events WHERE id = ?", [id]))!.parent_id;

/** Already aggregated events of one hour. */
export const listAggregatedInHour = (db: Db, from: number, to: number, maxId: number) =>
  db.statements.all<Pick<EventRow, "id" | "kind" | "record_key" | "visitor_key">>(
    `SELECT id, kind, record_key, visitor_key FROM stats_events WHERE ts >= ? AND ts < ? AND id <= ?`,
    [from, to, maxId],
  );

const COUNT_COLUMNS = "views, unique_views, downloads, unique_downloads, volume";
// The table is `t` (INSERT INTO … AS t): PostgreSQL reads a bare column in DO UPDATE as ambiguous with excluded's.
const ADD_COUNTS =
  "views = t.views + excluded.views, unique_views = t.unique_views + excluded.unique_views, downloads = t.downloads + excluded.downloads, unique_downloads = t.unique_downloads + excluded.unique_downloads, volume = t.volume + excluded.volume";
const countValues = (c: Counts) => [c.views, c.uniqueViews, c.downloads, c.uniqueDownloads, c.volume];

/** Rows per upsert statement: binding many rows per call halves the cost of the totals' writes. */
const UPSERT_ROWS = 32;

/** Runs `INSERT INTO <into> VALUES (...), ... <conflict>` over rows of `width` values, UPSERT_ROWS at a time. */
async function upsertRows(db: Db, into: string, width: number, conflict: string, rows: (string | number)[][]) {
  const row = `(${Array(width).fill("?").join(", ")})`;
  const sql = (n: number) => `INSERT INTO ${into} VALUES ${Array(n).fill(row).join(", ")} ${conflict}`;
  const full = sql(UPSERT_ROWS);
  for (let start = 0; start < rows.length; start += UPSERT_ROWS) {
    const n = Math.min(UPSERT_ROWS, rows.length - start);
    const values: (string | number)[] = [];
    for (let i = start; i < start + n; i++) for (const v of rows[i]!) values.push(v);
    await db.statements.run(n === UPSERT_ROWS ? full : sql(n), values);
  }
}

/** Adds one batch's daily deltas and the same amounts to the all-time totals. */
export async function addDeltas(db: Db, records: DayTotals[], parents: DayTotals[]) {
  await upsertRows(
    db,
    `stats_record_daily AS t (record_id, day, parent_id, ${COUNT_COLUMNS}, unique_investigations, machine_downloads, machine_unique_downloads, machine_volume)`,
    12,
    `ON CONFLICT (record_id, day) DO UPDATE SET ${ADD_COUNTS}, unique_investigations = t.unique_investigations + excluded.unique_investigations, machine_downloads = t.machine_downloads + excluded.machine_downloads,
       machine_unique_downloads = t.machine_unique_downloads + excluded.machine_unique_downloads, machine_volume = t.machine_volume + excluded.machine_volume`,
    records.map((r) => [r.id, r.day, r.parentId, ...countValues(r), r.uniqueInvestigations, r.machineDownloads, r.machineUniqueDownloads, r.machineVolume]),
  );
  await upsertRows(
    db,
    `stats_parent_daily AS t (parent_id, day, ${COUNT_COLUMNS})`,
    7,
    `ON CONFLICT (parent_id, day) DO UPDATE SET ${ADD_COUNTS}`,
    parents.map((p) => [p.id, p.day, ...countValues(p)]),
  );
  const totals = [...Array.from(sumById(records), ([id, c]) => ["record", id, ...countValues(c)]), ...Array.from(sumById(parents), ([id, c]) => ["parent", id, ...countValues(c)])];
  await upsertRows(db, `stats_totals AS t (scope, id, ${COUNT_COLUMNS})`, 7, `ON CONFLICT (scope, id) DO UPDATE SET ${ADD_COUNTS}`, totals);
}

/** The days' totals summed per id: one all-time update per record or parent. `days` come grouped by id (key order). */
function sumById(days: DayTotals[]): Map<string, Counts> {
  const sums = new Map<string, Counts>();
  let s: Counts | null = null;
  let id: string | null = null;
  for (const d of days) {
    if (d.id !== id || !s) {
      id = d.id;
      s = sums.get(id) ?? null;
      if (!s) sums.set(id, (s = { views: 0, uniqueViews: 0, downloads: 0, uniqueDownloads: 0, volume: 0 }));
    }
    s.views += d.views;
    s.uniqueViews += d.uniqueViews;
    s.downloads += d.downloads;
    s.uniqueDownloads += d.uniqueDownloads;
    s.volume += d.volume;
  }
  return sums;
}

const ZERO: Counts = { views: 0, uniqueViews: 0, downloads: 0, uniqueDownloads: 0, volume: 0 };
const SELECT_COUNTS = "views, unique_views AS uniqueViews, downloads, unique_downloads AS uniqueDownloads, volume";

export async function findTotals(db: Db, scope: "record" | "parent", id: string): Promise<Counts> {
  return (await db.statements.get<Counts>(`SELECT ${SELECT_COUNTS} FROM stats_totals WHERE scope = ? AND id = ?`, [scope, id])) ?? ZERO;
}

/** Parents' all-version unique views and downloads: what the popularity sorts order by. */
export async function listParentPopularity(db: Db, parentIds: string[] | null) {
  type Row = { parentId: string; views: number; downloads: number };
  const sql = "SELECT id AS parentId, unique_views AS views, unique_downloads AS downloads FROM stats_totals WHERE scope = 'parent'";
  if (parentIds === null) return db.statements.all<Row>(sql);
  const rows: Row[] = [];
  for (const id of parentIds) {
    const row = await db.statements.get<Row>(`${sql} AND id = ?`, [id]);
    if (row) rows.push(row);
  }
  return rows;
}

/** Sums of a record's (or parent's) daily rows between two days (inclusive; null = open). */
export async function sumDaily(db: Db, scope: "record" | "parent", id: string, from: string | null, to: string | null): Promise<Counts> {
  const table = scope === "record" ? "stats_record_daily" : "stats_parent_daily";
  const column = scope === "record" ? "record_id" : "parent_id";
  const sums =
    "coalesce(sum(views), 0) AS views, coalesce(sum(unique_views), 0) AS uniqueViews, coalesce(sum(downloads), 0) AS downloads, coalesce(sum(unique_downloads), 0) AS uniqueDownloads, coalesce(sum(volume), 0) AS volume";
  return (await db.statements.get<Counts>(`SELECT ${sums} FROM ${table} WHERE ${column} = ? AND day >= ? AND day <= ?`, [id, from ?? "0000-00-00", to ?? "9999-99-99"]))!;
}

export interface RecordDay extends Counts {
  recordId: string;
  parentId: string;
  day: string;
  uniqueInvestigations: number;
  machineDownloads: number;
  machineUniqueDownloads: number;
  machineVolume: number;
}

/** Daily rows of every record between two days, by record then day (the export). */
export const listRecordDays = (db: Db, from: string, to: string) =>
  db.statements.all<RecordDay>(
    `SELECT record_id AS recordId, parent_id AS parentId, day, ${SELECT_COUNTS}, unique_investigations AS uniqueInvestigations, machine_downloads AS machineDownloads, machine_unique_downloads AS machineUniqueDownloads, machine_volume AS machineVolume
       FROM stats_record_daily WHERE day >= ? AND day <= ? ORDER BY record_id, day`,
    [from, to],
  );

/** Deletes aggregated events older than `before`; returns how many. */
export async function deleteEventsBefore(db: Db, before: number, maxId: number): Promise<number> {
  return (await db.statements.run("DELETE FROM stats_events WHERE ts < ? AND id <= ?", [before, maxId])).changes;
}

/** Every record's views and downloads summed per day between two days (inclusive): the Statistics screen's series. */
export const listDailySums = (db: Db, from: string, to: string) =>
  db.statements.all<{ day: string; views: number; downloads: number }>(
    "SELECT day, sum(views) AS views, sum(downloads) AS downloads FROM stats_record_daily WHERE day >= ? AND day <= ? GROUP BY day ORDER BY day",
    [from, to],
  );

// One fixed statement per ordering (a column cannot be bound): most viewed, most downloaded.
const TOP_SQL = {
  views:
    "SELECT record_id AS recordId, sum(views) AS count FROM stats_record_daily WHERE day >= ? AND day <= ? GROUP BY record_id HAVING sum(views) > 0 ORDER BY count DESC, record_id LIMIT ?",
  downloads:
    "SELECT record_id AS recordId, sum(downloads) AS count FROM stats_record_daily WHERE day >= ? AND day <= ? GROUP BY record_id HAVING sum(downloads) > 0 ORDER BY count DESC, record_id LIMIT ?",
};

/** The record versions with the most views (or downloads) between two days, most first. */
export const listTopRecords = (db: Db, by: "views" | "downloads", from: string, to: string, limit: number) =>
  db.statements.all<{ recordId: string; count: number }>(TOP_SQL[by], [from, to, limit]);
