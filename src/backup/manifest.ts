// A backup's manifest: what it holds (version, migration level, counts, every file's checksum), its
// parsing, and whether this build of Cairn can restore it.
import { conflict } from "../core/errors";
import { migrations } from "../db/sqlite/migrations/manifest";
import { VERSION } from "../version";

export const MANIFEST_FILE = "manifest.json";
export const DATABASE_FILE = "cairn.db";
const FORMAT = "cairn-backup";
const FORMAT_VERSION = 1;

/** One object of the file store: its id, size in bytes and lower-case hex MD5. */
export type ObjectEntry = [id: string, size: number, md5: string];

/** A file of the data directory other than an object (the database, the certificate, cairn.toml). */
export interface FileEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface Counts {
  records: number;
  drafts: number;
  communities: number;
  users: number;
  /** File entries of records and drafts (several may share one object). */
  fileEntries: number;
  /** Objects of the file store the database references (files and community logos). */
  objects: number;
  objectBytes: number;
}

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  id: string;
  name: string;
  created: string;
  cairnVersion: string;
  migration: { level: number; last: string | null; ids: string[] };
  /** The engine the backed-up server ran on (absent in older backups: SQLite). The database is a SQLite file either way. */
  engine?: "sqlite" | "postgres";
  /** Where the records' files live; only "local" objects are inside a backup. */
  storage: { files: string };
  counts: Counts;
  files: FileEntry[];
  objects: ObjectEntry[];
  /** What a backup leaves out on purpose, said in the manifest so nobody has to guess. */
  excluded: string[];
}

export const EXCLUDED = [
  "cairn.db-wal, cairn.db-shm (the snapshot is a self-contained database)",
  "files/tmp and files/parts (uploads in progress; their part rows are dropped from the snapshot)",
  "cairn.pid and cairn-<pid>.pid (which servers run)",
  "admin-credentials.txt (the first start's password and token in clear text; the accounts themselves are in the database)",
  "files outside the data directory: a --config file, TLS_CERT/TLS_KEY",
];

export function buildManifest(input: Omit<Manifest, "format" | "formatVersion" | "cairnVersion" | "excluded">): Manifest {
  return { format: FORMAT, formatVersion: FORMAT_VERSION, cairnVersion: VERSION, ...input, excluded: EXCLUDED };
}

/** A backup that cannot be written, read or trusted: the CLI prints its message and exits 1. */
export class BackupError extends Error {}

export function parseManifest(text: string, where: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text);
  } catch {
    throw new BackupError(`${where}: the manifest is not valid JSON`);
  }
  if (m?.format !== FORMAT) throw new BackupError(`${where}: not a Cairn backup manifest`);
  if (typeof m.formatVersion !== "number" || m.formatVersion > FORMAT_VERSION) {
    throw new BackupError(`${where}: backup format ${m.formatVersion} is newer than this Cairn (${VERSION}) reads (${FORMAT_VERSION})`);
  }
  const ok =
    typeof m.name === "string" &&
    typeof m.migration?.level === "number" &&
    Array.isArray(m.migration.ids) &&
    typeof m.counts === "object" &&
    Array.isArray(m.files) &&
    m.files.every((f) => typeof f.path === "string" && typeof f.sha256 === "string") &&
    Array.isArray(m.objects) &&
    m.objects.every((o) => Array.isArray(o) && typeof o[0] === "string" && typeof o[1] === "number" && typeof o[2] === "string");
  if (!ok) throw new BackupError(`${where}: the manifest is incomplete`);
  return m;
}

export const serializeManifest = (m: Manifest) => `${JSON.stringify(m, null, 1)}\n`;

/** This build's migration level and last migration, for messages. */
export const buildLevel = () => ({ level: migrations.length, last: migrations.at(-1)?.id ?? null });

/**
 * Refuses a backup made at a migration level this build does not know (a newer Cairn): restoring it
 * would start a server on a schema it does not understand. An older level is fine: the first start
 * applies the missing migrations, as it does after an upgrade.
 */
export function checkRestorable(backup: { level: number; ids: string[]; cairnVersion?: string }): { migrationsToApply: number } {
  const known = new Set(migrations.map((m) => m.id));
  const unknown = backup.ids.filter((id) => !known.has(id));
  const own = buildLevel();
  if (backup.level > own.level || unknown.length) {
    const by = backup.cairnVersion ? `Cairn ${backup.cairnVersion}` : "a newer Cairn";
    const last = unknown.at(-1) ?? backup.ids.at(-1) ?? "?";
    const use = backup.cairnVersion ? `Cairn ${backup.cairnVersion} or newer` : "a newer Cairn";
    throw conflict(
      `This backup was made by ${by} at migration level ${backup.level} (${last}); this Cairn ${VERSION} knows migrations up to level ${own.level} (${own.last}). Restore it with ${use}.`,
    );
  }
  return { migrationsToApply: own.level - backup.level };
}
