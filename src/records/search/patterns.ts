// OAI-PMH set query strings as one query tree, for every engine's harvest.
import { parseQueryString, type QueryNode } from "../../search/query-string";

/**
 * The patterns OR-ed: `"all"` when there are none given (every public record) or one selects
 * everything (an empty pattern), `"none"` for an empty list, else the tree to compile.
 */
export function patternsNode(patterns: string[] | undefined): QueryNode | "all" | "none" {
  if (patterns === undefined) return "all";
  if (patterns.length === 0) return "none";
  const nodes = patterns.map((p) => parseQueryString(p));
  if (nodes.some((n) => n === null)) return "all";
  return nodes.length === 1 ? nodes[0]! : { kind: "or", items: nodes as QueryNode[] };
}
