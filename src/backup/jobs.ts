// The scheduled backup: `backup` to BACKUP_DIR on BACKUP_SCHEDULE, keeping the newest BACKUP_KEEP
// snapshots. Off (run on demand only, where it says what is missing) while BACKUP_DIR is empty.
import type { Config } from "../config";
import { systemActor } from "../core/actor";
import type { JobContext, JobProgress, JobRegistry } from "../jobs/registry";
import { BACKUP_JOB, parseBackupSchedule, VERIFY_JOB } from "./schedule";
import type { BackupService } from "./service";

export { BACKUP_JOB, parseBackupSchedule, VERIFY_JOB } from "./schedule";

/**
 * The job's progress from a synchronous progress callback: reports are written one after another
 * (the runner writes only those that change what is shown); `settled` waits for the last one.
 */
function progressOf(ctx: JobContext) {
  let chain: Promise<void> = Promise.resolve();
  return {
    report(progress: JobProgress) {
      chain = chain.then(() => ctx.progress(progress)).catch((error: unknown) => ctx.log(`progress not saved: ${(error as Error).message}`));
    },
    settled: () => chain,
  };
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
      const progress = progressOf(ctx);
      const result = await deps.backup
        .backup(systemActor, {
          dest: config.BACKUP_DIR,
          keep: config.BACKUP_KEEP,
          jobId: ctx.jobId,
          signal: ctx.signal,
          // Files (the stored objects) in place of those the snapshot needs; the database comes first, as one step.
          onProgress: (p) => progress.report(p.phase === "objects" ? { done: p.done, total: p.total, message: "files backed up" } : { done: 0, message: "copying the database" }),
        })
        .finally(progress.settled);
      // A backup without stored files (or all of them) ends at its full count too.
      const placed = result.objects.copied + result.objects.linked + result.objects.reused;
      await ctx.progress({ done: placed, total: placed, message: "files backed up" });
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
  registry.define({
    name: VERIFY_JOB,
    description: "Verifies one snapshot of BACKUP_DIR (re-hashes its files against its manifest, checks its database); queued from the Backups screen.",
    maxAttempts: 1,
    run: async (payload, ctx) => {
      const snapshot = (payload as { snapshot?: unknown }).snapshot;
      if (typeof snapshot !== "string") throw new Error("No snapshot named in the job's payload.");
      const progress = progressOf(ctx);
      // In KiB checked (a count that fits any backup and reads as a size), both rounded up so the end reads "n of n".
      const kib = (bytes: number) => Math.ceil(bytes / 1024);
      const result = await deps.backup
        .verifySnapshot(systemActor, snapshot, (bytes, totalBytes) => progress.report({ done: kib(bytes), total: kib(totalBytes), message: "KiB checked" }))
        .finally(progress.settled);
      ctx.log(`verified ${snapshot}: ${result.problems.length ? `${result.problems.length} problem(s): ${result.problems.join("; ")}` : "no problems"}`);
      return result;
    },
  });
}
