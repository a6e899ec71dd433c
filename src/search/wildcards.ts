// Full-text wildcards (`volcan?`, `vol*no`), for every engine: a full-text index knows only
// trailing-`*` prefixes, so a pattern is expanded to the index terms it matches (a `Vocabulary`,
// each engine's own: sqlite/wildcards.ts, postgres/vocabulary.ts) before the query compiles, and
// every path that searches the query then looks up exactly those terms. The words of a pattern
// are cut as the tokenizer cuts text (tokens.ts).
import { invalidQuery } from "../core/errors";
import { globOf, literalPrefix, patternParts, type PatternPart } from "./bounds";
import { MAX_CLAUSE_COUNT, termTarget, type SearchSchema } from "./compile";
import type { QueryNode } from "./query-string";
import { foldTerm, SEPARATORS } from "./tokens";

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

/** A vocabulary a server engine answers asynchronously (one query per wildcard word). */
export type AsyncVocabulary = (...args: Parameters<Vocabulary>) => Promise<string[]>;

/**
 * `expandWildcards` with an asynchronous vocabulary: the words it asks for are collected by a first
 * pass, read, then answered to a second pass from what was read.
 */
export async function expandWildcardsAsync(node: QueryNode | null, schema: SearchSchema, vocabulary: AsyncVocabulary): Promise<QueryNode | null> {
  const asked = new Map<string, Parameters<Vocabulary>>();
  const keyOf = (args: Parameters<Vocabulary>) => JSON.stringify(args);
  expandWildcards(node, schema, (...args) => {
    asked.set(keyOf(args), args);
    return [];
  });
  if (asked.size === 0) return node;
  const answers = new Map(await Promise.all([...asked].map(async ([key, args]) => [key, await vocabulary(...args)] as const)));
  return expandWildcards(node, schema, (...args) => answers.get(keyOf(args)) ?? []);
}
