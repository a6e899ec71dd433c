// Full text on PostgreSQL as tsvector and tsquery literals, written here from the terms the SQLite
// engine's tokenizer makes (../tokens.ts), never through a text search parser or dictionary (whose
// word rules, "covid-19" as one hyphenated word, stemming, would differ): both engines index and
// search the same words. A document holds each word twice at the same positions: bare, for words
// searched in every column, and marked with its column (`|title|ocean`), for a search on one.
import { termsOf } from "../tokens";

// tsvector limits: positions up to 16383, 256 kept per word, words under 2 KiB.
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;
const MAX_WORD_BYTES = 2000;

/** Column `name`'s mark on a word: no word starts with `|`, so a bare prefix never reaches a marked word. */
export const columnMark = (name: string) => `|${name}|`;

/** A word as a tsvector/tsquery literal. */
export const quote = (word: string) => `'${word.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;

/** One column of a document: its name (the mark), its ts_rank weight label and its text. */
export interface DocumentColumn {
  name: string;
  weight: "A" | "B" | "C" | "D";
  text: string;
}

/**
 * A document's columns as a tsvector literal: every word bare and marked with its column, at its
 * position and with its column's weight. A column starts two positions after the last one ends,
 * so a phrase never runs from one column into the next (as on SQLite, a phrase stays in its column).
 */
export function documentOf(columns: DocumentColumn[]): string {
  const positions = new Map<string, string[]>();
  const add = (word: string, at: string) => {
    const list = positions.get(word);
    if (!list) positions.set(word, [at]);
    else if (list.length < MAX_POSITIONS) list.push(at);
  };
  let position = 0;
  for (const column of columns) {
    for (const word of termsOf(column.text)) {
      position = Math.min(position + 1, MAX_POSITION);
      if (Buffer.byteLength(word) > MAX_WORD_BYTES) continue;
      const at = `${position}${column.weight}`;
      add(word, at);
      add(columnMark(column.name) + word, at);
    }
    position = Math.min(position + 1, MAX_POSITION);
  }
  return [...positions].map(([word, at]) => `${quote(word)}:${at.join(",")}`).join(" ");
}

/** The distinct words of each column, for the wildcard vocabulary: [word, column name]. */
export const columnWords = (columns: DocumentColumn[]): [string, string][] =>
  columns.flatMap((c) => [...new Set(termsOf(c.text))].filter((w) => Buffer.byteLength(w) <= MAX_WORD_BYTES).map((w): [string, string] => [w, c.name]));

/** Text with at least one letter or digit: SQLite's full text searches nothing else (sqlite/fts.ts). */
const searchable = (s: string) => /[\p{L}\p{N}]/u.test(s);

/**
 * One phrase (a prefix query on its last word when `prefix`) as a tsquery, limited to `columns`
 * (null: any), or null when the text has nothing searchable: the SQLite engine's quoted phrase
 * (sqlite/fts.ts ftsPhrase). Every compound result is parenthesised, so callers combine them
 * without precedence worries.
 */
export function tsPhrase(value: string, prefix: boolean, columns: string[] | null): string | null {
  const words = termsOf(value);
  if (!searchable(value) || words.length === 0) return null;
  const phrase = (mark: string) => {
    const body = words.map((w, i) => quote(mark + w) + (prefix && i === words.length - 1 ? ":*" : "")).join(" <-> ");
    return words.length > 1 ? `(${body})` : body;
  };
  const marks = columns === null ? [""] : columns.map(columnMark);
  return marks.length === 1 ? phrase(marks[0]!) : `(${marks.map(phrase).join(" | ")})`;
}

/** A tsquery expression and how many phrases it stands for (bestmatch ranks a single one). */
export interface TsQuery {
  q: string;
  phrases: number;
}

/** Tsqueries AND-ed (null for none), their phrases counted together. */
export function allOf(parts: TsQuery[]): TsQuery | null {
  if (parts.length === 0) return null;
  return { q: parts.length === 1 ? parts[0]!.q : `(${parts.map((p) => p.q).join(" & ")})`, phrases: parts.reduce((n, p) => n + p.phrases, 0) };
}

/** Search-as-you-type: every word of the input as a prefix, AND-ed, over `columns` (sqlite/fts.ts toFtsSuggest). */
export const tsSuggest = (input: string, columns: string[]): TsQuery | null =>
  allOf(
    input
      .split(/[^\p{L}\p{N}]+/u)
      .map((w) => tsPhrase(w, true, columns))
      .filter((q): q is string => q !== null)
      .map((q) => ({ q, phrases: 1 })),
  );

/**
 * Whether bestmatch ranks a tsquery built here, as search on SQLite decides for its MATCH (records'
 * sqlite/search.ts `rankable`): at most `maxPhrases` words, each a phrase of one word.
 */
export function rankableTsQuery(q: string, maxPhrases: number): boolean {
  return !q.includes("<->") && (q.match(/'(?:[^']|'')*'/g) ?? []).length <= maxPhrases;
}
