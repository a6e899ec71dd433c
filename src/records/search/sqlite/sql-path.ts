// The SQL path of record search: facet counts grouped in one query, and a page ordered by a sort's
// SQL or ranked by bm25. Answers every query; the in-memory path answers the common ones faster.
import type { SqliteDb } from "../../../db/sqlite/connection";
import { splitList, type FacetGroup } from "../facets";
import { sortOf } from "../sorts";

export type Sql = { where: string; params: (string | number)[] };
export type Hit = { record_id: string; is_draft: number };

/** Matching index rows counted by facet combination (draft, access, types, languages, file types, communities). */
export function groupedCounts(db: SqliteDb, base: Sql): FacetGroup[] {
  return db.$client
    .query<{ d: number; a: string; p: string | null; t: string | null; l: string; f: string; c: string; n: number }, (string | number)[]>(
      `SELECT r.is_draft AS d, r.access_status AS a, r.resource_type_parent AS p, r.resource_type AS t, r.languages AS l, r.file_types AS f, r.communities AS c, count(*) AS n FROM record_index r WHERE ${base.where} GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    )
    .all(...base.params)
    .map((g) => ({ draft: g.d === 1, access: g.a, parent: g.p, type: g.t, languages: splitList(g.l), fileTypes: splitList(g.f), communities: splitList(g.c), n: g.n }));
}

/** A page ordered by the sort's SQL. */
export function sortedPage(db: SqliteDb, filter: Sql, sort: string, limit: number, offset: number): Hit[] {
  return db.$client
    .query<Hit, (string | number)[]>(`SELECT r.record_id, r.is_draft FROM record_index r WHERE ${filter.where} ORDER BY ${sortOf(sort).sql} LIMIT ? OFFSET ?`)
    .all(...filter.params, limit, offset);
}

/** A page ranked by bm25 over the full-text match (column weights: title, description, creators, subjects, other). */
export function rankedPage(db: SqliteDb, match: string, filter: Sql, limit: number, offset: number): Hit[] {
  return db.$client
    .query<Hit, (string | number)[]>(
      `SELECT r.record_id, r.is_draft FROM record_fts f JOIN record_index r ON r.key = f.rowid WHERE record_fts MATCH ? AND ${filter.where} ORDER BY bm25(record_fts, 10, 3, 5, 3, 1), r.created DESC, r.key DESC LIMIT ? OFFSET ?`,
    )
    .all(match, ...filter.params, limit, offset);
}

/** Published record ids of index keys, in the keys' order (the in-memory path's page). */
export function publishedHitsOf(db: SqliteDb, keys: number[]): Hit[] {
  if (keys.length === 0) return [];
  const found = db.$client
    .query<{ key: number; record_id: string }, number[]>(`SELECT key, record_id FROM record_index WHERE key IN (${keys.map(() => "?").join(", ")})`)
    .all(...keys);
  const byKey = new Map(found.map((r) => [r.key, r.record_id]));
  return keys.flatMap((k) => (byKey.has(k) ? [{ record_id: byKey.get(k)!, is_draft: 0 }] : []));
}
