// The records side of sharing a record (the access module's grants, links, settings and ownership):
// which record or draft an access URL names and whether the caller may manage it, its JSON as the
// caller sees it, and moving every version and draft of a parent to a new owner.
import type { Actor } from "../core/actor";
import { notFound } from "../core/errors";
import type { RecordsContext } from "./context";
import { requireLevel, type Level } from "./policy";
import * as store from "./store";

/** The record or draft an access endpoint works on. */
export interface SharingTarget {
  /** The id in the URL: a published record's, or a draft's that was never published. */
  recordId: string;
  parentId: string;
  ownerId: number | null;
  /** True for a draft never published (no published record has this id). */
  isDraft: boolean;
  title: string;
}

export function createSharing(ctx: RecordsContext) {
  const { db } = ctx.deps;

  return {
    /**
     * The published record with this id, else the draft; 404 when there is neither, 401/403 when
     * the caller is below `wanted` on it (records/policy.ts levels).
     */
    async target(actor: Actor, id: string, wanted: Level): Promise<SharingTarget> {
      const record = await store.findRecord(db, id);
      const row = record ?? (await store.findDraft(db, id));
      if (!row) throw notFound("The persistent identifier does not exist.");
      requireLevel(actor, await ctx.levelFor(actor, row, record === null), wanted);
      return { recordId: row.id, parentId: row.parentId, ownerId: row.ownerId, isDraft: record === null, title: String(row.document.metadata?.title ?? "") };
    },

    /** The target's record (or draft) JSON as the caller sees it now. */
    async json(actor: Actor, target: SharingTarget) {
      if (!target.isDraft) return ctx.recordJson(await ctx.loadRecord(target.recordId), actor);
      return ctx.draftJson(await ctx.loadDraft(target.recordId), [], actor);
    },

    /** The record's landing page, for mail. */
    htmlUrl: (target: SharingTarget) => ctx.deps.links.html(`/records/${target.recordId}`),

    /**
     * Gives the parent, every published version and every draft to `userId` and re-indexes them
     * (the index lists records by owner). Call inside the write's transaction.
     */
    async transferOwnership(parentId: string, userId: number, now: number) {
      await store.updateParentOwner(db, parentId, userId, now);
      await ctx.reindexParent(parentId);
    },
  };
}

export type RecordSharing = ReturnType<typeof createSharing>;
