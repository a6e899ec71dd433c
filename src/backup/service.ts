// Backups as a service: back up the data directory, verify a backup, restore one. Used by the
// `backup`/`restore` commands and the scheduled backup job; only administrators (and the system) may.
// The administration's Backups screen reads BACKUP_DIR's snapshots and queues backups and
// verifications as jobs through it.
import { join } from "node:path";
import type { Config } from "../config";
import { requireAdmin, type Actor } from "../core/actor";
import { conflict, notFound } from "../core/errors";
import type { Clock } from "../core/time";
import type { Db } from "../db/port";
import type { AuditService } from "../audit/service";
import type { AuditVia } from "../audit/model";
import type { JobRow } from "../jobs/service";
import { runBackup, type BackupOptions } from "./backup";
import { listSnapshots, readManifestAt } from "./folder";
import { describeSchedule } from "../jobs/registry";
import { BACKUP_JOB, parseBackupSchedule, VERIFY_JOB } from "./schedule";
import { restoreBackup, type RestoreProgress } from "./restore";
import { verifyBackup, type VerifyProgress } from "./verify";

export type BackupService = ReturnType<typeof createBackupService>;

/** What the backup service needs of the jobs service (queueing, and the jobs of a kind). */
export interface BackupJobs {
  enqueue(name: string, payload?: unknown, options?: { tx?: Db }): Promise<JobRow>;
  listJobsNamed(actor: Actor, name: string, limit?: number): Promise<JobRow[]>;
}

/** A complete snapshot of BACKUP_DIR as the Backups screen lists it. */
export interface SnapshotInfo {
  name: string;
  /** When it was taken (ms), from its manifest. */
  created: number;
  /** Its files and the pool objects it names, in bytes (objects are shared with other snapshots). */
  bytes: number;
  records: number;
  /** The newest verify job of this snapshot, or null when none was run. */
  verify: JobRow | null;
}

/** The result a verify job records (its job's `result`). */
export interface VerifyResult {
  snapshot: string;
  problems: string[];
  objectsChecked: number;
  bytesChecked: number;
}

/** The payload of a backup queued by a person (the scheduled one has none). */
export interface BackupPayload {
  requestedBy?: number;
}

/** Jobs of each kind the screen reads (the newest ones). */
const RECENT = 100;

/** The snapshots of `dir`, newest first, with their manifests' facts (a snapshot whose manifest is unreadable is listed with what is known). */
function snapshotsOf(dir: string) {
  return listSnapshots(dir)
    .reverse()
    .map(({ name, path }) => {
      try {
        const m = readManifestAt(path);
        const bytes = m.files.reduce((a, f) => a + f.size, 0) + m.objects.reduce((a, [, size]) => a + size, 0);
        return { name, created: Date.parse(m.created), bytes, records: m.counts.records };
      } catch {
        return { name, created: NaN, bytes: 0, records: 0 };
      }
    });
}

/** Which way an administrator's action came in, for its audit entry (the client's address for api and web). */
export interface BackupOrigin {
  via: AuditVia;
  address?: string | null;
}

/** The backup service needs the database, the jobs service and the audit log only to queue jobs (the CLI's in-process backup needs none). */
export function createBackupService(deps: { config: Config; clock: Clock; jobs?: BackupJobs; db?: Db; audit?: Pick<AuditService, "record"> }) {
  const { config, clock } = deps;
  const jobsOf = () => {
    if (!deps.jobs) throw new Error("the backup service was built without the jobs service");
    return deps.jobs;
  };
  /** Queues a job and writes its audit entry (`backup.{action}`) in one transaction. */
  async function queueAudited(
    actor: Actor,
    origin: BackupOrigin,
    name: string,
    payload: unknown,
    entry: (job: JobRow) => { action: "run" | "verify"; targetType: string; targetId: string | number; details: Record<string, unknown> },
  ) {
    const { db, audit } = deps;
    if (!db || !audit) throw new Error("the backup service was built without the database and the audit log");
    const jobs = jobsOf();
    return db.write(async (tx) => {
      const job = await jobs.enqueue(name, payload, { tx });
      const { action, ...target } = entry(job);
      await audit.record(actor, { action: `backup.${action}`, ...target, address: origin.address ?? null, via: origin.via }, tx);
      return job;
    });
  }
  const requireDir = () => {
    if (!config.BACKUP_DIR) throw conflict("BACKUP_DIR is not set: configure where backups go (see the README's Backups section).");
    return config.BACKUP_DIR;
  };

  return {
    /** Backs up the configured data directory to `dest` (a folder, or a .tar.zst/.tar.gz file). */
    backup(actor: Actor, input: Omit<BackupOptions, "dataDir" | "storage" | "now">) {
      requireAdmin(actor);
      return runBackup({ ...input, dataDir: config.DATA_DIR, storage: config.FILES_STORAGE, databaseUrl: config.DATABASE_URL, now: () => clock.now() });
    },

    verify(actor: Actor, source: string, onProgress?: VerifyProgress) {
      requireAdmin(actor);
      return verifyBackup(source, onProgress);
    },

    /** Restores `source` into the configured data directory, which must be empty (and into DATABASE_URL's database, which must be empty too). */
    restore(actor: Actor, source: string, onProgress?: RestoreProgress) {
      requireAdmin(actor);
      return restoreBackup(source, config.DATA_DIR, onProgress, { databaseUrl: config.DATABASE_URL, now: clock.now() });
    },

    /**
     * BACKUP_DIR's snapshots (newest first, each with its newest verify job), the newest backup
     * jobs and the newest scheduled one (administrators); `dir` null when BACKUP_DIR is empty.
     */
    async readBackups(actor: Actor) {
      requireAdmin(actor);
      const dir = config.BACKUP_DIR || null;
      const schedule = dir ? describeSchedule(parseBackupSchedule(config.BACKUP_SCHEDULE)) : "on demand";
      if (!dir) return { dir, keep: config.BACKUP_KEEP, schedule, snapshots: [], backups: [], lastScheduled: null };
      const jobs = jobsOf();
      const backups = await jobs.listJobsNamed(actor, BACKUP_JOB, RECENT);
      const verifies = await jobs.listJobsNamed(actor, VERIFY_JOB, RECENT);
      const verifyOf = new Map<string, JobRow>();
      for (const job of verifies) {
        const name = (job.payload as { snapshot?: unknown }).snapshot;
        if (typeof name === "string" && !verifyOf.has(name)) verifyOf.set(name, job);
      }
      const snapshots: SnapshotInfo[] = snapshotsOf(dir).map((s) => ({ ...s, verify: verifyOf.get(s.name) ?? null }));
      const lastScheduled = backups.find((j) => (j.payload as BackupPayload).requestedBy === undefined) ?? null;
      return { dir, keep: config.BACKUP_KEEP, schedule, snapshots, backups: backups.slice(0, 10), lastScheduled };
    },

    /** Queues a backup to BACKUP_DIR now (administrators; audited as `backup.run`); 409 without BACKUP_DIR or while one is queued or running. */
    async queueBackup(actor: Actor, origin: BackupOrigin) {
      requireAdmin(actor);
      requireDir();
      const jobs = jobsOf();
      const unfinished = (await jobs.listJobsNamed(actor, BACKUP_JOB, RECENT)).find((j) => j.status === "queued" || j.status === "running");
      if (unfinished) throw conflict(`A backup (job ${unfinished.id}) is ${unfinished.status} already; wait for it to finish.`);
      const payload: BackupPayload = actor.kind === "user" ? { requestedBy: actor.userId } : {};
      return queueAudited(actor, origin, BACKUP_JOB, payload, (job) => ({ action: "run", targetType: "job", targetId: job.id, details: { name: job.name } }));
    },

    /** Queues the verification of one snapshot of BACKUP_DIR (administrators; audited as `backup.verify`); 404 for a name that is not one. */
    async queueVerify(actor: Actor, snapshot: string, origin: BackupOrigin) {
      requireAdmin(actor);
      const dir = requireDir();
      if (!listSnapshots(dir).some((s) => s.name === snapshot)) throw notFound(`No snapshot named ${snapshot} in BACKUP_DIR.`);
      return queueAudited(actor, origin, VERIFY_JOB, { snapshot }, (job) => ({ action: "verify", targetType: "backup", targetId: snapshot, details: { job: job.id } }));
    },

    /** Verifies one snapshot of BACKUP_DIR by name (the verify job). */
    async verifySnapshot(actor: Actor, snapshot: string, onProgress?: VerifyProgress): Promise<VerifyResult> {
      requireAdmin(actor);
      const dir = requireDir();
      if (!listSnapshots(dir).some((s) => s.name === snapshot)) throw notFound(`No snapshot named ${snapshot} in BACKUP_DIR.`);
      const report = await verifyBackup(join(dir, snapshot), onProgress);
      const problems = report.snapshots.flatMap((s) => s.problems);
      return { snapshot, problems, objectsChecked: report.objectsChecked, bytesChecked: report.bytesChecked };
    },
  };
}
