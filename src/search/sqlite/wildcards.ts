// Full-text wildcards (`volcan?`, `vol*no`): FTS5 only knows trailing-`*` prefixes, so a pattern is
// expanded to the index terms it matches (read from an fts5vocab table) before the query compiles,
// and every path that searches the query (SQL, in-memory) then looks up exactly those terms.
import type { Database } from "bun:sqlite";
import { invalidQuery } from "../../core/errors";
import { after, globOf, literalPrefix, patternParts, type PatternPart } from "./bounds";
import { MAX_CLAUSE_COUNT, termTarget, type SearchSchema } from "./compile";
import type { QueryNode } from "../query-string";

type Term = Extract<QueryNode, { kind: "term" }>;

/**
 * The index terms matching `glob` (all starting with `prefix`), ascending, at most `limit`, within
 * `columns` (null: any column).
 */
export type Vocabulary = (glob: string, prefix: string, columns: string[] | null, limit: number) => string[];

/**
 * Most terms one wildcard may expand to: OpenSearch's `max_clause_count` (the limit of a wildcard
 * rewritten into OR-ed terms). A pattern matching more is a 400 that asks for a longer one, not a
 * silently partial answer; the expanded terms also count towards the query's clauses (compile.ts).
 */
export const MAX_EXPANSIONS = MAX_CLAUSE_COUNT;

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

/** As the tokenizer (unicode61 remove_diacritics 2) stores terms: lower case, no diacritics. */
const foldTerm = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Characters the tokenizer does not keep in a term: they separate a pattern's words. */
const SEPARATORS = /[^\p{L}\p{N}\p{Co}]+/u;

/** A pattern's words as the tokenizer cuts text: a separator between literals ends a word. */
function patternWords(parts: PatternPart[]): PatternPart[][] {
  const words: PatternPart[][] = [[]];
  for (const part of parts) {
    if ("wild" in part) words[words.length - 1]!.push(part);
    else
      foldTerm(part.literal)
        .split(SEPARATORS)
        .forEach((piece, i) => {
          if (i > 0) words.push([]);
          if (piece) words[words.length - 1]!.push({ literal: piece });
        });
  }
  return words.filter((w) => w.length > 0);
}

/** One word of a full-text pattern as a term: exact, a prefix, or expanded; null for `*` alone (any term). */
function wordTerm(node: Term, word: PatternPart[], columns: string[] | null, vocabulary: Vocabulary): Term | null {
  const literal = (part: PatternPart) => ("literal" in part ? part.literal : "");
  const firstWild = word.findIndex((p) => "wild" in p);
  const head = word
    .slice(0, firstWild < 0 ? word.length : firstWild)
    .map(literal)
    .join("");
  const base = { kind: "term", field: node.field, value: head, phrase: false } as const;
  if (firstWild < 0) return { ...base, prefix: false };
  if (word.slice(firstWild).every((p) => "wild" in p && p.wild === "*")) return head ? { ...base, prefix: true } : null;
  const pattern = word.map((p) => ("wild" in p ? p.wild : p.literal.replace(/[*?\\]/g, "\\$&"))).join("");
  const glob = globOf(word, (s) => s);
  const expansion = vocabulary(
    glob,
    literalPrefix(word, (s) => s),
    columns,
    MAX_EXPANSIONS + 1,
  );
  if (expansion.length > MAX_EXPANSIONS) {
    throw invalidQuery([
      { field: "q", messages: [`The wildcard ${node.wildcard} matches more than ${MAX_EXPANSIONS} terms of the index; make it more specific (max_clause_count).`] },
    ]);
  }
  return { ...base, prefix: false, wildcard: pattern, expansion };
}

/**
 * A full-text wildcard term as the terms it stands for. A pattern across separators (`covid-1?`)
 * becomes its words AND-ed, each exact, a prefix or expanded: FTS5 phrases cannot hold
 * alternatives, so the words need not be adjacent (OpenSearch would match nothing there).
 */
function expandTerm(node: Term, columns: string[] | null, vocabulary: Vocabulary): QueryNode {
  const items = patternWords(patternParts(node.wildcard!))
    .map((word) => wordTerm(node, word, columns, vocabulary))
    .filter((t): t is Term => t !== null);
  // Nothing but stars: any term, which full text drops as it drops `*`.
  if (items.length === 0) return { kind: "term", field: node.field, value: "", phrase: false, prefix: true };
  return items.length === 1 ? items[0]! : { kind: "and", items };
}

/** The query with each full-text wildcard expanded against `vocabulary`; keyword and column wildcards stay (they compile to GLOB). */
export function expandWildcards(node: QueryNode | null, schema: SearchSchema, vocabulary: Vocabulary): QueryNode | null {
  if (node === null) return null;
  switch (node.kind) {
    case "term": {
      if (node.wildcard === undefined || node.expansion !== undefined) return node;
      const target = termTarget(schema, node.field);
      return target.kind === "fts" ? expandTerm(node, target.columns, vocabulary) : node;
    }
    case "not":
      return { kind: "not", item: expandWildcards(node.item, schema, vocabulary)! };
    case "and":
    case "or":
      return { kind: node.kind, items: node.items.map((item) => expandWildcards(item, schema, vocabulary)!) };
    default:
      return node;
  }
}
