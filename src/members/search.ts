// The member listings (members, public members): words of `q`, the facets `role` and
// `visibility`, the spec's sorts, and the search envelope with aggregations counted over the query
// without the facet filters (InvenioRDM's post_filter), so every option stays visible.
import { desc, eq, sql, type SQL } from "drizzle-orm";
import { invalidQuery } from "../core/errors";
import type { QueryValues } from "../core/links";
import { parsePage, searchEnvelope, type PagingLimits, type SearchResult } from "../core/paging";
import { queryWords } from "../core/word-match";
import type { Db } from "../db/connection";
import { communityMembersTable } from "../db/tables";
import { chooseSort } from "../search/sorts";
import { ROLE_TITLES, ROLES } from "../communities/roles";
import { MEMBER_SORTS } from "./model";
import { countBy, ORDERS, relevance, searchMembers, type ListedMember } from "./store";

export interface Facet {
  param: string;
  label: string;
  /** Accepted values as the client writes them. */
  values: readonly string[];
  labels: Record<string, string>;
}

export const ROLE_FACET: Facet = { param: "role", label: "Role", values: ROLES, labels: ROLE_TITLES };
export const VISIBILITY_FACET: Facet = { param: "visibility", label: "Visibility", values: ["true", "false"], labels: { true: "Public", false: "Hidden" } };

/** Selected values of a facet, from repeated (`?role=a&role=b`) or comma-separated parameters; 400 for a value the facet does not have. */
export function selectedValues(query: Record<string, unknown>, facet: Facet): string[] {
  const raw = query[facet.param];
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((v) => String(v).split(","))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  const wrong = values.filter((v) => !facet.values.includes(v));
  if (wrong.length) throw invalidQuery([{ field: facet.param, messages: [`Must be one of: ${facet.values.join(", ")}.`] }]);
  return [...new Set(values)];
}

/** An aggregation in the envelope's shape: buckets by count, then key, as a terms facet orders them. */
export function aggregation(facet: Facet, counts: { key: string; n: number }[], selected: string[]) {
  const buckets = counts
    .filter((c) => c.n > 0)
    .sort((a, b) => b.n - a.n || a.key.localeCompare(b.key))
    .map((c) => ({ key: c.key, doc_count: c.n, label: facet.labels[c.key] ?? c.key, is_selected: selected.includes(c.key) }));
  return { label: facet.label, buckets };
}

export interface MemberListing {
  communityId: string;
  /** This listing's own conditions (the public one: visible members only). */
  filters: SQL[];
  columns: { column: SQL; weight: number }[];
  facets: Facet[];
  /** A fixed sort (the public listing: always by name); `sort` is not read then. */
  fixedSort?: string;
  url: (q: QueryValues) => string;
}

const m = communityMembersTable;
/** Facet values as stored: `visible` is 0/1. */
const FACET_COLUMNS: Record<string, { column: SQL; toDb: (v: string) => string | number; fromDb: (v: string | number) => string }> = {
  role: { column: sql`${m.role}`, toDb: (v) => v, fromDb: (v) => String(v) },
  visibility: { column: sql`${m.visible}`, toDb: (v) => (v === "true" ? 1 : 0), fromDb: (v) => (Number(v) ? "true" : "false") },
};

export function searchListing<T>(db: Db, limits: PagingLimits, listing: MemberListing, query: Record<string, unknown>, present: (row: ListedMember) => T): SearchResult<T> {
  const page = parsePage(query, limits);
  const q = typeof query.q === "string" ? query.q.trim() : "";
  const words = queryWords(q);
  const sortBy =
    listing.fixedSort ?? chooseSort({ options: MEMBER_SORTS, requested: typeof query.sort === "string" ? query.sort : undefined, hasQuery: q !== "", defaultSort: "name" });
  // A query of punctuation alone has no words to rank by: bestmatch falls back to the name order.
  const order = sortBy === "bestmatch" ? (words.length ? [desc(relevance(words, listing.columns)), ...ORDERS.name!] : ORDERS.name!) : ORDERS[sortBy]!;
  const selected = listing.facets.map((facet) => ({ facet, values: selectedValues(query, facet) }));
  const { rows, total, base } = searchMembers(db, {
    filters: [eq(m.communityId, listing.communityId), ...listing.filters],
    words,
    columns: listing.columns.map((c) => c.column),
    selected: selected.filter((s) => s.values.length).map((s) => ({ column: FACET_COLUMNS[s.facet.param]!.column, values: s.values.map(FACET_COLUMNS[s.facet.param]!.toDb) })),
    order,
    limit: page.size,
    offset: page.offset,
  });
  const aggregations = listing.facets.length
    ? Object.fromEntries(
        selected.map(({ facet, values }) => {
          const column = FACET_COLUMNS[facet.param]!;
          const counts = countBy(db, column.column, base).map((c) => ({ key: column.fromDb(c.key), n: c.n }));
          return [facet.param, aggregation(facet, counts, values)];
        }),
      )
    : undefined;
  const facetParams = Object.fromEntries(selected.filter((s) => s.values.length).map((s) => [s.facet.param, s.values.join(",")]));
  return searchEnvelope({
    items: rows.map(present),
    total,
    page,
    url: listing.url,
    params: { q: q || undefined, ...facetParams },
    sortBy,
    aggregations,
  });
}
