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

export function createJobsService(deps: { db: Db; clock: Clock; registry: JobRegistry; log(m: string): void }) {
  const { db, clock, registry } = deps;

  async function readJob(actor: Actor, id: number): Promise<store.JobRow> {
    requireAdmin(actor);
    const row = Number.isSafeInteger(id) && id > 0 ? await store.findJobById(db, id) : undefined;
    if (!row) throw notFound(`No job with id ${id}.`);
    return row;
  }

  return {
    registry,

    /** Queues a job; call after the transaction whose work it follows has committed. */
    async enqueue(name: string, payload: unknown = {}, options: { runAt?: number; maxAttempts?: number } = {}): Promise<store.JobRow> {
      const def = registry.get(name);
      if (!def) throw new Error(`unknown job kind ${name}`);
      const now = clock.now();
      return store.insertJob(db, {
        name,
        payload: payload ?? {},
        runAt: options.runAt ?? now,
        maxAttempts: options.maxAttempts ?? def.maxAttempts ?? 5,
        created: now,
        updated: now,
      });
    },

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

    /** Queues a failed job again, its attempts counted afresh (administrators); 409 unless it failed. */
    async retryJob(actor: Actor, id: number) {
      const job = await readJob(actor, id);
      if (!(await store.requeueFailedJob(db, job.id, clock.now()))) throw conflict(`Job ${id} is ${job.status}: only a failed job is retried.`);
      return store.findJobById(db, job.id) as Promise<store.JobRow>;
    },

    /** Gives up a queued job before it runs (administrators); 409 unless it is queued. */
    async cancelJob(actor: Actor, id: number) {
      const job = await readJob(actor, id);
      if (!(await store.cancelQueuedJob(db, job.id, CANCELLED_ERROR, clock.now()))) throw conflict(`Job ${id} is ${job.status}: only a queued job is cancelled.`);
      return store.findJobById(db, job.id) as Promise<store.JobRow>;
    },

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
