// Background jobs as an API for other modules (enqueue after commit) and for the CLI.
import { requireAdmin, type Actor } from "../core/actor";
import type { Clock } from "../core/time";
import type { Db } from "../db/port";
import { badRequest, conflict, notFound } from "../core/errors";
import { parsePage } from "../core/paging";
import { LEASE_MS, runClaimedJob } from "./runner";
import { describeSchedule, type JobRegistry } from "./registry";
import * as store from "./store";

export type JobsService = ReturnType<typeof createJobsService>;

/** A job as the service answers it (the pages show it). */
export type JobRow = store.JobRow;

export const JOB_STATES: store.JobRow["status"][] = ["queued", "running", "succeeded", "failed"];
const JOBS_PAGING = { defaultSize: 25, maxSize: 100, maxWindow: 10_000 };
/** The error a cancelled job keeps (it is failed, so it can be retried, and pruned like the others). */
export const CANCELLED_ERROR = "Cancelled by an administrator before it ran.";

/** Which way an administrator's action came in, for its audit entry (the client's address for api and web). */
export interface ActionOrigin {
  via: "web" | "api" | "cli";
  address?: string | null;
}

/**
 * Writes an audit entry in the caller's transaction: the audit service, handed in by app.ts (jobs/
 * names no feature area, so its shape is spelled here).
 */
export interface AuditWriter {
  record(
    actor: Actor,
    input: { action: string; targetType: string; targetId: string | number; details?: Record<string, unknown>; address?: string | null; via: ActionOrigin["via"] },
    tx: Db,
  ): Promise<void>;
}

export function createJobsService(deps: { db: Db; clock: Clock; registry: JobRegistry; log(m: string): void; audit?: AuditWriter }) {
  const { db, clock, registry } = deps;

  /** An administrator's change to one job and its audit entry (`job.{action}`), in one transaction; the job as it now is. */
  async function changeJob(
    actor: Actor,
    id: number,
    action: "retry" | "cancel",
    origin: ActionOrigin,
    change: (tx: Db, job: store.JobRow) => Promise<boolean>,
    refusal: (job: store.JobRow) => string,
  ) {
    const job = await readJob(actor, id);
    if (!deps.audit) throw new Error("the jobs service was built without the audit log");
    const audit = deps.audit;
    await db.write(async (tx) => {
      if (!(await change(tx, job))) throw conflict(refusal(job));
      await audit.record(
        actor,
        { action: `job.${action}`, targetType: "job", targetId: job.id, details: { name: job.name }, address: origin.address ?? null, via: origin.via },
        tx,
      );
    });
    return store.findJobById(db, job.id) as Promise<store.JobRow>;
  }

  async function readJob(actor: Actor, id: number): Promise<store.JobRow> {
    requireAdmin(actor);
    const row = Number.isSafeInteger(id) && id > 0 ? await store.findJobById(db, id) : undefined;
    if (!row) throw notFound(`No job with id ${id}.`);
    return row;
  }

  /** Queues a job; call after the transaction whose work it follows has committed, or inside it (`tx`) when the job is the change. */
  async function enqueue(name: string, payload: unknown = {}, options: { runAt?: number; maxAttempts?: number; tx?: Db } = {}): Promise<store.JobRow> {
    const def = registry.get(name);
    if (!def) throw new Error(`unknown job kind ${name}`);
    const now = clock.now();
    return store.insertJob(options.tx ?? db, {
      name,
      payload: payload ?? {},
      runAt: options.runAt ?? now,
      maxAttempts: options.maxAttempts ?? def.maxAttempts ?? 5,
      created: now,
      updated: now,
    });
  }

  return {
    registry,

    enqueue,

    /** Enqueues a job of kind `name` unless one is queued or running already (several servers starting at once ask for one reindex); null then. */
    enqueueOnce: (name: string): Promise<store.JobRow | null> => db.write(async (tx) => ((await store.hasUnfinishedJob(tx, name)) ? null : enqueue(name, {}, { tx }))),

    async listJobs(actor: Actor, limit = 50) {
      requireAdmin(actor);
      return store.listRecentJobs(db, limit);
    },

    /** The newest jobs of one kind, newest first (administrators). */
    async listJobsNamed(actor: Actor, name: string, limit = 50) {
      requireAdmin(actor);
      return store.listJobsNamed(db, name, limit);
    },

    /** The jobs, newest first, in one state when given, paged (administrators). */
    async searchJobs(actor: Actor, query: { status?: string; page?: unknown; size?: unknown }) {
      requireAdmin(actor);
      const status = query.status || undefined;
      if (status !== undefined && !JOB_STATES.includes(status as store.JobRow["status"])) {
        throw badRequest("Invalid querystring parameters.", [{ field: "status", messages: [`Must be one of: ${JOB_STATES.join(", ")}.`] }]);
      }
      const page = parsePage(query, JOBS_PAGING);
      const { rows, total } = await store.searchJobs(db, status as store.JobRow["status"] | undefined, page.size, page.offset);
      return { jobs: rows, total, page: page.page, size: page.size };
    },

    /** One job (administrators); 404 when there is none. */
    readJob,

    /** Queues a failed job again, its attempts counted afresh (administrators; audited as `job.retry`); 409 unless it failed. */
    retryJob: (actor: Actor, id: number, origin: ActionOrigin) =>
      changeJob(
        actor,
        id,
        "retry",
        origin,
        (tx, job) => store.requeueFailedJob(tx, job.id, clock.now()),
        (job) => `Job ${job.id} is ${job.status}: only a failed job is retried.`,
      ),

    /** Gives up a queued job before it runs (administrators; audited as `job.cancel`); 409 unless it is queued. */
    cancelJob: (actor: Actor, id: number, origin: ActionOrigin) =>
      changeJob(
        actor,
        id,
        "cancel",
        origin,
        (tx, job) => store.cancelQueuedJob(tx, job.id, CANCELLED_ERROR, clock.now()),
        (job) => `Job ${job.id} is ${job.status}: only a queued job is cancelled.`,
      ),

    /** Every job kind with its schedule and when it runs next. */
    async listKinds(actor: Actor) {
      requireAdmin(actor);
      const schedules = new Map((await store.listSchedules(db)).map((s) => [s.name, s]));
      return registry.list().map((def) => ({
        name: def.name,
        description: def.description,
        schedule: describeSchedule(def.schedule),
        nextRunAt: schedules.get(def.name)?.nextRunAt ?? null,
        lastRunAt: schedules.get(def.name)?.lastRunAt ?? null,
      }));
    },

    /** Runs a job kind now in this process (also beside a running server: SQLite WAL); one attempt. */
    async runNow(actor: Actor, name: string, payload: unknown = {}) {
      requireAdmin(actor);
      if (!registry.get(name)) {
        throw badRequest(
          `No job named '${name}'. Known: ${registry
            .list()
            .map((d) => d.name)
            .join(", ")}.`,
        );
      }
      const now = clock.now();
      const row = await store.insertJob(db, {
        name,
        payload,
        status: "running",
        attempts: 1,
        maxAttempts: 1,
        runAt: now,
        leaseUntil: now + LEASE_MS,
        created: now,
        updated: now,
      });
      if (registry.get(name)!.schedule) await store.updateScheduleLastRun(db, name, now);
      return runClaimedJob(deps, row, new AbortController().signal);
    },
  };
}
