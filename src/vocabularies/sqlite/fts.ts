// The vocabulary search engine on SQLite (the port: ../search.ts): one FTS5 index per directory
// type (one shared by the controlled lists), kept in step with vocabulary_entries, and the search
// that ranks with it.
import type { Db } from "../../db/port";
import { onConnection } from "../../db/sqlite/port";
import { compileQuery } from "../../search/sqlite/compile";
import { phraseCount, toFtsSuggest } from "../../search/sqlite/fts";
import { expandWildcards, ftsVocabulary } from "../../search/sqlite/wildcards";
import { KINDS, type Kind } from "../kinds";
import type { EntryRow, VocabularyType } from "../model";
import type { EntrySearch, VocabularySearch } from "../search";
import { entrySearchSql, indexTablesOf, searchSchemaOf, type EntryDialect } from "../search-sql";

/** The FTS5 table holding a type's entries; bm25 weighs its columns by `Kind.weights`. */
const TABLES = indexTablesOf("fts");

/** Adds an entry's texts to its type's index; inside the transaction that wrote the entry. */
async function indexEntry(db: Db, type: VocabularyType, pk: number, entry: Record<string, unknown>): Promise<void> {
  const kind = KINDS[type];
  const placeholders = kind.columns.map(() => "?").join(", ");
  await db.statements.run(`INSERT INTO ${TABLES[type]} (rowid, ${kind.columns.join(", ")}) VALUES (?, ${placeholders})`, [pk, ...kind.texts(entry)]);
}

async function indexEntries(db: Db, type: VocabularyType, rows: { pk: number; entry: Record<string, unknown> }[]): Promise<void> {
  if (rows.length === 0) return;
  const kind = KINDS[type];
  const row = `(?, ${kind.columns.map(() => "?").join(", ")})`;
  await db.statements.run(
    `INSERT INTO ${TABLES[type]} (rowid, ${kind.columns.join(", ")}) VALUES ${rows.map(() => row).join(", ")}`,
    rows.flatMap((r) => [r.pk, ...kind.texts(r.entry)]),
  );
}

async function unindexEntry(db: Db, type: VocabularyType, pk: number): Promise<void> {
  await db.statements.run(`DELETE FROM ${TABLES[type]} WHERE rowid = ?`, [pk]);
}

/**
 * The index's SQL. bm25 needs each phrase's document frequency, which FTS5 finds by walking the
 * phrase's whole doclist: cheap for one phrase whose matches are few, 25 ms for "University AND
 * Lovelace" at a million names. So bestmatch ranks by bm25 a single phrase only (search-sql.ts).
 */
const dialectOf = (kind: Kind, table: string): EntryDialect => ({
  key: "f.rowid",
  matches: `${table} MATCH ?`,
  hasTag: (placeholders) => `EXISTS (SELECT 1 FROM json_each(e.data, '$.tags') t WHERE t.value IN (${placeholders}))`,
  exact: { title: "json_extract(e.data, '$.title.en')", like: "LIKE ?" },
  rank: () => ({ sql: `bm25(${table}, ${kind.weights.join(", ")}), e.sort_key`, params: [] }),
});

/**
 * One page of a type's entries and the exact total, filtered and ordered in SQL. Runs on the
 * connection in one go: wildcard expansion reads the index's terms synchronously, and the count
 * and the page see the same rows.
 */
function searchEntries(db: Db, type: VocabularyType, search: EntrySearch): Promise<{ rows: EntryRow[]; total: number }> {
  const kind = KINDS[type];
  const table = TABLES[type];
  const schema = searchSchemaOf(kind, table);
  return onConnection(db, (sqlite) => {
    // The same query compiler as record search: a query that is one full-text condition is a
    // MATCH that can be ranked; anything else (e.g. `-word`) is a condition beside it.
    // `?` and inner `*` expand to the index's own terms, as in record search (search/sqlite/wildcards.ts).
    const compiled = compileQuery(expandWildcards(search.query, schema, ftsVocabulary(sqlite, table)), schema);
    const condition = compiled.ftsOnly === null && compiled.where !== "1 = 1" ? { sql: compiled.where, params: compiled.params } : null;
    const parts = [compiled.ftsOnly, toFtsSuggest(search.suggest, kind.suggestColumns)].filter((p): p is string => p !== null);
    const match = parts.length ? parts.join(" AND ") : null;
    const sql = entrySearchSql(type, table, match === null ? null : { q: match, phrases: phraseCount(match) }, condition, search, dialectOf(kind, table));
    const total = sqlite.query<{ n: number }, (string | number)[]>(sql.count.sql).get(...sql.count.params)?.n ?? 0;
    const page = sql.page(total);
    const rows = sqlite.query<EntryRow, (string | number)[]>(page.sql).all(...page.params);
    return { rows, total };
  });
}

export const sqliteVocabularySearch: VocabularySearch = { indexEntry, indexEntries, unindexEntry, searchEntries };
