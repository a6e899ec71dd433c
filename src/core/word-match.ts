// Word-prefix matching in SQL for the small directories (users, groups): every query word must
// start a word of one of the searched columns, case-insensitively, whatever characters it holds.
import { and, or, sql, type SQL } from "drizzle-orm";

/** Letters and digits of the Latin, Greek and Cyrillic scripts; any other character separates words. */
const WORD_CHARACTERS = "0-9A-Za-zÀ-ÖØ-öø-ɏͰ-ϿЀ-ӿ";
const SEPARATOR = `[^${WORD_CHARACTERS}]`;

// Bounds keep the GLOB patterns far below SQLite's pattern-length limit, whatever a client sends.
const MAX_WORDS = 10;
const MAX_WORD_LENGTH = 64;

/**
 * The words of a query. A `field:` prefix and leading and trailing punctuation are dropped, so
 * query-string habits (`"alice"`, `data*`, `(x`, `name:x`) still find what they mean; a word of
 * punctuation alone is ignored.
 */
export function queryWords(q: string | undefined | null): string[] {
  return (q ?? "")
    .normalize("NFC")
    .split(/\s+/)
    .map((w) => w.replace(/^[A-Za-z_][\w.]*:(?=.)/, ""))
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "").slice(0, MAX_WORD_LENGTH))
    .filter(Boolean)
    .slice(0, MAX_WORDS);
}

/**
 * A GLOB pattern for "a word starting with `word`". GLOB rather than LIKE: it can say "after a
 * separator", and a per-character class (`[eE]`) gives case-insensitivity beyond ASCII, which
 * SQLite's lower() and LIKE lack.
 */
export function wordPrefixGlob(word: string): string {
  let body = "";
  for (const c of word) {
    const cases = [...new Set([c, c.toLowerCase(), c.toUpperCase()])].filter((v) => [...v].length === 1);
    if (cases.length > 1) body += `[${cases.join("")}]`;
    else if (c === "*" || c === "?" || c === "[") body += `[${c}]`;
    else body += c;
  }
  return `*${SEPARATOR}${body}*`;
}

/**
 * `column` matches a `wordPrefixGlob` pattern. Written as SQLite's glob() function, which
 * PostgreSQL's schema also provides (db/postgres/migrations/0000_functions.sql): one SQL text on
 * both engines. The leading space lets a word at the very start of the text match too.
 */
export const wordPrefixMatch = (column: SQL, pattern: string): SQL => sql`glob(${pattern}, ' ' || coalesce(${column}, ''))`;

/**
 * `value` as SQL's lower() folds a stored column: ASCII letters only (SQLite's lower(), and
 * PostgreSQL's on Cairn's `COLLATE "C"` text). Compared with `lower(column)`, it matches what the
 * lower() unique indexes hold alike on both engines; PostgreSQL's lower() of a bound value would
 * fold every script by the database's locale.
 */
export const sqlLower = (value: string): string => value.replace(/[A-Z]+/g, (s) => s.toLowerCase());

/** True when every word starts a word of at least one column; undefined (no condition) without words. */
export function matchAllWords(words: string[], columns: SQL[]): SQL | undefined {
  if (words.length === 0) return undefined;
  return and(
    ...words.map((word) => {
      const pattern = wordPrefixGlob(word);
      return or(...columns.map((column) => wordPrefixMatch(column, pattern)));
    }),
  );
}
