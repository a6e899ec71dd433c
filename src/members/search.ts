// The members module's listings (members, public members, invitations, membership requests): words
// of `q`, the facets, the spec's sorts, and the search envelope with aggregations counted over the
// query without the facet filters (InvenioRDM's post_filter), so every option stays visible.
import { desc, eq, sql, type SQL } from "drizzle-orm";
import { invalidQuery } from "../core/errors";
import type { QueryValues } from "../core/links";
import { parsePage, searchEnvelope, type PagingLimits, type SearchResult } from "../core/paging";
import { queryWords } from "../core/word-match";
import type { Db } from "../db/port";
import type { RequestView } from "../requests/request-type";
import { communityMembersTable } from "../db/tables";
import { chooseSort } from "../search/sorts";
import { isRole, ROLE_TITLES, ROLES, type Role } from "../communities/roles";
import { MEMBER_SORTS } from "./model";
import { searchableUserColumns, type Caller } from "./policy";
import { countBy, findUsersMatching, ORDERS, relevance, searchMembers, type ListedMember } from "./store";

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

export async function searchListing<T>(
  db: Db,
  limits: PagingLimits,
  listing: MemberListing,
  query: Record<string, unknown>,
  present: (row: ListedMember) => T,
): Promise<SearchResult<T>> {
  const page = parsePage(query, limits);
  const q = typeof query.q === "string" ? query.q.trim() : "";
  const words = queryWords(q);
  const sortBy =
    listing.fixedSort ?? chooseSort({ options: MEMBER_SORTS, requested: typeof query.sort === "string" ? query.sort : undefined, hasQuery: q !== "", defaultSort: "name" });
  // A query of punctuation alone has no words to rank by: bestmatch falls back to the name order.
  const order = sortBy === "bestmatch" ? (words.length ? [desc(relevance(words, listing.columns)), ...ORDERS.name!] : ORDERS.name!) : ORDERS[sortBy]!;
  const selected = listing.facets.map((facet) => ({ facet, values: selectedValues(query, facet) }));
  const { rows, total, base } = await searchMembers(db, {
    filters: [eq(m.communityId, listing.communityId), ...listing.filters],
    words,
    columns: listing.columns.map((c) => c.column),
    selected: selected.filter((s) => s.values.length).map((s) => ({ column: FACET_COLUMNS[s.facet.param]!.column, values: s.values.map(FACET_COLUMNS[s.facet.param]!.toDb) })),
    order,
    limit: page.size,
    offset: page.offset,
  });
  // One count query per facet (two at most), one after the other.
  let aggregations: Record<string, unknown> | undefined;
  if (listing.facets.length) {
    aggregations = {};
    for (const { facet, values } of selected) {
      const column = FACET_COLUMNS[facet.param]!;
      const counts = (await countBy(db, column.column, base)).map((c) => ({ key: column.fromDb(c.key), n: c.n }));
      aggregations[facet.param] = aggregation(facet, counts, values);
    }
  }
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

// Invitations and membership requests: the engine's requests of one type joined with the users they
// name, searched, filtered, sorted and paged here. A community has few of them (hundreds), so the
// engine hands over all of them and this part does the rest in memory; the users' names and `q` are
// matched in SQL with the same columns as the members listing.

const STATUSES = ["submitted", "accepted", "declined", "expired", "cancelled"];
const STATUS_FACET: Facet = {
  param: "status",
  label: "Status",
  values: STATUSES,
  labels: { submitted: "Submitted", accepted: "Accepted", declined: "Declined", expired: "Expired", cancelled: "Cancelled" },
};
const IS_OPEN_FACET: Facet = { param: "is_open", label: "Status", values: ["true", "false"], labels: { true: "Open", false: "Closed" } };

/** One listed request with the user it names. */
export interface RequestItem {
  view: RequestView;
  user: { id: number; name: string; affiliations: string };
  role: Role;
}

/** The role a request offers (its payload), `reader` when it holds none. */
export const offeredRole = (view: RequestView): Role => (isRole(view.payload.role) ? view.payload.role : "reader");

const keysOf = (item: RequestItem): Record<string, string> => ({ role: item.role, status: item.view.status, is_open: String(item.view.status === "submitted") });

export interface RequestListing {
  db: Db;
  limits: PagingLimits;
  caller: Caller;
  /** Every request of the type for the community (drafts are never listed). */
  views: RequestView[];
  /** The user a request is about: the invitee, or whoever asked to join. */
  userOf(view: RequestView): string;
  url: (q: QueryValues) => string;
}

export async function searchRequestItems<T>(listing: RequestListing, query: Record<string, unknown>, present: (item: RequestItem) => Promise<T>): Promise<SearchResult<T>> {
  const page = parsePage(query, listing.limits);
  const q = typeof query.q === "string" ? query.q.trim() : "";
  const words = queryWords(q);
  const sortBy = chooseSort({ options: MEMBER_SORTS, requested: typeof query.sort === "string" ? query.sort : undefined, hasQuery: q !== "", defaultSort: "name" });
  const facets = [ROLE_FACET, STATUS_FACET, IS_OPEN_FACET].map((facet) => ({ facet, values: selectedValues(query, facet) }));
  const views = listing.views.filter((v) => v.status !== "created" && /^\d{1,15}$/.test(listing.userOf(v)));
  const users = new Map(
    (await findUsersMatching(listing.db, [...new Set(views.map((v) => Number(listing.userOf(v))))], words, searchableUserColumns(listing.caller, "members"))).map((u) => [u.id, u]),
  );
  const matched: RequestItem[] = [];
  for (const view of views) {
    const user = users.get(Number(listing.userOf(view)));
    if (user) matched.push({ view, user: { id: user.id, name: user.name, affiliations: user.affiliations }, role: offeredRole(view) });
  }
  // Facet filters narrow the hits; aggregations count the query's matches without them (post_filter), as the members listing does.
  const hits = matched.filter((item) => facets.every(({ facet, values }) => values.length === 0 || values.includes(keysOf(item)[facet.param]!)));
  const byName = (a: RequestItem, b: RequestItem) => a.user.name.localeCompare(b.user.name, "en", { sensitivity: "base" }) || a.view.id.localeCompare(b.view.id);
  const score = (item: RequestItem) => users.get(item.user.id)?.score ?? 0;
  const order: Record<string, (a: RequestItem, b: RequestItem) => number> = {
    name: byName,
    bestmatch: (a, b) => score(b) - score(a) || byName(a, b),
    newest: (a, b) => b.view.created - a.view.created || a.view.id.localeCompare(b.view.id),
    oldest: (a, b) => a.view.created - b.view.created || a.view.id.localeCompare(b.view.id),
  };
  hits.sort(order[sortBy]);
  const aggregations = Object.fromEntries(
    facets.map(({ facet, values }) => {
      const counts = new Map<string, number>();
      for (const item of matched) counts.set(keysOf(item)[facet.param]!, (counts.get(keysOf(item)[facet.param]!) ?? 0) + 1);
      return [
        facet.param,
        aggregation(
          facet,
          [...counts].map(([key, n]) => ({ key, n })),
          values,
        ),
      ];
    }),
  );
  const facetParams = Object.fromEntries(facets.filter((s) => s.values.length).map((s) => [s.facet.param, s.values.join(",")]));
  const items: T[] = [];
  for (const item of hits.slice(page.offset, page.offset + page.size)) items.push(await present(item));
  return searchEnvelope({
    items,
    total: hits.length,
    page,
    url: listing.url,
    params: { q: q || undefined, ...facetParams },
    sortBy,
    aggregations,
  });
}
