// Compiles a parsed query string into an SQLite FTS5 MATCH expression over named columns.
import type { QueryNode } from "./query-string";

/** Query field names (as clients write them) -> FTS5 column names. */
export type FieldColumns = Record<string, string>;

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

function term(node: Extract<QueryNode, { kind: "term" }>, fields: FieldColumns, defaultColumns: string[] | null): string | null {
  const column = node.field === null ? null : fields[node.field];
  return ftsPhrase(node.value, node.prefix, column ? [column] : defaultColumns);
}

/**
 * Returns the MATCH expression, or null when the query constrains nothing that FTS5 can express
 * (empty words, or negations alone): the caller then lists everything.
 * Unknown fields search every column (InvenioRDM answers them rather than failing).
 */
export function toFtsMatch(node: QueryNode | null, fields: FieldColumns, defaultColumns: string[] | null = null): string | null {
  if (!node) return null;
  switch (node.kind) {
    case "term":
      return term(node, fields, defaultColumns);
    case "not":
      // A negation needs something to subtract from; alone it constrains nothing here.
      return null;
    case "range":
    case "exists":
      // Vocabulary indexes are full-text only: there is no column to compare, so no constraint.
      return null;
    case "or": {
      const parts = node.items.map((n) => toFtsMatch(n, fields, defaultColumns));
      // One side matching everything makes the whole OR match everything.
      if (parts.some((p) => p === null)) return null;
      return parts.length === 1 ? parts[0]! : `(${parts.join(" OR ")})`;
    }
    case "and": {
      const positive = node.items.filter((n) => n.kind !== "not").map((n) => toFtsMatch(n, fields, defaultColumns)).filter((p): p is string => p !== null);
      if (positive.length === 0) return null;
      const negative = node.items
        .filter((n): n is Extract<QueryNode, { kind: "not" }> => n.kind === "not")
        .map((n) => toFtsMatch(n.item, fields, defaultColumns))
        .filter((p): p is string => p !== null);
      const base = positive.length === 1 ? positive[0]! : `(${positive.join(" AND ")})`;
      return negative.reduce((acc, neg) => `${acc} NOT ${neg}`, base);
    }
  }
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
