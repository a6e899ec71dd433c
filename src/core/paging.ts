// Paging parameters and the search response envelope shared by every search endpoint.
import { badRequest } from "./errors";
import type { QueryValues } from "./links";

export interface PagingLimits {
  defaultSize: number;
  maxSize: number;
  /** Largest page*size (the search window). */
  maxWindow: number;
}

export interface Page {
  page: number;
  size: number;
  offset: number;
}

function positiveInteger(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === "") return null;
  const s = String(raw).trim();
  return /^\d{1,9}$/.test(s) ? Number(s) : NaN;
}

/** Reads `page` and `size` from a query; 400 "Invalid pagination parameters." with the field named. */
export function parsePage(query: { page?: unknown; size?: unknown }, limits: PagingLimits): Page {
  const size = positiveInteger(query.size) ?? limits.defaultSize;
  const page = positiveInteger(query.page) ?? 1;
  const problems: { field: string; messages: string[] }[] = [];
  if (!Number.isInteger(size) || size < 1 || size > limits.maxSize) {
    problems.push({ field: "size", messages: [`Must be a whole number from 1 to ${limits.maxSize}.`] });
  }
  if (!Number.isInteger(page) || page < 1) problems.push({ field: "page", messages: ["Must be a whole number of 1 or more."] });
  if (problems.length === 0 && page * size > limits.maxWindow) {
    problems.push({ field: "page", messages: [`page * size must not exceed ${limits.maxWindow}; narrow the query instead.`] });
  }
  if (problems.length) throw badRequest("Invalid pagination parameters.", problems);
  return { page, size, offset: (page - 1) * size };
}

export interface SearchResult<T> {
  hits: { hits: T[]; total: number };
  aggregations?: Record<string, unknown>;
  sortBy?: string;
  links: { self: string; prev?: string; next?: string };
}

export interface EnvelopeInput<T> {
  items: T[];
  total: number;
  page: Page;
  /** Builds this listing's URL from query parameters (the effective ones, paging included). */
  url: (query: QueryValues) => string;
  /** Effective non-paging parameters to carry in the links (q, sort, facets...). */
  params?: QueryValues;
  sortBy?: string;
  aggregations?: Record<string, unknown>;
}

/** The spec's envelope: `hits`, `links.self|prev|next` with effective parameters, `sortBy`, `aggregations`. */
export function searchEnvelope<T>(input: EnvelopeInput<T>): SearchResult<T> {
  const { page, size } = input.page;
  const params = { ...input.params, ...(input.sortBy ? { sort: input.sortBy } : {}) };
  const at = (p: number) => input.url({ ...params, page: p, size });
  const links: SearchResult<T>["links"] = { self: at(page) };
  if (page > 1) links.prev = at(page - 1);
  if (page * size < input.total) links.next = at(page + 1);
  return {
    hits: { hits: input.items, total: input.total },
    ...(input.aggregations ? { aggregations: input.aggregations } : {}),
    ...(input.sortBy ? { sortBy: input.sortBy } : {}),
    links,
  };
}
