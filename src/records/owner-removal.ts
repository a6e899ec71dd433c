// A deleted account's records (users/admin-delete.ts): its drafts go with their files, and its
// published records are either kept or removed with tombstones (reason `spam`, through deletion.ts),
// then handed, in both cases, to the placeholder owner the account's row can be deleted behind.
// Also the administration's list of one user's records and drafts (the search index lists only the
// caller's own).
import { requireAdmin, type Actor } from "../core/actor";
import type { RecordsContext } from "./context";
import type { createDeletion } from "./deletion";
import { discardDraft } from "./drafts";
import { isDeleted } from "./policy";
import * as store from "./store";

/** The tombstone of a removed account's records: InvenioRDM's `spam` removal reason. */
const SPAM_TOMBSTONE = { removal_reason: { id: "spam" }, note: "The account that published it was deleted by an administrator." };

export interface OwnedCounts {
  /** Published versions not deleted already. */
  records: number;
  drafts: number;
}

/** One of a user's records or drafts as the administration's user page lists it. */
export interface OwnedItem {
  id: string;
  title: string;
  status: "published" | "deleted" | "draft";
  updated: number;
}

const titleOf = (document: { metadata?: { title?: unknown } }) => (typeof document.metadata?.title === "string" && document.metadata.title) || "(untitled)";

export function createOwnerRemoval(ctx: RecordsContext, deletion: ReturnType<typeof createDeletion>) {
  const { db } = ctx.deps;

  /** How many published records and drafts the user owns (what the delete step says will happen to). */
  const countOwned = async (userId: number): Promise<OwnedCounts> => ({
    records: await store.countOwned(db, "records-published", userId),
    drafts: await store.countOwned(db, "drafts", userId),
  });

  return {
    countOwned,

    /** A user's published records (deleted ones too) and drafts, newest change first, at most `limit` of each, with their totals (administrators). */
    async listOwned(actor: Actor, userId: number, limit: number) {
      requireAdmin(actor);
      const records = await store.listOwnedRecords(db, userId, limit);
      const drafts = await store.listOwnedDrafts(db, userId, limit);
      const counts = await countOwned(userId);
      return {
        records: records.map((r): OwnedItem => ({ id: r.id, title: titleOf(r.document), status: isDeleted(r) ? "deleted" : "published", updated: r.updated })),
        drafts: drafts.map((d): OwnedItem => ({ id: d.id, title: titleOf(d.document), status: "draft", updated: d.updated })),
        totals: { records: counts.records + (await store.countOwned(db, "records-deleted", userId)), drafts: counts.drafts },
      };
    },

    /**
     * Inside the caller's transaction (their open requests already closed, so no draft is in review):
     * deletes the user's drafts, tombstones their published records when `remove`, and gives every
     * parent they own to `placeholderId`. The drafts' orphaned file objects are removed after commit.
     */
    async handOver(
      actor: Actor,
      userId: number,
      placeholderId: number,
      choice: "keep" | "remove",
      now: number,
      afterCommit: (work: () => Promise<void>) => void,
    ): Promise<OwnedCounts> {
      const orphans: string[] = [];
      const drafts = await store.listOwnedIds(db, "drafts", userId);
      for (const id of drafts) {
        const draft = await store.findDraft(db, id);
        if (draft) orphans.push(...(await discardDraft(ctx, db, draft)));
      }
      const published = choice === "remove" ? await deletion.deleteOwnedRecords(actor, userId, SPAM_TOMBSTONE) : await store.countOwned(db, "records-published", userId);
      for (const id of await store.listOwnedIds(db, "parents", userId)) {
        await store.updateParentOwner(db, id, placeholderId, now);
        await ctx.reindexParent(id);
      }
      afterCommit(async () => ctx.deps.files.removeObjects(orphans));
      return { records: published, drafts: drafts.length };
    },
  };
}
