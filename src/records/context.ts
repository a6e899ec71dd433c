// What the record operations share: the deps, presenting rows with their parent and versions,
// and the rules that depend on configuration (DOIs, files).
import { anonymous, systemActor, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import type { FieldError } from "../core/errors";
import { badRequest, notFound } from "../core/errors";
import type { RecordDocument } from "../core/record-document";
import { formatDate } from "../core/time";
import { doiResolverUrl } from "../pids/doi";
import type { VocabularyLookup } from "../vocabularies/model";
import type { AccessDirectory } from "../access/directory";
import type { Role as CommunityRole } from "../communities/roles";
import { settingsJson } from "../access/settings";
import type { RequestDirectory } from "../requests/directory";
import { atLeast, canReadFiles, curates, isPublicRecord, levelOf, recordScope, requireNotDeleted, type Level } from "./policy";
import { presentDraft, presentListedRecord, presentRecord, type PresentContext } from "./present";
import { indexedRecord, type IndexedParent, type RecordSearch } from "./search";
import { createSqliteRecordSearch } from "./search/sqlite";
import * as store from "./store";

export interface RecordsDeps extends Deps {
  lookup: VocabularyLookup;
  /** Queues a background job after the transaction that calls for it has committed. */
  enqueue(name: string, payload: unknown): void;
  /** The files module's answers and moves as drafts and records change. */
  files: RecordFiles;
  /** Told, inside the write's transaction, whenever a published record is re-indexed (OAI-PMH tombstones). */
  onVisibilityChange(change: VisibilityChange): void;
  /** The `stats` of a published record (statistics module): this version and all versions; absent when statistics are off. */
  recordStats?(recordId: string, parentId: string): Record<string, unknown>;
  log(message: string): void;
  /**
   * The communities module's JSON of those of `ids` the actor may see (`parent.communities.entries`):
   * public ones, restricted ones to their members (directly or through a group) and administrators.
   */
  communityEntries?(actor: Actor, ids: string[]): Record<string, unknown>[];
  /** The caller's role in each community it belongs to (the community directory): members see included records, curators curate them. */
  communityRoles?(actor: Actor): ReadonlyMap<string, CommunityRole>;
  /**
   * Titles of those of `ids` the actor may read (the community directory): public communities,
   * its own, all for administrators; the communities facet's labels, and which facet values count.
   */
  communityTitles?(actor: Actor, ids: string[]): Map<string, string>;
  /** Open reviews and inclusion requests of a record (the requests directory), for the permission levels. */
  requests?: Pick<RequestDirectory, "openAbout" | "latestAbout" | "discardUnsubmitted">;
  /** The record's formatted citation in the default style (the exports module): a tombstone's default citation text. */
  citationText?(record: Record<string, unknown>): string;
  /** What grants and secret links give a caller on a record (the access directory). */
  access?: Pick<AccessDirectory, "permissionOf"> & Partial<Pick<AccessDirectory, "sharesOf">>;
}

/** A published record's visibility before and after a write; `at` is the record's new `updated`. */
export interface VisibilityChange {
  recordId: string;
  wasPublic: boolean;
  isPublic: boolean;
  at: number;
}

/** What records need of the files module (see files/lifecycle.ts). */
export interface RecordFiles {
  draftFiles(id: string): { completedKeys: string[]; blocking: FieldError[] };
  /** Inside the publish / edit / delete transactions; the first and last return objects to remove after commit. */
  publish(id: string): string[];
  edit(id: string): void;
  discardDraft(id: string): string[];
  removeObjects(ids: string[]): void;
  filesField(id: string, isDraft: boolean, settings: FilesSettings, visible: boolean): Record<string, unknown>;
  fileTypes(id: string, isDraft: boolean): string[];
}

export interface FilesSettings {
  enabled: boolean;
  default_preview: string | null;
  order: string[];
}

export function createRecordsContext(deps: RecordsDeps) {
  const { db, config, links, clock } = deps;

  // A caller's community roles, asked once per request (an actor object lives as long as its request).
  const rolesCache = new WeakMap<Actor, ReadonlyMap<string, CommunityRole>>();
  function communityRoles(actor: Actor): ReadonlyMap<string, CommunityRole> {
    if (actor.kind !== "user" || !deps.communityRoles) return new Map();
    let roles = rolesCache.get(actor);
    if (!roles) rolesCache.set(actor, (roles = deps.communityRoles(actor)));
    return roles;
  }

  // A request asks a record's level two or three times (the check, then the JSON): once is enough.
  // The owner is part of the key: a transfer changes the level within the request that makes it.
  const levelCache = new WeakMap<Actor, Map<string, Level>>();

  /** The caller's permission level on a record or draft (records/policy.ts levelOf), its facts read only when needed. */
  function levelFor(actor: Actor, row: { id: string; parentId: string; ownerId: number | null }, isDraft: boolean): Level {
    // Only signed-in users' actors (one per request) are kept: anonymous and system actors are
    // shared constants and decide without a query.
    if (actor.kind !== "user") return computeLevel(actor, row, isDraft);
    const key = `${row.id}:${isDraft ? "d" : "r"}:${row.ownerId}`;
    let known = levelCache.get(actor);
    const cached = known?.get(key);
    if (cached) return cached;
    const level = computeLevel(actor, row, isDraft);
    if (!known) levelCache.set(actor, (known = new Map()));
    known.set(key, level);
    return level;
  }

  function computeLevel(actor: Actor, row: { id: string; parentId: string; ownerId: number | null }, isDraft: boolean): Level {
    const topic = { kind: "record" as const, id: row.id };
    return levelOf(actor, {
      ownerId: row.ownerId,
      sharedPermission: () => deps.access?.permissionOf(actor, row.parentId, clock.now()) ?? null,
      memberRoles() {
        const roles = communityRoles(actor);
        if (roles.size === 0) return [];
        return store.listParentCommunities(db, row.parentId).flatMap((c) => (roles.has(c.communityId) ? [roles.get(c.communityId)!] : []));
      },
      reviewerRole() {
        const roles = communityRoles(actor);
        if (!isDraft || roles.size === 0 || !deps.requests) return null;
        const review = deps.requests.openAbout("community-submission", topic)[0];
        return review?.receiver.kind === "community" ? (roles.get(review.receiver.id) ?? null) : null;
      },
      reviewsInclusion() {
        const roles = communityRoles(actor);
        if (isDraft || roles.size === 0 || !deps.requests) return false;
        return deps.requests.openAbout("community-inclusion", topic).some((r) => r.receiver.kind === "community" && curates(roles.get(r.receiver.id)));
      },
    });
  }

  /**
   * `parent.communities`: the communities the record is included in that the actor may see (the
   * communities policy decides: a restricted one only to its members and administrators), with the
   * default one; `{}` when there are none, as InvenioRDM shows it.
   */
  function parentCommunities(parentId: string, actor: Actor) {
    const included = store.listParentCommunities(db, parentId);
    const includedIds = included.map((c) => c.communityId);
    const entries = includedIds.length && deps.communityEntries ? deps.communityEntries(actor, includedIds) : [];
    if (entries.length === 0) return {};
    const ids = entries.map((e) => String(e.id));
    const chosen = included.find((c) => c.isDefault)?.communityId;
    return { ids, default: chosen && ids.includes(chosen) ? chosen : ids[0]!, entries };
  }

  /** A draft's newest review request as `parent.review` shows it. */
  function reviewOf(id: string) {
    const review = deps.requests?.latestAbout("community-submission", { kind: "record", id });
    if (!review) return null;
    return { id: review.id, type: review.type, receiver: { [review.receiver.kind]: review.receiver.id }, status: review.status };
  }

  /** `manages`: the caller manages the record, so `parent.access` lists its grants and links; `actor` sees the communities it may. */
  function presentContext(row: { id: string; parentId: string }, isDraft: boolean, filesVisible: boolean, manages: boolean, actor: Actor): PresentContext {
    const found = store.findParentWithVersions(db, row.parentId);
    if (!found) throw new Error(`record parent ${row.parentId} is missing`);
    return {
      links,
      parent: found.parent,
      maxVersionIndex: found.maxVersionIndex,
      doiUrl: (doi) => doiResolverUrl(doi, config.DATACITE_TEST_MODE),
      filesField: (settings) => deps.files.filesField(row.id, isDraft, settings, filesVisible),
      recordStats: () => deps.recordStats?.(row.id, row.parentId) ?? null,
      communities: () => parentCommunities(row.parentId, actor),
      review: isDraft ? () => reviewOf(row.id) : undefined,
      access: () => ({
        settings: settingsJson(found.parent.accessSettings),
        ...(manages && deps.access?.sharesOf ? deps.access.sharesOf(row.parentId) : { grants: [], links: [] }),
      }),
    };
  }

  const search: RecordSearch = createSqliteRecordSearch(db, deps.lookup, {
    readers: { count: config.SEARCH_READERS, timeoutMs: config.SEARCH_TIMEOUT_MS, log: deps.log },
  });

  /** What the index keeps of a parent for each of its versions: pids and community ids. */
  const indexedParent = (parentId: string, pids: Record<string, unknown> | undefined): IndexedParent => ({
    pids: pids ?? {},
    communities: store.listParentCommunities(db, parentId).map((c) => c.communityId),
  });

  /** Re-indexes a draft (or drops it from the index when it is gone); call inside the write's transaction. */
  function reindexDraft(id: string) {
    const draft = store.findDraft(db, id);
    if (!draft) return search.unindexRecord(id, true);
    const doc = draft.document;
    const found = store.findParentWithVersions(db, draft.parentId);
    const isLatest = draft.versionIndex >= (found?.maxVersionIndex ?? 0);
    const fileTypes = deps.files.fileTypes(id, true);
    search.indexRecord({ ...draft, isDraft: true, isLatest, accessRecord: doc.access?.record ?? "public", fileTypes }, indexedParent(draft.parentId, found?.parent.pids));
  }

  /**
   * Re-indexes a published record (a deleted one stays marked deleted, which every search scope
   * leaves out), telling OAI-PMH of a visibility change; call inside the write's transaction.
   */
  function reindexRecord(id: string) {
    const record = store.findRecord(db, id)!;
    const indexed = search.indexedAccess(id);
    const wasPublic = indexed !== null && isPublicRecord({ accessRecord: indexed });
    search.indexRecord({ ...indexedRecord(record), fileTypes: deps.files.fileTypes(id, false) }, indexedParent(record.parentId, store.findParent(db, record.parentId)?.pids));
    deps.onVisibilityChange({ recordId: id, wasPublic, isPublic: isPublicRecord(record), at: record.updated });
  }

  /**
   * Re-indexes every published version and every draft of a parent: what the parent holds for all
   * of them changed (its communities). Call inside the write's transaction.
   */
  function reindexParent(parentId: string) {
    for (const record of store.listParentVersions(db, parentId)) reindexRecord(record.id);
    for (const id of store.listParentDraftIds(db, parentId)) reindexDraft(id);
  }

  /**
   * After the parent joined or left a community (in the write's transaction): its published
   * versions count as modified, so OAI-PMH harvests by date see the new set membership, and every
   * version and draft is re-indexed.
   */
  function communitiesChanged(parentId: string, now: number) {
    store.touchParentRecords(db, parentId, now);
    reindexParent(parentId);
  }

  return {
    deps,
    /** Record search: the index, its writes and the harvest queries. */
    search,
    /** DOIs are minted only once a prefix is configured, so a fresh install never shows unresolvable DOIs. */
    doisEnabled: () => Boolean(config.DATACITE_PREFIX),
    today: () => formatDate(clock.now()),

    loadDraft(id: string) {
      const draft = store.findDraft(db, id);
      if (!draft) throw notFound("The draft does not exist.");
      return draft;
    },

    /** A published record to read or act on: 404 when there is none, 410/404 when it was deleted (records/policy.ts). */
    loadRecord(id: string) {
      const record = store.findRecord(db, id);
      if (!record) throw notFound("The persistent identifier does not exist.");
      requireNotDeleted(systemActor, record);
      return record;
    },

    /**
     * Rules about files that need the file list: at least one file unless metadata-only, a real
     * default preview; for publishing also every upload committed and every fetch finished.
     */
    fileErrors(recordId: string, document: RecordDocument, forPublish = false): FieldError[] {
      const { completedKeys, blocking } = deps.files.draftFiles(recordId);
      const errors: FieldError[] = [];
      const enabled = document.files?.enabled !== false;
      if (enabled && completedKeys.length === 0) {
        errors.push({ field: "files.enabled", messages: ["Missing uploaded files. To disable files for this record please mark it as metadata-only."] });
      }
      if (document.files?.default_preview && !completedKeys.includes(document.files.default_preview)) {
        errors.push({ field: "files.default_preview", messages: ["Default preview must be one of the uploaded files."] });
      }
      if (enabled && forPublish) errors.push(...blocking);
      if (!enabled && (completedKeys.length > 0 || blocking.length > 0)) {
        errors.push({ field: "files.enabled", messages: ["This draft has files: delete them before marking the record as metadata-only."] });
      }
      return errors;
    },

    reindexDraft,
    reindexRecord,
    reindexParent,
    communitiesChanged,

    /**
     * Drafts are shown only to who may preview them, so their files are always listed; grants and
     * links only when `actor` is given and manages the record; the communities it may see.
     */
    draftJson(row: store.DraftRow, errors: FieldError[] = [], actor?: Actor) {
      const manages = actor !== undefined && atLeast(levelFor(actor, row, true), "manage");
      return presentDraft(row, presentContext(row, true, true, manages, actor ?? anonymous), store.findRecord(db, row.id) !== null, errors);
    },
    /** A record's JSON; its file entries only for callers who may read the files, its grants and links for those who manage it (the system may). */
    recordJson(row: store.RecordRow, actor: Actor = systemActor) {
      const level = levelFor(actor, row, false);
      return presentRecord(row, presentContext(row, false, canReadFiles(row, level), atLeast(level, "manage"), actor));
    },
    listedRecordJson(row: store.RecordRow, actor: Actor) {
      const level = levelFor(actor, row, false);
      return presentListedRecord(row, presentContext(row, false, canReadFiles(row, level), atLeast(level, "manage"), actor));
    },
    /**
     * 400 while the draft is submitted to a community for review: the review's outcome publishes
     * it (or not); the submitter cancels the review to publish or delete it directly.
     */
    checkNotInReview(id: string, what: string) {
      const review = deps.requests?.openAbout("community-submission", { kind: "record", id })[0];
      if (review) throw badRequest(`The draft is under review by a community (request ${review.id}): it cannot be ${what} until the review is cancelled or declined.`);
    },
    /** The caller's permission level on a published record (`isDraft` false) or a draft. */
    levelFor,
    /** The records the caller may see in searches (records/policy.ts recordScope, with its community roles). */
    scopeOf: (actor: Actor, listing: "published" | "own" = "published") => recordScope(actor, listing, communityRoles(actor), clock.now()),
  };
}

export type RecordsContext = ReturnType<typeof createRecordsContext>;
