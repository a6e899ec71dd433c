// Background jobs as an API for other modules (enqueue after commit) and for the CLI.
import { requireAdmin, type Actor } from "../core/actor";
import type { Clock } from "../core/time";
import type { Db } from "../db/port";
import { badRequest } from "../core/errors";
import { LEASE_MS, runClaimedJob } from "./runner";
import { describeSchedule, type JobRegistry } from "./registry";
import * as store from "./store";

export type JobsService = ReturnType<typeof createJobsService>;

export function createJobsService(deps: { db: Db; clock: Clock; registry: JobRegistry; log(m: string): void }) {
  const { db, clock, registry } = deps;
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
