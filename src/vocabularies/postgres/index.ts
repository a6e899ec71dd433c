// The vocabulary search engine on PostgreSQL (the port: ../search.ts): a tsvector per entry in its
// type's index table (migrations/0000_vocabulary_search.sql) with a GIN index, searched with the
// rules of the SQLite engine (sqlite/fts.ts): the same words (search/postgres/text.ts), the same
// query decisions (query.ts), the same filters and orders (../search-sql.ts); ts_rank with the
// columns' weights stands in for bm25.
import type { Db } from "../../db/port";
import { allOf, tsSuggest, type TsQuery } from "../../search/postgres/text";
import { KINDS, type Kind } from "../kinds";
import type { EntryRow, VocabularyType } from "../model";
import type { EntrySearch, VocabularySearch } from "../search";
import { entrySearchSql, indexTablesOf, type EntryDialect } from "../search-sql";
import { compileVocabularyQuery, expandVocabularyQuery } from "./query";
import { documentOf, markNamesOf, rankWeightsOf } from "./text";

const TABLES = indexTablesOf("search");

async function indexEntry(db: Db, type: VocabularyType, pk: number, entry: Record<string, unknown>): Promise<void> {
  const kind = KINDS[type];
  await db.statements.run(`INSERT INTO ${TABLES[type]} (pk, doc) VALUES (?, ?::tsvector)`, [pk, documentOf(kind, kind.texts(entry))]);
}

async function indexEntries(db: Db, type: VocabularyType, rows: { pk: number; entry: Record<string, unknown> }[]): Promise<void> {
  if (rows.length === 0) return;
  const kind = KINDS[type];
  await db.statements.run(
    `INSERT INTO ${TABLES[type]} (pk, doc) VALUES ${rows.map(() => "(?, ?::tsvector)").join(", ")}`,
    rows.flatMap((r) => [r.pk, documentOf(kind, kind.texts(r.entry))]),
  );
}

async function unindexEntry(db: Db, type: VocabularyType, pk: number): Promise<void> {
  await db.statements.run(`DELETE FROM ${TABLES[type]} WHERE pk = ?`, [pk]);
}

/**
 * The index's SQL. ts_rank with the columns' weights plays bm25, its length normalisation 2
 * (divided by the entry's length) bm25's length norm: vocabulary entries are short, and a shorter
 * one naming the word is the better hit ("Ocean observations" before a long title that says
 * "ocean" twice), as bm25 has it. Equal ranks fall back to the name, then the key.
 */
const dialectOf = (kind: Kind): EntryDialect => ({
  key: "f.pk",
  matches: "f.doc @@ ?::tsquery",
  // An entry's tags are a list (validate.ts); anything else has none.
  hasTag: (placeholders) =>
    `EXISTS (SELECT 1 FROM json_array_elements_text(CASE WHEN json_typeof(e.data->'tags') = 'array' THEN e.data->'tags' ELSE '[]'::json END) t(v) WHERE t.v IN (${placeholders}))`,
  exact: { title: `((e.data->'title'->>'en') COLLATE "C")`, like: "LIKE ? ESCAPE ''" },
  rank: (q) => ({ sql: `ts_rank(${rankWeightsOf(kind)}, f.doc, ?::tsquery, 2) DESC, e.sort_key, e.pk`, params: [q] }),
});

/** One page of a type's entries and the exact total, filtered and ordered in SQL (the rules: ../search-sql.ts). */
async function searchEntries(db: Db, type: VocabularyType, search: EntrySearch): Promise<{ rows: EntryRow[]; total: number }> {
  const kind = KINDS[type];
  const table = TABLES[type];
  const compiled = compileVocabularyQuery(await expandVocabularyQuery(db, kind, table, search.query), kind, table);
  const condition = compiled.ftsOnly === null && compiled.where !== "1 = 1" ? { sql: compiled.where, params: compiled.params } : null;
  const query: TsQuery | null = compiled.ftsOnly === null ? null : { q: compiled.ftsOnly, phrases: compiled.phrases };
  const match = allOf([query, tsSuggest(search.suggest, markNamesOf(kind, kind.suggestColumns))].filter((p): p is TsQuery => p !== null));
  const sql = entrySearchSql(type, table, match, condition, search, dialectOf(kind));
  const total = (await db.statements.get<{ n: number }>(sql.count.sql, sql.count.params))?.n ?? 0;
  const page = sql.page(total);
  return { rows: await db.statements.all<EntryRow>(page.sql, page.params), total };
}

export const postgresVocabularySearch: VocabularySearch = { indexEntry, indexEntries, unindexEntry, searchEntries };
