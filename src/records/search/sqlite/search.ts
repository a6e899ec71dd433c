// Record search over the index: the query string, the caller's scope, facets, sorts and paging,
// answered by the in-memory path when the query tree allows it and the copy is current, else SQL.
// Runs on the request thread or in a reader worker (readers.ts): its answer is plain data.
import type { Page } from "../../../core/paging";
import type { SqliteDb } from "../../../db/sqlite/connection";
import { compileQuery } from "../../../search/sqlite/compile";
import { parseQueryString } from "../../../search/query-string";
import { grantedParts, scopePredicate, type RecordScope } from "../../policy";
import type { ColumnCopy } from "./column-copy";
import { totalOf, type FoundRecords } from "../facets";
import { foundRecords, queryAndSortOf, searchConditions } from "../find";
import type { RecordSearchInput } from "../index";
import { MAX_RANKED_PHRASES, RANK_LIMIT } from "../ranking";
import { memorySearch } from "./memory-path";
import { memoryPlan } from "./plan";
import { expandRecordQuery, RECORD_SEARCH_SCHEMA } from "./schema";
import { groupedCounts, publishedHitsOf, rankedPage, sortedPage, type Hit } from "./sql-path";

/**
 * bm25 needs each phrase's document frequency: cheap for a word (its doclist), but for a phrase of
 * several words FTS5 walks their positions in every document (60 ms at 100,000 records). So
 * bestmatch ranks queries made of single words; a multi-word phrase orders its hits by newest.
 * So does a query of very many words: bm25's cost grows faster than the number of its phrases.
 */
function rankable(match: string): boolean {
  const phrases = match.match(/"(?:[^"]|"")*"/g) ?? [];
  return phrases.length <= MAX_RANKED_PHRASES && phrases.every((phrase) => !/[^\p{L}\p{N}]/u.test(phrase.slice(1, -1).replace(/""/g, "")));
}

/** The index keys of the records a scope admits beyond public and own ones (records/policy.ts grantedSql), for the in-memory path. */
function grantedKeys(db: SqliteDb, scope: RecordScope): Set<number> {
  const keys = new Set<number>();
  for (const part of grantedParts(scope)) {
    // `+r.is_draft`: not an index choice, so SQLite starts from the part's own small side (the grants', the inclusions') instead of every published row.
    const rows = db.$client.query<{ key: number }, (string | number)[]>(`SELECT r.key AS key FROM record_index r WHERE +r.is_draft = 0 AND ${part.where}`).all(...part.params);
    for (const row of rows) keys.add(row.key);
  }
  return keys;
}

/** Searches the index as `scope` sees it; `copy` (when given and current) lets the in-memory path answer. */
export function findRecords(db: SqliteDb, scope: RecordScope, input: RecordSearchInput, page: Page, copy?: ColumnCopy): FoundRecords {
  const { q, sort } = queryAndSortOf(input);
  // Both paths search the expanded query: the same index terms for every wildcard.
  const node = expandRecordQuery(db, parseQueryString(q));
  const compiled = compileQuery(node, RECORD_SEARCH_SCHEMA);
  const { base, filter, selected } = searchConditions(scope, input, compiled);
  const rankInSql = (hits: number) => sort === "bestmatch" && compiled.rankMatch !== null && rankable(compiled.rankMatch) && hits <= RANK_LIMIT;
  // The copy knows no parents or communities: those listings are answered in SQL.
  const columns = copy && !input.parentId && !input.communityId ? copy.current(db) : null;
  const predicate = columns && scopePredicate(scope, columns, grantedKeys(db, scope));
  const plan = predicate ? memoryPlan(RECORD_SEARCH_SCHEMA, "r.publication_date", node) : null;
  const fast =
    columns && predicate && plan
      ? memorySearch(db, columns, { ...plan, visible: predicate, allversions: Boolean(input.allversions), selected, sort, offset: page.offset, size: page.size, rankInSql })
      : null;
  const groups = fast ? fast.groups : groupedCounts(db, base);
  const total = totalOf(groups, selected);
  let hits: Hit[];
  if (fast?.page) hits = publishedHitsOf(db, fast.page);
  else if (rankInSql(total)) hits = rankedPage(db, compiled.rankMatch!, filter, page.size, page.offset);
  else hits = sortedPage(db, filter, sort, page.size, page.offset);
  return foundRecords(hits, { total, sort, groups, selected }, scope, input);
}
