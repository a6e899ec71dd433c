// Community listings (all, the caller's own, featured): words of `q`, facets `type` and
// `visibility`, the configured sorts, and the search envelope with aggregations.
import { desc, sql, type SQL } from "drizzle-orm";
import type { QueryValues } from "../core/links";
import { parsePage, searchEnvelope, type PagingLimits, type SearchResult } from "../core/paging";
import { queryWords } from "../core/word-match";
import type { Db } from "../db/port";
import { communitiesTable } from "../db/tables";
import { chooseSort } from "../search/sorts";
import { withEntries, type KnownEntries } from "../vocabularies/entries";
import type { VocabularyLookup } from "../vocabularies/model";
import type { CommunitySearchQuery } from "./model";
import { countBy, latestFeaturedStart, ORDERS, relevance, searchCommunities, typeColumn, type CommunityRow } from "./store";

interface Facet {
  param: string;
  label: string;
  column: SQL;
  labelOf(key: string, lookup: KnownEntries): string;
}

const VISIBILITY_LABELS: Record<string, string> = { public: "Public", restricted: "Restricted" };

export const TYPE_FACET: Facet = {
  param: "type",
  label: "Type",
  column: typeColumn,
  labelOf: (key, lookup) => (lookup("communitytypes", key)?.title?.en as string | undefined) ?? key,
};

export const VISIBILITY_FACET: Facet = {
  param: "visibility",
  label: "Visibility",
  column: sql`${communitiesTable.visibility}`,
  labelOf: (key) => VISIBILITY_LABELS[key] ?? key,
};

/** An option's value; repeated, the last one counts. */
export const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[value.length - 1] : value);

/** Selected values of a facet, from repeated (`?type=a&type=b`) or comma-separated parameters. */
function selectedValues(query: Record<string, unknown>, param: string): string[] {
  const raw = query[param];
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((v) => String(v).split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

export interface Listing {
  /** Filters of who sees what and of this listing (members' own, featured ones). */
  filters: SQL[];
  facets: Facet[];
  url: (q: QueryValues) => string;
  sortOptions: string[];
  /** A fixed sort (featured): the `sort` parameter is not read. */
  fixedSort?: { name: string; order: SQL[] };
}

export interface SearchContext {
  db: Db;
  lookup: VocabularyLookup;
  limits: PagingLimits;
}

export async function searchListing<T>(ctx: SearchContext, listing: Listing, query: CommunitySearchQuery, present: (row: CommunityRow) => T): Promise<SearchResult<T>> {
  const page = parsePage({ page: single(query.page), size: single(query.size) }, ctx.limits);
  const q = single(query.q)?.trim() ?? "";
  const words = queryWords(q);
  const sortBy = listing.fixedSort?.name ?? chooseSort({ options: listing.sortOptions, requested: single(query.sort), hasQuery: q !== "", defaultSort: "newest" });
  const order = listing.fixedSort?.order ?? (sortBy === "bestmatch" ? [desc(relevance(words)), ...ORDERS.newest!] : ORDERS[sortBy]!);
  const selected = listing.facets.map((f) => ({ facet: f, values: selectedValues(query, f.param) }));
  const { rows, total, base } = await searchCommunities(ctx.db, {
    filters: listing.filters,
    words,
    selected: selected.filter((s) => s.values.length).map((s) => ({ column: s.facet.column, values: s.values })),
    order,
    offset: page.offset,
    limit: page.size,
  });
  // One count query per facet (one or two), one after the other.
  const aggregations: Record<string, unknown> = {};
  for (const { facet, values } of selected) {
    const counts = (await countBy(ctx.db, facet.column, base)).filter((r): r is { key: string; n: number } => r.key !== null);
    counts.sort((a, b) => b.n - a.n || a.key.localeCompare(b.key));
    const buckets = await withEntries(ctx.lookup, (known) =>
      counts.map((r) => ({ key: r.key, doc_count: r.n, label: facet.labelOf(r.key, known), is_selected: values.includes(r.key) })),
    );
    aggregations[facet.param] = { label: facet.label, buckets };
  }
  const facetParams = Object.fromEntries(selected.filter((s) => s.values.length).map((s) => [s.facet.param, s.values]));
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

/** The featured order: the start of the latest period that has begun (and not ended), newest first. */
export const featuredOrder = (now: number): SQL[] => [desc(latestFeaturedStart(now)), desc(communitiesTable.created), desc(communitiesTable.id)];

/** Only communities with a featured period that has begun by `now` and not ended. */
export const hasStartedFeature = (now: number): SQL => sql`${latestFeaturedStart(now)} IS NOT NULL`;
