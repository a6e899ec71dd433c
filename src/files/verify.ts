// Integrity: re-hash stored objects and compare with the checksum recorded when they arrived.
import type { FilesContext } from "./context";
import * as store from "./store";
import { DAY_MS } from "../core/time";

export interface VerifyReport {
  checked: number;
  failures: { id: string; error: string; entries: { recordId: string; isDraft: boolean; key: string }[] }[];
}

export function createVerifier(ctx: FilesContext) {
  const { db, clock, files } = ctx.deps;
  /** Checks objects last verified more than `olderThanDays` ago (0: all), at most `limit` of them. */
  return async function verifyFiles(options: { olderThanDays: number; limit: number }): Promise<VerifyReport> {
    const now = clock.now();
    const batch = store.listObjectsToVerify(db, options.olderThanDays === 0 ? Number.MAX_SAFE_INTEGER : now - options.olderThanDays * DAY_MS, options.limit);
    const report: VerifyReport = { checked: 0, failures: [] };
    for (const object of batch) {
      const path = files.objectPath(object.id);
      const actual = (await Bun.file(path).exists()) ? `md5:${(await files.hashFile(path)).md5}` : null;
      const error = actual === null ? "the stored file is missing" : actual !== object.checksum ? `checksum is ${actual}, expected ${object.checksum}` : null;
      store.markVerified(db, object.id, clock.now(), error);
      report.checked++;
      if (error) report.failures.push({ id: object.id, error, entries: store.listEntriesOfObject(db, object.id) });
    }
    return report;
  };
}
