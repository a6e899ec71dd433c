// Draft operations: create, read, update, delete, and editing a published record.
import { requireUser, type Actor } from "../core/actor";
import { checkRevision } from "../core/etag";
import { preconditionFailed, validationError } from "../core/errors";
import type { RecordDocument } from "../core/record-document";
import { writeTransaction } from "../db/sqlite/connection";
import { newRecordId } from "./ids";
import { buildDocument } from "./document";
import { requireLevel } from "./policy";
import type { RecordsContext } from "./context";
import * as store from "./store";

export function createDraftOperations(ctx: RecordsContext) {
  const { db, clock, config, lookup } = ctx.deps;

  /** Validates leniently: the draft is saved with its errors; unknown vocabulary ids are a 400 now. */
  function build(recordId: string, body: unknown, previous?: RecordDocument) {
    const built = buildDocument(body, { previous, config, lookup, publisherRequired: ctx.doisEnabled() });
    if (built.unknownIds.length) throw validationError(built.unknownIds);
    return { document: built.document, errors: [...built.errors, ...ctx.fileErrors(recordId, built.document)] };
  }

  return {
    createDraft(actor: Actor, body: unknown) {
      requireUser(actor);
      const ownerId = actor.kind === "user" ? actor.userId : null;
      const id = newRecordId();
      const parentId = newRecordId();
      const { document, errors } = build(id, body);
      const now = clock.now();
      writeTransaction(db, () => {
        store.insertParent(db, { id: parentId, ownerId, created: now, updated: now });
        store.insertDraft(db, { id, parentId, ownerId, versionIndex: 1, document, created: now, updated: now });
        ctx.reindexDraft(id);
      });
      return ctx.draftJson(ctx.loadDraft(id), errors, actor);
    },

    readDraft(actor: Actor, id: string) {
      const draft = ctx.loadDraft(id);
      requireLevel(actor, ctx.levelFor(actor, draft, true), "preview");
      return ctx.draftJson(draft, build(id, draft.document, draft.document).errors, actor);
    },

    /** A full replacement, as InvenioRDM's PUT; `If-Match` must name the current revision. */
    updateDraft(actor: Actor, id: string, body: unknown, ifMatch: string | null) {
      const draft = ctx.loadDraft(id);
      requireLevel(actor, ctx.levelFor(actor, draft, true), "review");
      checkRevision(ifMatch, draft.revisionId);
      const { document, errors } = build(id, body, draft.document);
      writeTransaction(db, () => {
        if (!store.updateDraftDocument(db, id, draft.revisionId, document, clock.now())) throw preconditionFailed();
        ctx.reindexDraft(id);
      });
      return ctx.draftJson(ctx.loadDraft(id), errors, actor);
    },

    /** Removes the draft; for a record never published, its parent too (files follow them). */
    deleteDraft(actor: Actor, id: string, ifMatch: string | null) {
      const draft = ctx.loadDraft(id);
      requireLevel(actor, ctx.levelFor(actor, draft, true), "curate");
      checkRevision(ifMatch, draft.revisionId);
      ctx.checkNotInReview(id, "deleted");
      const orphans = writeTransaction(db, () => {
        // A review never submitted goes with its draft.
        ctx.deps.requests?.discardUnsubmitted({ kind: "record", id });
        const dropped = ctx.deps.files.discardDraft(id);
        store.deleteDraft(db, id);
        ctx.reindexDraft(id);
        const parent = store.findParent(db, draft.parentId);
        if (parent && !parent.latestId && !store.findNewVersionDraft(db, draft.parentId)) store.deleteParent(db, draft.parentId);
        return dropped;
      });
      ctx.deps.files.removeObjects(orphans);
    },

    /** POST /records/{id}/draft: an edit draft of a published record (the existing one if open). */
    editRecord(actor: Actor, id: string) {
      const record = ctx.loadRecord(id);
      requireLevel(actor, ctx.levelFor(actor, record, false), "curate");
      const existing = store.findDraft(db, id);
      if (existing) return ctx.draftJson(existing, [], actor);
      const now = clock.now();
      writeTransaction(db, () => {
        store.insertDraft(db, { id, parentId: record.parentId, ownerId: record.ownerId, versionIndex: record.versionIndex, document: record.document, created: now, updated: now });
        ctx.deps.files.edit(id);
        ctx.reindexDraft(id);
      });
      return ctx.draftJson(ctx.loadDraft(id), [], actor);
    },
  };
}
