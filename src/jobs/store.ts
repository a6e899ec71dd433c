// Queries on the jobs and job_schedules tables. Claims are single UPDATE statements, so two
// workers (or a worker and the CLI) never take the same job.
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { changesOf, type Db } from "../db/sqlite/connection";
import { jobSchedulesTable, jobsTable } from "../db/tables";

export type JobRow = typeof jobsTable.$inferSelect;

export const insertJob = (db: Db, row: typeof jobsTable.$inferInsert) => db.insert(jobsTable).values(row).returning().get();

export const findJobById = (db: Db, id: number) => db.select().from(jobsTable).where(eq(jobsTable.id, id)).get();

/** Takes the next due job (or one whose lease lapsed) and marks it running. */
export function claimNextJob(db: Db, now: number, leaseUntil: number): JobRow | null {
  const row = db.$client
    .query(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ?1, updated = ?2
       WHERE id = (SELECT id FROM jobs
                   WHERE (status = 'queued' AND run_at <= ?2) OR (status = 'running' AND lease_until < ?2)
                   ORDER BY run_at, id LIMIT 1)
       RETURNING id`,
    )
    .get(leaseUntil, now) as { id: number } | null;
  return row ? (findJobById(db, row.id) ?? null) : null;
}

export const extendLease = (db: Db, id: number, leaseUntil: number) =>
  db
    .update(jobsTable)
    .set({ leaseUntil })
    .where(and(eq(jobsTable.id, id), eq(jobsTable.status, "running")))
    .run();

export const markSucceeded = (db: Db, id: number, result: unknown, now: number) =>
  db
    .update(jobsTable)
    .set({ status: "succeeded", result: result ?? null, leaseUntil: null, lastError: null, finishedAt: now, updated: now })
    .where(eq(jobsTable.id, id))
    .run();

export const markRetry = (db: Db, id: number, error: string, runAt: number, now: number) =>
  db.update(jobsTable).set({ status: "queued", lastError: error, leaseUntil: null, runAt, updated: now }).where(eq(jobsTable.id, id)).run();

export const markFailed = (db: Db, id: number, error: string, now: number) =>
  db.update(jobsTable).set({ status: "failed", lastError: error, leaseUntil: null, finishedAt: now, updated: now }).where(eq(jobsTable.id, id)).run();

/** Puts a job that was stopped by a shutdown back in the queue without counting the attempt. */
export const releaseJob = (db: Db, id: number, now: number) =>
  db
    .update(jobsTable)
    .set({ status: "queued", attempts: sql`max(0, ${jobsTable.attempts} - 1)`, leaseUntil: null, runAt: now, updated: now })
    .where(and(eq(jobsTable.id, id), eq(jobsTable.status, "running")))
    .run();

/** At server start nothing of ours runs yet: a `running` row was left by a process that died. */
export const requeueRunningJobs = (db: Db, now: number) =>
  changesOf(db.update(jobsTable).set({ status: "queued", leaseUntil: null, runAt: now, updated: now }).where(eq(jobsTable.status, "running")).run());

export const hasUnfinishedJob = (db: Db, name: string) =>
  !!db
    .select({ id: jobsTable.id })
    .from(jobsTable)
    .where(and(eq(jobsTable.name, name), inArray(jobsTable.status, ["queued", "running"])))
    .get();

export const listRecentJobs = (db: Db, limit: number) => db.select().from(jobsTable).orderBy(desc(jobsTable.id)).limit(limit).all();

export const deleteFinishedJobsBefore = (db: Db, before: number) =>
  changesOf(
    db
      .delete(jobsTable)
      .where(and(inArray(jobsTable.status, ["succeeded", "failed"]), lt(jobsTable.finishedAt, before)))
      .run(),
  );

export const listSchedules = (db: Db) => db.select().from(jobSchedulesTable).all();

export const insertScheduleIfMissing = (db: Db, name: string, nextRunAt: number) => db.insert(jobSchedulesTable).values({ name, nextRunAt }).onConflictDoNothing().run();

/** Moves a due schedule forward; true when this caller won it (so only one enqueues). */
export const advanceSchedule = (db: Db, name: string, now: number, nextRunAt: number) =>
  changesOf(
    db
      .update(jobSchedulesTable)
      .set({ nextRunAt, lastRunAt: now })
      .where(and(eq(jobSchedulesTable.name, name), sql`${jobSchedulesTable.nextRunAt} <= ${now}`))
      .run(),
  ) > 0;

export const updateScheduleLastRun = (db: Db, name: string, now: number) => db.update(jobSchedulesTable).set({ lastRunAt: now }).where(eq(jobSchedulesTable.name, name)).run();
