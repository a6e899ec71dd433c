// The records module's answers to the files module: whether the actor may work on a draft's files
// or read a record's files, the draft's files settings, and where a new version imports files from.
import type { Actor } from "../core/actor";
import type { RecordDocument } from "../core/record-document";
import type { RecordsContext } from "./context";
import { requireLevel, requireReadFiles } from "./policy";
import * as store from "./store";

const settingsOf = (document: RecordDocument) => {
  const files = document.files ?? {};
  return { enabled: files.enabled !== false, default_preview: (files.default_preview as string | null) ?? null, order: (files.order as string[]) ?? [] };
};

export function createFileAccess(ctx: RecordsContext) {
  const { db } = ctx.deps;
  return {
    /** A draft whose files the actor manages; an edit of a published record has its files locked. */
    draftTarget(actor: Actor, id: string) {
      const draft = ctx.loadDraft(id);
      requireLevel(actor, ctx.levelFor(actor, draft, true), "review");
      return { settings: settingsOf(draft.document), locked: store.findRecord(db, id) !== null, parentId: draft.parentId, updated: draft.updated };
    },

    /** A published record whose files the actor may read: restricted files and embargoes apply. */
    recordTarget(actor: Actor, id: string) {
      const record = ctx.loadRecord(id);
      requireReadFiles(actor, record, ctx.levelFor(actor, record, false));
      return { settings: settingsOf(record.document), locked: true, parentId: record.parentId, updated: record.updated };
    },

    /** The latest published version of a new-version draft's parent (files-import copies its files). */
    importSource(draftId: string): string | null {
      const draft = store.findDraft(db, draftId);
      if (!draft) return null;
      const latest = store.findParent(db, draft.parentId)?.latestId ?? null;
      return latest === draftId ? null : latest;
    },
  };
}
