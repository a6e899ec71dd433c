// The in-process worker: claims due jobs up to a concurrency, runs them, enqueues scheduled ones.
import { createInstances } from "./instances";
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
  // This process among those serving the database; its claims carry its name.
  const instances = createInstances(db, clock, deps.log);
  const self = instances.name;
  const inFlight = new Map<number, { promise: Promise<unknown>; abort: AbortController }>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopping = false;
  // Claims await the database: one filling pass at a time, or two passes could both see a free
  // slot and run more than `concurrency` jobs. A pass asked for while one runs runs again after it.
  let filling: Promise<void> | null = null;
  let fillAgain = false;
  let ticking: Promise<void> | null = null;

  /** Enqueues every scheduled job whose time has come (one per schedule, never two unfinished). */
  async function enqueueDueSchedules(): Promise<number> {
    const now = clock.now();
    let enqueued = 0;
    for (const def of registry.scheduled()) {
      await store.insertScheduleIfMissing(db, def.name, nextRun(def.schedule!, now));
      await db.write(async (tx) => {
        if (!(await store.advanceSchedule(tx, def.name, now, nextRun(def.schedule!, now)))) return;
        if (await store.hasUnfinishedJob(tx, def.name)) return;
        await store.insertJob(tx, { name: def.name, runAt: now, maxAttempts: def.maxAttempts ?? 5, created: now, updated: now });
        enqueued++;
      });
    }
    return enqueued;
  }

  /** Claims and starts one due job; false when none is due. */
  async function claimOne(): Promise<boolean> {
    const now = clock.now();
    const job = await store.claimNextJob(db, now, now + LEASE_MS, self);
    if (!job) return false;
    const abort = new AbortController();
    const promise = runClaimedJob(deps, job, abort.signal).finally(() => inFlight.delete(job.id));
    inFlight.set(job.id, { promise, abort });
    // A finished job frees a slot: look for the next one at once instead of at the next poll.
    void promise.then(
      () => fill(),
      (err: unknown) => deps.log(`[jobs] job ${job.name}#${job.id} could not be recorded: ${(err as Error).message}`),
    );
    return true;
  }

  function fill(): Promise<void> {
    if (filling) {
      fillAgain = true;
      return filling;
    }
    filling = (async () => {
      do {
        fillAgain = false;
        while (!stopping && inFlight.size < options.concurrency) {
          if (!(await claimOne())) break;
        }
      } while (fillAgain && !stopping);
    })()
      .catch((err: unknown) => deps.log(`[jobs] worker tick failed: ${(err as Error).message}`))
      .finally(() => (filling = null));
    return filling;
  }

  async function tick() {
    try {
      await enqueueDueSchedules();
      await fill();
    } catch (err) {
      deps.log(`[jobs] worker tick failed: ${(err as Error).message}`);
    }
    if (!stopping) timer = setTimeout(() => (ticking = tick()), options.pollMs);
  }

  return {
    /**
     * Starts polling; first puts back the running jobs of processes known to have ended (a crash,
     * a kill), not those of live ones (other workers, other machines). Resolves after the first tick.
     */
    async start() {
      await instances.start();
      const ended = await instances.endedTest();
      let resumed = 0;
      for (const job of await store.listRunningJobs(db)) {
        if (ended(job.claimedBy)) resumed += await store.requeueRunningJob(db, job.id, job.claimedBy, clock.now());
      }
      if (resumed) deps.log(`[jobs] resumed ${resumed} job(s) left unfinished by the last run`);
      stopping = false;
      ticking = tick();
      await ticking;
    },

    /** Stops claiming; waits for running jobs, then aborts and releases what is still running. */
    async stop(graceMs = 10_000) {
      stopping = true;
      if (timer) clearTimeout(timer);
      // A tick or claim under way may still add a job to those in flight: let it finish first.
      await ticking;
      await filling;
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
      await instances.stop();
    },

    /** How many other processes serve this database now (a clean-up of shared things waits for none). */
    otherInstances: () => instances.others(),
    /** The processes serving this database now (Health lists them). */
    listInstances: () => instances.list(),

    /** Runs everything due now, one after another, until nothing is left (tests and `jobs run`). */
    async drain(): Promise<number> {
      // Said alive while it runs jobs (`cairn jobs run` beside servers), so no server takes them back.
      const unregistered = !instances.registered();
      if (unregistered) await instances.start();
      try {
        await enqueueDueSchedules();
        let ran = 0;
        for (;;) {
          const now = clock.now();
          const job = await store.claimNextJob(db, now, now + LEASE_MS, self);
          if (!job) return ran;
          await runClaimedJob(deps, job, new AbortController().signal);
          ran++;
        }
      } finally {
        if (unregistered) await instances.stop();
      }
    },

    enqueueDueSchedules,
  };
}
