// The SQL of OAI-PMH harvesting, for every engine: public published records (every version) in a
// stable (updated, id) order, so a harvest paged by keyset returns each exactly once, selected by
// set query strings (compiled by the engine into `pattern`). Each engine runs these statements
// (sqlite/harvest.ts, postgres/harvest.ts).
import { publicScope, scopeSql } from "../policy";
import type { HarvestFilter, HarvestKey } from "./index";

export type Sql = { where: string; params: (string | number)[] };
type Statement = { sql: string; params: (string | number)[] };

// Harvesters see what an anonymous caller sees.
const harvestable = scopeSql(publicScope);

const marks = (values: unknown[]) => values.map(() => "?").join(", ");

function filterSql(filter: HarvestFilter, pattern: Sql): Sql {
  return {
    where: `${harvestable.where} AND r.updated >= ? AND r.updated < ? AND (${pattern.where})`,
    params: [...harvestable.params, filter.fromMs ?? 0, filter.untilMs ?? Number.MAX_SAFE_INTEGER, ...pattern.params],
  };
}

/** The next `limit` public records after `after`, in (updated, id) order: rows of (id, updated). */
export function listHarvestableSql(filter: HarvestFilter, pattern: Sql, after: HarvestKey | null, limit: number): Statement {
  const base = filterSql(filter, pattern);
  const keyset = after ? " AND (r.updated, r.record_id) > (?, ?)" : "";
  const params = after ? [...base.params, after.updated, after.id] : base.params;
  return {
    sql: `SELECT r.record_id AS id, r.updated AS updated FROM record_index r WHERE ${base.where}${keyset} ORDER BY r.updated, r.record_id LIMIT ?`,
    params: [...params, limit],
  };
}

/** How many public records the filter selects: a row of (n). */
export function countHarvestableSql(filter: HarvestFilter, pattern: Sql): Statement {
  const base = filterSql(filter, pattern);
  return { sql: `SELECT count(*) AS n FROM record_index r WHERE ${base.where}`, params: base.params };
}

/** Which of `ids` (published, public or not) the pattern selects: rows of (id). */
export const selectedRecordIdsSql = (ids: string[], pattern: Sql): Statement => ({
  sql: `SELECT r.record_id AS id FROM record_index r WHERE r.is_draft = 0 AND r.record_id IN (${marks(ids)}) AND (${pattern.where})`,
  params: [...ids, ...pattern.params],
});

/** The oldest datestamp among public records: a row of (t), null when there is none. */
export const EARLIEST_HARVESTABLE: Statement = { sql: `SELECT min(r.updated) AS t FROM record_index r WHERE ${harvestable.where}`, params: harvestable.params };

/** The access (`public`/`restricted`) the index holds for a published record: a row of (a). */
export const indexedAccessSql = (id: string): Statement => ({
  sql: "SELECT access_record AS a FROM record_index WHERE record_id = ? AND is_draft = 0 AND deleted = 0",
  params: [id],
});

/** Public records by id (the `records` rows), in one read. */
export const findPublicRecordsSql = (ids: string[]): Statement => ({
  sql: `SELECT rec.* FROM records rec JOIN record_index r ON r.record_id = rec.id AND r.is_draft = 0 WHERE ${harvestable.where} AND rec.id IN (${marks(ids)})`,
  params: [...harvestable.params, ...ids],
});
