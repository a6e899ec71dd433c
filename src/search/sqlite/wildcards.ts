// SQLite's full-text vocabulary for wildcard expansion (../wildcards.ts): the terms of an FTS5
// index, read through an fts5vocab table.
import type { Database } from "bun:sqlite";
import { after } from "../bounds";
import type { Vocabulary } from "../wildcards";

export { expandWildcards, MAX_EXPANSIONS, type Vocabulary } from "../wildcards";

/**
 * An fts5vocab table over `table` in the connection's temp schema, made on first use. A reader
 * connection is `query_only`, which refuses even that: it is lifted for this one statement, which
 * writes nothing to the database file.
 */
function vocabTable(db: Database, table: string, type: "row" | "col"): string {
  const vocab = `${table}_vocab_${type}`;
  if (db.query("SELECT 1 FROM temp.sqlite_master WHERE name = ?").get(vocab)) return vocab;
  const queryOnly = (db.query("PRAGMA query_only").get() as { query_only: number }).query_only === 1;
  if (queryOnly) db.exec("PRAGMA query_only = 0");
  try {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocab} USING fts5vocab(main, ${table}, ${type})`);
  } finally {
    if (queryOnly) db.exec("PRAGMA query_only = 1");
  }
  return vocab;
}

/** The index's terms, through a vocabulary table (nothing stored: fts5vocab reads the index itself). */
export function ftsVocabulary(db: Database, table: string): Vocabulary {
  return (glob, prefix, columns, limit) => {
    // `row` has a row per term; `col` one per term and column, for a pattern on some columns only.
    const vocab = vocabTable(db, table, columns ? "col" : "row");
    const next = prefix ? after(prefix) : null;
    // fts5vocab serves the term range itself: a long literal prefix reads only the terms that start with it.
    const conds = [...(prefix ? ["term >= ?"] : []), ...(next !== null ? ["term < ?"] : []), "term GLOB ?", ...(columns ? [`col IN (${columns.map(() => "?").join(", ")})`] : [])];
    const params = [...(prefix ? [prefix] : []), ...(next !== null ? [next] : []), glob, ...(columns ?? []), limit];
    return db
      .query<{ term: string }, (string | number)[]>(`SELECT DISTINCT term FROM temp.${vocab} WHERE ${conds.join(" AND ")} ORDER BY term LIMIT ?`)
      .all(...params)
      .map((r) => r.term);
  };
}
