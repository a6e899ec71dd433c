// The records side of communities curating records: publishing a reviewed draft into a community,
// including a published record (its parent, so every version) in communities, removing it, and
// the checks the review and inclusion services make on a record before they create requests.
import type { Actor } from "../core/actor";
import { badRequest, HttpError } from "../core/errors";
import type { RecordsContext } from "./context";
import { isDeleted, requireLevel, requireRead, type Level } from "./policy";
import type { createPublishOperations } from "./publish";
import * as store from "./store";

/** What the submission and inclusion request types (curation/request-types.ts) do to records, inside the engine's transaction. */
export interface RecordCuration {
  /** 404 without the draft; 400 with the `errors` list unless it can be published (an edit of a published record is not reviewable). */
  checkReviewable(draftId: string): Promise<void>;
  /** Publishes the draft into the community; returns the work to do after commit. */
  publishInto(draftId: string, communityId: string, now: number): Promise<() => void>;
  /**
   * Publishes a draft held for moderation (the user-moderation request's accept); returns the work
   * after commit, or null when the draft is gone, no longer publishable, or its record was deleted
   * meanwhile: it stays a draft its owner publishes (or fixes) once the account is approved.
   */
  publishHeld(draftId: string, now: number): Promise<(() => void) | null>;
  /** Includes the published record (its parent: every version) in the community; 400 when it is already. */
  include(recordId: string, communityId: string, now: number): Promise<void>;
}

/** A published record as the inclusion service needs it. */
export interface CuratedRecord {
  id: string;
  parentId: string;
  ownerId: number | null;
  /** The communities its parent is included in, oldest first. */
  communityIds: string[];
  /** The caller's level on it. */
  level: Level;
}

export function createCuration(ctx: RecordsContext, publishing: Pick<ReturnType<typeof createPublishOperations>, "validateForPublish" | "writePublication">) {
  const { db, clock } = ctx.deps;

  const curated = async (actor: Actor, row: store.RecordRow): Promise<CuratedRecord> => ({
    id: row.id,
    parentId: row.parentId,
    ownerId: row.ownerId,
    communityIds: (await store.listParentCommunities(db, row.parentId)).map((c) => c.communityId),
    level: await ctx.levelFor(actor, row, false),
  });

  /** A published record the caller may read (401/403/404 otherwise). */
  async function readable(actor: Actor, id: string): Promise<CuratedRecord> {
    const row = await ctx.loadRecord(id);
    const record = await curated(actor, row);
    requireRead(actor, row, record.level);
    return record;
  }

  /** What the request types call, inside the engine's transaction. */
  const forRequests: RecordCuration = {
    async checkReviewable(draftId) {
      const draft = await ctx.loadDraft(draftId);
      if (await store.findRecord(db, draftId)) throw badRequest("The record is already published: a published record joins a community by an inclusion request, not a review.");
      await publishing.validateForPublish(draft);
    },
    async publishInto(draftId, communityId, now) {
      const draft = await ctx.loadDraft(draftId);
      return publishing.writePublication(draft, await publishing.validateForPublish(draft), now, communityId);
    },
    async publishHeld(draftId, now) {
      const draft = await store.findDraft(db, draftId);
      if (!draft) return null;
      const record = await store.findRecord(db, draftId);
      if (record && isDeleted(record)) return null;
      try {
        return await publishing.writePublication(draft, await publishing.validateForPublish(draft), now);
      } catch (error) {
        if (error instanceof HttpError && error.status < 500) return null;
        throw error;
      }
    },
    async include(recordId, communityId, now) {
      const record = await ctx.loadRecord(recordId);
      await db.write(async (tx) => {
        if (!(await store.addParentCommunity(tx, record.parentId, communityId, now))) throw badRequest("The record is already included in this community.");
        await ctx.communitiesChanged(record.parentId, now);
      });
    },
  };

  return {
    forRequests,

    readable,

    /** A published record the caller manages (adds to communities, sets the default): 401/403/404 otherwise. */
    async managed(actor: Actor, id: string): Promise<CuratedRecord> {
      const record = await readable(actor, id);
      requireLevel(actor, record.level, "manage");
      return record;
    },

    /** A draft the caller may submit for review (its `review` level): 401/403/404 otherwise. */
    async reviewable(actor: Actor, id: string) {
      const draft = await ctx.loadDraft(id);
      requireLevel(actor, await ctx.levelFor(actor, draft, true), "review");
      return { id: draft.id, parentId: draft.parentId, ownerId: draft.ownerId, isEdit: (await store.findRecord(db, id)) !== null };
    },

    /** Removes the record (every version) from the community; false when it was not in it. The caller authorised. */
    async exclude(recordId: string, communityId: string): Promise<boolean> {
      const record = await ctx.loadRecord(recordId);
      return db.write(async (tx) => {
        const removed = await store.removeParentCommunity(tx, record.parentId, communityId);
        if (removed) await ctx.communitiesChanged(record.parentId, clock.now());
        return removed;
      });
    },

    /** Makes the community the record's default; false when the record is not in it. The caller authorised. */
    async setDefault(recordId: string, communityId: string): Promise<boolean> {
      const record = await ctx.loadRecord(recordId);
      return db.write((tx) => store.setDefaultCommunity(tx, record.parentId, communityId));
    },

    /** The communities' delete hook, in the deletion's transaction: the community's records leave it (a default passes to the next community). */
    async leaveCommunity(community: { id: string }, now: number) {
      for (const parentId of await store.listCommunityParents(db, community.id)) {
        await store.removeParentCommunity(db, parentId, community.id);
        await ctx.communitiesChanged(parentId, now);
      }
    },

    /** The draft's title, for the title of the requests about it. */
    draftTitle: async (id: string) => String((await ctx.loadDraft(id)).document.metadata?.title ?? ""),
    /** The published record's title. */
    recordTitle: async (id: string) => String((await ctx.loadRecord(id)).document.metadata?.title ?? ""),

    /** The record's JSON as the caller sees it (after a change). */
    recordJson: async (actor: Actor, id: string) => ctx.recordJson(await ctx.loadRecord(id), actor),
  };
}

export type Curation = ReturnType<typeof createCuration>;
