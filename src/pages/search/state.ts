// The state of a search page, all of it in the URL (query, sort, page, size, facet values), read
// from the request and written back into links, so any search can be bookmarked and reloaded.
import { queryParams } from "../../core/links";

export interface SearchState {
  /** The page the search form submits to (`/search`, `/communities/{slug}`). */
  action: string;
  /** The URL's parameters as given. */
  params: URLSearchParams;
  /** The same, as the services read query strings (a repeated parameter as a list). */
  query: Record<string, string | string[]>;
  q: string;
  /** `sort` as asked for ("" when none: the service chooses). */
  sort: string;
  page: number;
  size: number;
}

const wholeNumber = (raw: string | null, fallback: number) => {
  const n = Number(raw);
  return raw !== null && /^\d{1,9}$/.test(raw.trim()) && n >= 1 ? n : fallback;
};

/** The search state of a request to `action`; `defaultSize` is the service's page size when the URL names none. */
export function searchStateOf(request: Request, action: string, defaultSize: number): SearchState {
  const url = new URL(request.url);
  const params = url.searchParams;
  return {
    action,
    params,
    query: queryParams(request.url),
    q: params.get("q") ?? "",
    sort: params.get("sort") ?? "",
    page: wholeNumber(params.get("page"), 1),
    size: wholeNumber(params.get("size"), defaultSize),
  };
}

/** The values selected for a facet: repeated or comma-separated parameters, as the services read them. */
export const selectedValues = (state: SearchState, name: string): string[] =>
  state.params
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

/** This search's URL with some parameters changed (null removes one). */
export function hrefWith(state: SearchState, changes: Record<string, string | number | null>): string {
  const params = new URLSearchParams(state.params);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(name);
    else params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${state.action}?${search}` : state.action;
}

/** Element ids from facet keys: stable across reloads (the script puts focus back by id) and unique per key. */
export const idFor = (prefix: string, key: string) => `${prefix}-${key.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}`)}`;
