// The SQLite/FTS5 engine of record search (the port is ../index.ts): one object per database that
// owns the column copy (which follows the index's change log: every index write logs the rows it
// touched, change-log.ts) and the reader workers. Each port call reaches the connection once,
// through the database port's gate (onSqlite); the work behind it is synchronous.
import type { Page } from "../../../core/paging";
import type { Db } from "../../../db/port";
import { onSqlite, type SqliteDb } from "../../../db/sqlite/connection";
import { sqliteOf } from "../../../db/sqlite/port";
import type { RecordScope } from "../../policy";
import { vocabularyLabels, withAggregations, type EntryLookup, type FacetLabels, type FoundRecords } from "../facets";
import type { RecordSearch, RecordSearchInput, RecordSearchResult } from "../index";
import { logIndexChange } from "./change-log";
import { createColumnCopy, type Columns } from "./column-copy";
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

/** The engine with what only it has: its column copy, and a search on this thread by either path. */
export interface SqliteRecordSearch extends RecordSearch {
  /** The column copy (tests refresh it by hand): its columns when current (patched or rebuilt if allowed now), else null. */
  copy: { current(): Promise<Columns | null>; refresh(): Promise<void> };
  /**
   * Records as `scope` sees them, on this thread; `memory: false` forces the SQL path (the
   * conformance suite runs both paths); `labels` as for `search`.
   */
  searchNow(scope: RecordScope, input: RecordSearchInput, page: Page, options?: { memory?: boolean; labels?: FacetLabels }): Promise<RecordSearchResult>;
}

/** `db` is the database port (SQLite); `lookup` the vocabularies' entries, which label the facet buckets. */
export function createSqliteRecordSearch(db: Db, lookup: EntryLookup, options: RecordSearchOptions = {}): SqliteRecordSearch {
  const copy = createColumnCopy();
  const readers = options.readers && options.readers.count > 0 ? createSearchReaders({ ...options.readers, path: sqliteOf(db).filename }) : null;
  /**
   * Runs an index write on the connection (inside the caller's transaction when there is one) and
   * logs the rows it touched, for every process's copies.
   */
  const write = (work: (s: SqliteDb) => number[]): Promise<void> => onSqlite(db, (s) => logIndexChange(s, work(s)));
  /** The aggregations, labelled: the vocabulary entries they name are read first, then built synchronously. */
  const aggregated = async (found: FoundRecords, labels?: FacetLabels) => withAggregations(found, await vocabularyLabels(found, lookup), labels);

  return {
    copy: {
      current: () => onSqlite(db, (s) => copy.current(s)),
      refresh: () => onSqlite(db, (s) => copy.refresh(s)),
    },

    searchNow: async (scope, input, page, options = {}) =>
      aggregated(await onSqlite(db, (s) => findRecords(s, scope, input, page, options.memory === false ? undefined : copy)), options.labels),

    /** On a reader worker, within the time budget, when there are workers. */
    async search(scope, input, page, labels) {
      const found = readers ? await readers.search(scope, input, page) : await onSqlite(db, (s) => findRecords(s, scope, input, page, copy));
      return aggregated(found, labels);
    },

    indexRecord: (row, parent) => write((s) => indexer.indexRecord(s, row, parent)),
    unindexRecord: (recordId, isDraft) => write((s) => indexer.unindexRecord(s, recordId, isDraft)),
    indexLatestFlags: (parentId, latestId) => write((s) => indexer.indexLatestFlags(s, parentId, latestId)),

    /** Into shadow tables, swapped in at the end (rebuild.ts), which logs the swap: every copy rebuilds. */
    rebuild: (since, fileTypes, hooks) => rebuildIndex(db, since, fileTypes, hooks),
    check: () => onSqlite(db, checkIndex),

    /** On the index rows; logged as one index write, so every copy re-reads the rows (see column-copy.ts). */
    setPopularity: (rows) => write((s) => rows.flatMap(({ parentId, views, downloads }) => indexer.setPopularity(s, parentId, views, downloads))),

    close: () => readers?.close(),

    listHarvestable: (filter, after, limit) => onSqlite(db, (s) => harvest.listHarvestable(s, filter, after, limit)),
    countHarvestable: (filter) => onSqlite(db, (s) => harvest.countHarvestable(s, filter)),
    selectedRecordIds: (ids, patterns) => onSqlite(db, (s) => harvest.selectedRecordIds(s, ids, patterns)),
    earliestHarvestable: () => onSqlite(db, harvest.earliestHarvestable),
    findPublicRecords: (ids) => onSqlite(db, (s) => harvest.findPublicRecords(s, ids)),
    indexedAccess: (id) => onSqlite(db, (s) => harvest.indexedAccess(s, id)),
  };
}
