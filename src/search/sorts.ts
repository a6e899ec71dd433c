// Which sort a search uses: the one asked for when it is offered, bestmatch only with a query, and
// a 400 naming the offered options otherwise (records and vocabularies alike).
import { invalidQuery } from "../core/errors";

export interface SortChoice {
  /** The sort options this search offers. */
  options: string[];
  /** `sort` as the client sent it (an empty value means none). */
  requested: string | undefined;
  /** Whether the search has a query: bestmatch means nothing without one. */
  hasQuery: boolean;
  /** The sort without a query (and with one, when bestmatch is not offered). */
  defaultSort: string;
}

export function chooseSort({ options, requested, hasQuery, defaultSort }: SortChoice): string {
  if (requested !== undefined && requested !== "" && !options.includes(requested)) {
    throw invalidQuery([{ field: "sort", messages: [`Must be one of: ${options.join(", ")}.`] }]);
  }
  if (requested && (requested !== "bestmatch" || hasQuery)) return requested;
  return hasQuery && options.includes("bestmatch") ? "bestmatch" : defaultSort;
}
