// bm25 on PostgreSQL, computed as the SQLite engine ranks (SQLite's full-text bm25()), so bestmatch
// orders alike on both engines: for each phrase of the match, its idf over the whole full-text
// table (rows holding it among all rows) times its weighted frequency in the row, damped by the
// row's length against the average (k1 = 1.2, b = 0.75). The phrases are the words of a tsquery
// written by text.ts (bestmatch ranks only single-word phrases, see `rankableTsQuery`), a word's
// frequency the sum of its positions' column weights. The full-text table has (key, doc, length)
// and a `<table>_stats` row of (rows, words).
import type { Db } from "../../db/port";
import { after } from "../bounds";

const K1 = 1.2;
const B = 0.75;

type Sql = { sql: string; params: (string | number)[] };

/** The words of a tsquery written by text.ts, in order, each with whether it is a prefix. */
export function phrasesOf(tsquery: string): { word: string; prefix: boolean }[] {
  return [...tsquery.matchAll(/'((?:[^']|'')*)'(:\*)?/g)].map((m) => ({ word: m[1]!.replace(/''/g, "'").replace(/\\(.)/g, "$1"), prefix: m[2] !== undefined }));
}

/** A word's lexemes as a condition on `u.lexeme` (the exact word, or the words it is a prefix of). */
function lexemeSql(word: string, prefix: boolean): Sql {
  if (!prefix) return { sql: "u.lexeme = ?", params: [word] };
  const next = after(word);
  return next === null ? { sql: "u.lexeme >= ?", params: [word] } : { sql: "u.lexeme >= ? AND u.lexeme < ?", params: [word, next] };
}

/** A float8 as SQL, so PostgreSQL computes in doubles as SQLite does. */
const f8 = (x: number) => `${x}::float8`;

/**
 * The bm25 score of the match in each row of `f` (the full-text table's alias), as a lateral join
 * (`from`, joined after `f`) and the expression to order by (`score`, larger first). `weights`
 * gives each weight label's column weight (bm25's per-column weights).
 */
export async function bm25(db: Db, table: string, tsquery: string, weights: Record<"A" | "B" | "C" | "D", number>): Promise<{ from: Sql; score: Sql }> {
  const phrases = phrasesOf(tsquery);
  const stats = (await db.statements.get<{ rows: number; words: number }>(`SELECT rows, words FROM ${table}_stats`)) ?? { rows: 0, words: 0 };
  const avgdl = stats.rows > 0 ? stats.words / stats.rows : 0;
  const idfs: number[] = [];
  for (const { word, prefix } of phrases) {
    const hits = (await db.statements.get<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE doc @@ ?::tsquery`, [
      `'${word.replace(/\\/g, "\\\\").replace(/'/g, "''")}'${prefix ? ":*" : ""}`,
    ]))!.n;
    const idf = Math.log((stats.rows - hits + 0.5) / (hits + 0.5));
    idfs.push(idf <= 0 ? 1e-6 : idf);
  }
  const weight = `CASE w ${Object.entries(weights)
    .map(([label, value]) => `WHEN '${label}' THEN ${f8(value)}`)
    .join(" ")} END`;
  // One pass over the row's words for every phrase: each phrase's frequency is the sum of its positions' weights.
  const lexemes = phrases.map(({ word, prefix }) => lexemeSql(word, prefix));
  const sums = lexemes.map((l, i) => `coalesce(sum(CASE WHEN ${l.sql} THEN ${weight} END), ${f8(0)}) AS t${i}`);
  const from = phrases.length
    ? {
        sql: `CROSS JOIN LATERAL (SELECT ${sums.join(", ")} FROM unnest(f.doc) AS u, unnest(u.weights) AS w WHERE ${lexemes.map((l) => `(${l.sql})`).join(" OR ")}) AS tf`,
        params: [...lexemes.flatMap((l) => l.params), ...lexemes.flatMap((l) => l.params)],
      }
    : { sql: "", params: [] };
  // Summed in SQLite's bm25() order, so the doubles round alike: score += idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)).
  const damping = `(${f8(K1)} * (${f8(1 - B)} + ${f8(B)} * f.length::float8 / ${f8(avgdl || 1)}))`;
  const terms = phrases.map((_, i) => `${f8(idfs[i]!)} * ((tf.t${i} * ${f8(K1 + 1)}) / (tf.t${i} + ${damping}))`);
  return { from, score: { sql: [f8(0), ...terms].join(" + "), params: [] } };
}
