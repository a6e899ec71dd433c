// The `access-verifications-clean` job: guests' access requests never confirmed within their 6 hours are dropped.
import type { Db } from "../db/port";
import type { JobRegistry } from "../jobs/registry";
import { deleteExpiredVerifications } from "./store";

export const CLEAN_VERIFICATIONS_JOB = "access-verifications-clean";

export function defineAccessRequestJobs(registry: JobRegistry, deps: { db: Db; clock: { now(): number } }) {
  registry.define({
    name: CLEAN_VERIFICATIONS_JOB,
    description: "Deletes guests' access-request verifications whose 6 hours have passed unconfirmed.",
    schedule: { dailyAt: "00:05" },
    run: async () => ({ deleted: await deleteExpiredVerifications(deps.db, deps.clock.now()) }),
  });
}
