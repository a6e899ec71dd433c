// FTS5 MATCH pieces: quoted phrases (compile.ts builds queries from them) and search-as-you-type.

/** An FTS5 string literal: every term is quoted, so no user input is read as FTS5 syntax. */
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Text with at least one letter or digit: FTS5 drops the rest, and an empty phrase is an error. */
const searchable = (s: string) => /[\p{L}\p{N}]/u.test(s);

/**
 * One quoted FTS5 phrase (a prefix query when `prefix`), limited to `columns` (null: all), or null
 * when the text has nothing FTS5 can search.
 */
export function ftsPhrase(value: string, prefix: boolean, columns: string[] | null): string | null {
  if (!searchable(value)) return null;
  const body = quote(value) + (prefix ? "*" : "");
  if (!columns) return body;
  return columns.length === 1 ? `${columns[0]} : ${body}` : `{${columns.join(" ")}} : ${body}`;
}

/** Search-as-you-type: every word of the input as a prefix, AND-ed, over the given columns. */
export function toFtsSuggest(input: string, columns: string[]): string | null {
  const words = input.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return null;
  const scope = columns.length === 1 ? columns[0]! : `{${columns.join(" ")}}`;
  return words.map((w) => `${scope} : ${quote(w)}*`).join(" AND ");
}

/** Number of phrases in a MATCH expression built here (each is one quoted string). */
export const phraseCount = (match: string | null): number => (match ? (match.match(/"(?:[^"]|"")*"/g) ?? []).length : 0);
