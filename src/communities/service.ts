// Communities: create (the creator becomes owner), read, update, rename and delete by id or slug;
// the listings; the logo and featured periods (logo.ts, featured.ts); records of a community; the
// directory other engines (requests, members) and OAI-PMH use.
import type { AuditOrigin } from "../audit/model";
import type { AuditService } from "../audit/service";
import { anonymous, isAdmin, requireUser, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { checkRevision } from "../core/etag";
import { notFound, validationError } from "../core/errors";
import { newUuid } from "../core/ids";
import { searchEnvelope, parsePage, type SearchResult } from "../core/paging";
import { inArray, notInArray, sql } from "drizzle-orm";
import type { Db } from "../db/port";
import { communitiesTable } from "../db/tables";
import type { FileStore } from "../storage/file-store";
import { chooseSort } from "../search/sorts";
import { withEntries } from "../vocabularies/entries";
import type { VocabularyLookup } from "../vocabularies/model";
import { createFeaturedOperations } from "./featured";
import { createLogoOperations } from "./logo";
import type { CommunityBody, CommunityInput, CommunitySearchQuery, CommunitySummary } from "./model";
import {
  checkCreate,
  checkOwner,
  checkSearchOwn,
  featuredCommunitiesFilter,
  mayCreate,
  mayOwn,
  memberCommunitiesFilter,
  readableCommunitiesFilter,
  type CommunityCreation,
} from "./policy";
import { strongerRole, type Role } from "./roles";
import { presentCommunity, type CommunityJson } from "./present";
import { featuredOrder, hasStartedFeature, searchListing, single, TYPE_FACET, VISIBILITY_FACET } from "./search";
import { createCommunityDirectory, summaryOf } from "./directory";
import * as store from "./store";
import type { CommunityRow } from "./store";
import { checkCommunityBody, checkRenameBody } from "./validate";

/**
 * Runs inside the write transaction that deletes a community, before its row goes (members and
 * featured periods follow by cascade). The requests engine cancels the community's open
 * invitations and requests here; a hook that throws rolls the deletion back.
 */
export type CommunityDeleteHook = (community: CommunitySummary, at: number) => Promise<void>;

/** Records of a community: the records search answers it once inclusions exist (see the report of issue 15). */
export type CommunityRecordsSearch = (actor: Actor, communityId: string, query: CommunitySearchQuery) => Promise<SearchResult<unknown>> | SearchResult<unknown>;

export interface CommunitiesDeps extends Deps {
  /** The audit log: featured periods and an administrator's deletion are recorded in the change's transaction. */
  audit: Pick<AuditService, "record">;
  /** Work done in the transaction that deletes a community (the requests engine closes its requests). */
  onDelete?: CommunityDeleteHook[];
  lookup: VocabularyLookup;
  files: FileStore;
  searchRecords?: CommunityRecordsSearch;
}

export type CommunitiesService = ReturnType<typeof createCommunitiesService>;

const NOT_FOUND = "The persistent identifier does not exist.";

/** A checked `access` -> its columns. */
const accessColumns = (access: CommunityInput["access"]) => ({
  visibility: access.visibility,
  membersVisibility: access.members_visibility,
  memberPolicy: access.member_policy,
  recordPolicy: access.record_policy,
  reviewPolicy: access.review_policy,
});

export function createCommunitiesService(deps: CommunitiesDeps) {
  const { db, clock, config, links, lookup } = deps;
  const limits = { defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE, maxSize: config.SEARCH_MAX_PAGE_SIZE, maxWindow: config.SEARCH_MAX_RESULTS_WINDOW };
  const deleteHooks = deps.onDelete ?? [];
  const present = (row: CommunityRow) => presentCommunity(row, links);
  const presentOne = (row: CommunityRow) => presentCommunity(row, links, { single: true });

  /** A community the actor may see; restricted ones are 404 to non-members, as if they did not exist. */
  async function loadReadable(actor: Actor, key: string): Promise<CommunityRow> {
    const row = await store.findCommunity(db, key, readableCommunitiesFilter(actor));
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function roleIn(actor: Actor, communityId: string): Promise<Role | undefined> {
    return (await store.listRoleRows(db, actor, [communityId])).reduce<Role | undefined>((best, r) => strongerRole(best, r.role), undefined);
  }

  /** Signed in first (401), then visible (404), then an owner or administrator (403); the caller's role beside it. */
  async function loadOwnedWithRole(actor: Actor, key: string): Promise<{ row: CommunityRow; role: Role | undefined }> {
    requireUser(actor);
    const row = await loadReadable(actor, key);
    const role = await roleIn(actor, row.id);
    checkOwner(actor, role);
    return { row, role };
  }

  const loadOwned = async (actor: Actor, key: string) => (await loadOwnedWithRole(actor, key)).row;

  /** The slug is free (no other community has it in any case); checked inside the write transaction. */
  async function requireFreeSlug(tx: Db, slug: string) {
    if (await store.findCommunityBySlug(tx, slug)) throw validationError([{ field: "slug", messages: ["A community with this identifier already exists."] }]);
  }

  const searchContext = { db, lookup, limits };
  const sortOptions = config.COMMUNITIES_SEARCH_SORT_OPTIONS;

  return {
    directory: createCommunityDirectory(db, links),
    ...createLogoOperations({ deps, loadOwned, loadReadable }),
    ...createFeaturedOperations({ db, clock, loadReadable, audit: deps.audit }),

    /** Whether the caller's role lets it create a community (COMMUNITIES_CREATION), signing in aside: the pages show or refuse "New community" by it. */
    async mayCreate(actor: Actor): Promise<boolean> {
      return mayCreate(actor, config.COMMUNITIES_CREATION as CommunityCreation);
    },

    async createCommunity(actor: Actor, body: CommunityBody): Promise<CommunityJson> {
      checkCreate(actor, config.COMMUNITIES_CREATION as CommunityCreation);
      const input = await withEntries(lookup, (known) => checkCommunityBody(body, known));
      const now = clock.now();
      const row = await db.write(async (tx) => {
        await requireFreeSlug(tx, input.slug);
        const id = newUuid();
        const created = await store.insertCommunity(tx, {
          id,
          slug: input.slug,
          ...accessColumns(input.access),
          metadata: input.metadata,
          created: now,
          updated: now,
        });
        // The creator owns it; the system (CLI, jobs) creates communities without an owner, as InvenioRDM's system_process does.
        if (actor.kind === "user") await store.insertMember(tx, { id: newUuid(), communityId: id, userId: actor.userId, role: "owner", visible: true, created: now, updated: now });
        return created;
      });
      return presentOne(row);
    },

    async readCommunity(actor: Actor, key: string): Promise<CommunityJson> {
      return presentOne(await loadReadable(actor, key));
    },

    /**
     * What the caller may do to a community it can see (404 otherwise), by the rules the operations
     * check: InvenioRDM's `has_permissions_to`, which its pages ask to show or refuse the settings.
     */
    async permissionsOf(actor: Actor, key: string): Promise<{ can_update: boolean }> {
      const row = await loadReadable(actor, key);
      return { can_update: mayOwn(actor, await roleIn(actor, row.id)) };
    },

    async updateCommunity(actor: Actor, key: string, body: CommunityBody, ifMatch?: string | null): Promise<CommunityJson> {
      const row = await loadOwned(actor, key);
      checkRevision(ifMatch, row.revisionId);
      const input = await withEntries(lookup, (known) => checkCommunityBody(body, known));
      if (input.slug !== row.slug.toLowerCase()) throw validationError([{ field: "slug", messages: ["The ID should be modified through the renaming URL instead."] }]);
      const updated = await db.write(async (tx) => await store.updateCommunity(tx, row.id, { ...accessColumns(input.access), metadata: input.metadata, updated: clock.now() }));
      if (!updated) throw notFound(NOT_FOUND);
      return presentOne(updated);
    },

    async renameCommunity(actor: Actor, key: string, body: CommunityBody, ifMatch?: string | null): Promise<CommunityJson> {
      const row = await loadOwned(actor, key);
      checkRevision(ifMatch, row.revisionId);
      const slug = await withEntries(lookup, (known) => checkRenameBody(body, known));
      if (slug === row.slug.toLowerCase()) throw validationError([{ field: "slug", messages: ["A new ID value is required for the renaming."] }]);
      const renamed = await db.write(async (tx) => {
        await requireFreeSlug(tx, slug);
        return await store.updateCommunity(tx, row.id, { slug, updated: clock.now() });
      });
      if (!renamed) throw notFound(NOT_FOUND);
      return presentOne(renamed);
    },

    /**
     * Removes the community, its members, featured periods and (through the hooks) open requests;
     * records stay. An administrator (or the system) deleting a community it does not own is
     * administration, audited as `community.delete`; an owner deleting their own is not.
     */
    async deleteCommunity(actor: Actor, key: string, ifMatch: string | null | undefined, origin: AuditOrigin) {
      const { row, role } = await loadOwnedWithRole(actor, key);
      checkRevision(ifMatch, row.revisionId);
      const logo = await db.write(async (tx) => {
        const current = await store.findCommunityById(tx, row.id);
        if (!current) throw notFound(NOT_FOUND);
        for (const hook of deleteHooks) await hook(summaryOf(current), clock.now());
        await store.deleteCommunity(tx, row.id);
        if (isAdmin(actor) && role !== "owner") {
          const details = { slug: current.slug, title: current.metadata?.title ?? null };
          await deps.audit.record(actor, { action: "community.delete", targetType: "community", targetId: current.id, details, ...origin }, tx);
        }
        return current.logoObjectId;
      });
      // After commit: a rolled-back deletion keeps its logo.
      if (logo) await deps.files.removeObject(logo);
    },

    async searchCommunities(actor: Actor, query: CommunitySearchQuery) {
      const listing = {
        filters: [readableCommunitiesFilter(actor)],
        facets: [TYPE_FACET],
        url: (q: Record<string, unknown>) => links.api("/communities", q as never),
        sortOptions,
      };
      return await searchListing(searchContext, listing, query, present);
    },

    /**
     * Communities the caller may read among `only` and outside `except` (`membersOnly`: those it
     * belongs to): the communities of a record and the suggestions for it.
     */
    async searchAmong(actor: Actor, among: { only?: string[]; except?: string[]; membersOnly?: boolean }, query: CommunitySearchQuery, path: string) {
      const filters = [among.membersOnly ? memberCommunitiesFilter(actor) : readableCommunitiesFilter(actor)];
      if (among.only) filters.push(among.only.length ? inArray(communitiesTable.id, among.only) : sql`0 = 1`);
      if (among.except?.length) filters.push(notInArray(communitiesTable.id, among.except));
      const listing = { filters, facets: [TYPE_FACET], url: (q: Record<string, unknown>) => links.api(path, q as never), sortOptions };
      return await searchListing(searchContext, listing, query, present);
    },

    /** The caller's communities, any role, directly or through a group (administrators too see only their own). */
    async searchUserCommunities(actor: Actor, query: CommunitySearchQuery) {
      checkSearchOwn(actor);
      const listing = {
        filters: [memberCommunitiesFilter(actor)],
        facets: [TYPE_FACET, VISIBILITY_FACET],
        url: (q: Record<string, unknown>) => links.api("/user/communities", q as never),
        sortOptions,
      };
      return await searchListing(searchContext, listing, query, present);
    },

    /** Public communities with a featured period that has begun and not ended, the latest such start newest first. */
    async searchFeatured(_actor: Actor, query: CommunitySearchQuery) {
      const now = clock.now();
      const listing = {
        filters: [featuredCommunitiesFilter(), hasStartedFeature(now)],
        facets: [TYPE_FACET],
        url: (q: Record<string, unknown>) => links.api("/communities/featured", q as never),
        sortOptions,
        fixedSort: { name: "featured", order: featuredOrder(now) },
      };
      return await searchListing(searchContext, listing, query, present);
    },

    /** Records of a community the actor may see: the records search when wired, else (no inclusions yet) an empty envelope. */
    async searchRecords(actor: Actor, key: string, query: CommunitySearchQuery) {
      const community = await loadReadable(actor, key);
      if (deps.searchRecords) return await deps.searchRecords(actor, community.id, query);
      const page = parsePage({ page: single(query.page), size: single(query.size) }, limits);
      const q = single(query.q)?.trim() ?? "";
      const sortBy = chooseSort({ options: config.RDM_SEARCH_SORT_OPTIONS, requested: single(query.sort), hasQuery: q !== "", defaultSort: "newest" });
      const facet = (label: string) => ({ label, buckets: [], doc_count_error_upper_bound: 0, sum_other_doc_count: 0 });
      return searchEnvelope({
        items: [],
        total: 0,
        page,
        url: (p) => links.api(`/communities/${community.id}/records`, p),
        params: { q: q || undefined },
        sortBy,
        aggregations: { access_status: facet("Access status"), resource_type: facet("Resource types"), language: facet("Languages") },
      });
    },

    /** OAI-PMH sets of the communities anyone may see (public ones): `<prefix><slug>`, named by the title. */
    async oaiSets(): Promise<{ spec: string; name: string; description: string; searchPattern: string }[]> {
      return (await store.listCommunitiesBySlug(db, readableCommunitiesFilter(anonymous))).map((row) => {
        const title = String(row.metadata.title ?? row.slug);
        const description = typeof row.metadata.description === "string" && row.metadata.description ? row.metadata.description : `Records belonging to the community '${title}'`;
        // The records included in it, by the id the index keeps for every version (parent.communities.ids).
        return { spec: `${config.COMMUNITIES_OAI_SETS_PREFIX}${row.slug}`, name: title, description, searchPattern: `parent.communities.ids:"${row.id}"` };
      });
    },
  };
}
