// Runs one claimed job to its next state: succeeded, queued for a retry, or failed.
import type { Db } from "../db/port";
import type { Clock } from "../core/time";
import { backoffDelay, type JobContext, type JobProgress, type JobRegistry } from "./registry";
import * as store from "./store";

export const LEASE_MS = 60_000;
const HEARTBEAT_MS = 20_000;

export interface RunnerDeps {
  db: Db;
  clock: Clock;
  registry: JobRegistry;
  log(message: string): void;
}

const describeError = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

/** Executes a job that is `running` for us; returns its row afterwards. */
export async function runClaimedJob(deps: RunnerDeps, job: store.JobRow, signal: AbortSignal): Promise<store.JobRow> {
  const { db, clock, registry, log } = deps;
  const definition = registry.get(job.name);
  if (!definition) {
    await store.markFailed(db, job.id, `No job kind named '${job.name}' is known to this version of Cairn.`, clock.now());
    return (await store.findJobById(db, job.id))!;
  }
  // Keep the lease fresh while the job runs, so a long job is not taken for abandoned.
  const heartbeat = setInterval(() => {
    store.extendLease(db, job.id, clock.now() + LEASE_MS).catch((err: unknown) => log(`[job ${job.name}#${job.id}] lease not extended: ${describeError(err)}`));
  }, HEARTBEAT_MS);
  try {
    const result = await definition.run(job.payload, {
      jobId: job.id,
      attempt: job.attempts,
      signal,
      log: (m) => log(`[job ${job.name}#${job.id}] ${m}`),
      progress: progressReporter(db, job),
    });
    if (signal.aborted) {
      await store.releaseJob(db, job.id, clock.now());
    } else {
      await store.markSucceeded(db, job.id, result, clock.now());
    }
  } catch (err) {
    const now = clock.now();
    if (signal.aborted) {
      await store.releaseJob(db, job.id, now);
    } else if (job.attempts < job.maxAttempts) {
      const delay = backoffDelay(definition.backoffMs ?? 30_000, job.attempts);
      await store.markRetry(db, job.id, describeError(err), now + delay, now);
      log(`[job ${job.name}#${job.id}] attempt ${job.attempts} failed, retry in ${Math.round(delay / 1000)} s: ${describeError(err)}`);
    } else {
      await store.markFailed(db, job.id, describeError(err), now);
      log(`[job ${job.name}#${job.id}] failed after ${job.attempts} attempts: ${describeError(err)}`);
    }
  } finally {
    clearInterval(heartbeat);
  }
  return (await store.findJobById(db, job.id))!;
}

/** The `progress` of a job's context: a write only when the shown value would change. */
function progressReporter(db: RunnerDeps["db"], job: store.JobRow): JobContext["progress"] {
  let last = shownAs(job.progress ?? null);
  return async (progress) => {
    const shown = shownAs(progress);
    if (shown === last) return;
    last = shown;
    await store.saveProgress(db, job.id, { done: progress.done, total: progress.total ?? null, ...(progress.message ? { message: progress.message } : {}) });
  };
}

/** What a progress report shows: the whole percent when the total is known, else the count's order of magnitude in steps of 1,000. */
function shownAs(progress: JobProgress | null): string {
  if (!progress) return "";
  const { done, total, message = "" } = progress;
  const amount = total ? Math.floor((100 * Math.min(done, total)) / total) : Math.floor(done / 1000);
  return `${amount}|${total ?? ""}|${message}`;
}
