// The durable job queue and the schedule of interval jobs.
// Dialect-specific: jobs/store.ts claimNextJob (`?1`/`?2` placeholders; `UPDATE … WHERE id =
// (SELECT … LIMIT 1)` relies on SQLite's single writer: PostgreSQL needs `FOR UPDATE SKIP LOCKED`
// in the subquery, or two workers take the same job); releaseJob's two-argument `max(0, x)` ->
// `greatest(0, x)`; payload/result JSON text (default `'{}'`) -> jsonb.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const jobsTable = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    payload: text("payload", { mode: "json" })
      .$type<unknown>()
      .notNull()
      .default(sql`'{}'`),
    /** queued -> running -> succeeded | failed (queued again between retries). */
    status: text("status").$type<"queued" | "running" | "succeeded" | "failed">().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    runAt: integer("run_at").notNull(),
    /** A running job whose lease passed is taken to be abandoned (its process died). */
    leaseUntil: integer("lease_until"),
    /** The serving process that claimed it (server_instances.name): when it has ended, the job is put back without waiting for the lease. */
    claimedBy: text("claimed_by"),
    lastError: text("last_error"),
    result: text("result", { mode: "json" }).$type<unknown>(),
    /** How far a long job is, as it reports it (an import's entries, a backup's bytes): `{done, total?, message?}`. */
    progress: text("progress", { mode: "json" }).$type<{ done: number; total?: number | null; message?: string } | null>(),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("jobs_due_idx").on(t.status, t.runAt), index("jobs_name_idx").on(t.name, t.created)],
);

export const jobSchedulesTable = sqliteTable("job_schedules", {
  name: text("name").primaryKey(),
  nextRunAt: integer("next_run_at").notNull(),
  lastRunAt: integer("last_run_at"),
});

/**
 * The serving processes of this database, each with the time it last said it was alive
 * (jobs/instances.ts): a job claimed by a process that stopped saying so is put back at once, and
 * clean-ups that could take another process's work in progress wait until no other one is alive.
 */
export const serverInstancesTable = sqliteTable("server_instances", {
  /** `host/pid/random`, as jobs.claimed_by names it. */
  name: text("name").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  startedAt: integer("started_at").notNull(),
  seenAt: integer("seen_at").notNull(),
});
