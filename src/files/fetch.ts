// Fetched files (storage class F): the background transfer. Streams the URI's bytes into the
// store with the size limit, no credentials added, redirects followed only to trusted hosts.
import { HttpError } from "../core/errors";
import { newUuid } from "../core/ids";
import { ContentLengthMismatchError, ContentTooLargeError } from "../storage/file-store";
import type { Room } from "../quotas/limits";
import type { FilesContext } from "./context";
import { detectMimetype } from "./mimetype";
import { fetchRefusal } from "./policy";
import * as store from "./store";

const MAX_REDIRECTS = 5;

/** Tries of one fetch (the job's maxAttempts): after the last, the entry is marked failed. */
export const FETCH_MAX_ATTEMPTS = 5;

/** A failure that retrying cannot fix (refused host, 4xx, too large, over a quota): recorded, not retried. */
export class PermanentFetchError extends Error {}

/** A refusal as the failed entry shows it (an upload's 413 names the limit the same way). */
const refusalText = (error: HttpError, room: Room) => (error.status === 413 ? `The file is larger than the ${room.maxFileSize} bytes allowed.` : error.message);

/** Opens the URI, following redirects by hand so that each hop is checked against the allow-list. */
async function open(url: string, allowed: string[], signal: AbortSignal): Promise<Response> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const refusal = await fetchRefusal(current, allowed);
    if (refusal) throw new PermanentFetchError(hop === 0 ? refusal : `Redirected to an untrusted location: ${refusal}`);
    const response = await fetch(current, { redirect: "manual", signal, headers: { "User-Agent": "Cairn file fetcher" } });
    if (response.status >= 300 && response.status < 400 && response.headers.get("location")) {
      await response.body?.cancel();
      current = new URL(response.headers.get("location")!, current).toString();
      continue;
    }
    if (response.status >= 400 && response.status < 500) throw new PermanentFetchError(`The server answered ${response.status} ${response.statusText}.`);
    if (!response.ok || !response.body) throw new Error(`The server answered ${response.status} ${response.statusText}.`);
    return response;
  }
  throw new PermanentFetchError(`More than ${MAX_REDIRECTS} redirects.`);
}

export function createFetchTransfer(ctx: FilesContext) {
  const { db, clock, config, files, quotas } = ctx.deps;

  /**
   * Shows the failure on the entry. A final one marks the transfer failed: the entry stays, so its
   * owner sees why, and publishing names it, until the owner deletes or replaces it.
   */
  async function recordFailure(entryId: number, attempt: number, message: string, final: boolean) {
    const entry = await store.findEntryById(db, entryId);
    if (!entry) return;
    const transfer = { ...entry.transfer, attempts: attempt, error: message, ...(final ? { status: "failed" as const } : {}) };
    await store.updateEntry(db, entryId, { transfer, updated: clock.now() });
  }

  /** Runs one attempt; throws to have the job retried. */
  return async function transfer(entryId: number, attempt: number, signal: AbortSignal) {
    const entry = await store.findEntryById(db, entryId);
    if (!entry || entry.storageClass !== "F" || entry.status === "completed" || entry.transfer.status === "failed" || !entry.uri) return { skipped: true };
    try {
      const response = await open(entry.uri, config.RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS, signal);
      const announced = response.headers.get("content-length");
      const expected = entry.declaredSize ?? (announced && /^\d+$/.test(announced) ? Number(announced) : null);
      // The quotas and the largest file allowed, before any byte is fetched and again as they arrive.
      const room = await quotas.room(db, entry.recordId, entryId);
      const refusal = expected === null ? null : quotas.refusal(room, expected);
      if (refusal) {
        await response.body?.cancel();
        throw new PermanentFetchError(refusalText(refusal, room));
      }
      const received = await files.receive(response.body!, { maxBytes: quotas.maxBytes(room), expectedBytes: expected }).catch((error) => {
        if (error instanceof ContentTooLargeError) throw new PermanentFetchError(refusalText(quotas.overflow(room), room));
        if (error instanceof ContentLengthMismatchError) throw new Error(`The transfer ended after ${error.received} of ${error.expected} bytes.`);
        throw error;
      });
      if (entry.declaredChecksum && `md5:${received.md5}` !== entry.declaredChecksum) {
        await files.removeFile(received.path);
        throw new PermanentFetchError(`The fetched bytes have checksum md5:${received.md5}, not the announced ${entry.declaredChecksum}.`);
      }
      const objectId = newUuid();
      // Told from the staged bytes, before they go (to S3, where reading them back is a request).
      const mimetype = await detectMimetype(entry.key, async (bytes) => new Uint8Array(await Bun.file(received.path).slice(0, bytes).arrayBuffer()));
      await files.adopt(received, objectId);
      const now = clock.now();
      let late: HttpError | null = null;
      const orphans = await db.write(async (tx) => {
        // Checked again where writes are serialised: uploads side by side cannot both take the last free bytes.
        late = quotas.refusal(await quotas.room(tx, entry.recordId, entryId), received.size);
        if (late) return [];
        await store.insertObject(tx, { id: objectId, size: received.size, checksum: `md5:${received.md5}`, created: now, verifiedAt: now });
        // The draft may have dropped the file while it was being fetched.
        if (!(await store.findEntryById(tx, entryId))) return [objectId];
        await store.updateEntry(tx, entryId, { objectId, status: "completed", storageClass: "L", mimetype, transfer: { type: "L" }, updated: now });
        return [];
      });
      if (late) {
        ctx.removeObjects([objectId]);
        throw new PermanentFetchError(refusalText(late, room));
      }
      if (orphans.length) await db.write((tx) => store.deleteUnreferencedObjects(tx, orphans));
      ctx.removeObjects(orphans);
      return { entryId, size: received.size };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof PermanentFetchError || error instanceof HttpError;
      // A stop (the signal) is not a failure: the job is put back and tried again.
      if (signal.aborted && !permanent) throw error;
      await recordFailure(entryId, attempt, message, permanent || attempt >= FETCH_MAX_ATTEMPTS);
      if (permanent) return { entryId, failed: message };
      throw error;
    }
  };
}
