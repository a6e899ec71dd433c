// `cairn restore SRC --data DIR`: a backup into an empty data directory. Everything is written to a
// staging folder inside DIR and checked (every checksum, the database's integrity, its counts and
// the objects it references against the manifest) before it is moved into place, the database last.
import { existsSync, readdirSync } from "node:fs";
import { mkdir, rename, rm, rmdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { conflict } from "../core/errors";
import { newUuid } from "../core/ids";
import { readArchive, readManifestEntry } from "./archive";
import { pointConfigAtDatabase } from "./config-file";
import { copyHashed, inLanes, syncDir, writeHashed } from "./copy";
import { poolPath, readManifestAt } from "./folder";
import { BackupError, checkRestorable, DATABASE_FILE, MANIFEST_FILE, type Counts, type Manifest } from "./manifest";
import { claimEmptyPostgres, restoreIntoPostgres } from "./postgres/snapshot";
import { checkIntegrity, readFacts, type SnapshotFacts } from "./sqlite/snapshot";
import { dataDirPathOf, resolveSource, snapshotOf, type BackupSource } from "./source";

/** The staging folder's name prefix: a folder so named in a data directory is a restore that has not finished. */
export const STAGING = ".restore-";
/** Objects copied at once (see inLanes). */
const LANES = 4;

export interface RestoreResult {
  snapshot: string;
  /** Where the backed-up server kept its files: only "local" ones are in a backup. */
  storage: string;
  counts: Counts;
  /** Migrations the first start will apply (the backup is from an older Cairn); 0 into PostgreSQL, migrated by the restore. */
  migrationsToApply: number;
  /** The engine the backed-up server ran on. */
  engine: "sqlite" | "postgres";
  level: number;
  bytes: number;
}

export type RestoreProgress = (bytes: number, totalBytes: number) => void;

/** The staging folders an unfinished (stopped, killed) restore left in `dataDir`. */
export const restoreLeftovers = (dataDir: string): string[] =>
  existsSync(dataDir)
    ? readdirSync(dataDir)
        .filter((n) => n.startsWith(STAGING))
        .sort()
    : [];

/** Refuses a data directory with anything in it but what a stopped restore left (which is removed). */
async function claimEmptyDir(dataDir: string) {
  if (!existsSync(dataDir)) return;
  const entries = readdirSync(dataDir);
  const others = entries.filter((n) => !n.startsWith(STAGING));
  if (others.length) {
    throw conflict(
      `${dataDir} is not empty (${others.slice(0, 3).join(", ")}${others.length > 3 ? ", ..." : ""}): a backup is restored only into an empty data directory, never over live data. Give a new directory with --data.`,
    );
  }
  for (const name of entries) await rm(join(dataDir, name), { recursive: true, force: true });
}

/** Where a restore puts the database when it is not the data directory's cairn.db: a PostgreSQL database (DATABASE_URL). */
export interface RestoreTarget {
  databaseUrl?: string;
  now: number;
}

export async function restoreBackup(given: string, dataDirGiven: string, onProgress: RestoreProgress = () => {}, target?: RestoreTarget): Promise<RestoreResult> {
  const source = await resolveSource(given);
  const dataDir = resolve(dataDirGiven);
  await claimEmptyDir(dataDir);
  if (target?.databaseUrl) await claimEmptyPostgres(target.databaseUrl);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const staging = join(dataDir, `${STAGING}${newUuid()}`);
  await mkdir(staging, { mode: 0o700 });
  try {
    const copied = source.kind === "archive" ? await extractArchive(source, staging, onProgress) : await copySnapshot(snapshotOf(source)!, staging, onProgress);
    const facts = await checkRestored(staging, copied.manifest);
    if (target?.databaseUrl) {
      // Checked like any restore, then copied into PostgreSQL (and checked again there): the data
      // directory keeps the files, and no cairn.db that a server on DATABASE_URL would never read.
      await restoreIntoPostgres(join(staging, DATABASE_FILE), target.databaseUrl, target.now);
      for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`]) await rm(join(staging, name), { force: true });
    }
    await pointConfigAtDatabase(staging, target?.databaseUrl ?? "");
    // Into place: the database last, so a directory with a cairn.db holds everything else already.
    const names = readdirSync(staging).sort((a, b) => Number(a === DATABASE_FILE) - Number(b === DATABASE_FILE));
    for (const name of names) await rename(join(staging, name), join(dataDir, name));
    await rmdir(staging);
    await syncDir(dataDir);
    const { migrationsToApply } = checkRestorable({ level: facts.level, ids: facts.migrationIds });
    return {
      snapshot: copied.manifest.name,
      storage: copied.manifest.storage.files,
      counts: copied.manifest.counts,
      migrationsToApply: target?.databaseUrl ? 0 : migrationsToApply,
      level: facts.level,
      bytes: copied.bytes,
      engine: copied.manifest.engine ?? "sqlite",
    };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

async function copySnapshot(snapshot: { path: string; pool: string }, staging: string, onProgress: RestoreProgress) {
  const manifest = readManifestAt(snapshot.path);
  checkRestorable({ level: manifest.migration.level, ids: manifest.migration.ids, cairnVersion: manifest.cairnVersion });
  const totalBytes = manifest.files.reduce((sum, f) => sum + f.size, 0) + manifest.counts.objectBytes;
  let bytes = 0;
  const dest = dirname(snapshot.pool);
  for (const f of manifest.files) {
    const target = dataDirPathOf(f.path);
    if (!target) throw new BackupError(`the manifest names ${f.path}, which is no file of a data directory`);
    const got = await copyHashed(join(snapshot.path, ...f.path.split("/")), join(staging, target), "sha256").catch(missingAs(f.path));
    if (got.digest !== f.sha256 || got.size !== f.size)
      throw new BackupError(`${f.path} in the backup is damaged (SHA-256 ${got.digest}, the manifest says ${f.sha256}); nothing was restored`);
    onProgress((bytes += got.size), totalBytes);
  }
  await inLanes(manifest.objects.length, LANES, async (index) => {
    const [id, size, md5] = manifest.objects[index]!;
    if (!dataDirPathOf(`objects/${id.slice(0, 2)}/${id}`)) throw new BackupError(`the manifest names an object ${id}, which is no object id`);
    const got = await copyHashed(poolPath(dest, id), join(staging, "files", "objects", id.slice(0, 2), id), "md5").catch(missingAs(`object ${id}`));
    if (got.digest !== md5 || got.size !== size) throw new BackupError(`object ${id} in the backup is damaged (MD5 ${got.digest}, the manifest says ${md5}); nothing was restored`);
    onProgress((bytes += size), totalBytes);
  });
  return { manifest, bytes };
}

const missingAs = (what: string) => (error: NodeJS.ErrnoException) => {
  if (error.code === "ENOENT") throw new BackupError(`${what} is missing from the backup; nothing was restored`);
  throw error;
};

async function extractArchive(source: Extract<BackupSource, { kind: "archive" }>, staging: string, onProgress: RestoreProgress) {
  const seen = new Map<string, { size: number; digest: string }>();
  const total = Bun.file(source.path).size;
  let read = 0;
  let bytes = 0;
  let manifest: Manifest | null = null;
  for await (const entry of readArchive(source.path, source.archive, (n) => onProgress((read += n), total))) {
    if (entry.name === MANIFEST_FILE) {
      manifest = await readManifestEntry(entry, source.path);
      continue;
    }
    const target = dataDirPathOf(entry.name);
    if (!target) throw new BackupError(`the archive holds ${entry.name}, which is no file of a data directory; nothing was restored`);
    const path = join(staging, ...target.split("/"));
    const got = await writeHashed(path, entry.chunks, entry.name.startsWith("objects/") ? "md5" : "sha256");
    seen.set(entry.name, got);
    bytes += got.size;
    // The database comes first: a backup from a newer Cairn is refused before its files are unpacked.
    if (entry.name === DATABASE_FILE) {
      const facts = await readFacts(path);
      checkRestorable({ level: facts.level, ids: facts.migrationIds });
    }
  }
  if (!manifest) throw new BackupError(`${source.path} has no manifest: the archive is incomplete (cut off, or left by a stopped run); nothing was restored`);
  checkRestorable({ level: manifest.migration.level, ids: manifest.migration.ids, cairnVersion: manifest.cairnVersion });
  const wrong = (name: string, size: number, digest: string) => {
    const got = seen.get(name);
    if (!got) return `${name} is missing`;
    return got.size !== size || got.digest !== digest ? `${name} is damaged` : null;
  };
  const problems = [
    ...manifest.files.map((f) => wrong(f.path, f.size, f.sha256)),
    ...manifest.objects.map(([id, size, md5]) => wrong(`objects/${id.slice(0, 2)}/${id}`, size, md5)),
  ].filter(Boolean);
  if (problems.length)
    throw new BackupError(`the archive does not match its manifest: ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? "; ..." : ""}; nothing was restored`);
  return { manifest, bytes };
}

/** The restored database is sound and is the one the manifest describes, with every object it references. */
async function checkRestored(staging: string, manifest: Manifest): Promise<SnapshotFacts> {
  const db = join(staging, DATABASE_FILE);
  if (!existsSync(db)) throw new BackupError(`the backup holds no ${DATABASE_FILE}; nothing was restored`);
  const damage = checkIntegrity(db);
  if (damage.length) throw new BackupError(`the backup's database fails its integrity check (${damage.slice(0, 3).join("; ")}); nothing was restored`);
  const facts = await readFacts(db);
  for (const key of Object.keys(facts.counts) as (keyof SnapshotFacts["counts"])[]) {
    if (facts.counts[key] !== manifest.counts[key]) {
      throw new BackupError(`the backup's database holds ${facts.counts[key]} ${key}, its manifest says ${manifest.counts[key]}; nothing was restored`);
    }
  }
  if (manifest.storage.files === "local") {
    const listed = new Set(manifest.objects.map(([id]) => id));
    const absent = facts.objects.filter(([id]) => !listed.has(id)).map(([id]) => id);
    if (absent.length)
      throw new BackupError(`the backup's database references ${absent.length} object(s) the backup does not hold (${absent.slice(0, 3).join(", ")}); nothing was restored`);
  }
  return facts;
}
