// The in-process worker: claims due jobs up to a concurrency, runs them, enqueues scheduled ones.
import { writeTransaction } from "../db/sqlite/connection";
import { LEASE_MS, runClaimedJob, type RunnerDeps } from "./runner";
import { nextRun } from "./registry";
import * as store from "./store";

export interface WorkerOptions {
  concurrency: number;
  pollMs: number;
}

export type Worker = ReturnType<typeof createWorker>;

export function createWorker(deps: RunnerDeps, options: WorkerOptions) {
  const { db, clock, registry } = deps;
  const inFlight = new Map<number, { promise: Promise<unknown>; abort: AbortController }>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopping = false;

  /** Enqueues every scheduled job whose time has come (one per schedule, never two unfinished). */
  function enqueueDueSchedules(): number {
    const now = clock.now();
    let enqueued = 0;
    for (const def of registry.scheduled()) {
      store.insertScheduleIfMissing(db, def.name, nextRun(def.schedule!, now));
      writeTransaction(db, () => {
        if (!store.advanceSchedule(db, def.name, now, nextRun(def.schedule!, now))) return;
        if (store.hasUnfinishedJob(db, def.name)) return;
        store.insertJob(db, { name: def.name, runAt: now, maxAttempts: def.maxAttempts ?? 5, created: now, updated: now });
        enqueued++;
      });
    }
    return enqueued;
  }

  function claimOne() {
    const now = clock.now();
    const job = store.claimNextJob(db, now, now + LEASE_MS);
    if (!job) return null;
    const abort = new AbortController();
    const promise = runClaimedJob(deps, job, abort.signal).finally(() => inFlight.delete(job.id));
    inFlight.set(job.id, { promise, abort });
    return promise;
  }

  function fill() {
    while (!stopping && inFlight.size < options.concurrency) {
      const started = claimOne();
      if (!started) break;
      // A finished job frees a slot: look for the next one at once instead of at the next poll.
      started.then(() => fill());
    }
  }

  function tick() {
    try {
      enqueueDueSchedules();
      fill();
    } catch (err) {
      deps.log(`[jobs] worker tick failed: ${(err as Error).message}`);
    }
    if (!stopping) timer = setTimeout(tick, options.pollMs);
  }

  return {
    /** Starts polling; first puts back any job a crashed process left running. */
    start() {
      const resumed = store.requeueRunningJobs(db, clock.now());
      if (resumed) deps.log(`[jobs] resumed ${resumed} job(s) left unfinished by the last run`);
      stopping = false;
      tick();
    },

    /** Stops claiming; waits for running jobs, then aborts and releases what is still running. */
    async stop(graceMs = 10_000) {
      stopping = true;
      if (timer) clearTimeout(timer);
      const all = () => Promise.allSettled([...inFlight.values()].map((j) => j.promise));
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<boolean>((resolve) => (graceTimer = setTimeout(() => resolve(true), graceMs)));
      // The timer is cleared either way: a pending one would keep the process alive after a stop.
      const timedOut = await Promise.race([all().then(() => false), grace]).finally(() => clearTimeout(graceTimer));
      if (timedOut) {
        for (const j of inFlight.values()) j.abort.abort();
        await all();
      }
    },

    /** Runs everything due now, one after another, until nothing is left (tests and `jobs run`). */
    async drain(): Promise<number> {
      enqueueDueSchedules();
      let ran = 0;
      for (;;) {
        const now = clock.now();
        const job = store.claimNextJob(db, now, now + LEASE_MS);
        if (!job) return ran;
        await runClaimedJob(deps, job, new AbortController().signal);
        ran++;
      }
    },

    enqueueDueSchedules,
  };
}
