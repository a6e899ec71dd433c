// Publishing a draft, starting a new version, and the draft's DOI (reserve, discard).
import type { Actor } from "../core/actor";
import { badRequest, notFound, validationError } from "../core/errors";
import type { JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { mintDoi } from "../pids/doi";
import { checkEmbargoInFuture, type Access } from "./access";
import { buildDocument } from "./document";
import { newRecordId } from "./ids";
import { requireLevel } from "./policy";
import type { RecordsContext } from "./context";
import * as store from "./store";

export function createPublishOperations(ctx: RecordsContext) {
  const { db, clock, config, lookup } = ctx.deps;

  const managedDoi = (id: string) => ({ identifier: mintDoi(config.DATACITE_FORMAT, config.DATACITE_PREFIX, id), provider: "datacite", client: "datacite" });

  /** Strict validation of a draft about to be published; 400 with every problem. */
  async function validateForPublish(draft: store.DraftRow): Promise<RecordDocument> {
    const built = await buildDocument(draft.document, { previous: draft.document, config, lookup, publisherRequired: ctx.doisEnabled() });
    const errors = [...built.unknownIds, ...built.errors, ...(await ctx.fileErrors(draft.id, built.document, true))];
    checkEmbargoInFuture(built.document.access as Access, ctx.today(), errors);
    if (errors.length) throw validationError(errors);
    return built.document;
  }

  /**
   * Writes a publication whole or not at all: record row, latest flags, DOIs, the community it is
   * published into and the draft's removal, in the caller's transaction (or one of its own).
   * Returns the work to do once that transaction has committed (files to remove, DOI to register).
   */
  async function writePublication(draft: store.DraftRow, document: RecordDocument, now: number, communityId?: string): Promise<() => void> {
    const id = draft.id;
    if (ctx.doisEnabled() && !document.pids.doi) document.pids = { ...document.pids, doi: managedDoi(id) };
    const access = document.access as Access;
    const orphans = await db.write(async (tx) => {
      const fields = {
        document,
        accessRecord: access.record,
        embargoUntil: access.embargo.active ? access.embargo.until : null,
        isPublished: true,
      };
      if (await store.findRecord(tx, id)) await store.updateRecord(tx, id, fields, now);
      else await store.insertRecord(tx, { id, parentId: draft.parentId, ownerId: draft.ownerId, versionIndex: draft.versionIndex, created: now, updated: now, ...fields });
      const parent = (await store.findParent(tx, draft.parentId))!;
      const latest = parent.latestId ? await store.findRecord(tx, parent.latestId) : null;
      if (!latest || latest.versionIndex <= draft.versionIndex) await store.setLatestVersion(tx, draft.parentId, id, now);
      // A concept DOI for the parent, once its versions get DOIs from this repository.
      if (document.pids.doi?.provider === "datacite" && !(parent.pids as JsonObject).doi) {
        await store.updateParentPids(tx, parent.id, { ...parent.pids, doi: managedDoi(parent.id) }, now);
      }
      // The record's files become the draft's (shared bytes); those it no longer has go after commit.
      const dropped = await ctx.deps.files.publish(id);
      await store.deleteDraft(tx, id);
      await ctx.reindexDraft(id);
      await ctx.reindexRecord(id);
      // A parent's first published version: its row, just indexed from the record, is the only one.
      if (latest) await ctx.search.indexLatestFlags(draft.parentId, (await store.findParent(tx, draft.parentId))!.latestId!);
      // Into the community whose review accepted it: every version shows it (through the parent).
      if (communityId && (await store.addParentCommunity(tx, draft.parentId, communityId, now))) await ctx.communitiesChanged(draft.parentId, now);
      return dropped;
    });
    return () => {
      ctx.deps.files.removeObjects(orphans);
      if (document.pids.doi?.provider === "datacite") ctx.deps.enqueue("datacite-register", { recordId: id });
    };
  }

  return {
    validateForPublish,
    writePublication,

    /**
     * Publishes the draft (the caller reviews it, and no community review of it is open). A draft
     * moderation holds (its owner's account not approved yet) is answered as a draft, waiting.
     */
    async publish(actor: Actor, id: string) {
      const draft = await ctx.loadDraft(id);
      requireLevel(actor, await ctx.levelFor(actor, draft, true), "review");
      await ctx.checkNotInReview(id, "published");
      // An edit draft left open when its record was deleted does not bring the record back: restoring does.
      if (await store.findRecord(db, id)) await ctx.loadRecord(id);
      const document = await validateForPublish(draft);
      if (await ctx.deps.moderation?.hold(actor, draft)) return ctx.draftJson(await ctx.loadDraft(id), [], actor);
      (await writePublication(draft, document, clock.now()))();
      return ctx.recordJson(await ctx.loadRecord(id), actor);
    },

    /** A new-version draft of the record's parent (the open one if there is one already). */
    async newVersion(actor: Actor, id: string) {
      const record = await ctx.loadRecord(id);
      requireLevel(actor, await ctx.levelFor(actor, record, false), "curate");
      const open = await store.findNewVersionDraft(db, record.parentId);
      if (open) return ctx.draftJson(open, [], actor);
      const parent = (await store.findParent(db, record.parentId))!;
      const latest = parent.latestId ? await ctx.loadRecord(parent.latestId) : record;
      const source = latest.document;
      // InvenioRDM copies the metadata but not what belongs to one version: its date, version
      // label, DOI and files.
      const { publication_date: _date, version: _version, ...metadata } = source.metadata ?? {};
      const document = { ...source, metadata, pids: {}, files: { ...source.files, default_preview: null, order: [] } };
      const newId = newRecordId();
      const now = clock.now();
      // One transaction, so no other request sees the draft before its index rows (as when this was synchronous).
      await db.write(async (tx) => {
        await store.insertDraft(tx, {
          id: newId,
          parentId: record.parentId,
          ownerId: record.ownerId,
          versionIndex: (await store.maxVersionIndex(tx, record.parentId)) + 1,
          document,
          created: now,
          updated: now,
        });
        await ctx.reindexDraft(newId);
      });
      return ctx.draftJson(await ctx.loadDraft(newId), [], actor);
    },

    async reserveDoi(actor: Actor, id: string) {
      const draft = await ctx.loadDraft(id);
      requireLevel(actor, await ctx.levelFor(actor, draft, true), "review");
      if (!ctx.doisEnabled()) throw badRequest("DOIs are not configured on this repository: set DATACITE_PREFIX to mint them.");
      const doc = draft.document;
      if (doc.pids?.doi) throw validationError([{ field: "pids.doi", messages: ["A PID of type doi already exists for this record."] }]);
      const document = { ...doc, pids: { ...doc.pids, doi: managedDoi(id) } };
      await db.write(async (tx) => {
        await store.updateDraftDocument(tx, id, draft.revisionId, document, clock.now());
        await ctx.reindexDraft(id);
      });
      return ctx.draftJson(await ctx.loadDraft(id), [], actor);
    },

    /** Removes a DOI reserved through the repository; an external one goes by updating the draft. */
    async discardDoi(actor: Actor, id: string) {
      const draft = await ctx.loadDraft(id);
      requireLevel(actor, await ctx.levelFor(actor, draft, true), "review");
      const doc = draft.document;
      const doi = doc.pids?.doi;
      if (!doi) throw notFound("The persistent identifier does not exist.");
      if (doi.provider === "external") {
        throw validationError([{ field: "pids.doi", messages: ["An external DOI is removed by updating the draft without it in pids."] }]);
      }
      if (await store.findRecord(db, id)) {
        throw validationError([{ field: "pids.doi", messages: ["The DOI of a published record cannot be discarded."] }]);
      }
      const { doi: _removed, ...pids } = doc.pids;
      await db.write(async (tx) => {
        await store.updateDraftDocument(tx, id, draft.revisionId, { ...doc, pids }, clock.now());
        await ctx.reindexDraft(id);
      });
    },
  };
}
