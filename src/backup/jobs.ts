// The scheduled backup: `backup` to BACKUP_DIR on BACKUP_SCHEDULE, keeping the newest BACKUP_KEEP
// snapshots. Off (run on demand only, where it says what is missing) while BACKUP_DIR is empty.
import { ConfigError, type Config } from "../config";
import { systemActor } from "../core/actor";
import { DAY_MS, HOUR_MS } from "../core/time";
import type { JobRegistry, Schedule } from "../jobs/registry";
import type { BackupService } from "./service";

export const BACKUP_JOB = "backup";

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

export function defineBackupJobs(registry: JobRegistry, deps: { backup: BackupService; config: Config }) {
  const { config } = deps;
  const schedule = parseBackupSchedule(config.BACKUP_SCHEDULE);
  registry.define({
    name: BACKUP_JOB,
    description: "Backs up the database and files to BACKUP_DIR (incremental), keeping the newest BACKUP_KEEP snapshots.",
    schedule: config.BACKUP_DIR ? schedule : undefined,
    maxAttempts: 3,
    backoffMs: 10 * 60_000,
    run: async (_payload, ctx) => {
      if (!config.BACKUP_DIR) throw new Error("BACKUP_DIR is not set: configure where backups go (see the README's Backups section).");
      const started = performance.now();
      const result = await deps.backup.backup(systemActor, { dest: config.BACKUP_DIR, keep: config.BACKUP_KEEP, jobId: ctx.jobId, signal: ctx.signal });
      const summary = {
        snapshot: result.name,
        path: result.path,
        records: result.counts.records,
        objects: result.counts.objects,
        copied: result.objects.copied + result.objects.linked,
        reused: result.objects.reused,
        pruned: result.pruned,
        seconds: +((performance.now() - started) / 1000).toFixed(1),
      };
      ctx.log(
        `backup ${summary.snapshot} written to ${summary.path}: ${summary.records} records, ${summary.objects} objects (${summary.copied} new, ${summary.reused} already there) in ${summary.seconds} s${summary.pruned.length ? `; removed ${summary.pruned.join(", ")}` : ""}`,
      );
      return summary;
    },
  });
}
