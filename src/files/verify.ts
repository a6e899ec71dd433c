// Integrity: re-hash stored objects and compare with the checksum recorded when they arrived.
import type { FilesContext } from "./context";
import * as store from "./store";
import { DAY_MS } from "../core/time";

export interface VerifyReport {
  checked: number;
  failures: { id: string; error: string; entries: { recordId: string; isDraft: boolean; key: string }[] }[];
}

/** What is wrong with an object's bytes as read back now, or null when they are as recorded. */
function damage(stored: { size: number; md5: string } | null, object: store.ObjectRow): string | null {
  if (stored === null) return "the stored file is missing";
  if (`md5:${stored.md5}` !== object.checksum) return `checksum is md5:${stored.md5}, expected ${object.checksum}`;
  if (stored.size !== object.size) return `size is ${stored.size}, expected ${object.size}`;
  return null;
}

export function createVerifier(ctx: FilesContext) {
  const { db, clock, files } = ctx.deps;
  /** Checks objects last verified more than `olderThanDays` ago (0: all), at most `limit` of them. */
  return async function verifyFiles(options: { olderThanDays: number; limit: number }): Promise<VerifyReport> {
    const now = clock.now();
    const batch = await store.listObjectsToVerify(db, options.olderThanDays === 0 ? Number.MAX_SAFE_INTEGER : now - options.olderThanDays * DAY_MS, options.limit);
    const report: VerifyReport = { checked: 0, failures: [] };
    for (const object of batch) {
      // Read back from wherever the store keeps it: the local disk, or the S3 bucket object by object.
      let error: string | null;
      try {
        error = damage(await files.hashObject(object.id), object);
        await store.markVerified(db, object.id, clock.now(), error);
      } catch (e) {
        // The store did not answer: reported, and checked again next time (not recorded as damage).
        error = `it could not be read: ${e instanceof Error ? e.message : String(e)}`;
      }
      report.checked++;
      if (error) report.failures.push({ id: object.id, error, entries: await store.listEntriesOfObject(db, object.id) });
    }
    return report;
  };
}
