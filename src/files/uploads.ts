// Putting bytes into draft files: a whole upload (`PUT .../content`), the parts of a multipart
// transfer (`PUT .../content/{part}`), and commit, which makes the entry `completed`.
import { hostname } from "node:os";
import type { Actor } from "../core/actor";
import { badRequest, HttpError, payloadTooLarge } from "../core/errors";
import { newUuid } from "../core/ids";
import { ContentLengthMismatchError, ContentTooLargeError, type ByteSource, type Received } from "../storage/file-store";
import type { FilesContext } from "./context";
import { detectMimetype } from "./mimetype";
import { requireUnlocked } from "./policy";
import { presentEntry } from "./present";
import * as store from "./store";
import { createStoreParts, storeUnavailable } from "./store-parts";

/** A Content-Length header as a byte count; absent is null; anything else a 400. */
export function parseContentLength(value: string | null): number | null {
  if (value === null) return null;
  if (!/^\d+$/.test(value.trim())) throw badRequest("Content-Length must be a whole number of bytes.");
  return Number(value.trim());
}

export function createUploadOperations(ctx: FilesContext) {
  const { db, clock, config, files, owners, quotas } = ctx.deps;
  const maxSize = config.RDM_FILES_DEFAULT_MAX_FILE_SIZE;
  const storeParts = createStoreParts(ctx);

  /** The pending draft entry that accepts bytes through `how` ("content" or "parts"). */
  async function writableEntry(actor: Actor, id: string, key: string, how: "content" | "parts") {
    requireUnlocked(await owners.draftTarget(actor, id));
    const entry = await ctx.loadEntry(id, true, key);
    if (entry.storageClass === "F") throw badRequest(`The file '${key}' is being fetched by the server from its URI; its content cannot be uploaded.`);
    if (entry.status === "completed") throw badRequest(`The file '${key}' is already committed; delete it to upload other content.`);
    if (how === "content" && entry.transfer.type === "M") throw badRequest(`The file '${key}' is a multipart upload: send its parts to .../content/{part}.`);
    if (how === "parts" && entry.transfer.type !== "M") throw badRequest(`The file '${key}' is not a multipart upload: send its content to .../content.`);
    return entry;
  }

  /** Streams to disk, turning the store's size errors into the API's 413 and 400 (`overflow`: why a stream was stopped at its limit). */
  async function receive(write: () => Promise<Received>, announced: number | null, overflow = (): HttpError => payloadTooLarge(maxSize)): Promise<Received> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof ContentTooLargeError) throw overflow();
      if (error instanceof ContentLengthMismatchError) {
        throw badRequest(`The upload ended after ${error.received} of ${announced ?? error.expected} bytes; nothing was stored. Send the content again.`);
      }
      throw badRequest(`The upload was interrupted (${error instanceof Error ? error.message : "connection closed"}); nothing was stored. Send the content again.`);
    }
  }

  function checkAnnounced(contentLength: number | null, expected: number | null, limit = maxSize) {
    if (contentLength !== null && contentLength > limit) throw payloadTooLarge(limit);
    if (contentLength !== null && expected !== null && contentLength !== expected) {
      throw badRequest(`Content-Length ${contentLength} does not match the ${expected} bytes announced for this file.`);
    }
  }

  /** Records received bytes as a new object of the entry, then drops the object it replaces. */
  async function storeObject(entryId: number, received: Received) {
    const objectId = newUuid();
    // Answered only once the bytes are durable where they are kept (renamed on disk, or whole in S3).
    await files.adopt(received, objectId).catch((error) => {
      throw storeUnavailable(error, "the content");
    });
    return recordObject(entryId, objectId, received);
  }

  /** Makes object `objectId`, durable in the store, the entry's content; refused (and the bytes removed) when over a quota. */
  async function recordObject(entryId: number, objectId: string, received: Pick<Received, "size" | "md5">) {
    const now = clock.now();
    let refusal: HttpError | null = null;
    const orphans = await db.write(async (tx) => {
      const current = await store.findEntryById(tx, entryId);
      // Checked again where writes are serialised: two uploads side by side cannot both take the last free bytes.
      refusal = current ? quotas.refusal(await quotas.room(tx, current.recordId, entryId), received.size) : null;
      if (refusal) return [];
      await store.insertObject(tx, { id: objectId, size: received.size, checksum: `md5:${received.md5}`, created: now, verifiedAt: now });
      if (!current) return store.deleteUnreferencedObjects(tx, [objectId]);
      await store.updateEntry(tx, entryId, { objectId, updated: now });
      return store.deleteUnreferencedObjects(tx, [current.objectId]);
    });
    ctx.removeObjects(refusal ? [objectId] : orphans);
    if (refusal) throw refusal;
    return objectId;
  }

  return {
    async uploadContent(actor: Actor, id: string, key: string, body: ByteSource, contentLength: number | null) {
      const entry = await writableEntry(actor, id, key, "content");
      // Known sizes are refused before any byte; a stream of unknown length is stopped where the room ends.
      const room = await quotas.room(db, id, entry.id);
      const refusal = [contentLength, entry.declaredSize].map((size) => (size === null ? null : quotas.refusal(room, size))).find(Boolean);
      if (refusal) throw refusal;
      checkAnnounced(contentLength, entry.declaredSize, room.maxFileSize);
      const expected = contentLength ?? entry.declaredSize;
      const received = await receive(
        () => files.receive(body, { maxBytes: quotas.maxBytes(room), expectedBytes: expected }),
        expected,
        () => quotas.overflow(room),
      );
      await storeObject(entry.id, received);
      return presentEntry(ctx.linkBase, await ctx.loadEntry(id, true, key));
    },

    async uploadPart(actor: Actor, id: string, key: string, partText: string, body: ByteSource, contentLength: number | null) {
      const entry = await writableEntry(actor, id, key, "parts");
      const { parts = 1, part_size: partSize = 0 } = entry.transfer;
      const part = /^\d+$/.test(partText) ? Number(partText) : NaN;
      if (!(part >= 1 && part <= parts)) throw badRequest(`Part must be a number from 1 to ${parts}.`);
      const expected = part < parts ? partSize : (entry.declaredSize ?? 0) - (parts - 1) * partSize;
      // The whole announced size must still fit (a quota may have been lowered, or other files added, since the start).
      const refusal = quotas.refusal(await quotas.room(db, id, entry.id), entry.declaredSize ?? 0);
      if (refusal) {
        await dropParts(entry);
        throw refusal;
      }
      checkAnnounced(contentLength, expected);
      const path = files.partsPath(entry.versionId);
      const position = (part - 1) * partSize;
      const received = await receive(() => files.receivePart(body, { maxBytes: expected, expectedBytes: expected, path, position }), expected);
      const etag = await storeParts.sendPart(entry, part, path, position, received.size);
      // Recorded only once its bytes are durable (and in S3 when sent there); a part sent again overwrites its own range.
      await db.write(async (tx) => {
        if (await store.findEntryById(tx, entry.id))
          await store.upsertPart(tx, { entryId: entry.id, part, size: received.size, path, etag, host: hostname(), created: clock.now() });
      });
      return presentEntry(ctx.linkBase, await ctx.loadEntry(id, true, key), await store.listParts(db, entry.id));
    },

    async commit(actor: Actor, id: string, key: string) {
      requireUnlocked(await owners.draftTarget(actor, id));
      let entry = await ctx.loadEntry(id, true, key);
      if (entry.storageClass === "F") throw badRequest(`The file '${key}' is being fetched by the server; it is committed when the transfer ends.`);
      if (entry.status === "completed") return presentEntry(ctx.linkBase, entry);
      if (entry.transfer.type === "M") entry = await assembleParts(entry);
      if (!entry.objectId) throw badRequest(`No content was uploaded for '${key}': PUT the bytes to .../content first.`);
      if (entry.declaredSize !== null && entry.size !== entry.declaredSize) {
        throw badRequest(`The uploaded content has ${entry.size} bytes but ${entry.declaredSize} were announced; upload it again.`);
      }
      if (entry.declaredChecksum && entry.checksum !== entry.declaredChecksum) {
        throw badRequest(`The uploaded content's checksum ${entry.checksum} does not match the announced ${entry.declaredChecksum}; upload it again.`);
      }
      const objectId = entry.objectId;
      const mimetype = await detectMimetype(key, (bytes) => files.readHead(objectId, bytes)).catch((error) => {
        throw storeUnavailable(error, "the commit");
      });
      await store.updateEntry(db, entry.id, { status: "completed", mimetype, updated: clock.now() });
      return presentEntry(ctx.linkBase, await ctx.loadEntry(id, true, key));
    },
  };

  /** Forgets a multipart upload's parts and removes their bytes (the entry stays, pending and empty). */
  async function dropParts(entry: store.EntryRow) {
    const upload = await store.findUpload(db, entry.id);
    await db.write(async (tx) => {
      await store.deleteParts(tx, entry.id);
      await store.deleteUpload(tx, entry.id);
    });
    await files.removeFile(files.partsPath(entry.versionId));
    if (upload) await storeParts.abandon(upload);
  }

  /**
   * Every part is in place in the upload's file: hash it as a whole and make it the entry's object
   * (the S3 upload its parts went to, completed; or the file itself, adopted by the store).
   */
  async function assembleParts(entry: store.EntryWithObject) {
    const parts = await store.listParts(db, entry.id);
    const missing = Array.from({ length: entry.transfer.parts ?? 0 }, (_, i) => i + 1).filter((n) => !parts.some((p) => p.part === n));
    if (missing.length) throw badRequest(`Parts not uploaded yet: ${missing.join(", ")}.`);
    const path = files.partsPath(entry.versionId);
    const forget = () =>
      db.write(async (tx) => {
        await store.deleteParts(tx, entry.id);
        await store.deleteUpload(tx, entry.id);
      });
    // Joined by a commit that a stop cut short after the object was recorded: only the rows are left.
    if (entry.objectId && !(await Bun.file(path).exists())) {
      await forget();
      return ctx.loadEntry(entry.recordId, true, entry.key);
    }
    const size = parts.reduce((sum, p) => sum + p.size, 0);
    const refusal = quotas.refusal(await quotas.room(db, entry.recordId, entry.id), size);
    if (refusal) {
      await dropParts(entry);
      throw refusal;
    }
    // Parts another server received (behind a balancer: another machine, or another data
    // directory) are not in this one's file: the object store joins them, and hashes are taken there.
    const here = hostname();
    const elsewhere = parts.filter((p) => (p.host !== null && p.host !== here) || p.path !== path);
    if (elsewhere.length) {
      const joined = await storeParts.completeElsewhere(entry, parts, elsewhere, size);
      await recordObject(entry.id, joined.objectId, joined);
      await files.removeFile(path);
      await forget();
      return ctx.loadEntry(entry.recordId, true, entry.key);
    }
    const received = await files.hashFile(path);
    try {
      const completed = await storeParts.complete(entry, parts, received.size);
      if (completed) {
        await recordObject(entry.id, completed, received);
        await files.removeFile(path);
      } else await storeObject(entry.id, received);
    } catch (error) {
      // Refused by a quota at the last moment: nothing of the upload is kept.
      if (error instanceof HttpError && (error.status === 400 || error.status === 413)) await dropParts(entry);
      throw error;
    }
    await forget();
    return ctx.loadEntry(entry.recordId, true, entry.key);
  }
}
