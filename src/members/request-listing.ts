// Listings of a community's invitations and membership requests: the engine's requests of one type
// joined with the users they name, searched, filtered, sorted and paged here. A community has few
// of them (hundreds), so the engine hands over all of them and this file does the rest in memory;
// the users' names and `q` are matched in SQL with the same columns as the members listing.
import { parsePage, searchEnvelope, type PagingLimits, type SearchResult } from "../core/paging";
import type { QueryValues } from "../core/links";
import { queryWords } from "../core/word-match";
import type { Db } from "../db/connection";
import type { RequestView } from "../requests/request-type";
import { chooseSort } from "../search/sorts";
import { isRole, ROLE_TITLES, ROLES, type Role } from "../communities/roles";
import { MEMBER_SORTS } from "./model";
import { searchableUserColumns, type Caller } from "./policy";
import { aggregation, selectedValues, type Facet } from "./search";
import { findUsersMatching } from "./store";

const STATUSES = ["submitted", "accepted", "declined", "expired", "cancelled"];
const STATUS_FACET: Facet = {
  param: "status",
  label: "Status",
  values: STATUSES,
  labels: { submitted: "Submitted", accepted: "Accepted", declined: "Declined", expired: "Expired", cancelled: "Cancelled" },
};
const IS_OPEN_FACET: Facet = { param: "is_open", label: "Status", values: ["true", "false"], labels: { true: "Open", false: "Closed" } };
const ROLE_FACET: Facet = { param: "role", label: "Role", values: ROLES, labels: ROLE_TITLES };

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

export function searchRequestItems<T>(listing: RequestListing, query: Record<string, unknown>, present: (item: RequestItem) => T): SearchResult<T> {
  const page = parsePage(query, listing.limits);
  const q = typeof query.q === "string" ? query.q.trim() : "";
  const words = queryWords(q);
  const sortBy = chooseSort({ options: MEMBER_SORTS, requested: typeof query.sort === "string" ? query.sort : undefined, hasQuery: q !== "", defaultSort: "name" });
  const facets = [ROLE_FACET, STATUS_FACET, IS_OPEN_FACET].map((facet) => ({ facet, values: selectedValues(query, facet) }));
  const views = listing.views.filter((v) => v.status !== "created" && /^\d{1,15}$/.test(listing.userOf(v)));
  const users = new Map(
    findUsersMatching(listing.db, [...new Set(views.map((v) => Number(listing.userOf(v))))], words, searchableUserColumns(listing.caller, "members")).map((u) => [u.id, u]),
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
  return searchEnvelope({
    items: hits.slice(page.offset, page.offset + page.size).map(present),
    total: hits.length,
    page,
    url: listing.url,
    params: { q: q || undefined, ...facetParams },
    sortBy,
    aggregations,
  });
}
