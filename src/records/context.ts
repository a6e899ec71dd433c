// What the record operations share: the deps, presenting rows with their parent and versions,
// and the rules that depend on configuration (DOIs, files).
import { anonymous, systemActor, type Actor } from "../core/actor";
import type { AuditService } from "../audit/service";
import type { Deps } from "../core/deps";
import type { FieldError } from "../core/errors";
import { badRequest, notFound } from "../core/errors";
import type { RecordDocument } from "../core/record-document";
import { whenAll } from "../core/settled";
import { formatDate } from "../core/time";
import { doiResolverUrl } from "../pids/doi";
import type { VocabularyEntry } from "../vocabularies/model";
import type { AccessDirectory } from "../access/directory";
import type { Role as CommunityRole } from "../communities/roles";
import { settingsJson } from "../access/settings";
import type { RequestDirectory } from "../requests/directory";
import { atLeast, canReadFiles, curates, isPublicRecord, levelOf, plainLevelOf, recordScope, requireNotDeleted, type Level } from "./policy";
import { filesSettings, presentDraft, presentListedRecord, presentRecord, type PresentContext } from "./present";
import { indexedRecord, type IndexedParent, type RecordSearch } from "./search";
import { createRecordSearch } from "./search/engine";
import * as store from "./store";

export interface RecordsDeps extends Deps {
  /** A vocabulary entry (the vocabularies service's lookup), for validating documents and removal reasons. */
  lookup(type: string, id: string): Promise<VocabularyEntry | null | undefined>;
  /** Queues a background job after the transaction that calls for it has committed. */
  enqueue(name: string, payload: unknown): void;
  /** The audit log: tombstone and restore write their entry in the change's transaction. */
  audit: Pick<AuditService, "record">;
  /** The files module's answers and moves as drafts and records change. */
  files: RecordFiles;
  /** Told, inside the write's transaction, whenever a published record is re-indexed (OAI-PMH tombstones). */
  onVisibilityChange(change: VisibilityChange): Promise<void>;
  /** The `stats` of a published record (statistics module): this version and all versions; absent when statistics are off. At once when kept in memory. */
  recordStats?(recordId: string, parentId: string): Record<string, unknown> | Promise<Record<string, unknown>>;
  log(message: string): void;
  /**
   * The communities module's JSON of those of `ids` the actor may see (`parent.communities.entries`):
   * public ones, restricted ones to their members (directly or through a group) and administrators.
   */
  communityEntries?(actor: Actor, ids: string[]): Promise<Record<string, unknown>[]>;
  /** The caller's role in each community it belongs to (the community directory): members see included records, curators curate them. */
  communityRoles?(actor: Actor): Promise<ReadonlyMap<string, CommunityRole>>;
  /**
   * Titles of those of `ids` the actor may read (the community directory): public communities,
   * its own, all for administrators; the communities facet's labels, and which facet values count.
   */
  communityTitles?(actor: Actor, ids: string[]): Promise<Map<string, string>>;
  /** Open reviews and inclusion requests of a record (the requests directory), for the permission levels. */
  requests?: Pick<RequestDirectory, "openAbout" | "latestAbout" | "discardUnsubmitted">;
  /** The record's formatted citation in the default style (the exports module): a tombstone's default citation text. */
  citationText?(record: Record<string, unknown>): Promise<string>;
  /** What grants and secret links give a caller on a record (the access directory). */
  access?: Pick<AccessDirectory, "permissionOf"> & Partial<Pick<AccessDirectory, "sharesOf">>;
  /**
   * Moderation of new accounts (moderation/): `hold` (publishing's last check) answers true after
   * holding the draft for an administrator instead of publishing it; `isHeld` whether it waits.
   */
  moderation?: {
    hold(actor: Actor, draft: { id: string; ownerId: number | null }): Promise<boolean>;
    isHeld(draft: { id: string; ownerId: number | null }): Promise<boolean>;
  };
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
  draftFiles(id: string): Promise<{ completedKeys: string[]; blocking: FieldError[] }>;
  /** Inside the publish / edit / delete transactions; the first and last return objects to remove after commit. */
  publish(id: string): Promise<string[]>;
  edit(id: string): Promise<void>;
  discardDraft(id: string): Promise<string[]>;
  /** After commit: deletes the stored bytes (in the background; not the database). */
  removeObjects(ids: string[]): void;
  /** At once when there is nothing to list. */
  filesField(id: string, isDraft: boolean, settings: FilesSettings, visible: boolean): Record<string, unknown> | Promise<Record<string, unknown>>;
  fileTypes(id: string, isDraft: boolean): Promise<string[]>;
}

export interface FilesSettings {
  enabled: boolean;
  default_preview: string | null;
  order: string[];
}

type ParentCommunities = PresentContext["communities"];

export function createRecordsContext(deps: RecordsDeps) {
  const { db, config, links, clock } = deps;

  // A caller's community roles, asked once per request (an actor object lives as long as its request).
  // The answer's Promise is kept, so reads started together (a search's hits) ask once.
  const rolesCache = new WeakMap<Actor, Promise<ReadonlyMap<string, CommunityRole>>>();
  function communityRoles(actor: Actor): Promise<ReadonlyMap<string, CommunityRole>> {
    if (actor.kind !== "user" || !deps.communityRoles) return Promise.resolve(new Map());
    let roles = rolesCache.get(actor);
    if (!roles) rolesCache.set(actor, (roles = deps.communityRoles(actor)));
    return roles;
  }

  // A request asks a record's level two or three times (the check, then the JSON): once is enough.
  // The owner is part of the key: a transfer changes the level within the request that makes it.
  const levelCache = new WeakMap<Actor, Map<string, Level>>();

  /**
   * The caller's permission level on a record or draft (records/policy.ts levelOf), its facts read
   * only when needed. Not an async function: most reads (guests', owners') are decided without a
   * fact, and answered at once, with no Promise (an awaited value costs less than a Promise).
   */
  function levelFor(actor: Actor, row: { id: string; parentId: string; ownerId: number | null }, isDraft: boolean): Level | Promise<Level> {
    const plain = plainLevelOf(actor, row.ownerId);
    if (plain) return plain;
    // Only signed-in users' actors (one per request) are kept: anonymous actors (with a secret
    // link) and the system are shared constants.
    if (actor.kind !== "user") return computeLevel(actor, row, isDraft);
    const key = `${row.id}:${isDraft ? "d" : "r"}:${row.ownerId}`;
    const cached = levelCache.get(actor)?.get(key);
    if (cached) return cached;
    return computeLevel(actor, row, isDraft).then((level) => {
      let known = levelCache.get(actor);
      if (!known) levelCache.set(actor, (known = new Map()));
      known.set(key, level);
      return level;
    });
  }

  function computeLevel(actor: Actor, row: { id: string; parentId: string; ownerId: number | null }, isDraft: boolean): Promise<Level> {
    const topic = { kind: "record" as const, id: row.id };
    return levelOf(actor, {
      ownerId: row.ownerId,
      sharedPermission: async () => (deps.access ? await deps.access.permissionOf(actor, row.parentId, clock.now()) : null),
      async memberRoles() {
        const roles = await communityRoles(actor);
        if (roles.size === 0) return [];
        return (await store.listParentCommunities(db, row.parentId)).flatMap((c) => (roles.has(c.communityId) ? [roles.get(c.communityId)!] : []));
      },
      async reviewerRole() {
        const roles = await communityRoles(actor);
        if (!isDraft || roles.size === 0 || !deps.requests) return null;
        const review = (await deps.requests.openAbout("community-submission", topic))[0];
        return review?.receiver.kind === "community" ? (roles.get(review.receiver.id) ?? null) : null;
      },
      async reviewsInclusion() {
        const roles = await communityRoles(actor);
        if (isDraft || roles.size === 0 || !deps.requests) return false;
        return (await deps.requests.openAbout("community-inclusion", topic)).some((r) => r.receiver.kind === "community" && curates(roles.get(r.receiver.id)));
      },
    });
  }

  /**
   * `parent.communities`: the communities the record is included in that the actor may see (the
   * communities policy decides: a restricted one only to its members and administrators), with the
   * default one; `{}` when there are none, as InvenioRDM shows it.
   */
  function parentCommunities(included: store.CommunityInclusion[], actor: Actor): ParentCommunities | Promise<ParentCommunities> {
    if (included.length === 0 || !deps.communityEntries) return {};
    return deps
      .communityEntries(
        actor,
        included.map((c) => c.communityId),
      )
      .then((entries) => {
        if (entries.length === 0) return {};
        const ids = entries.map((e) => String(e.id));
        const chosen = included.find((c) => c.isDefault)?.communityId;
        return { ids, default: chosen && ids.includes(chosen) ? chosen : ids[0]!, entries };
      });
  }

  /** A draft's newest review request as `parent.review` shows it. */
  async function reviewOf(id: string) {
    const review = await deps.requests?.latestAbout("community-submission", { kind: "record", id });
    if (!review) return null;
    return { id: review.id, type: review.type, receiver: { [review.receiver.kind]: review.receiver.id }, status: review.status };
  }

  /**
   * What the JSON shows besides the row: the parent, its versions and communities (one statement),
   * then the files field, statistics (records), the review (drafts) and, when the caller manages
   * the record (`manages`), its grants and links, read together; `actor` sees the communities it
   * may. Most of the second part is answered at once (no files to list, statistics in memory, no
   * community): awaited only when something is not.
   */
  async function presentContext(
    row: { id: string; parentId: string; document: store.DraftRow["document"] },
    isDraft: boolean,
    filesVisible: boolean,
    manages: boolean,
    actor: Actor,
  ): Promise<PresentContext> {
    const found = await store.findParentContext(db, row.parentId);
    if (!found) throw new Error(`record parent ${row.parentId} is missing`);
    const parts = whenAll([
      deps.files.filesField(row.id, isDraft, filesSettings(row.document), filesVisible),
      manages && deps.access?.sharesOf ? deps.access.sharesOf(row.parentId) : { grants: [], links: [] },
      parentCommunities(found.communities, actor),
      isDraft ? reviewOf(row.id) : undefined,
      isDraft ? undefined : (deps.recordStats?.(row.id, row.parentId) ?? null),
    ] as const);
    const [files, shares, communities, review, stats] = parts instanceof Promise ? await parts : parts;
    return {
      links,
      parent: found.parent,
      maxVersionIndex: found.maxVersionIndex,
      doiUrl: (doi) => doiResolverUrl(doi, config.DATACITE_TEST_MODE),
      files,
      stats,
      communities,
      review,
      access: { settings: settingsJson(found.parent.accessSettings), ...shares },
    };
  }

  const search: RecordSearch = createRecordSearch(db, deps.lookup, {
    readers: { count: config.SEARCH_READERS, timeoutMs: config.SEARCH_TIMEOUT_MS, log: deps.log },
  });

  /** What the index keeps of a parent for each of its versions: pids and community ids. */
  const indexedParent = (pids: Record<string, unknown> | undefined, communities: store.CommunityInclusion[]): IndexedParent => ({
    pids: pids ?? {},
    communities: communities.map((c) => c.communityId),
  });

  /** Re-indexes a draft (or drops it from the index when it is gone); call inside the write's transaction. */
  async function reindexDraft(id: string) {
    const draft = await store.findDraft(db, id);
    if (!draft) return search.unindexRecord(id, true);
    const doc = draft.document;
    const found = await store.findParentContext(db, draft.parentId);
    const isLatest = draft.versionIndex >= (found?.maxVersionIndex ?? 0);
    const fileTypes = await deps.files.fileTypes(id, true);
    await search.indexRecord(
      { ...draft, isDraft: true, isLatest, accessRecord: doc.access?.record ?? "public", fileTypes },
      indexedParent(found?.parent.pids, found?.communities ?? []),
    );
  }

  /**
   * Re-indexes a published record (a deleted one stays marked deleted, which every search scope
   * leaves out), telling OAI-PMH of a visibility change; call inside the write's transaction.
   */
  async function reindexRecord(id: string) {
    const record = (await store.findRecord(db, id))!;
    const indexed = await search.indexedAccess(id);
    const wasPublic = indexed !== null && isPublicRecord({ accessRecord: indexed });
    const fileTypes = await deps.files.fileTypes(id, false);
    // The parent row and its communities, not findParentContext: its version maxima are not needed here.
    const parent = indexedParent((await store.findParent(db, record.parentId))?.pids, await store.listParentCommunities(db, record.parentId));
    await search.indexRecord({ ...indexedRecord(record), fileTypes }, parent);
    await deps.onVisibilityChange({ recordId: id, wasPublic, isPublic: isPublicRecord(record), at: record.updated });
  }

  /**
   * Re-indexes every published version and every draft of a parent: what the parent holds for all
   * of them changed (its communities). Call inside the write's transaction.
   */
  async function reindexParent(parentId: string) {
    for (const record of await store.listParentVersions(db, parentId)) await reindexRecord(record.id);
    for (const id of await store.listParentDraftIds(db, parentId)) await reindexDraft(id);
  }

  /**
   * After the parent joined or left a community (in the write's transaction): its published
   * versions count as modified, so OAI-PMH harvests by date see the new set membership, and every
   * version and draft is re-indexed.
   */
  async function communitiesChanged(parentId: string, now: number) {
    await store.touchParentRecords(db, parentId, now);
    await reindexParent(parentId);
  }

  return {
    deps,
    /** Record search: the index, its writes and the harvest queries. */
    search,
    /** DOIs are minted only once a prefix is configured, so a fresh install never shows unresolvable DOIs. */
    doisEnabled: () => Boolean(config.DATACITE_PREFIX),
    today: () => formatDate(clock.now()),

    async loadDraft(id: string) {
      const draft = await store.findDraft(db, id);
      if (!draft) throw notFound("The draft does not exist.");
      return draft;
    },

    /** A published record to read or act on: 404 when there is none, 410/404 when it was deleted (records/policy.ts). */
    async loadRecord(id: string) {
      const record = await store.findRecord(db, id);
      if (!record) throw notFound("The persistent identifier does not exist.");
      requireNotDeleted(systemActor, record);
      return record;
    },

    /**
     * Rules about files that need the file list: at least one file unless metadata-only, a real
     * default preview; for publishing also every upload committed and every fetch finished.
     */
    async fileErrors(recordId: string, document: RecordDocument, forPublish = false): Promise<FieldError[]> {
      const { completedKeys, blocking } = await deps.files.draftFiles(recordId);
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
    async draftJson(row: store.DraftRow, errors: FieldError[] = [], actor?: Actor) {
      const manages = actor !== undefined && atLeast(await levelFor(actor, row, true), "manage");
      const [context, published, held] = await Promise.all([
        presentContext(row, true, true, manages, actor ?? anonymous),
        store.findRecord(db, row.id),
        deps.moderation ? deps.moderation.isHeld(row) : false,
      ]);
      return presentDraft(row, { ...context, held }, published !== null, errors);
    },
    /**
     * A record's JSON; its file entries only for callers who may read the files, its grants and
     * links for those who manage it (the system may). `level`: the caller's, when already known.
     */
    async recordJson(row: store.RecordRow, actor: Actor = systemActor, level?: Level) {
      level ??= await levelFor(actor, row, false);
      return presentRecord(row, await presentContext(row, false, canReadFiles(row, level), atLeast(level, "manage"), actor));
    },
    async listedRecordJson(row: store.RecordRow, actor: Actor) {
      const level = await levelFor(actor, row, false);
      return presentListedRecord(row, await presentContext(row, false, canReadFiles(row, level), atLeast(level, "manage"), actor));
    },
    /**
     * 400 while the draft is submitted to a community for review: the review's outcome publishes
     * it (or not); the submitter cancels the review to publish or delete it directly.
     */
    async checkNotInReview(id: string, what: string) {
      const review = deps.requests ? (await deps.requests.openAbout("community-submission", { kind: "record", id }))[0] : undefined;
      if (review) throw badRequest(`The draft is under review by a community (request ${review.id}): it cannot be ${what} until the review is cancelled or declined.`);
    },
    /** The caller's permission level on a published record (`isDraft` false) or a draft. */
    levelFor,
    /** The records the caller may see in searches (records/policy.ts recordScope, with its community roles). */
    scopeOf: async (actor: Actor, listing: "published" | "own" = "published") => recordScope(actor, listing, await communityRoles(actor), clock.now()),
  };
}

export type RecordsContext = ReturnType<typeof createRecordsContext>;
