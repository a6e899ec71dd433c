// Vocabulary entries of every type (controlled lists and the directories: names, funders...).
// Each type's full-text index is a SQLite full-text table keyed by `pk` (see the vocabulary_fts migration).
// Only drizzle-kit reads these declarations (to generate migrations): src/vocabularies/store.ts
// queries the tables with its own SQL.
// Dialect-specific (src/vocabularies/store.ts): the vocab_*_fts full-text tables (indexEntry/
// unindexEntry keyed by `rowid` = pk; searchEntries' `MATCH`, bestmatchOrder's `bm25(…)` and
// `f.rowid` order) -> a tsvector column with a GIN index, `@@` and ts_rank; the service's query
// compiler (src/search/sqlite/: GLOB, the full-text vocabulary's wildcards) the same; the tags filter's
// `json_each(e.data, '$.tags')` -> `jsonb_array_elements_text(e.data->'tags')` (or `?|`);
// countEntries' `?1`/`?2` -> `$1`/`$2`; upsertEntry tells "unchanged" by comparing the stored JSON
// text, which jsonb normalises (keep data as json/text, or compare parsed). saveFixtureVersion's
// ON CONFLICT … excluded is portable.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const vocabularyEntriesTable = sqliteTable(
  "vocabulary_entries",
  {
    pk: integer("pk").primaryKey({ autoIncrement: true }),
    type: text("type").notNull(),
    id: text("id").notNull(),
    /** The entry as the API shows it, without timestamps, revision and links. */
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** Lower-cased name or title: the `name`/`title` sorts. */
    sortKey: text("sort_key").notNull(),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
    /** When an administrator retired the entry: records that name it keep it, new choices no longer offer it. */
    retiredAt: integer("retired_at"),
  },
  (t) => [
    uniqueIndex("vocabulary_entries_type_id").on(t.type, t.id),
    index("vocabulary_entries_sort").on(t.type, t.sortKey),
    index("vocabulary_entries_created").on(t.type, t.created),
  ],
);

/** Which version of the shipped fixtures is loaded, so a new release upgrades them once. */
export const fixtureVersionsTable = sqliteTable("fixture_versions", {
  name: text("name").primaryKey(),
  version: text("version").notNull(),
  loadedAt: integer("loaded_at").notNull(),
});

/** Entries per type, kept exact in the same transactions as the entries: counting a million-row
 * type on every unfiltered listing would cost tens of milliseconds. */
export const vocabularyCountsTable = sqliteTable("vocabulary_counts", {
  type: text("type").primaryKey(),
  entries: integer("entries").notNull().default(0),
});
