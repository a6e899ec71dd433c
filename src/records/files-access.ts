// The records module's answers to the files module: whether the actor may work on a draft's files
// or read a record's files, the draft's files settings, and where a new version imports files from.
import type { Actor } from "../core/actor";
import type { RecordsContext } from "./context";
import { requireLevel, requireReadFiles } from "./policy";
import { filesSettings } from "./present";
import * as store from "./store";

export function createFileAccess(ctx: RecordsContext) {
  const { db } = ctx.deps;
  return {
    /** A draft whose files the actor manages; an edit of a published record has its files locked. */
    async draftTarget(actor: Actor, id: string) {
      const draft = await ctx.loadDraft(id);
      requireLevel(actor, await ctx.levelFor(actor, draft, true), "review");
      return { settings: filesSettings(draft.document), locked: (await store.findRecord(db, id)) !== null, parentId: draft.parentId, updated: draft.updated };
    },

    /** A published record whose files the actor may read: restricted files and embargoes apply. */
    async recordTarget(actor: Actor, id: string) {
      const record = await ctx.loadRecord(id);
      requireReadFiles(actor, record, await ctx.levelFor(actor, record, false));
      return { settings: filesSettings(record.document), locked: true, parentId: record.parentId, updated: record.updated };
    },

    /** The latest published version of a new-version draft's parent (files-import copies its files). */
    async importSource(draftId: string): Promise<string | null> {
      const draft = await store.findDraft(db, draftId);
      if (!draft) return null;
      const latest = (await store.findParent(db, draft.parentId))?.latestId ?? null;
      return latest === draftId ? null : latest;
    },
  };
}
