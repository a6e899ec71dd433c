// Record search on PostgreSQL: the query string, the caller's scope (records/policy.ts scopeSql,
// the same SQL as on SQLite), facets, sorts and paging, as the SQLite engine's SQL path answers
// them (sqlite/search.ts, sql-path.ts). There is no in-memory path or reader worker here: the
// server runs the queries, and any number of processes may ask it.
import type { Page } from "../../../core/paging";
import type { Db } from "../../../db/port";
import { bm25 } from "../../../search/postgres/bm25";
import { rankableTsQuery } from "../../../search/postgres/text";
import { parseQueryString } from "../../../search/query-string";
import type { RecordScope } from "../../policy";
import { splitList, totalOf, type FacetGroup, type FoundRecords } from "../facets";
import { foundRecords, queryAndSortOf, searchConditions, type Sql } from "../find";
import type { RecordSearchInput } from "../index";
import { RANK_LIMIT, MAX_RANKED_PHRASES } from "../ranking";
import { sortOf } from "../sorts";
import { RECORD_SEARCH_SCHEMA as RECORD_SCHEMA } from "../schema";
import { compileQuery, expandRecordQuery } from "./schema";

type Hit = { record_id: string; is_draft: number };

/** bm25's column weights (as on SQLite: title 10, description 3, creators 5, subjects 3, other 1) by the weight label each column's words carry (indexer.ts). */
const BM25_WEIGHTS = { A: 10, B: 5, C: 3, D: 1 };

/** Matching index rows counted by facet combination (draft, access, types, languages, file types, communities). */
async function groupedCounts(db: Db, base: Sql): Promise<FacetGroup[]> {
  const rows = await db.statements.all<{ d: number; a: string; p: string | null; t: string | null; l: string; f: string; c: string; n: number }>(
    `SELECT r.is_draft AS d, r.access_status AS a, r.resource_type_parent AS p, r.resource_type AS t, r.languages AS l, r.file_types AS f, r.communities AS c, count(*) AS n FROM record_index r WHERE ${base.where} GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    base.params,
  );
  return rows.map((g) => ({ draft: g.d === 1, access: g.a, parent: g.p, type: g.t, languages: splitList(g.l), fileTypes: splitList(g.f), communities: splitList(g.c), n: g.n }));
}

/** A page ordered by the sort's SQL. */
const sortedPage = (db: Db, filter: Sql, sort: string, limit: number, offset: number) =>
  db.statements.all<Hit>(`SELECT r.record_id, r.is_draft FROM record_index r WHERE ${filter.where} ORDER BY ${sortOf(sort).sql} LIMIT ? OFFSET ?`, [
    ...filter.params,
    limit,
    offset,
  ]);

/** A page ranked by bm25 over the full-text match, as on SQLite; ties by newest, then by index key (one order for every page), as there. */
async function rankedPage(db: Db, match: string, filter: Sql, limit: number, offset: number): Promise<Hit[]> {
  const { from, score } = await bm25(db, "record_fts", match, BM25_WEIGHTS);
  return db.statements.all<Hit>(
    `SELECT r.record_id, r.is_draft FROM record_fts f JOIN record_index r ON r.key = f.key ${from.sql} WHERE f.doc @@ ?::tsquery AND ${filter.where} ORDER BY ${score.sql} DESC, r.created DESC, r.key DESC LIMIT ? OFFSET ?`,
    [...from.params, match, ...filter.params, ...score.params, limit, offset],
  );
}

/** Searches the index as `scope` sees it. */
export async function findRecords(db: Db, scope: RecordScope, input: RecordSearchInput, page: Page): Promise<FoundRecords> {
  const { q, sort } = queryAndSortOf(input);
  const compiled = compileQuery(await expandRecordQuery(db, parseQueryString(q)), RECORD_SCHEMA);
  const { base, filter, selected } = searchConditions(scope, input, compiled);
  const groups = await groupedCounts(db, base);
  const total = totalOf(groups, selected);
  const ranked = sort === "bestmatch" && compiled.rankMatch !== null && rankableTsQuery(compiled.rankMatch, MAX_RANKED_PHRASES) && total <= RANK_LIMIT;
  const hits = ranked ? await rankedPage(db, compiled.rankMatch!, filter, page.size, page.offset) : await sortedPage(db, filter, sort, page.size, page.offset);
  return foundRecords(hits, { total, sort, groups, selected }, scope, input);
}
