// Request listings: `/requests` (all the caller may read), `/user/requests` (the caller's own) and
// `/communities/{id}/requests` (a community's inbox), one SQL query each under the policy's filter,
// with `type` and `status` facets counted over the same filter (never over others' requests).
import { and, type SQL } from "drizzle-orm";
import { requireUser, type Actor } from "../core/actor";
import { notFound } from "../core/errors";
import { parsePage, searchEnvelope, type SearchResult } from "../core/paging";
import { queryWords } from "../core/word-match";
import type { RequestsContext } from "./context";
import type { ListFilters, ListParams } from "./model";
import { checkSearchCommunityRequests, readableRequestsFilter, type Roles } from "./policy";
import type { RequestJson } from "./present";
import * as store from "./store";
import { chooseSort } from "../search/sorts";
import type { EntityRef } from "./request-type";
import { readListFilters } from "./validate";

const SORTS = ["bestmatch", "newest", "oldest"];
const STATUS_LABELS: Record<string, string> = {
  created: "Created",
  submitted: "Submitted",
  accepted: "Accepted",
  declined: "Declined",
  cancelled: "Cancelled",
  expired: "Expired",
};
/** `community-invitation` -> `Community invitation`. */
const typeLabel = (id: string) => (id.charAt(0).toUpperCase() + id.slice(1)).replace(/-/g, " ");

/** `topic`: the requests about one entity (a record's), under the same visibility as `all`; its owner checked the caller may see the entity. */
type Scope = { kind: "all" } | { kind: "user" } | { kind: "community"; idOrSlug: string } | { kind: "topic"; topic: EntityRef; path: string };

export function createRequestSearch(ctx: RequestsContext) {
  const { db, config, links, communities } = ctx.deps;
  const limits = { defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE, maxSize: config.SEARCH_MAX_PAGE_SIZE, maxWindow: config.SEARCH_MAX_RESULTS_WINDOW };

  /** The scope's SQL and the path of its listing; 404/403 for a community the caller may not see the inbox of. */
  async function scopeOf(actor: Actor, roles: Roles, scope: Scope): Promise<{ filter: SQL; path: string }> {
    if (scope.kind === "all") return { filter: readableRequestsFilter(actor, roles), path: "/requests" };
    if (scope.kind === "user") return { filter: readableRequestsFilter(actor, roles, true), path: "/user/requests" };
    if (scope.kind === "topic") return { filter: and(readableRequestsFilter(actor, roles), store.about(scope.topic))!, path: scope.path };
    const community = await communities.find(scope.idOrSlug);
    if (!community) throw notFound(`No community '${scope.idOrSlug}'.`);
    checkSearchCommunityRequests(actor, roles, community, `No community '${scope.idOrSlug}'.`);
    return { filter: and(readableRequestsFilter(actor, roles), store.receivedBy({ kind: "community", id: community.id }))!, path: `/communities/${scope.idOrSlug}/requests` };
  }

  async function aggregations(where: SQL, f: ListFilters) {
    const facet = async (label: string, column: "type" | "status", selected: string[], labelOf: (k: string) => string) => ({
      label,
      buckets: (await store.countByColumn(db, where, column)).map(({ key, n }) => ({ key, doc_count: n, label: labelOf(key), is_selected: selected.includes(key) })),
    });
    return {
      type: await facet("Type", "type", f.types, typeLabel),
      status: await facet("Status", "status", f.statuses, (k) => STATUS_LABELS[k] ?? k),
    };
  }

  return async function searchRequests(actor: Actor, params: ListParams, scope: Scope): Promise<SearchResult<RequestJson>> {
    requireUser(actor);
    const f = readListFilters(params);
    const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.at(-1) : v);
    const page = parsePage({ page: one(params.page), size: one(params.size) }, limits);
    const sort = chooseSort({ options: SORTS, requested: f.sort, hasQuery: queryWords(f.q).length > 0, defaultSort: "newest" });
    const roles = await ctx.rolesOf(actor);
    const { filter, path } = await scopeOf(actor, roles, scope);
    // Facet counts are over the query without the facet selections (InvenioRDM's post_filter).
    const where = store.listingWhere(filter, f);
    const { rows, total } = await store.searchRequests(db, store.facetWhere(where, f), store.listingOrder(sort, f.q), page.size, page.offset);
    const ref = (x: EntityRef | null) => (x ? `${x.kind}:${x.id}` : undefined);
    return searchEnvelope({
      items: rows.map((row) => ctx.present(actor, roles, row)),
      total,
      page,
      url: (query) => links.api(path, query),
      params: {
        q: f.q,
        type: f.types,
        status: f.statuses,
        is_open: f.isOpen === null ? undefined : String(f.isOpen),
        created_by: ref(f.createdBy),
        receiver: ref(f.receiver),
        topic: ref(f.topic),
      },
      sortBy: sort,
      aggregations: await aggregations(where, f),
    });
  };
}
