// Words as the vocabulary index holds them on PostgreSQL, cut and folded as SQLite's FTS5 tokenizer
// cuts them (search/tokens.ts), so both engines match the same entries: the entry's tsvector and
// the tsquery phrases are written here as literals, never through a text search parser or
// dictionary (whose own word rules, "cc-by-4.0" as one hyphenated word, would differ).
import { termsOf as wordsOf } from "../../search/tokens";
import type { Kind } from "../kinds";

/** Text with at least one letter or digit: FTS5 searches nothing else (search/sqlite/fts.ts). */
export const searchable = (s: string) => /[\p{L}\p{N}]/u.test(s);

/** Column `i`'s mark on a word: no word starts with `|`, so a plain prefix never reaches a marked word. */
export const columnMark = (i: number) => `|${i}|`;

// tsvector limits: positions up to 16383, 256 kept per word, words under 2 KiB.
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;
const MAX_WORD_BYTES = 2000;

/** A word as a tsvector/tsquery literal. */
export const quote = (word: string) => `'${word.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;

/** Each column's weight label (A for the heaviest), from the kind's relative weights. */
export function labelsOf(kind: Kind): string[] {
  const distinct = [...new Set(kind.weights)].sort((a, b) => b - a);
  return kind.weights.map((w) => "ABCD"[Math.min(distinct.indexOf(w), 3)]!);
}

/** ts_rank's weights ({D, C, B, A}) as a float4[] literal: each label's share of the heaviest weight. */
export function rankWeightsOf(kind: Kind): string {
  const labels = labelsOf(kind);
  const top = Math.max(...kind.weights);
  const of = (label: string) => {
    const i = labels.indexOf(label);
    return i < 0 ? 0.1 : kind.weights[i]! / top;
  };
  return `'{${["D", "C", "B", "A"].map(of).join(",")}}'`;
}

/**
 * An entry's column texts as a tsvector literal: every word plain and marked with its column, at
 * its position and with its column's weight. A column starts two positions after the last one
 * ends, so a phrase never runs from one column into the next (FTS5 phrases stay in a column).
 */
export function documentOf(kind: Kind, texts: string[]): string {
  const labels = labelsOf(kind);
  const positions = new Map<string, string[]>();
  const add = (word: string, at: string) => {
    const list = positions.get(word);
    if (!list) positions.set(word, [at]);
    else if (list.length < MAX_POSITIONS) list.push(at);
  };
  let position = 0;
  texts.forEach((text, column) => {
    for (const word of wordsOf(text)) {
      position = Math.min(position + 1, MAX_POSITION);
      if (Buffer.byteLength(word) > MAX_WORD_BYTES) continue;
      const at = `${position}${labels[column]}`;
      add(word, at);
      add(columnMark(column) + word, at);
    }
    position = Math.min(position + 1, MAX_POSITION);
  });
  return [...positions].map(([word, at]) => `${quote(word)}:${at.join(",")}`).join(" ");
}

/** A tsquery expression and how many FTS5 phrases it stands for (bestmatch ranks a single one). */
export interface TsQuery {
  q: string;
  phrases: number;
}

/**
 * One phrase (a prefix query on its last word when `prefix`) as a tsquery, limited to `columns`
 * (indexes into the kind's columns; null: any), or null when the text has nothing searchable.
 * Every compound result is parenthesised, so callers combine them without precedence worries.
 */
export function tsPhrase(value: string, prefix: boolean, columns: number[] | null): string | null {
  const words = wordsOf(value);
  if (!searchable(value) || words.length === 0) return null;
  const phrase = (mark: string) => {
    const body = words.map((w, i) => quote(mark + w) + (prefix && i === words.length - 1 ? ":*" : "")).join(" <-> ");
    return words.length > 1 ? `(${body})` : body;
  };
  const marks = columns === null ? [""] : columns.map(columnMark);
  return marks.length === 1 ? phrase(marks[0]!) : `(${marks.map(phrase).join(" | ")})`;
}

/** Search-as-you-type: every word of the input as a prefix, AND-ed, over the given columns (search/sqlite/fts.ts toFtsSuggest). */
export function tsSuggest(input: string, columns: number[]): TsQuery | null {
  const parts = input
    .split(/[^\p{L}\p{N}]+/u)
    .map((w) => tsPhrase(w, true, columns))
    .filter((p): p is string => p !== null);
  if (parts.length === 0) return null;
  return { q: parts.length === 1 ? parts[0]! : `(${parts.join(" & ")})`, phrases: parts.length };
}
