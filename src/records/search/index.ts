// The search port of records: what any record-search engine provides (index writes, search with
// facets, OAI-PMH harvest queries, rebuild, check) and the engine-neutral types it speaks in. The
// SQLite engine (FTS5 tables) is in sqlite/ (createSqliteRecordSearch), the PostgreSQL engine
// (tsvector) in postgres/ (createPostgresRecordSearch); engine.ts picks one by the database's
// engine. The engine-neutral pieces every engine shares: facets.ts and sorts.ts (the facet and
// sort tables they count and order by), schema.ts (how queries map onto the index), document.ts
// (what a record is indexed as), harvest.ts (the OAI-PMH statements), ranking.ts, rebuild-rows.ts.
import type { Page } from "../../core/paging";
import { plainWordsOf, queryStringProblem } from "../../search/query-string";
import type { RecordScope } from "../policy";
import type { RecordRow } from "../store";
import type { FacetLabels, withAggregations } from "./facets";

export type { EntryLookup, FacetLabels } from "./facets";
export { withReadableCommunities } from "./facets";

export interface RecordSearchInput {
  /** The configured sort options (RDM_SEARCH_SORT_OPTIONS). */
  sortOptions: string[];
  q?: string;
  sort?: string;
  allversions?: boolean;
  /** Only versions of this parent. */
  parentId?: string;
  /** Only records included in this community (record_communities). */
  communityId?: string;
  /** The facets to aggregate (default all of the listing's). */
  facets?: string[];
  defaultSort: string;
  query: Record<string, unknown>;
}

/** A search's answer as the API gives it: hits, total, the sort used, the selected facets and the aggregations. */
export type RecordSearchResult = Awaited<ReturnType<typeof withAggregations>>;

/** What the index needs of a published record or a draft. */
export interface IndexedRow {
  /** Extensions of the record's files (the file_type facet). */
  fileTypes?: string[];
  id: string;
  parentId: string;
  ownerId: number | null;
  isLatest: boolean;
  isDraft: boolean;
  accessRecord: string;
  /** InvenioRDM's deletion status of a published record (`D`: deleted); drafts have none. */
  deletionStatus?: string;
  versionIndex: number;
  document: Record<string, unknown>;
  created: number;
  updated: number;
}

export const indexedRecord = (row: RecordRow): IndexedRow => ({ ...row, isDraft: false });

/** What the index needs of a record's parent, shared by all its versions and drafts. */
export interface IndexedParent {
  pids: Record<string, unknown>;
  /** Ids of the communities the parent is included in (record_communities). */
  communities: string[];
}

export interface HarvestFilter {
  /** Query strings OR-ed together (a set and its sub-sets); undefined: every public record. */
  patterns?: string[];
  /** Inclusive lower bound of `updated` (ms). */
  fromMs?: number;
  /** Exclusive upper bound of `updated` (ms). */
  untilMs?: number;
}

/** A position in the harvest order: the last (updated, id) already returned. */
export interface HarvestKey {
  updated: number;
  id: string;
}

export interface HarvestHit {
  id: string;
  updated: number;
}

export interface RebuildHooks {
  onProgress?: (done: number, total: number) => void;
  /** Records per batch transaction (default 2,000). */
  batchSize?: number;
  /** Called once the new index exists, before the first batch (tests stop a rebuild there). */
  onShadowReady?: () => void;
  /** Called inside the swap's transaction, just before the live index changes (tests stop a rebuild there). */
  beforeSwap?: () => void;
}

/** How the index compares with the records and drafts it should hold. */
export interface IndexCheck {
  records: number;
  drafts: number;
  indexedRecords: number;
  indexedDrafts: number;
  /** Written before the index kept which full-text fields each record has: a rebuild adds them. */
  outdated: boolean;
  complete: boolean;
}

/**
 * Record search. Every call answers a Promise: an engine reaches its database through the database
 * port, and a server engine's client is asynchronous. The index writes (indexRecord,
 * unindexRecord, indexLatestFlags, setPopularity) and indexedAccess are made inside the caller's
 * write transaction (`db.write`), in its asynchronous flow, so they join it: an index row is
 * written or rolled back with the record row it stands for.
 */
/** A parent's all-version unique views and downloads. */
export interface ParentPopularity {
  parentId: string;
  views: number;
  downloads: number;
}

export interface RecordSearch {
  /** Writes (or rewrites) the index rows of a record or draft. */
  indexRecord(row: IndexedRow, parent: IndexedParent): Promise<void>;
  /** Removes the index rows of a record (or of its draft). */
  unindexRecord(recordId: string, isDraft: boolean): Promise<void>;
  /** Mirrors records.is_latest for a parent's published versions. */
  indexLatestFlags(parentId: string, latestId: string): Promise<void>;
  /** Parents' popularity (all versions' unique views/downloads), which the popularity sorts use; many at once (an aggregation's). */
  setPopularity(rows: readonly ParentPopularity[]): Promise<void>;
  /** The access the index holds for a published record, before it is re-indexed (OAI-PMH hears of a change). */
  indexedAccess(id: string): Promise<string | null>;

  /**
   * Records as `scope` sees them, with the aggregations. `labels` names the buckets the caller may
   * see (the communities facet); without it those buckets are left out.
   */
  search(scope: RecordScope, input: RecordSearchInput, page: Page, labels?: FacetLabels): Promise<RecordSearchResult>;

  // OAI-PMH harvesting: public published records (every version) in (updated, id) order.
  /** The next `limit` public records after `after`. */
  listHarvestable(filter: HarvestFilter, after: HarvestKey | null, limit: number): Promise<HarvestHit[]>;
  countHarvestable(filter: HarvestFilter): Promise<number>;
  /** Which of `ids` (published, public or not) the query strings select: set membership. */
  selectedRecordIds(ids: string[], patterns: string[]): Promise<Set<string>>;
  /** The oldest datestamp among public records, or null when there is none. */
  earliestHarvestable(): Promise<number | null>;
  /** Public records by id, in the order asked. */
  findPublicRecords(ids: string[]): Promise<RecordRow[]>;

  /**
   * Rebuilds the whole index from the records without ever showing an empty or partial one;
   * `since` is when it started (writes made after it by another process are caught up);
   * `fileTypes` gives a record's or draft's file extensions. Returns how many published records
   * the index holds. Searches and index writes may run between its batches.
   */
  rebuild(since: number, fileTypes?: (id: string, isDraft: boolean) => string[] | Promise<string[]>, hooks?: RebuildHooks): Promise<number>;
  /** Counts of records and drafts against the index rows that stand for them. */
  check(): Promise<IndexCheck>;
  /** Ends what the engine runs beside the request thread (reader workers, connections). */
  close(): void;
}

/**
 * Why a search's query string was searched as its plain words, and which (Cairn decision 9: the
 * API keeps answering such a query); the pages say so. Kept under a symbol on the answer, so the
 * API's JSON, which the spec fixes, never shows it.
 */
export interface QueryFallback {
  reason: string;
  words: string[];
}

export const QUERY_FALLBACK = Symbol("cairn.queryFallback");

/** `result` with the fallback of `q` noted when `q` does not parse (the same parser every engine runs). */
export function withQueryFallback<T extends object>(result: T, q: string | undefined): T & { [QUERY_FALLBACK]?: QueryFallback } {
  const reason = q?.trim() ? queryStringProblem(q) : null;
  return reason ? Object.assign(result, { [QUERY_FALLBACK]: { reason, words: plainWordsOf(q!) } }) : result;
}
