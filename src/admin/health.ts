// The installation's health for administrators: version, uptime, where the data lives and how much
// room it takes, the disk's free space, and the configuration choices that need a look.
import { readdirSync, statfsSync, statSync, type Dirent } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { requireAdmin, type Actor } from "../core/actor";
import type { Config } from "../config";
import type { Clock } from "../core/time";
import type { IndexCheck } from "../records/search";
import { COMMIT, VERSION } from "../version";

/** Below this share of the data directory's disk free, Health warns. */
export const LOW_DISK_SHARE = 0.1;
/** The address the first administrator gets when none is given (config.ts ADMIN_EMAIL's default). */
export const DEFAULT_ADMIN_EMAIL = "admin@localhost";

export interface HealthWarning {
  /** Stable key (tests, and what the warning is about). */
  key: "disk-low" | "search-index-incomplete" | "mail-off" | "dois-off" | "self-signed-certificate" | "default-admin-email" | "registration-open";
  message: string;
}

export interface Health {
  version: string;
  commit: string;
  startedAt: number;
  uptimeMs: number;
  dataDir: string;
  /** The database's bytes: SQLite's file and write-ahead log, or the PostgreSQL database's size. */
  databaseBytes: number;
  /** The local file store's bytes; null when files are kept in S3 (not measured here). */
  fileStoreBytes: number | null;
  /** The data directory's disk; null where the system cannot tell. */
  disk: { freeBytes: number; totalBytes: number } | null;
  /** Records and drafts in the database against those the search index holds. */
  searchIndex: IndexCheck;
  /** The process that answered (one of several with `cairn serve --workers N` or servers on several machines). */
  process: { host: string; pid: number };
  /** Every process serving this database now, as each says every few seconds (jobs/instances.ts). */
  servingProcesses: ServingProcess[];
  warnings: HealthWarning[];
}

export interface ServingProcess {
  host: string;
  pid: number;
  startedAt: number;
  seenAt: number;
}

export interface HealthDeps {
  config: Config;
  clock: Clock;
  /** When this process's services were made. */
  startedAt: number;
  /** The administrators' addresses (users service). */
  adminEmails(): Promise<string[]>;
  /** The search port's comparison of the index with the records and drafts (records service). */
  checkIndex(): Promise<IndexCheck>;
  /** The database's size in bytes (the database port's; default: SQLite's file in the data directory). */
  databaseBytes?(): Promise<number>;
  /** The processes serving this database (the job workers' registry; default: none known). */
  servingProcesses?(): Promise<ServingProcess[]>;
  /** The disk's free and total bytes (default: the system's statfs; tests give their own). */
  diskOf?(dir: string): Health["disk"];
}

export type HealthService = ReturnType<typeof createHealthService>;

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** Bytes of every file under `dir` (0 when it does not exist yet). */
function treeBytes(dir: string): number {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path);
    else if (entry.isFile()) total += sizeOf(path);
  }
  return total;
}

function diskOf(dir: string): Health["disk"] {
  try {
    const fs = statfsSync(dir);
    return { freeBytes: Number(fs.bavail) * Number(fs.bsize), totalBytes: Number(fs.blocks) * Number(fs.bsize) };
  } catch {
    return null;
  }
}

/** The warning of an index that misses records or drafts (searches and OAI-PMH answer short), or null. */
export function searchIndexWarning(index: IndexCheck): HealthWarning | null {
  if (index.complete) return null;
  if (index.outdated && index.records === index.indexedRecords && index.drafts === index.indexedDrafts) {
    return { key: "search-index-incomplete", message: "The search index was built by an older Cairn: run `cairn reindex` (or restart, which rebuilds it in the background)." };
  }
  return {
    key: "search-index-incomplete",
    message: `The search index holds ${index.indexedRecords} of ${index.records} records and ${index.indexedDrafts} of ${index.drafts} drafts: searches and OAI-PMH miss the rest until \`cairn reindex\` (or a restart) rebuilds it.`,
  };
}

/** The configuration warnings, one entry each, in the order Health lists them. */
export function configurationWarnings(config: Config, adminEmails: string[]): HealthWarning[] {
  const warnings: HealthWarning[] = [];
  if (!config.MAIL_SERVER) warnings.push({ key: "mail-off", message: "Mail is off (MAIL_SERVER is empty): notifications wait in the outbox and nobody receives them." });
  if (!config.DATACITE_PREFIX) warnings.push({ key: "dois-off", message: "DOIs are off (DATACITE_PREFIX is empty): published records get no DOI." });
  if (!config.HTTP && !config.TLS_CERT) {
    warnings.push({ key: "self-signed-certificate", message: "HTTPS uses the self-signed certificate made on first start: browsers warn visitors. Set TLS_CERT and TLS_KEY." });
  }
  if (adminEmails.some((email) => email.toLowerCase() === DEFAULT_ADMIN_EMAIL)) {
    warnings.push({
      key: "default-admin-email",
      message: `An administrator still has the default address ${DEFAULT_ADMIN_EMAIL}: mail to it goes nowhere. Change it in the profile settings.`,
    });
  }
  if (config.ACCOUNTS_REGISTERABLE && config.ACCOUNTS_MODERATION === "off")
    warnings.push({
      key: "registration-open",
      message: "Anyone may make an account at /signup (ACCOUNTS_REGISTERABLE is on), and new accounts are not moderated (ACCOUNTS_MODERATION is off).",
    });
  return warnings;
}

export function createHealthService(deps: HealthDeps) {
  const { config, clock } = deps;
  return {
    /** The installation's health (administrators). */
    async readHealth(actor: Actor): Promise<Health> {
      requireAdmin(actor);
      const databaseFile = join(config.DATA_DIR, "cairn.db");
      const disk = (deps.diskOf ?? diskOf)(config.DATA_DIR);
      const warnings: HealthWarning[] = [];
      if (disk && disk.totalBytes > 0 && disk.freeBytes / disk.totalBytes < LOW_DISK_SHARE) {
        const percent = ((disk.freeBytes / disk.totalBytes) * 100).toFixed(1);
        warnings.push({ key: "disk-low", message: `The data directory's disk is almost full: ${percent}% free.` });
      }
      const searchIndex = await deps.checkIndex();
      const indexWarning = searchIndexWarning(searchIndex);
      if (indexWarning) warnings.push(indexWarning);
      warnings.push(...configurationWarnings(config, await deps.adminEmails()));
      const now = clock.now();
      return {
        version: VERSION,
        commit: COMMIT,
        startedAt: deps.startedAt,
        uptimeMs: Math.max(0, now - deps.startedAt),
        dataDir: config.DATA_DIR,
        databaseBytes: deps.databaseBytes ? await deps.databaseBytes() : sizeOf(databaseFile) + sizeOf(`${databaseFile}-wal`),
        fileStoreBytes: config.FILES_STORAGE === "s3" ? null : treeBytes(join(config.DATA_DIR, "files")),
        disk,
        searchIndex,
        process: { host: hostname(), pid: process.pid },
        servingProcesses: ((await deps.servingProcesses?.()) ?? []).map(({ host, pid, startedAt, seenAt }) => ({ host, pid, startedAt, seenAt })),
        warnings,
      };
    },
  };
}
