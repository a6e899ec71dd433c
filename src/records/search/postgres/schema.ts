// The record search schema (../schema.ts) on PostgreSQL: its compiler (numeric columns compared as
// numbers) and queries with their full-text wildcards expanded through the vocabulary table.
import type { Db } from "../../../db/port";
import { createPostgresCompiler } from "../../../search/postgres/compile";
import { postgresVocabulary } from "../../../search/postgres/vocabulary";
import type { QueryNode } from "../../../search/query-string";
import { expandWildcardsAsync } from "../../../search/wildcards";
import { RECORD_SEARCH_SCHEMA } from "../schema";

/** The integer columns of record_index that query strings compare (SQLite compares them by affinity). */
const NUMERIC = new Set(["r.version_index", "r.views", "r.downloads"]);

export const { compileQuery } = createPostgresCompiler(NUMERIC);

/** A record query with its full-text wildcards expanded to the index's words: what search and harvest compile. */
export const expandRecordQuery = (db: Db, node: QueryNode | null) => expandWildcardsAsync(node, RECORD_SEARCH_SCHEMA, postgresVocabulary(db, RECORD_SEARCH_SCHEMA.fts.table));
