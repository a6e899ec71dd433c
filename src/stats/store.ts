// SQL of the statistics tables (stats_events, stats_record_daily, stats_parent_daily, stats_totals,
// stats_state). Raw prepared statements: these run per event batch and per aggregated chunk.
import type { Db } from "../db/connection";
import type { Counts, DayTotals, EventRow, NewEvent } from "./model";

export function insertEvents(db: Db, events: NewEvent[]) {
  const insert = db.$client.query("INSERT INTO stats_events (kind, ts, record_id, parent_id, visitor, file_key, bytes, is_machine) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  db.$client.transaction(() => {
    for (const e of events) insert.run(e.kind, e.ts, e.recordId, e.parentId, e.visitor, e.fileKey, e.bytes, e.isMachine ? 1 : 0);
  }).immediate();
}

export function readState(db: Db, key: string): string | null {
  return db.$client.query<{ value: string }, [string]>("SELECT value FROM stats_state WHERE key = ?").get(key)?.value ?? null;
}

export function writeState(db: Db, key: string, value: string) {
  db.$client.query("INSERT INTO stats_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value);
}

/** Keeps an existing value (another process may have written it first); returns the stored one. */
export function insertStateIfMissing(db: Db, key: string, value: string): string {
  db.$client.query("INSERT OR IGNORE INTO stats_state (key, value) VALUES (?, ?)").run(key, value);
  return readState(db, key)!;
}

export function deleteStatesLike(db: Db, prefix: string, keep: string[]) {
  const rows = db.$client.query<{ key: string }, [string]>("SELECT key FROM stats_state WHERE key LIKE ? || '%'").all(prefix);
  for (const { key } of rows) if (!keep.includes(key)) db.$client.query("DELETE FROM stats_state WHERE key = ?").run(key);
}

/** Events after the watermark, oldest first, as arrays: [id, kind, ts, record_id, visitor, bytes, is_machine] (parents: findEventParent). */
export const listEventsAfter = (db: Db, afterId: number, limit: number) =>
  db.$client.query("SELECT id, kind, ts, record_id, visitor, bytes, is_machine FROM stats_events WHERE id > ? ORDER BY id LIMIT ?").values(afterId, limit) as unknown as EventRow[];

/** The parent of an event's record. */
export const findEventParent = (db: Db, id: number) => (db.$client.query("SELECT parent_id FROM stats_events WHERE id = ?").values(id) as string[][])[0]![0]!;

/** Already aggregated events of one hour: [id, kind, record_id, visitor]. */
export const listAggregatedInHour = (db: Db, from: number, to: number, maxId: number) =>
  db.$client.query("SELECT id, kind, record_id, visitor FROM stats_events WHERE ts >= ? AND ts < ? AND id <= ?").values(from, to, maxId) as unknown as [number, number, string, string][];

const COUNT_COLUMNS = "views, unique_views, downloads, unique_downloads, volume";
const ADD_COUNTS = "views = views + excluded.views, unique_views = unique_views + excluded.unique_views, downloads = downloads + excluded.downloads, unique_downloads = unique_downloads + excluded.unique_downloads, volume = volume + excluded.volume";
const countValues = (c: Counts) => [c.views, c.uniqueViews, c.downloads, c.uniqueDownloads, c.volume];

/** Adds one chunk's daily deltas and the same amounts to the all-time totals. */
export function addDeltas(db: Db, records: DayTotals[], parents: DayTotals[]) {
  const recordDaily = db.$client.query(
    `INSERT INTO stats_record_daily (record_id, day, parent_id, ${COUNT_COLUMNS}, unique_investigations, machine_downloads, machine_unique_downloads, machine_volume) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (record_id, day) DO UPDATE SET ${ADD_COUNTS}, unique_investigations = unique_investigations + excluded.unique_investigations, machine_downloads = machine_downloads + excluded.machine_downloads,
       machine_unique_downloads = machine_unique_downloads + excluded.machine_unique_downloads, machine_volume = machine_volume + excluded.machine_volume`,
  );
  const parentDaily = db.$client.query(`INSERT INTO stats_parent_daily (parent_id, day, ${COUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (parent_id, day) DO UPDATE SET ${ADD_COUNTS}`);
  const totals = db.$client.query(`INSERT INTO stats_totals (scope, id, ${COUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, id) DO UPDATE SET ${ADD_COUNTS}`);
  for (const r of records) recordDaily.run(r.id, r.day, r.parentId, ...countValues(r), r.uniqueInvestigations, r.machineDownloads, r.machineUniqueDownloads, r.machineVolume);
  for (const p of parents) parentDaily.run(p.id, p.day, ...countValues(p));
  for (const [id, c] of sumById(records)) totals.run("record", id, ...countValues(c));
  for (const [id, c] of sumById(parents)) totals.run("parent", id, ...countValues(c));
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

export function findTotals(db: Db, scope: "record" | "parent", id: string): Counts {
  return db.$client.query<Counts, [string, string]>(`SELECT ${SELECT_COUNTS} FROM stats_totals WHERE scope = ? AND id = ?`).get(scope, id) ?? ZERO;
}

/** Parents' all-version unique views and downloads: what the popularity sorts order by. */
export function listParentPopularity(db: Db, parentIds: string[] | null) {
  type Row = { parentId: string; views: number; downloads: number };
  const sql = "SELECT id AS parentId, unique_views AS views, unique_downloads AS downloads FROM stats_totals WHERE scope = 'parent'";
  if (parentIds === null) return db.$client.query<Row, []>(sql).all();
  const rows: Row[] = [];
  const one = db.$client.query<Row, [string]>(`${sql} AND id = ?`);
  for (const id of parentIds) {
    const row = one.get(id);
    if (row) rows.push(row);
  }
  return rows;
}

/** Sums of a record's (or parent's) daily rows between two days (inclusive; null = open). */
export function sumDaily(db: Db, scope: "record" | "parent", id: string, from: string | null, to: string | null): Counts {
  const table = scope === "record" ? "stats_record_daily" : "stats_parent_daily";
  const column = scope === "record" ? "record_id" : "parent_id";
  const sums = "coalesce(sum(views), 0) AS views, coalesce(sum(unique_views), 0) AS uniqueViews, coalesce(sum(downloads), 0) AS downloads, coalesce(sum(unique_downloads), 0) AS uniqueDownloads, coalesce(sum(volume), 0) AS volume";
  return db.$client
    .query<Counts, [string, string, string]>(`SELECT ${sums} FROM ${table} WHERE ${column} = ? AND day >= ? AND day <= ?`)
    .get(id, from ?? "0000-00-00", to ?? "9999-99-99")!;
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
  db.$client
    .query<RecordDay, [string, string]>(
      `SELECT record_id AS recordId, parent_id AS parentId, day, ${SELECT_COUNTS}, unique_investigations AS uniqueInvestigations, machine_downloads AS machineDownloads, machine_unique_downloads AS machineUniqueDownloads, machine_volume AS machineVolume
       FROM stats_record_daily WHERE day >= ? AND day <= ? ORDER BY record_id, day`,
    )
    .all(from, to);

/** Deletes aggregated events older than `before`; returns how many. */
export function deleteEventsBefore(db: Db, before: number, maxId: number): number {
  return db.$client.query("DELETE FROM stats_events WHERE ts < ? AND id <= ?").run(before, maxId).changes;
}
