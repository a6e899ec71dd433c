// Background jobs of files: transferring fetched files, and the integrity check that re-hashes
// stored bytes (each object every FILES_VERIFY_INTERVAL_DAYS days, a batch every hour).
import type { Config } from "../config";
import type { JobRegistry } from "../jobs/registry";
import { FETCH_MAX_ATTEMPTS } from "./fetch";
import { FETCH_JOB, type FilesService } from "./service";
import { HOUR_MS } from "../core/time";

export const VERIFY_JOB = "files-verify";

export function defineFileJobs(registry: JobRegistry, deps: { files: FilesService; config: Config; log(m: string): void }) {
  registry.define<{ entryId: number }>({
    name: FETCH_JOB,
    description: "Transfers a fetched file (storage class F) from its URI into the store.",
    maxAttempts: FETCH_MAX_ATTEMPTS,
    backoffMs: 30_000,
    run: (payload, job) => deps.files.fetchFile(payload.entryId, job.attempt, job.signal),
  });
  registry.define({
    name: VERIFY_JOB,
    description: "Re-hashes stored files not checked recently and reports any whose checksum no longer matches.",
    schedule: { everyMs: HOUR_MS },
    run: async () => {
      const report = await deps.files.verifyFiles({ olderThanDays: deps.config.FILES_VERIFY_INTERVAL_DAYS, limit: 1000 });
      for (const bad of report.failures) deps.log(`files: integrity check failed for object ${bad.id}: ${bad.error}`);
      return { checked: report.checked, failures: report.failures.length };
    },
  });
}
