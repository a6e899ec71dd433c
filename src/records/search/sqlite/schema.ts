// The record search schema (../schema.ts) on SQLite: queries with their full-text wildcards expanded
// through the FTS5 vocabulary.
import type { SqliteDb } from "../../../db/sqlite/connection";
import type { QueryNode } from "../../../search/query-string";
import { ftsVocabulary } from "../../../search/sqlite/wildcards";
import { expandWildcards } from "../../../search/wildcards";
import { RECORD_SEARCH_SCHEMA } from "../schema";

export { RECORD_SEARCH_SCHEMA } from "../schema";

/** A record query with its full-text wildcards expanded to the index's terms: what search and harvest compile. */
export const expandRecordQuery = (db: SqliteDb, node: QueryNode | null) => expandWildcards(node, RECORD_SEARCH_SCHEMA, ftsVocabulary(db.$client, RECORD_SEARCH_SCHEMA.fts.table));
