// Record search in one home: searching, writing the index, and the harvest queries, behind one
// object per database. It owns the column copy and its staleness: every index write made through
// it moves a version counter the copy checks.
import type { Page } from "../../core/paging";
import type { Db } from "../../db/connection";
import type { VocabularyLookup } from "../metadata/check";
import type { RecordScope } from "../policy";
import { createColumnCopy, dataVersion } from "./column-copy";
import * as harvest from "./harvest";
import * as indexer from "./indexer";
import { createSearchReaders, type ReaderOptions } from "./readers";
import { checkIndex, rebuildIndex, type RebuildHooks } from "./rebuild";
import type { FacetLabels } from "./facets";
import { findRecords, withAggregations, type RecordSearchInput } from "./search";

export type { HarvestFilter, HarvestHit, HarvestKey } from "./harvest";
export type { IndexedRow } from "./indexer";
export type { RebuildHooks } from "./rebuild";
export type { RecordSearchInput } from "./search";
export type { FacetLabels } from "./facets";
export type { IndexedParent } from "./indexer";
export { indexedRecord, rowOf } from "./indexer";
export { withReadableCommunities } from "./facets";

export interface RecordSearchOptions {
  /** Reader workers for searches (none: searches run on the calling thread). */
  readers?: Omit<ReaderOptions, "path">;
}

export function createRecordSearch(db: Db, lookup: VocabularyLookup, options: RecordSearchOptions = {}) {
  let version = 0;
  /** The state of the index: writes through this module, and commits by other processes. */
  const stamp = () => `${version}:${dataVersion(db)}`;
  const copy = createColumnCopy(db, stamp);
  const readers = options.readers && options.readers.count > 0 ? createSearchReaders({ ...options.readers, path: db.$client.filename }) : null;
  /**
   * Runs an index write, telling the copies (this thread's and the workers') which rows it touched
   * (`keysOf` its result; none known when it throws: the copies rebuild).
   */
  const write = <T>(work: () => T, keysOf: (result: T) => number[] | null): T => {
    const at = ++version;
    let keys: number[] | null = null;
    try {
      const result = work();
      keys = keysOf(result);
      return result;
    } finally {
      copy.changed(at, keys);
      readers?.changed(at, keys);
    }
  };
  const touched = (keys: number[]) => keys;
  const all = () => null;

  return {
    /** The column copy (tests refresh it by hand). */
    copy,

    /**
     * Records as `scope` sees them, on this thread; `memory: false` forces the SQL path (the
     * differential tests); `labels` as for `search`.
     */
    searchNow: (scope: RecordScope, input: RecordSearchInput, page: Page, options: { memory?: boolean; labels?: FacetLabels } = {}) =>
      withAggregations(findRecords(db, scope, input, page, options.memory === false ? undefined : copy), lookup, options.labels),

    /**
     * Records as `scope` sees them: on a reader worker, within the time budget, when there are
     * workers. `labels` names the buckets the caller may see (the communities facet); without it
     * those buckets are left out.
     */
    async search(scope: RecordScope, input: RecordSearchInput, page: Page, labels?: FacetLabels) {
      const found = readers ? await readers.search(stamp(), scope, input, page) : findRecords(db, scope, input, page, copy);
      return withAggregations(found, lookup, labels);
    },

    indexRecord: (row: indexer.IndexedRow, parent: indexer.IndexedParent) => void write(() => indexer.indexRecord(db, row, parent), touched),
    unindexRecord: (recordId: string, isDraft: boolean) => void write(() => indexer.unindexRecord(db, recordId, isDraft), touched),
    indexLatestFlags: (parentId: string, latestId: string) => void write(() => indexer.indexLatestFlags(db, parentId, latestId), touched),
    /**
     * Rebuilds the whole index from the records into shadow tables and swaps them in at the end
     * (`cairn reindex`, and the server when it finds the index incomplete); `since` is when it
     * started: writes made after it by another process are caught up at the swap.
     */
    rebuild: (since: number, fileTypes?: (id: string, isDraft: boolean) => string[], hooks?: RebuildHooks) => write(() => rebuildIndex(db, since, fileTypes, hooks), all),
    /** Counts of records and drafts against the index rows that stand for them. */
    check: () => checkIndex(db),

    /** A parent's popularity on its index rows and in the copy, which stays current (see column-copy.ts). */
    setPopularity(parentId: string, views: number, downloads: number) {
      const keys = indexer.setPopularity(db, parentId, views, downloads);
      for (const key of keys) copy.setPopularity(key, views, downloads);
      readers?.setPopularity(keys, views, downloads);
    },

    /** Ends the reader workers. */
    close: () => readers?.close(),

    // OAI-PMH harvesting: public published records (every version) in (updated, id) order.
    listHarvestable: (filter: harvest.HarvestFilter, after: harvest.HarvestKey | null, limit: number) => harvest.listHarvestable(db, filter, after, limit),
    countHarvestable: (filter: harvest.HarvestFilter) => harvest.countHarvestable(db, filter),
    selectedRecordIds: (ids: string[], patterns: string[]) => harvest.selectedRecordIds(db, ids, patterns),
    earliestHarvestable: () => harvest.earliestHarvestable(db),
    findPublicRecords: (ids: string[]) => harvest.findPublicRecords(db, ids),
    /** The access the index holds for a published record, before it is re-indexed. */
    indexedAccess: (id: string) => harvest.indexedAccess(db, id),
  };
}

export type RecordSearch = ReturnType<typeof createRecordSearch>;
