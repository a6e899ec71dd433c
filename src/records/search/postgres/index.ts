// The PostgreSQL engine of record search (the port is ../index.ts): a weighted tsvector per index
// row with a GIN index (record_fts), keyword terms and facet columns in the tables both engines
// share (record_index, record_terms), pg_trgm for wildcard expansion. Every call is a few
// statements through the database port; index writes join the caller's write transaction.
// SQLite's in-memory column copy and reader workers have no twin here: the server answers
// searches itself, for every process alike, so there is nothing to keep current or to offload.
import type { Db } from "../../../db/port";
import { vocabularyLabels, withAggregations, type EntryLookup } from "../facets";
import type { RecordSearch } from "../index";
import * as harvest from "./harvest";
import * as indexer from "./indexer";
import { checkIndex, rebuildIndex } from "./rebuild";
import { findRecords } from "./search";

/** `db` is the database port (PostgreSQL); `lookup` the vocabularies' entries, which label the facet buckets. */
export function createPostgresRecordSearch(db: Db, lookup: EntryLookup): RecordSearch {
  return {
    async search(scope, input, page, labels) {
      const found = await findRecords(db, scope, input, page);
      return withAggregations(found, await vocabularyLabels(found, lookup), labels);
    },

    indexRecord: (row, parent) => indexer.indexRecord(db, row, parent),
    unindexRecord: (recordId, isDraft) => indexer.unindexRecord(db, recordId, isDraft),
    indexLatestFlags: (parentId, latestId) => indexer.indexLatestFlags(db, parentId, latestId),
    setPopularity: (rows) => indexer.setPopularity(db, rows),
    indexedAccess: (id) => harvest.indexedAccess(db, id),

    // One transaction: writers wait for it, so `since` (writes made while it ran) has nothing to catch up.
    rebuild: (_since, fileTypes, hooks) => rebuildIndex(db, fileTypes, hooks),
    check: () => checkIndex(db),
    close: () => {},

    listHarvestable: (filter, after, limit) => harvest.listHarvestable(db, filter, after, limit),
    countHarvestable: (filter) => harvest.countHarvestable(db, filter),
    selectedRecordIds: (ids, patterns) => harvest.selectedRecordIds(db, ids, patterns),
    earliestHarvestable: () => harvest.earliestHarvestable(db),
    findPublicRecords: (ids) => harvest.findPublicRecords(db, ids),
  };
}
