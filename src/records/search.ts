// Record search over the index: query string, visibility in SQL, facets, sorts and paging.
import { isAdmin, type Actor } from "../core/actor";
import { HttpError } from "../core/errors";
import type { Page } from "../core/paging";
import type { Db } from "../db/connection";
import { columnRange, compileQuery, type Bound } from "../search/compile";
import { parseQueryString, type QueryNode } from "../search/query-string";
import type { FacetCache } from "./facet-cache";
import { aggregationsOf, facetFilter, groupedCounts, selectedFacets, totalOf } from "./facets";
import { fastSearch, type MatchPlan } from "./search-fast";
import type { VocabularyLookup } from "./metadata/check";
import { RECORD_SEARCH_SCHEMA } from "./search-schema";

/** Sort options of record search (configurable later); descending ones first by convention. */
export const RECORD_SORTS: Record<string, string> = {
  newest: "r.created DESC, r.key DESC",
  oldest: "r.created ASC, r.key ASC",
  "updated-desc": "r.updated DESC, r.key DESC",
  "updated-asc": "r.updated ASC, r.key ASC",
  version: "r.version_index DESC, r.key DESC",
  mostviewed: "r.views DESC, r.created DESC",
  mostdownloaded: "r.downloads DESC, r.created DESC",
};

/** Above this many hits bestmatch orders by newest: ranking every match costs more than a page is worth. */
const RANK_LIMIT = 5000;

export interface RecordSearchInput {
  /** The configured sort options (RDM_SEARCH_SORT_OPTIONS). */
  sortOptions: string[];
  q?: string;
  sort?: string;
  allversions?: boolean;
  /** Only versions of this parent. */
  parentId?: string;
  /** The caller's own drafts and records (`/api/user/records`) instead of published records. */
  ownerId?: number;
  defaultSort: string;
  query: Record<string, unknown>;
}

/** Records the actor may read: public ones, their own, or all for administrators. */
function visibility(actor: Actor) {
  if (isAdmin(actor)) return { where: "1 = 1", params: [] as (string | number)[] };
  if (actor.kind === "user") return { where: "(r.access_record = 'public' OR r.owner_id = ?)", params: [actor.userId] };
  return { where: "r.access_record = 'public'", params: [] };
}

/**
 * How a query splits for the in-memory path: AND-ed publication-date ranges, and the rest, which
 * must be nothing or full-text conditions. Null when it does not split so (SQL answers).
 */
function memoryPlan(node: QueryNode | null): { match: MatchPlan | null; dateRanges: Bound[][] } | null {
  const items = node === null ? [] : node.kind === "and" ? node.items : [node];
  const dateRanges: Bound[][] = [];
  const rest: QueryNode[] = [];
  for (const item of items) {
    const range = columnRange(item, RECORD_SEARCH_SCHEMA);
    if (range && range.expr === "r.publication_date") dateRanges.push(range.limits);
    else rest.push(item);
  }
  if (rest.length === 0) return { match: null, dateRanges };
  const match = matchPlan(rest.length === 1 ? rest[0]! : { kind: "and", items: rest });
  if (match === "everything") return { match: null, dateRanges };
  return match ? { match, dateRanges } : null;
}

/**
 * A full-text condition as set operations over single conditions, so that `a AND b` and `a OR b`
 * reuse each word's cached rows instead of asking FTS5 for every new combination.
 */
function matchPlan(node: QueryNode): MatchPlan | "everything" | null {
  if (node.kind === "and" || node.kind === "or") {
    const parts = node.items.map(matchPlan);
    if (parts.every((p): p is MatchPlan => p !== null && p !== "everything")) return { op: node.kind, parts };
  }
  const compiled = compileQuery(node, RECORD_SEARCH_SCHEMA);
  if (compiled.where === "1 = 1") return "everything";
  return compiled.ftsOnly !== null ? { match: compiled.ftsOnly } : null;
}

/**
 * bm25 needs each phrase's document frequency: cheap for a word (its doclist), but for a phrase of
 * several words FTS5 walks their positions in every document (60 ms at 100,000 records). So
 * bestmatch ranks queries made of single words; a multi-word phrase orders its hits by newest.
 */
function singleTokenPhrases(match: string): boolean {
  return (match.match(/"(?:[^"]|"")*"/g) ?? []).every((phrase) => !/[^\p{L}\p{N}]/u.test(phrase.slice(1, -1).replace(/""/g, "")));
}

/** Record ids of index keys, in the keys' order. */
function recordIdsOf(db: Db, keys: number[]): string[] {
  if (keys.length === 0) return [];
  const found = db.$client.query<{ key: number; record_id: string }, number[]>(`SELECT key, record_id FROM record_index WHERE key IN (${keys.map(() => "?").join(", ")})`).all(...keys);
  const byKey = new Map(found.map((r) => [r.key, r.record_id]));
  return keys.map((k) => byKey.get(k)!).filter(Boolean);
}

export function searchRecordIndex(db: Db, actor: Actor, input: RecordSearchInput, page: Page, lookup: VocabularyLookup, cache?: FacetCache) {
  const q = input.q?.trim() ?? "";
  const options = input.sortOptions;
  if (input.sort !== undefined && input.sort !== "" && !options.includes(input.sort)) {
    throw new HttpError(400, "Invalid querystring parameters.", [{ field: "sort", messages: [`Must be one of: ${options.join(", ")}.`] }]);
  }
  const defaultWithQuery = options.includes("bestmatch") ? "bestmatch" : input.defaultSort;
  const sort = input.sort && (input.sort !== "bestmatch" || q) ? input.sort : q ? defaultWithQuery : input.defaultSort;

  const node = parseQueryString(q);
  const compiled = compileQuery(node, RECORD_SEARCH_SCHEMA);
  // Public listings: published records the actor may read. The owner's listing: their drafts,
  // and their records that have no draft open (the draft stands for them there).
  const visible =
    input.ownerId !== undefined
      ? { where: "r.owner_id = ? AND (r.is_draft = 1 OR NOT EXISTS (SELECT 1 FROM record_index d WHERE d.record_id = r.record_id AND d.is_draft = 1))", params: [input.ownerId] }
      : { where: `r.is_draft = 0 AND ${visibility(actor).where}`, params: visibility(actor).params };
  const scope: string[] = [visible.where];
  const scopeParams: (string | number)[] = [...visible.params];
  if (!input.allversions) scope.push("r.is_latest = 1");
  if (input.parentId) {
    scope.push("r.parent_id = ?");
    scopeParams.push(input.parentId);
  }
  const base = { where: `${scope.join(" AND ")} AND (${compiled.where})`, params: [...scopeParams, ...compiled.params] };
  const selected = selectedFacets(input.query);
  const facets = facetFilter(selected);
  const where = `${base.where} AND ${facets.where}`;
  const params = [...base.params, ...facets.params];

  const rankInSql = (hits: number) => sort === "bestmatch" && compiled.rankMatch !== null && singleTokenPhrases(compiled.rankMatch) && hits <= RANK_LIMIT;
  // Public listings whose query is full text and publication-date ranges (or nothing) are counted in memory.
  const split = input.ownerId === undefined && !input.parentId ? memoryPlan(node) : null;
  const columns = cache && split ? cache.current() : null;
  const fast =
    columns && split
      ? fastSearch(db, columns, actor, { match: split.match, dateRanges: split.dateRanges, allversions: Boolean(input.allversions), selected, sort, offset: page.offset, size: page.size, rankInSql })
      : null;
  const groups = fast ? fast.groups : groupedCounts(db, base);
  const total = totalOf(groups, selected);
  let rows: { record_id: string; is_draft: number }[];
  if (fast?.page) {
    rows = recordIdsOf(db, fast.page).map((record_id) => ({ record_id, is_draft: 0 }));
  } else if (rankInSql(total)) {
    rows = db.$client
      .query<{ record_id: string; is_draft: number }, (string | number)[]>(
        `SELECT r.record_id, r.is_draft FROM record_fts f JOIN record_index r ON r.key = f.rowid WHERE record_fts MATCH ? AND ${where} ORDER BY bm25(record_fts, 10, 3, 5, 3, 1), r.created DESC LIMIT ? OFFSET ?`,
      )
      .all(compiled.rankMatch!, ...params, page.size, page.offset);
  } else {
    const order = RECORD_SORTS[sort] ?? RECORD_SORTS.newest!;
    rows = db.$client
      .query<{ record_id: string; is_draft: number }, (string | number)[]>(`SELECT r.record_id, r.is_draft FROM record_index r WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...params, page.size, page.offset);
  }
  return {
    hits: rows.map((r) => ({ id: r.record_id, isDraft: r.is_draft === 1 })),
    total,
    sortBy: sort,
    aggregations: aggregationsOf(groups, selected, lookup, input.ownerId !== undefined),
    facets: selected,
  };
}
