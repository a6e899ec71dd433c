// Draft operations: create, read, update, delete, and editing a published record.
import { requireUser, type Actor } from "../core/actor";
import { checkRevision } from "../core/etag";
import { preconditionFailed, validationError } from "../core/errors";
import type { RecordDocument } from "../core/record-document";
import type { Db } from "../db/port";
import { newRecordId } from "./ids";
import { buildDocument } from "./document";
import { requireLevel } from "./policy";
import type { RecordsContext } from "./context";
import * as store from "./store";

/**
 * Inside the caller's transaction: the draft, its files' entries, its unsubmitted review and, for a
 * record never published, its parent go; answers the objects no longer referenced, whose bytes the
 * caller removes once the transaction has committed (files.removeObjects).
 */
export async function discardDraft(ctx: RecordsContext, tx: Db, draft: store.DraftRow): Promise<string[]> {
  // A review never submitted goes with its draft.
  await ctx.deps.requests?.discardUnsubmitted({ kind: "record", id: draft.id });
  const dropped = await ctx.deps.files.discardDraft(draft.id);
  await store.deleteDraft(tx, draft.id);
  await ctx.reindexDraft(draft.id);
  const parent = await store.findParent(tx, draft.parentId);
  if (parent && !parent.latestId && !(await store.findNewVersionDraft(tx, draft.parentId))) await store.deleteParent(tx, draft.parentId);
  return dropped;
}

export function createDraftOperations(ctx: RecordsContext) {
  const { db, clock, config, lookup } = ctx.deps;

  /** Validates leniently: the draft is saved with its errors; unknown vocabulary ids are a 400 now. */
  async function build(recordId: string, body: unknown, previous?: RecordDocument) {
    const built = await buildDocument(body, { previous, config, lookup, publisherRequired: ctx.doisEnabled() });
    if (built.unknownIds.length) throw validationError(built.unknownIds);
    return { document: built.document, errors: [...built.errors, ...(await ctx.fileErrors(recordId, built.document))] };
  }

  return {
    async createDraft(actor: Actor, body: unknown) {
      requireUser(actor);
      const ownerId = actor.kind === "user" ? actor.userId : null;
      const id = newRecordId();
      const parentId = newRecordId();
      const { document, errors } = await build(id, body);
      const now = clock.now();
      await db.write(async (tx) => {
        await store.insertParent(tx, { id: parentId, ownerId, created: now, updated: now });
        await store.insertDraft(tx, { id, parentId, ownerId, versionIndex: 1, document, created: now, updated: now });
        await ctx.reindexDraft(id);
      });
      return ctx.draftJson(await ctx.loadDraft(id), errors, actor);
    },

    async readDraft(actor: Actor, id: string) {
      const draft = await ctx.loadDraft(id);
      requireLevel(actor, await ctx.levelFor(actor, draft, true), "preview");
      return ctx.draftJson(draft, (await build(id, draft.document, draft.document)).errors, actor);
    },

    /** A full replacement, as InvenioRDM's PUT; `If-Match` must name the current revision. */
    async updateDraft(actor: Actor, id: string, body: unknown, ifMatch: string | null) {
      const draft = await ctx.loadDraft(id);
      requireLevel(actor, await ctx.levelFor(actor, draft, true), "review");
      checkRevision(ifMatch, draft.revisionId);
      const { document, errors } = await build(id, body, draft.document);
      await db.write(async (tx) => {
        if (!(await store.updateDraftDocument(tx, id, draft.revisionId, document, clock.now()))) throw preconditionFailed();
        await ctx.reindexDraft(id);
      });
      return ctx.draftJson(await ctx.loadDraft(id), errors, actor);
    },

    /** Removes the draft; for a record never published, its parent too (files follow them). */
    async deleteDraft(actor: Actor, id: string, ifMatch: string | null) {
      const draft = await ctx.loadDraft(id);
      requireLevel(actor, await ctx.levelFor(actor, draft, true), "curate");
      checkRevision(ifMatch, draft.revisionId);
      await ctx.checkNotInReview(id, "deleted");
      const orphans = await db.write((tx) => discardDraft(ctx, tx, draft));
      ctx.deps.files.removeObjects(orphans);
    },

    /** POST /records/{id}/draft: an edit draft of a published record (the existing one if open). */
    async editRecord(actor: Actor, id: string) {
      const record = await ctx.loadRecord(id);
      requireLevel(actor, await ctx.levelFor(actor, record, false), "curate");
      const existing = await store.findDraft(db, id);
      if (existing) return ctx.draftJson(existing, [], actor);
      const now = clock.now();
      await db.write(async (tx) => {
        await store.insertDraft(tx, {
          id,
          parentId: record.parentId,
          ownerId: record.ownerId,
          versionIndex: record.versionIndex,
          document: record.document,
          created: now,
          updated: now,
        });
        await ctx.deps.files.edit(id);
        await ctx.reindexDraft(id);
      });
      return ctx.draftJson(await ctx.loadDraft(id), [], actor);
    },
  };
}
