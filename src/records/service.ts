// Record operations: search and read published records, versions, the caller's own records,
// lifting embargoes; drafts and publishing come from drafts.ts and publish.ts.
import { anonymous, isAdmin, requireAdmin, requireUser, type Actor } from "../core/actor";
import { badRequest, notFound, RedirectError } from "../core/errors";
import type { QueryValues } from "../core/links";
import { parsePage, searchEnvelope } from "../core/paging";
import { liftedAccess, type Access } from "./access";
import { createRecordsContext, type RecordsDeps } from "./context";
import { createDraftOperations } from "./drafts";
import { everythingScope, isPublicRecord, requireLevel, requireRead, type RecordScope } from "./policy";
import { createFileAccess } from "./files-access";
import { createPublishOperations } from "./publish";
import { createCuration } from "./curation";
import { createDeletion } from "./deletion";
import { createOwnerRemoval } from "./owner-removal";
import { createSharing } from "./sharing";
import { withQueryFallback, withReadableCommunities, type FacetLabels, type HarvestFilter, type HarvestKey, type RebuildHooks } from "./search";
import * as store from "./store";

export type RecordsService = ReturnType<typeof createRecordsService>;

/** The administrators' listing's `status`: which index rows it takes, and the facet it selects. */
const EVERYTHING_STATUSES: Record<string, { drafts: boolean; deleted: "with" | "only" | "without"; query?: Record<string, string> }> = {
  "": { drafts: true, deleted: "with" },
  published: { drafts: false, deleted: "without" },
  draft: { drafts: true, deleted: "without", query: { is_published: "false" } },
  deleted: { drafts: false, deleted: "only" },
};

export function createRecordsService(deps: RecordsDeps) {
  const ctx = createRecordsContext(deps);
  const { db, config, links, clock } = deps;
  const limits = { defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE, maxSize: config.SEARCH_MAX_PAGE_SIZE, maxWindow: config.SEARCH_MAX_RESULTS_WINDOW };
  const truthy = (v: unknown) => v === "true" || v === "1";
  const index = ctx.search;

  async function search(
    actor: Actor,
    query: Record<string, unknown>,
    scope: {
      url: (q: QueryValues) => string;
      defaultSort: string;
      parentId?: string;
      communityId?: string;
      facets?: string[];
      listing?: "own";
      hideAllVersions?: boolean;
      /** An administrators' scope (records/policy.ts everythingScope) instead of the caller's own. */
      records?: RecordScope;
      /** Parameters the listing's links keep (`include_deleted`, `status`). */
      keep?: QueryValues;
    },
  ) {
    const page = parsePage(query, limits);
    const str = (v: unknown) => (typeof v === "string" ? v : undefined);
    const allversions = truthy(query.allversions);
    // Communities the caller may not read: no bucket, and a facet value naming one matches nothing.
    const titles = async (ids: string[]) => (deps.communityTitles ? await deps.communityTitles(actor, ids) : new Map<string, string>());
    const labels: FacetLabels = async (kind, keys) => (kind === "communities" ? titles(keys) : new Map());
    const { query: searched, asked } = await withReadableCommunities(query, titles);
    const input = {
      sortOptions: config.RDM_SEARCH_SORT_OPTIONS,
      q: str(query.q),
      sort: str(query.sort),
      allversions,
      parentId: scope.parentId,
      communityId: scope.communityId,
      facets: scope.facets,
      defaultSort: scope.defaultSort,
      query: searched,
    };
    const found = await index.search(scope.records ?? (await ctx.scopeOf(actor, scope.listing)), input, page, labels);
    // Each hit's rows read and rendered together (a page is at most SEARCH_MAX_PAGE_SIZE hits).
    // A reader worker searched a snapshot: a draft discarded since then is left out, not a 404.
    const rendered = await Promise.all(
      found.hits.map(async (hit) => {
        if (hit.isDraft) {
          const draft = await store.findDraft(db, hit.id);
          return draft ? [await ctx.draftJson(draft, [], actor)] : [];
        }
        const record = await store.findRecord(db, hit.id);
        return record ? [await ctx.listedRecordJson(record, actor)] : [];
      }),
    );
    const items = rendered.flat();
    const envelope = searchEnvelope({
      items,
      total: found.total,
      page,
      url: scope.url,
      params: {
        q: str(query.q),
        ...(allversions && !scope.hideAllVersions ? { allversions: "true" } : {}),
        ...scope.keep,
        ...found.facets,
        ...(asked.length ? { communities: asked } : {}),
      },
      sortBy: found.sortBy,
      aggregations: found.aggregations,
    });
    // A query searched as its plain words: the pages say so (the API's JSON stays as the spec has it).
    return withQueryFallback(envelope, input.q);
  }

  /**
   * The parent whose versions `versions` and `latest` list: a published record's the caller may
   * read, or, as InvenioRDM resolves a draft's id, a draft's (a new version's, a first version's)
   * the caller may preview, so a draft's `latest` and `versions` links answer before it is published.
   */
  async function versionsParentOf(actor: Actor, id: string): Promise<string> {
    if (!(await store.findRecord(db, id))) {
      const draft = await store.findDraft(db, id);
      if (!draft) throw notFound("The persistent identifier does not exist.");
      requireLevel(actor, await ctx.levelFor(actor, draft, true), "preview");
      return draft.parentId;
    }
    const record = await ctx.loadRecord(id);
    requireRead(actor, record, await ctx.levelFor(actor, record, false));
    return record.parentId;
  }

  const publishing = createPublishOperations(ctx);
  const deletion = createDeletion(ctx);
  const ownerRemoval = createOwnerRemoval(ctx, deletion);
  const { validateForPublish: _validate, writePublication: _write, ...publishOperations } = publishing;

  return {
    ...createDraftOperations(ctx),
    ...publishOperations,
    /** What reviews, inclusions and their request types do to records (curation.ts). */
    curation: createCuration(ctx, publishing),
    sharing: createSharing(ctx),
    ...deletion,
    /** A deleted account's drafts and published records (users/admin.ts delete). */
    ownerRemoval,
    /** One user's records and drafts (administrators; the administration's user page). */
    listOwnedRecords: ownerRemoval.listOwned,
    /** What the files module asks (see files/context.ts FileOwners). */
    fileOwners: createFileAccess(ctx),

    /**
     * Published records the actor may read, by query string, facets and sort; latest versions unless
     * `allversions`. Administrators asking `include_deleted` get deleted records too (InvenioRDM's
     * privileged search); anyone else's `include_deleted` changes nothing.
     */
    searchRecords(actor: Actor, query: Record<string, unknown>) {
      const withDeleted = truthy(query.include_deleted) && isAdmin(actor);
      return search(actor, query, {
        url: (q) => links.api("/records", q),
        defaultSort: "newest",
        ...(withDeleted ? { records: everythingScope(actor, false, "with"), keep: { include_deleted: "1" } } : {}),
      });
    },

    /**
     * Administrators: every record and draft, every version, deleted ones too, by query string,
     * facets (with the owner listing's published/unpublished) and `status` (`published`, `draft`,
     * `deleted`; any when empty). The administration's records screen; 403 for anyone else.
     */
    async searchEverything(actor: Actor, query: Record<string, unknown>) {
      const status = typeof query.status === "string" ? query.status : "";
      const choice = EVERYTHING_STATUSES[status];
      if (!choice) throw badRequest(`status: Must be one of: ${Object.keys(EVERYTHING_STATUSES).filter(Boolean).join(", ")}.`);
      const records = everythingScope(actor, choice.drafts, choice.deleted);
      return search(
        actor,
        { ...query, ...choice.query, allversions: "true" },
        {
          url: (q) => links.html("/administration/records", q),
          defaultSort: "updated-desc",
          records,
          hideAllVersions: true,
          keep: status ? { status } : {},
        },
      );
    },

    /**
     * Published records included in a community (`GET /api/communities/{id}/records`), as the actor
     * may see them; the communities module has checked that the actor may see the community.
     */
    searchCommunityRecords(actor: Actor, communityId: string, query: Record<string, unknown>) {
      return search(actor, query, {
        url: (q) => links.api(`/communities/${communityId}/records`, q),
        defaultSort: "newest",
        communityId,
        facets: ["access_status", "resource_type", "language"],
      });
    },

    /**
     * A published record; a parent id redirects to its latest version, as InvenioRDM does. A deleted
     * one answers 410 with its tombstone (404 hidden), except to administrators asking `includeDeleted`.
     */
    async readRecord(actor: Actor, id: string, options: { includeDeleted?: boolean } = {}) {
      const record = await store.findRecord(db, id);
      if (!record) {
        const parent = await store.findParent(db, id);
        if (parent?.latestId) throw new RedirectError(302, links.api(`/records/${parent.latestId}`), "Found.");
        if (await store.findDraft(db, id)) throw notFound("The persistent identifier is not registered.");
        throw notFound("The persistent identifier does not exist.");
      }
      const level = await ctx.levelFor(actor, record, false);
      requireRead(actor, record, level, options);
      return ctx.recordJson(record, actor, level);
    },

    async listVersions(actor: Actor, id: string, query: Record<string, unknown>) {
      const parentId = await versionsParentOf(actor, id);
      return search(actor, { ...query, allversions: "true" }, { url: (q) => links.api(`/records/${id}/versions`, q), defaultSort: "version", parentId, hideAllVersions: true });
    },

    /** 301 to the latest published version (of a draft's parent too); 404 while nothing is published. */
    async latestVersion(actor: Actor, id: string): Promise<never> {
      const latest = (await store.findParent(db, await versionsParentOf(actor, id)))?.latestId;
      if (!latest) throw notFound("The record has no published version yet.");
      throw new RedirectError(301, links.api(`/records/${latest}`), "Redirecting...");
    },

    /** The caller's drafts and published records (a record with an open draft shows as the draft), searchable. */
    listUserRecords(actor: Actor, query: Record<string, unknown>) {
      requireUser(actor);
      return search(actor, query, { url: (q) => links.api("/user/records", q), defaultSort: "updated-desc", listing: "own" });
    },

    /** The daily job: embargoes that ended become inactive and the records and files public. Idempotent. */
    async liftExpiredEmbargoes() {
      const today = ctx.today();
      let lifted = 0;
      for (const record of await store.listDueEmbargoes(db, today)) {
        const doc = record.document;
        const access = liftedAccess(doc.access as Access);
        const now = clock.now();
        await db.write(async (tx) => {
          await store.updateRecord(tx, record.id, { document: { ...doc, access }, accessRecord: access.record, embargoUntil: null }, now);
          await ctx.reindexRecord(record.id);
          // An edit draft that still carries the same embargo is lifted with the record.
          const draft = await store.findDraft(tx, record.id);
          const draftAccess = draft?.document.access as Access | undefined;
          if (draft && draftAccess?.embargo.active && draftAccess.embargo.until === (doc.access as Access).embargo.until) {
            await store.updateDraftDocument(tx, draft.id, draft.revisionId, { ...draft.document, access }, now);
            await ctx.reindexDraft(draft.id);
          }
        });
        lifted++;
      }
      return { lifted, date: today };
    },

    /** DOIs of a parent's published versions, oldest first: the concept DOI's HasVersion links. */
    async listVersionDois(parentId: string): Promise<string[]> {
      return (await store.listParentVersions(db, parentId)).map((r) => r.document.pids?.doi?.identifier).filter((doi): doi is string => typeof doi === "string");
    },

    // OAI-PMH harvesting: public published records (every version) in (updated, id) order.
    listHarvestable: (filter: HarvestFilter, after: HarvestKey | null, limit: number) => index.listHarvestable(filter, after, limit),
    countHarvestable: (filter: HarvestFilter) => index.countHarvestable(filter),
    /** Which of these published records (public or not) the query strings select: OAI set membership. */
    selectedRecordIds: (ids: string[], patterns: string[]) => index.selectedRecordIds(ids, patterns),
    earliestHarvestable: () => index.earliestHarvestable(),

    /** A published record's datestamp and visibility (public or not), for OAI headers; null when there is none. */
    async findHarvestHeader(id: string) {
      const record = await store.findRecord(db, id);
      return record ? { id: record.id, updated: record.updated, isPublic: isPublicRecord(record) } : null;
    },

    /** Public records as an anonymous caller sees them, in the order asked; others are left out. */
    async readPublicRecords(ids: string[]) {
      // As an anonymous caller sees them: restricted or embargoed files are not listed.
      return Promise.all((await index.findPublicRecords(ids)).map((record) => ctx.recordJson(record, anonymous)));
    },

    /** Statistics: false for an unknown record or parent; 401/403 when the actor may not read it (a parent through its latest version). */
    async statsReadable(actor: Actor, scope: "record" | "parent", id: string): Promise<boolean> {
      const latestId = scope === "parent" ? (await store.findParent(db, id))?.latestId : id;
      const record = latestId ? await store.findRecord(db, latestId) : null;
      if (!record) return false;
      requireRead(actor, record, await ctx.levelFor(actor, record, false));
      return true;
    },

    /** Statistics: parents' all-version unique views/downloads into the index columns the popularity sorts use. */
    async updatePopularity(rows: { parentId: string; views: number; downloads: number }[]) {
      await db.write(() => index.setPopularity(rows));
    },

    /**
     * Re-indexes every published version and draft of a parent (its communities changed); call
     * inside the transaction that changed them.
     */
    reindexParent: (parentId: string) => ctx.reindexParent(parentId),

    /** Rebuilds the search index from the stored records (`cairn reindex`). */
    async reindex(actor: Actor, hooks: RebuildHooks = {}) {
      requireAdmin(actor);
      return index.rebuild(clock.now(), deps.files.fileTypes, hooks);
    },

    /** Statistics: published versions per UTC day number in [fromMs, toMs) (the caller checks who asks). */
    publishedPerDay: (fromMs: number, toMs: number) => store.countPublishedPerDay(db, fromMs, toMs),

    /** Whether the index holds every record and draft (a rebuild killed before this design, or a lost write, shows here). */
    checkIndex: () => index.check(),

    /** Ends the search reader workers (the services are closing). */
    close: () => index.close(),

    /** The published record as stored, for background jobs (DataCite registration). */
    async loadRecordJson(id: string) {
      const record = await store.findRecord(db, id);
      return record ? ctx.recordJson(record) : null;
    },
  };
}
