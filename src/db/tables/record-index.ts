// The search index of published records: one row per record version with the columns searches
// sort and filter on, exact-value terms for fielded queries and facets, and (in the
// record_index_fts migration) a SQLite full-text table keyed by `key`. Written in the same transaction as
// the record, so a search right after a publish finds it.
// Only drizzle-kit reads these declarations (to generate migrations): the search code queries the
// tables with its own SQL (src/records/search/*, the records policy's scopes).
// Dialect-specific: record_fts is SQLite full-text (contentless, rowid = key; sql-path `bm25(…)`,
// memory-path `group_concat(rowid)`); on PostgreSQL (src/db/postgres/migrations/0000_record_search.sql,
// src/records/search/postgres/) it is a table of (key, doc tsvector with GIN, length), its words
// cut as SQLite's tokenizer cuts them (src/search/postgres/text.ts), ranked by the same bm25
// formula (bm25.ts), and full-text wildcards expand through record_fts_vocab (pg_trgm), where
// SQLite reads its full-text index's own vocabulary table (src/search/sqlite/wildcards.ts).
// Keyword and column wildcards are GLOB on SQLite, anchored `~` on PostgreSQL
// (src/search/*/compile.ts).
// is_draft/deleted/is_latest are 0/1 integers on both engines (records/policy.ts scopeSql runs on
// both); the indexer's `is_latest IS NOT (…)` is a CASE with IS DISTINCT FROM there; SQLite's rebuild
// uses shadow tables (sqlite_master, the page cache), PostgreSQL's one transaction; column-copy.ts
// (SQLite only) reads index_changes, the log of index writes. languages, file_types, communities are
// comma-joined text on both.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const recordIndexTable = sqliteTable(
  "record_index",
  {
    key: integer("key").primaryKey({ autoIncrement: true }),
    recordId: text("record_id").notNull(),
    /** Drafts are indexed too, for the owner's own listing (`/api/user/records`); public search skips them. */
    isDraft: integer("is_draft", { mode: "boolean" }).notNull().default(false),
    parentId: text("parent_id").notNull(),
    ownerId: integer("owner_id"),
    /** A deleted record (a tombstone): kept so OAI-PMH sets still select its deleted header; every search scope leaves it out. */
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    /** A bit per full-text field the record has a value for (records/search/sqlite/schema.ts `presence`): `_exists_` on those fields. */
    present: integer("present").notNull().default(0),
    isLatest: integer("is_latest", { mode: "boolean" }).notNull(),
    accessRecord: text("access_record").notNull(),
    accessStatus: text("access_status").notNull(),
    resourceType: text("resource_type"),
    /** The resource type's parent (`image` for `image-photo`): the outer facet level. */
    resourceTypeParent: text("resource_type_parent"),
    /** Language ids, sorted and comma-joined: lets one grouped pass count every facet. */
    languages: text("languages").notNull().default(""),
    /** File extensions, sorted and comma-joined, for the same grouped pass (the file_type facet). */
    fileTypes: text("file_types").notNull().default(""),
    /** Ids of the communities the record's parent is included in, sorted and comma-joined (the communities facet). */
    communities: text("communities").notNull().default(""),
    /** Start of the EDTF publication date or interval, as written (`2020`, `2020-06`, `2020-06-01`). */
    publicationDate: text("publication_date"),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    /** ISO `YYYY-MM-DDTHH:MM:SS` copies of created/updated, for range queries in query strings. */
    createdIso: text("created_iso").notNull(),
    updatedIso: text("updated_iso").notNull(),
    versionIndex: integer("version_index").notNull(),
    views: integer("views").notNull().default(0),
    downloads: integer("downloads").notNull().default(0),
  },
  (t) => [
    uniqueIndex("record_index_record_draft").on(t.recordId, t.isDraft),
    index("record_index_parent").on(t.parentId, t.versionIndex),
    index("record_index_latest_created").on(t.isLatest, t.created),
    index("record_index_latest_updated").on(t.isLatest, t.updated),
    index("record_index_owner").on(t.ownerId),
    // OAI-PMH harvests page public records by (updated, record_id).
    index("record_index_harvest").on(t.isDraft, t.accessRecord, t.updated, t.recordId),
  ],
);

/** Exact values (lower-cased) by field, for keyword queries and facets: `(key, field, value)`. */
export const recordTermsTable = sqliteTable(
  "record_terms",
  {
    key: integer("key").notNull(),
    field: text("field").notNull(),
    value: text("value").notNull(),
  },
  (t) => [index("record_terms_field_value").on(t.field, t.value, t.key), index("record_terms_key").on(t.key)],
);

/**
 * The SQLite index's change log: each index write, by any process, adds one row in its
 * transaction naming the record_index keys it touched (comma-joined; null when too many to name,
 * as a rebuild). A process's in-memory copy of the index (column-copy.ts) reads the rows past the
 * one it has seen and re-reads just those keys, so another process's publication is patched in as
 * the process's own are, and commits that do not touch the index (statistics, sessions, rate
 * counts) leave it alone. The writer prunes old rows; a copy further behind is rebuilt.
 * PostgreSQL keeps no copy and writes no log.
 */
export const indexChangesTable = sqliteTable("index_changes", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  keys: text("keys"),
});
