// Multipart transfers on object storage: each part, once durable in the local parts file, is sent
// on as a part of one S3 multipart upload per entry (recorded in file_uploads), so commit only
// hashes the local file and completes the upload. Layouts S3 cannot take (parts under 5 MiB) and
// uploads that went missing fall back to sending the joined file whole at commit.
import { HttpError } from "../core/errors";
import { newUuid } from "../core/ids";
import { ObjectStoreError, type MultipartUpload } from "../storage/file-store";
import type { FilesContext } from "./context";
import * as store from "./store";

/** The object store failed: a 503 the client answers by sending the same request again. */
export function storeUnavailable(error: unknown, what: string): unknown {
  if (!(error instanceof ObjectStoreError)) return error;
  return new HttpError(503, `The file storage did not take ${what} (${error.message}); nothing was stored. Send it again.`, undefined, { "Retry-After": "5" });
}

export function createStoreParts(ctx: FilesContext) {
  const { db, clock, files, log } = ctx.deps;
  const multipart = files.multipart;
  // One upload per entry even when its first parts arrive together.
  const starting = new Map<number, Promise<MultipartUpload | null>>();

  const suits = (transfer: store.EntryRow["transfer"]) =>
    multipart !== null && (transfer.part_size ?? 0) >= multipart.minPartSize && (transfer.part_size ?? 0) <= multipart.maxPartSize;

  /** The entry's upload, started and recorded on its first part; null when the entry was deleted meanwhile. */
  function uploadOf(entryId: number): Promise<MultipartUpload | null> {
    // The lookup is part of the shared start: a part arriving while it runs waits for its answer.
    let pending = starting.get(entryId);
    if (!pending) {
      pending = (async () => {
        const row = await store.findUpload(db, entryId);
        if (row) return row;
        const upload = await multipart!.create(newUuid());
        const kept = await db.write(async (tx) => {
          if (!(await store.findEntryById(tx, entryId))) return false;
          await store.insertUpload(tx, { entryId, objectId: upload.objectId, uploadId: upload.uploadId, created: clock.now() });
          return true;
        });
        if (!kept) {
          await abandon(upload);
          return null;
        }
        multipart!.recorded(upload);
        return upload;
      })().finally(() => starting.delete(entryId));
      starting.set(entryId, pending);
    }
    return pending;
  }

  /** Completes the upload from the parts sent to it (each with its ETag): the object exists once this resolves. */
  const joinParts = (upload: MultipartUpload, parts: store.PartRow[], size: number) =>
    multipart!.complete(
      upload,
      parts.map((p) => ({ part: p.part, etag: p.etag! })),
      size,
    );

  /** Aborts an upload nothing will complete; a failure is only logged (the start-up sweep retries it). */
  async function abandon(upload: MultipartUpload) {
    await multipart?.abort(upload).catch((error) => log(`files: could not abort multipart upload ${upload.uploadId}: ${error}`));
  }

  return {
    abandon,

    /**
     * After part `part` is durable in the local file `path`: sends it on as an S3 part. Resolves to
     * its ETag, or null when the part stays local only (a layout S3 cannot take, no object store).
     */
    async sendPart(entry: store.EntryRow, part: number, path: string, position: number, size: number): Promise<string | null> {
      if (!suits(entry.transfer)) return null;
      try {
        const upload = await uploadOf(entry.id);
        return upload ? await multipart!.uploadPart(upload, part, path, position, size) : null;
      } catch (error) {
        if (!(error instanceof ObjectStoreError && error.code === "NoSuchUpload")) throw storeUnavailable(error, `part ${part}`);
        // The upload went away (a bucket lifecycle rule): the parts sent to it no longer count, and commit sends the file whole.
        await db.write(async (tx) => {
          await store.deleteUpload(tx, entry.id);
          for (const p of await store.listParts(tx, entry.id)) await store.upsertPart(tx, { ...p, etag: null });
        });
        return null;
      }
    },

    /**
     * At commit, with the joined local file hashed: completes the entry's upload when every part
     * went to it, and resolves to the object it became; null when the file must be sent whole
     * (then any upload of the entry is aborted).
     */
    async complete(entry: store.EntryRow, parts: store.PartRow[], size: number): Promise<string | null> {
      const upload = await store.findUpload(db, entry.id);
      if (!upload) return null;
      if (!parts.every((p) => p.etag)) {
        await abandon(upload);
        await store.deleteUpload(db, entry.id);
        return null;
      }
      try {
        await joinParts(upload, parts, size);
      } catch (error) {
        if (!(error instanceof ObjectStoreError && error.code === "NoSuchUpload")) throw storeUnavailable(error, "the joined parts");
        await store.deleteUpload(db, entry.id);
        return null;
      }
      return upload.objectId;
    },

    /**
     * At commit, when some parts (`elsewhere`) were received by another machine: completes the
     * upload every part went to and hashes the object it became (the bytes are read back once:
     * an MD5 cannot be joined from the parts'). A part that stayed on the other machine's disk
     * (a layout under S3's 5 MiB parts) is a 409 asking for it again, here.
     */
    async completeElsewhere(entry: store.EntryRow, parts: store.PartRow[], elsewhere: store.PartRow[], size: number) {
      const unsent = elsewhere.filter((p) => !p.etag).map((p) => p.part);
      const upload = await store.findUpload(db, entry.id);
      if (unsent.length || !upload) {
        const missing = unsent.length ? unsent : elsewhere.map((p) => p.part);
        await db.write((tx) => store.deletePartsNumbered(tx, entry.id, missing));
        throw new HttpError(
          409,
          `Part${missing.length > 1 ? "s" : ""} ${missing.join(", ")} went to another server, which kept ${missing.length > 1 ? "them" : "it"} on its disk: upload ${missing.length > 1 ? "them" : "it"} again, then commit.`,
        );
      }
      try {
        await joinParts(upload, parts, size);
      } catch (error) {
        throw storeUnavailable(error, "the joined parts");
      }
      const stored = await files.hashObject(upload.objectId).catch((error) => {
        throw storeUnavailable(error, "the joined parts");
      });
      if (!stored || stored.size !== size)
        throw new HttpError(503, "The file storage did not hold the joined parts; nothing was committed. Commit again.", undefined, { "Retry-After": "5" });
      return { objectId: upload.objectId, size: stored.size, md5: stored.md5 };
    },
  };
}
