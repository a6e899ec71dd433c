// Published records for OAI-PMH harvesting on SQLite: the statements of ../harvest.ts, run on the
// connection, with set query strings compiled to FTS5 and SQL.
import type { SqliteDb } from "../../../db/sqlite/connection";
import { compileQuery } from "../../../search/sqlite/compile";
import type { RecordRow } from "../../store";
import * as sql from "../harvest";
import type { HarvestFilter, HarvestHit, HarvestKey } from "../index";
import { patternsNode } from "../patterns";
import { rowOf } from "./indexer";
import { expandRecordQuery, RECORD_SEARCH_SCHEMA } from "./schema";

/** One condition for several patterns; an empty pattern selects everything. */
function patternsSql(db: SqliteDb, patterns: string[] | undefined): sql.Sql {
  const node = patternsNode(patterns);
  if (node === "all") return { where: "1 = 1", params: [] };
  if (node === "none") return { where: "0 = 1", params: [] };
  const compiled = compileQuery(expandRecordQuery(db, node), RECORD_SEARCH_SCHEMA);
  return { where: compiled.where, params: compiled.params };
}

const all = <R>(db: SqliteDb, s: { sql: string; params: (string | number)[] }) => db.$client.query<R, (string | number)[]>(s.sql).all(...s.params);
const get = <R>(db: SqliteDb, s: { sql: string; params: (string | number)[] }) => db.$client.query<R, (string | number)[]>(s.sql).get(...s.params);

/** The next `limit` public records after `after`, in (updated, id) order. */
export const listHarvestable = (db: SqliteDb, filter: HarvestFilter, after: HarvestKey | null, limit: number): HarvestHit[] =>
  all<HarvestHit>(db, sql.listHarvestableSql(filter, patternsSql(db, filter.patterns), after, limit));

export const countHarvestable = (db: SqliteDb, filter: HarvestFilter): number => get<{ n: number }>(db, sql.countHarvestableSql(filter, patternsSql(db, filter.patterns)))?.n ?? 0;

/** Which of `ids` (published, public or not) the patterns select: set membership of listed records and tombstones. */
export function selectedRecordIds(db: SqliteDb, ids: string[], patterns: string[]): Set<string> {
  if (ids.length === 0) return new Set();
  return new Set(all<{ id: string }>(db, sql.selectedRecordIdsSql(ids, patternsSql(db, patterns))).map((r) => r.id));
}

/** The oldest datestamp among public records, or null when there is none. */
export const earliestHarvestable = (db: SqliteDb): number | null => get<{ t: number | null }>(db, sql.EARLIEST_HARVESTABLE)?.t ?? null;

/** The access (`public`/`restricted`) the index holds for a published record, before it is re-indexed. */
export const indexedAccess = (db: SqliteDb, id: string): string | null => get<{ a: string }>(db, sql.indexedAccessSql(id))?.a ?? null;

/** Public records by id, in one read (a harvest page), in the order asked. */
export function findPublicRecords(db: SqliteDb, ids: string[]): RecordRow[] {
  if (ids.length === 0) return [];
  const byId = new Map(all<Record<string, any>>(db, sql.findPublicRecordsSql(ids)).map((raw) => [raw.id as string, rowOf(raw)]));
  return ids.map((id) => byId.get(id)).filter((row): row is RecordRow => row !== undefined);
}
