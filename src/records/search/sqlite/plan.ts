// Which path answers a search, decided by reading the query tree: the in-memory path takes queries
// that are AND-ed publication-date ranges and full-text conditions (or nothing); anything else
// (keyword fields, other columns, negated non-text parts) goes to SQL.
import type { Bound } from "../../../search/bounds";
import { columnRange, flatten, type SearchSchema } from "../../../search/compile";
import { ftsExpression } from "../../../search/sqlite/compile";
import type { QueryNode } from "../../../search/query-string";
import type { MatchPlan } from "./memory-path";

const MAX_SET_PARTS = 16;

export interface MemoryPlan {
  /** The full-text condition, or null when the query constrains no text. */
  match: MatchPlan | null;
  /** Publication-date ranges, all of which must hold. */
  dateRanges: Bound[][];
}

/**
 * A full-text condition as set operations over single conditions, so that `a AND b` and `a OR b`
 * reuse each word's cached rows instead of asking FTS5 for every new combination. "everything"
 * when the node has nothing searchable; null when part of it is not full text.
 */
function matchPlan(schema: SearchSchema, node: QueryNode): MatchPlan | "everything" | null {
  // A set operation per part pays off for a few parts (each reads its cached rows); for many, one
  // FTS5 expression is cheaper than marking every part's rows.
  if ((node.kind === "and" || node.kind === "or") && node.items.length <= MAX_SET_PARTS) {
    const parts = node.items.map((item) => matchPlan(schema, item));
    if (parts.every((p): p is MatchPlan => p !== null && p !== "everything")) return { op: node.kind, parts };
  }
  const expression = ftsExpression(schema, node);
  if (expression === null) return "everything";
  return expression === undefined ? null : { match: expression };
}

/** The in-memory plan of a query, or null when SQL must answer it. */
export function memoryPlan(schema: SearchSchema, dateColumn: string, query: QueryNode | null): MemoryPlan | null {
  const node = query && flatten(query);
  const items = node === null ? [] : node.kind === "and" ? node.items : [node];
  const dateRanges: Bound[][] = [];
  const rest: QueryNode[] = [];
  for (const item of items) {
    const range = columnRange(item, schema);
    if (range && range.expr === dateColumn) dateRanges.push(range.limits);
    else rest.push(item);
  }
  if (rest.length === 0) return { match: null, dateRanges };
  const match = matchPlan(schema, rest.length === 1 ? rest[0]! : { kind: "and", items: rest });
  if (match === "everything") return { match: null, dateRanges };
  return match ? { match, dateRanges } : null;
}
