// The records side of communities curating records: publishing a reviewed draft into a community,
// including a published record (its parent, so every version) in communities, removing it, and
// the checks the review and inclusion services make on a record before they create requests.
import type { Actor } from "../core/actor";
import { badRequest } from "../core/errors";
import { writeTransaction } from "../db/sqlite/connection";
import type { RecordsContext } from "./context";
import { requireLevel, requireRead, type Level } from "./policy";
import type { createPublishOperations } from "./publish";
import * as store from "./store";

/** What the submission and inclusion request types (curation/request-types.ts) do to records, inside the engine's transaction. */
export interface RecordCuration {
  /** 404 without the draft; 400 with the `errors` list unless it can be published (an edit of a published record is not reviewable). */
  checkReviewable(draftId: string): void;
  /** Publishes the draft into the community; returns the work to do after commit. */
  publishInto(draftId: string, communityId: string, now: number): () => void;
  /** Includes the published record (its parent: every version) in the community; 400 when it is already. */
  include(recordId: string, communityId: string, now: number): void;
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

  const curated = (actor: Actor, row: store.RecordRow): CuratedRecord => ({
    id: row.id,
    parentId: row.parentId,
    ownerId: row.ownerId,
    communityIds: store.listParentCommunities(db, row.parentId).map((c) => c.communityId),
    level: ctx.levelFor(actor, row, false),
  });

  /** A published record the caller may read (401/403/404 otherwise). */
  function readable(actor: Actor, id: string): CuratedRecord {
    const row = ctx.loadRecord(id);
    const record = curated(actor, row);
    requireRead(actor, row, record.level);
    return record;
  }

  /** What the request types call, inside the engine's transaction. */
  const forRequests: RecordCuration = {
    checkReviewable(draftId) {
      const draft = ctx.loadDraft(draftId);
      if (store.findRecord(db, draftId)) throw badRequest("The record is already published: a published record joins a community by an inclusion request, not a review.");
      publishing.validateForPublish(draft);
    },
    publishInto(draftId, communityId, now) {
      const draft = ctx.loadDraft(draftId);
      return publishing.writePublication(draft, publishing.validateForPublish(draft), now, communityId);
    },
    include(recordId, communityId, now) {
      const record = ctx.loadRecord(recordId);
      writeTransaction(db, () => {
        if (!store.addParentCommunity(db, record.parentId, communityId, now)) throw badRequest("The record is already included in this community.");
        ctx.communitiesChanged(record.parentId, now);
      });
    },
  };

  return {
    forRequests,

    readable,

    /** A published record the caller manages (adds to communities, sets the default): 401/403/404 otherwise. */
    managed(actor: Actor, id: string): CuratedRecord {
      const record = readable(actor, id);
      requireLevel(actor, record.level, "manage");
      return record;
    },

    /** A draft the caller may submit for review (its `review` level): 401/403/404 otherwise. */
    reviewable(actor: Actor, id: string) {
      const draft = ctx.loadDraft(id);
      requireLevel(actor, ctx.levelFor(actor, draft, true), "review");
      return { id: draft.id, parentId: draft.parentId, ownerId: draft.ownerId, isEdit: store.findRecord(db, id) !== null };
    },

    /** Removes the record (every version) from the community; false when it was not in it. The caller authorised. */
    exclude(recordId: string, communityId: string): boolean {
      const record = ctx.loadRecord(recordId);
      return writeTransaction(db, () => {
        const removed = store.removeParentCommunity(db, record.parentId, communityId);
        if (removed) ctx.communitiesChanged(record.parentId, clock.now());
        return removed;
      });
    },

    /** Makes the community the record's default; false when the record is not in it. The caller authorised. */
    setDefault(recordId: string, communityId: string): boolean {
      const record = ctx.loadRecord(recordId);
      return writeTransaction(db, () => store.setDefaultCommunity(db, record.parentId, communityId));
    },

    /** The communities' delete hook, in the deletion's transaction: the community's records leave it (a default passes to the next community). */
    leaveCommunity(community: { id: string }, now: number) {
      for (const parentId of store.listCommunityParents(db, community.id)) {
        store.removeParentCommunity(db, parentId, community.id);
        ctx.communitiesChanged(parentId, now);
      }
    },

    /** The draft's title, for the title of the requests about it. */
    draftTitle: (id: string) => String(ctx.loadDraft(id).document.metadata?.title ?? ""),
    /** The published record's title. */
    recordTitle: (id: string) => String(ctx.loadRecord(id).document.metadata?.title ?? ""),

    /** The record's JSON as the caller sees it (after a change). */
    recordJson: (actor: Actor, id: string) => ctx.recordJson(ctx.loadRecord(id), actor),
  };
}

export type Curation = ReturnType<typeof createCuration>;
