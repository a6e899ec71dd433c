// Queries on the jobs and job_schedules tables. Claims are single UPDATE statements, so two
// workers (or a worker and the CLI) never take the same job.
import { and, count, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { changesOf, first, type Db } from "../db/port";
import { jobSchedulesTable, jobsTable, serverInstancesTable } from "../db/tables";

export type JobRow = typeof jobsTable.$inferSelect;

export const insertJob = async (db: Db, row: typeof jobsTable.$inferInsert): Promise<JobRow> => (await first(db.insert(jobsTable).values(row).returning()))!;

export const findJobById = async (db: Db, id: number): Promise<JobRow | undefined> => first(db.select().from(jobsTable).where(eq(jobsTable.id, id)).limit(1));

const DUE = "((status = 'queued' AND run_at <= ?2) OR (status = 'running' AND lease_until < ?2))";

/**
 * Takes the next due job (or one whose lease lapsed) and marks it running. On PostgreSQL several
 * processes claim at once: SKIP LOCKED passes over a row another claim holds, so each takes a
 * different job; the outer condition, checked again on the locked row, never retakes a taken one.
 * (SQLite runs one writer at a time: the plain subquery is enough.)
 */
export async function claimNextJob(db: Db, now: number, leaseUntil: number, claimer: string | null = null): Promise<JobRow | null> {
  const lock = db.engine === "postgres" ? "FOR UPDATE SKIP LOCKED" : "";
  const row = await db.statements.get<{ id: number }>(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ?1, updated = ?2, claimed_by = ?3
       WHERE id = (SELECT id FROM jobs WHERE ${DUE} ORDER BY run_at, id LIMIT 1 ${lock}) AND ${DUE}
       RETURNING id`,
    [leaseUntil, now, claimer],
  );
  return row ? ((await findJobById(db, row.id)) ?? null) : null;
}

export const extendLease = async (db: Db, id: number, leaseUntil: number) =>
  await db
    .update(jobsTable)
    .set({ leaseUntil })
    .where(and(eq(jobsTable.id, id), eq(jobsTable.status, "running")));

export const saveProgress = async (db: Db, id: number, progress: NonNullable<JobRow["progress"]>) => await db.update(jobsTable).set({ progress }).where(eq(jobsTable.id, id));

export const markSucceeded = async (db: Db, id: number, result: unknown, now: number) =>
  await db
    .update(jobsTable)
    .set({ status: "succeeded", result: result ?? null, leaseUntil: null, lastError: null, finishedAt: now, updated: now })
    .where(eq(jobsTable.id, id));

export const markRetry = async (db: Db, id: number, error: string, runAt: number, now: number) =>
  await db.update(jobsTable).set({ status: "queued", lastError: error, leaseUntil: null, runAt, updated: now }).where(eq(jobsTable.id, id));

export const markFailed = async (db: Db, id: number, error: string, now: number) =>
  await db.update(jobsTable).set({ status: "failed", lastError: error, leaseUntil: null, finishedAt: now, updated: now }).where(eq(jobsTable.id, id));

/** Puts a job that was stopped by a shutdown back in the queue without counting the attempt. */
export const releaseJob = async (db: Db, id: number, now: number) =>
  await db
    .update(jobsTable)
    .set({ status: "queued", attempts: sql`(CASE WHEN ${jobsTable.attempts} > 0 THEN ${jobsTable.attempts} - 1 ELSE 0 END)`, leaseUntil: null, runAt: now, updated: now })
    .where(and(eq(jobsTable.id, id), eq(jobsTable.status, "running")));

/** Every running job and the process that claimed it. */
export const listRunningJobs = async (db: Db) => await db.select({ id: jobsTable.id, claimedBy: jobsTable.claimedBy }).from(jobsTable).where(eq(jobsTable.status, "running"));

/** Puts a running job back in the queue, unless another process claimed it since (`claimedBy` as it was read). */
export const requeueRunningJob = async (db: Db, id: number, claimedBy: string | null, now: number) =>
  changesOf(
    await db
      .update(jobsTable)
      .set({ status: "queued", leaseUntil: null, runAt: now, updated: now })
      .where(and(eq(jobsTable.id, id), eq(jobsTable.status, "running"), claimedBy === null ? isNull(jobsTable.claimedBy) : eq(jobsTable.claimedBy, claimedBy))),
  );

export const hasUnfinishedJob = async (db: Db, name: string) =>
  !!(await first(
    db
      .select({ id: jobsTable.id })
      .from(jobsTable)
      .where(and(eq(jobsTable.name, name), inArray(jobsTable.status, ["queued", "running"])))
      .limit(1),
  ));

/** The newest jobs of one kind, newest first. */
export const listJobsNamed = async (db: Db, name: string, limit: number): Promise<JobRow[]> =>
  await db.select().from(jobsTable).where(eq(jobsTable.name, name)).orderBy(desc(jobsTable.id)).limit(limit);

export const listRecentJobs = async (db: Db, limit: number): Promise<JobRow[]> => await db.select().from(jobsTable).orderBy(desc(jobsTable.id)).limit(limit);

export const deleteFinishedJobsBefore = async (db: Db, before: number) =>
  changesOf(await db.delete(jobsTable).where(and(inArray(jobsTable.status, ["succeeded", "failed"]), lt(jobsTable.finishedAt, before))));

export const listSchedules = async (db: Db) => await db.select().from(jobSchedulesTable);

export const insertScheduleIfMissing = async (db: Db, name: string, nextRunAt: number) => await db.insert(jobSchedulesTable).values({ name, nextRunAt }).onConflictDoNothing();

/** Moves a due schedule forward; true when this caller won it (so only one enqueues). */
export const advanceSchedule = async (db: Db, name: string, now: number, nextRunAt: number) =>
  changesOf(
    await db
      .update(jobSchedulesTable)
      .set({ nextRunAt, lastRunAt: now })
      .where(and(eq(jobSchedulesTable.name, name), sql`${jobSchedulesTable.nextRunAt} <= ${now}`)),
  ) > 0;

export const updateScheduleLastRun = async (db: Db, name: string, now: number) =>
  await db.update(jobSchedulesTable).set({ lastRunAt: now }).where(eq(jobSchedulesTable.name, name));

/** Newest first, in one state when given; with the total. */
export async function searchJobs(db: Db, status: JobRow["status"] | undefined, limit: number, offset: number) {
  const where = status ? eq(jobsTable.status, status) : undefined;
  const total = (await first(db.select({ n: count() }).from(jobsTable).where(where).limit(1)))?.n ?? 0;
  const rows: JobRow[] = await db.select().from(jobsTable).where(where).orderBy(desc(jobsTable.id)).limit(limit).offset(offset);
  return { rows, total };
}

/** A failed job queued again now with its attempts counted afresh; false unless it was failed. */
export const requeueFailedJob = async (db: Db, id: number, now: number) =>
  changesOf(
    await db
      .update(jobsTable)
      .set({ status: "queued", attempts: 0, runAt: now, leaseUntil: null, finishedAt: null, updated: now })
      .where(and(eq(jobsTable.id, id), eq(jobsTable.status, "failed"))),
  ) > 0;

/** A queued job given up before it runs (failed, with `reason` as its error); false unless it was queued. */
export const cancelQueuedJob = async (db: Db, id: number, reason: string, now: number) =>
  changesOf(
    await db
      .update(jobsTable)
      .set({ status: "failed", lastError: reason, leaseUntil: null, finishedAt: now, updated: now })
      .where(and(eq(jobsTable.id, id), eq(jobsTable.status, "queued"))),
  ) > 0;

export type InstanceRow = typeof serverInstancesTable.$inferSelect;

export const upsertInstance = async (db: Db, row: InstanceRow) =>
  await db
    .insert(serverInstancesTable)
    .values(row)
    .onConflictDoUpdate({ target: serverInstancesTable.name, set: { seenAt: row.seenAt } });

/** False when the row is gone (deleted as dead by another process after a long stall): the caller writes it again. */
export const touchInstance = async (db: Db, name: string, now: number) =>
  changesOf(await db.update(serverInstancesTable).set({ seenAt: now }).where(eq(serverInstancesTable.name, name))) > 0;

export const deleteInstance = async (db: Db, name: string) => await db.delete(serverInstancesTable).where(eq(serverInstancesTable.name, name));

export const listInstances = async (db: Db): Promise<InstanceRow[]> => await db.select().from(serverInstancesTable);

/** Rows of processes silent since `before`: they ended without saying so (a kill, a crash, a lost machine). */
export const deleteInstancesSeenBefore = async (db: Db, before: number) => changesOf(await db.delete(serverInstancesTable).where(lt(serverInstancesTable.seenAt, before)));
