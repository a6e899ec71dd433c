// The backup jobs' names and BACKUP_SCHEDULE's forms: known to the jobs (jobs.ts) and to the
// service that lists and queues them (service.ts), which must not import each other.
import { ConfigError } from "../config";
import { DAY_MS, HOUR_MS } from "../core/time";
import type { Schedule } from "../jobs/registry";

export const BACKUP_JOB = "backup";
/** Verifies one snapshot of BACKUP_DIR (payload `{ snapshot }`); its result lists the problems found. */
export const VERIFY_JOB = "backup-verify";

const UNITS: Record<string, number> = { m: 60_000, h: HOUR_MS, d: DAY_MS };
const NAMED: Record<string, number> = { hourly: HOUR_MS, daily: DAY_MS, weekly: 7 * DAY_MS };

/** BACKUP_SCHEDULE: hourly, daily, weekly, an interval (30m, 6h, 2d; at least 5 minutes) or HH:MM (every day at that UTC time). */
export function parseBackupSchedule(value: string): Schedule {
  const text = value.trim().toLowerCase();
  if (NAMED[text]) return { everyMs: NAMED[text] };
  const interval = /^(\d+)\s*([mhd])$/.exec(text);
  if (interval && Number(interval[1]) * UNITS[interval[2]!]! >= 5 * 60_000) return { everyMs: Number(interval[1]) * UNITS[interval[2]!]! };
  if (/^([01]\d|2[0-3]):[0-5]\d$/.test(text)) return { dailyAt: text };
  throw new ConfigError(`BACKUP_SCHEDULE: expected hourly, daily, weekly, an interval such as 6h (at least 5m) or a UTC time such as 03:30, got ${JSON.stringify(value)}`);
}
