// Job kinds: what each named job does, how often it retries, and when scheduled ones run.
import { DAY_MS, HOUR_MS } from "../core/time";

export interface JobContext {
  jobId: number;
  attempt: number;
  /** Aborted when the server shuts down and the job should stop where it can resume. */
  signal: AbortSignal;
  log(message: string): void;
  /**
   * Reports how far the job is (shown on the Jobs screen and the screens that started it); kept
   * in the job's row, so a job resumed after a restart starts from its last report. Written when
   * the whole percent or the message changes, so a per-item call costs nothing most of the time.
   */
  progress(progress: JobProgress): Promise<void>;
}

export interface JobProgress {
  done: number;
  /** Null or missing when the end is not known (a download without a length). */
  total?: number | null;
  message?: string;
}

export type Schedule = { everyMs: number } | { dailyAt: string };

export interface JobDefinition<P = any> {
  name: string;
  description: string;
  run(payload: P, ctx: JobContext): unknown | Promise<unknown>;
  /** Attempts before the job is marked failed; default 5. */
  maxAttempts?: number;
  /** First retry delay; doubles each attempt, capped at an hour. Default 30 s. */
  backoffMs?: number;
  /** Run on this schedule (and on demand with `cairn jobs run NAME`). */
  schedule?: Schedule;
}

export type JobRegistry = ReturnType<typeof createJobRegistry>;

export function createJobRegistry() {
  const definitions = new Map<string, JobDefinition>();
  return {
    define<P>(definition: JobDefinition<P>) {
      if (definitions.has(definition.name)) throw new Error(`job ${definition.name} is defined twice`);
      if (definition.schedule && "dailyAt" in definition.schedule && !/^([01]\d|2[0-3]):[0-5]\d$/.test(definition.schedule.dailyAt)) {
        throw new Error(`job ${definition.name}: dailyAt must be HH:MM`);
      }
      definitions.set(definition.name, definition);
    },
    get: (name: string) => definitions.get(name),
    list: () => [...definitions.values()],
    scheduled: () => [...definitions.values()].filter((d) => d.schedule),
  };
}

/** The first time strictly after `now` that a schedule fires (UTC). */
export function nextRun(schedule: Schedule, now: number): number {
  if ("everyMs" in schedule) return now + schedule.everyMs;
  const [h, m] = schedule.dailyAt.split(":").map(Number) as [number, number];
  const today = Math.floor(now / DAY_MS) * DAY_MS + (h * 60 + m) * 60_000;
  return today > now ? today : today + DAY_MS;
}

export function describeSchedule(schedule: Schedule | undefined): string {
  if (!schedule) return "on demand";
  if ("dailyAt" in schedule) return `daily at ${schedule.dailyAt} UTC`;
  const s = schedule.everyMs / 1000;
  return s % 3600 === 0 ? `every ${s / 3600} h` : s % 60 === 0 ? `every ${s / 60} min` : `every ${s} s`;
}

/** Delay before retry number `attempt` (1-based), doubling from the base, at most an hour. */
export const backoffDelay = (baseMs: number, attempt: number) => Math.min(baseMs * 2 ** Math.max(0, attempt - 1), HOUR_MS);
