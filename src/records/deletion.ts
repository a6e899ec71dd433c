// Deleting a published record with a tombstone, and restoring it (InvenioRDM v12+): the record
// leaves searches and harvests (OAI-PMH keeps a deleted header), reading it answers 410 with the
// tombstone (404 when hidden), its files stay stored but are not served, its DOI is hidden.
import type { AuditOrigin } from "../audit/model";
import { requireAdmin, type Actor } from "../core/actor";
import { conflict, notFound, validationError, type FieldError } from "../core/errors";
import type { JsonObject } from "../core/json";
import { formatIsoTime } from "../core/time";
import type { Db } from "../db/port";
import type { RecordsContext } from "./context";
import { isDeleted } from "./policy";
import * as store from "./store";

/** Removal reasons are this vocabulary's entries (`duplicate`, `spam`, `retracted`...). */
const REMOVAL_REASONS = "removalreasons";
const MAX_TEXT = 10_000;

export function createDeletion(ctx: RecordsContext) {
  const { db, clock, lookup } = ctx.deps;

  /** The record whatever its deletion status: these operations are the ones that act on deleted records. */
  async function findAny(id: string) {
    const record = await store.findRecord(db, id);
    if (!record) throw notFound("The persistent identifier does not exist.");
    return record;
  }

  /** The tombstone from the request body (InvenioRDM's TombstoneSchema); 400 listing every problem. */
  async function tombstoneOf(actor: Actor, body: unknown, record: store.RecordRow): Promise<JsonObject> {
    const input: JsonObject = body && typeof body === "object" && !Array.isArray(body) ? body : {};
    const errors: FieldError[] = [];
    const reasonId = input.removal_reason?.id;
    const reason = typeof reasonId === "string" ? await lookup(REMOVAL_REASONS, reasonId) : null;
    if (typeof reasonId !== "string" || reasonId === "")
      errors.push({ field: "removal_reason.id", messages: ["A removal reason is required (an id of the removalreasons vocabulary)."] });
    else if (!reason) errors.push({ field: "removal_reason.id", messages: [`Unknown removal reason '${reasonId}': see /api/vocabularies/removalreasons.`] });
    const text = (field: "note" | "citation_text") => {
      const value = input[field];
      if (value === undefined || value === null) return undefined;
      if (typeof value !== "string") errors.push({ field, messages: ["Must be a string."] });
      else if (value.length > MAX_TEXT) errors.push({ field, messages: [`At most ${MAX_TEXT} characters.`] });
      else return value.trim();
      return undefined;
    };
    const note = text("note");
    const citation = text("citation_text");
    if (input.is_visible !== undefined && typeof input.is_visible !== "boolean") errors.push({ field: "is_visible", messages: ["Must be true or false."] });
    if (errors.length) throw validationError(errors);
    return {
      removal_reason: { id: reasonId, ...(reason?.title ? { title: reason.title } : {}) },
      note: note ?? "",
      removed_by: actor.kind === "user" ? { user: String(actor.userId) } : { user: "system" },
      removal_date: formatIsoTime(clock.now()),
      // As InvenioRDM: without one, the record's citation as it was (the default style).
      citation_text: citation || (ctx.deps.citationText ? await ctx.deps.citationText(await ctx.recordJson(record)) : ""),
      is_visible: input.is_visible ?? true,
    };
  }

  /**
   * The parent's latest version is its newest one not deleted (the concept DOI and `/versions/latest`
   * lead to a version people can read); when every version is deleted it stays as it is.
   */
  async function settleLatest(tx: Db, parentId: string, now: number) {
    const live = (await store.listParentVersions(tx, parentId)).filter((r) => !isDeleted(r));
    const newest = live[live.length - 1];
    if (!newest) return;
    await store.setLatestVersion(tx, parentId, newest.id, now);
    await ctx.search.indexLatestFlags(parentId, newest.id);
  }

  /**
   * Writes the deletion status, the index and the latest version in one transaction, with the
   * administrator's audit entry when `audited` is given; the DOI follows after commit.
   */
  async function write(record: store.RecordRow, fields: { deletionStatus: string; tombstone: JsonObject | null }, audited?: (tx: Db) => Promise<void>) {
    const now = clock.now();
    await db.write(async (tx) => {
      await store.updateRecord(tx, record.id, fields, now);
      await ctx.reindexRecord(record.id);
      await settleLatest(tx, record.parentId, now);
      await audited?.(tx);
    });
    // DataCite: a deleted record's DOI is hidden (it still resolves, to the tombstone); a restored one is findable again.
    if (record.document.pids?.doi?.provider === "datacite") ctx.deps.enqueue("datacite-register", { recordId: record.id });
  }

  return {
    /** `DELETE /api/records/{id}/delete` (administrators): 409 when it is deleted already; audited as `record.tombstone`. */
    async deleteRecord(actor: Actor, id: string, body: unknown, origin: AuditOrigin) {
      requireAdmin(actor);
      const record = await findAny(id);
      if (isDeleted(record)) throw conflict("The record is already deleted.");
      const tombstone = await tombstoneOf(actor, body, record);
      const details = { reason: (tombstone.removal_reason as JsonObject).id, note: tombstone.note, is_visible: tombstone.is_visible };
      await write(record, { deletionStatus: "D", tombstone }, (tx) =>
        ctx.deps.audit.record(actor, { action: "record.tombstone", targetType: "record", targetId: record.id, details, ...origin }, tx),
      );
    },

    /**
     * Tombstones every published record the user owns that is not deleted yet (a blocked account's,
     * under moderation), each as `deleteRecord` does; joins the caller's transaction. How many.
     */
    async deleteOwnedRecords(actor: Actor, userId: number, tombstone: Record<string, unknown>): Promise<number> {
      requireAdmin(actor);
      const ids = await store.listOwnedRecordIds(db, userId);
      for (const id of ids) {
        const record = await findAny(id);
        await write(record, { deletionStatus: "D", tombstone: await tombstoneOf(actor, tombstone, record) });
      }
      return ids.length;
    },

    /** `POST /api/records/{id}/restore` (administrators): the record as it was, public again if it was; 409 when it is not deleted; audited as `record.restore`. */
    async restoreRecord(actor: Actor, id: string, origin: AuditOrigin) {
      requireAdmin(actor);
      const record = await findAny(id);
      if (!isDeleted(record)) throw conflict("The record is not deleted.");
      const reason = (record.tombstone as JsonObject | null)?.removal_reason?.id ?? null;
      await write(record, { deletionStatus: "P", tombstone: null }, (tx) =>
        ctx.deps.audit.record(actor, { action: "record.restore", targetType: "record", targetId: record.id, details: { reason }, ...origin }, tx),
      );
      return ctx.recordJson(await findAny(id), actor);
    },
  };
}
