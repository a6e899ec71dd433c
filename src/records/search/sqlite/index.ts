// The SQLite/FTS5 engine of record search (the port is ../index.ts): one object per database that
// owns the column copy and its staleness (every index write made through it moves a version
// counter the copy checks) and the reader workers.
import type { Page } from "../../../core/paging";
import type { Db } from "../../../db/sqlite/connection";
import type { VocabularyLookup } from "../../metadata/check";
import type { RecordScope } from "../../policy";
import { withAggregations, type FacetLabels } from "../facets";
import type { RecordSearch, RecordSearchInput, RecordSearchResult } from "../index";
import { createColumnCopy, dataVersion, type ColumnCopy } from "./column-copy";
import * as harvest from "./harvest";
import * as indexer from "./indexer";
import { createSearchReaders, type ReaderOptions } from "./readers";
import { checkIndex, rebuildIndex } from "./rebuild";
import { findRecords } from "./search";

export { rowOf } from "./indexer";

export interface RecordSearchOptions {
  /** Reader workers for searches (none: searches run on the calling thread). */
  readers?: Omit<ReaderOptions, "path">;
}

/** The SQLite engine with what only it has: its column copy, and a search on this thread by either path. */
export interface SqliteRecordSearch extends RecordSearch {
  /** The column copy (tests refresh it by hand). */
  copy: ColumnCopy;
  /**
   * Records as `scope` sees them, on this thread; `memory: false` forces the SQL path (the
   * conformance suite runs both paths); `labels` as for `search`.
   */
  searchNow(scope: RecordScope, input: RecordSearchInput, page: Page, options?: { memory?: boolean; labels?: FacetLabels }): RecordSearchResult;
}

export function createSqliteRecordSearch(db: Db, lookup: VocabularyLookup, options: RecordSearchOptions = {}): SqliteRecordSearch {
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
    copy,

    searchNow: (scope, input, page, options = {}) => withAggregations(findRecords(db, scope, input, page, options.memory === false ? undefined : copy), lookup, options.labels),

    /** On a reader worker, within the time budget, when there are workers. */
    async search(scope, input, page, labels) {
      const found = readers ? await readers.search(stamp(), scope, input, page) : findRecords(db, scope, input, page, copy);
      return withAggregations(found, lookup, labels);
    },

    indexRecord: (row, parent) => void write(() => indexer.indexRecord(db, row, parent), touched),
    unindexRecord: (recordId, isDraft) => void write(() => indexer.unindexRecord(db, recordId, isDraft), touched),
    indexLatestFlags: (parentId, latestId) => void write(() => indexer.indexLatestFlags(db, parentId, latestId), touched),
    /** Into shadow tables, swapped in at the end (rebuild.ts). */
    rebuild: (since, fileTypes, hooks) => write(() => rebuildIndex(db, since, fileTypes, hooks), all),
    check: () => checkIndex(db),

    /** On the index rows and in the copies, which stay current (see column-copy.ts). */
    setPopularity(parentId, views, downloads) {
      const keys = indexer.setPopularity(db, parentId, views, downloads);
      for (const key of keys) copy.setPopularity(key, views, downloads);
      readers?.setPopularity(keys, views, downloads);
    },

    close: () => readers?.close(),

    listHarvestable: (filter, after, limit) => harvest.listHarvestable(db, filter, after, limit),
    countHarvestable: (filter) => harvest.countHarvestable(db, filter),
    selectedRecordIds: (ids, patterns) => harvest.selectedRecordIds(db, ids, patterns),
    earliestHarvestable: () => harvest.earliestHarvestable(db),
    findPublicRecords: (ids) => harvest.findPublicRecords(db, ids),
    indexedAccess: (id) => harvest.indexedAccess(db, id),
  };
}
