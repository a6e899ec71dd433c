// Published records for OAI-PMH harvesting: public versions in a stable (updated, id) order, so a
// harvest paged by keyset returns each exactly once; selected by set query strings.
import type { SqliteDb } from "../../../db/sqlite/connection";
import { compileQuery } from "../../../search/sqlite/compile";
import { parseQueryString, type QueryNode } from "../../../search/query-string";
import { publicScope, scopeSql } from "../../policy";
import type { RecordRow } from "../../store";
import type { HarvestFilter, HarvestHit, HarvestKey } from "../index";
import { rowOf } from "./indexer";
import { expandRecordQuery, RECORD_SEARCH_SCHEMA } from "./schema";

type Sql = { where: string; params: (string | number)[] };

/** One condition for several patterns; an empty pattern selects everything. */
function patternsSql(db: SqliteDb, patterns: string[] | undefined): Sql {
  if (patterns === undefined) return { where: "1 = 1", params: [] };
  if (patterns.length === 0) return { where: "0 = 1", params: [] };
  const nodes = patterns.map((p) => parseQueryString(p));
  if (nodes.some((n) => n === null)) return { where: "1 = 1", params: [] };
  const node: QueryNode = nodes.length === 1 ? nodes[0]! : { kind: "or", items: nodes as QueryNode[] };
  const compiled = compileQuery(expandRecordQuery(db, node), RECORD_SEARCH_SCHEMA);
  return { where: compiled.where, params: compiled.params };
}

// Harvesters see what an anonymous caller sees.
const harvestable = scopeSql(publicScope);

function filterSql(db: SqliteDb, filter: HarvestFilter): Sql {
  const pattern = patternsSql(db, filter.patterns);
  return {
    where: `${harvestable.where} AND r.updated >= ? AND r.updated < ? AND (${pattern.where})`,
    params: [...harvestable.params, filter.fromMs ?? 0, filter.untilMs ?? Number.MAX_SAFE_INTEGER, ...pattern.params],
  };
}

/** The next `limit` public records after `after`, in (updated, id) order. */
export function listHarvestable(db: SqliteDb, filter: HarvestFilter, after: HarvestKey | null, limit: number): HarvestHit[] {
  const base = filterSql(db, filter);
  const keyset = after ? " AND (r.updated, r.record_id) > (?, ?)" : "";
  const params = after ? [...base.params, after.updated, after.id] : base.params;
  return db.$client
    .query<HarvestHit, (string | number)[]>(
      `SELECT r.record_id AS id, r.updated AS updated FROM record_index r WHERE ${base.where}${keyset} ORDER BY r.updated, r.record_id LIMIT ?`,
    )
    .all(...params, limit);
}

export function countHarvestable(db: SqliteDb, filter: HarvestFilter): number {
  const base = filterSql(db, filter);
  return db.$client.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM record_index r WHERE ${base.where}`).get(...base.params)?.n ?? 0;
}

/** Which of `ids` (published, public or not) the patterns select: set membership of listed records and tombstones. */
export function selectedRecordIds(db: SqliteDb, ids: string[], patterns: string[]): Set<string> {
  if (ids.length === 0) return new Set();
  const pattern = patternsSql(db, patterns);
  const rows = db.$client
    .query<{ id: string }, (string | number)[]>(
      `SELECT r.record_id AS id FROM record_index r WHERE r.is_draft = 0 AND r.record_id IN (${ids.map(() => "?").join(", ")}) AND (${pattern.where})`,
    )
    .all(...ids, ...pattern.params);
  return new Set(rows.map((r) => r.id));
}

/** The oldest datestamp among public records, or null when there is none. */
export function earliestHarvestable(db: SqliteDb): number | null {
  return (
    db.$client.query<{ t: number | null }, (string | number)[]>(`SELECT min(r.updated) AS t FROM record_index r WHERE ${harvestable.where}`).get(...harvestable.params)?.t ?? null
  );
}

/** The access (`public`/`restricted`) the index holds for a published record, before it is re-indexed. */
export function indexedAccess(db: SqliteDb, id: string): string | null {
  return db.$client.query<{ a: string }, [string]>("SELECT access_record AS a FROM record_index WHERE record_id = ? AND is_draft = 0 AND deleted = 0").get(id)?.a ?? null;
}

/** Public records by id, in one read (a harvest page), in the order asked. */
export function findPublicRecords(db: SqliteDb, ids: string[]): RecordRow[] {
  if (ids.length === 0) return [];
  const rows = db.$client
    .query<Record<string, any>, (string | number)[]>(
      `SELECT rec.* FROM records rec JOIN record_index r ON r.record_id = rec.id AND r.is_draft = 0 WHERE ${harvestable.where} AND rec.id IN (${ids.map(() => "?").join(", ")})`,
    )
    .all(...harvestable.params, ...ids);
  const byId = new Map(rows.map((raw) => [raw.id as string, rowOf(raw)]));
  return ids.map((id) => byId.get(id)).filter((row): row is RecordRow => row !== undefined);
}
