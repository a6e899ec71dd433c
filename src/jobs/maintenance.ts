// Housekeeping jobs every install runs: pruning finished jobs and keeping the database tidy.
import { DAY_MS, type Clock } from "../core/time";
import type { DatabasePort } from "../db/port";
import type { JobRegistry } from "./registry";
import * as store from "./store";

export function defineMaintenanceJobs(registry: JobRegistry, deps: { db: DatabasePort; clock: Clock; retentionDays: number }) {
  registry.define({
    name: "jobs-prune",
    description: "Deletes finished jobs older than JOBS_RETENTION_DAYS.",
    schedule: { dailyAt: "03:10" },
    run: async () => ({ deleted: await store.deleteFinishedJobsBefore(deps.db, deps.clock.now() - deps.retentionDays * DAY_MS) }),
  });
  registry.define({
    name: "db-optimize",
    description: "Refreshes SQLite's query planner statistics and truncates the write-ahead log (on PostgreSQL its autovacuum does this: nothing to do).",
    schedule: { dailyAt: "03:20" },
    run: async () => ({ checkpoint: await deps.db.optimize() }),
  });
}
