// One backup run: snapshot the database, copy what the snapshot references, write the manifest
// last. Folder destinations are incremental (objects already in DEST are reused) and pruned.
import { existsSync, readdirSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { badRequest } from "../core/errors";
import { archiveKindOf, openArchiveSink } from "./archive";
import { inLanes } from "./copy";
import { openBackupFolder } from "./folder";
import { BackupError, buildManifest, DATABASE_FILE, type Counts, type FileEntry, type ObjectEntry } from "./manifest";
import type { BackupSink } from "./sink";
import { snapshotPostgres } from "./postgres/snapshot";
import { snapshotDatabase, type SnapshotFacts } from "./sqlite/snapshot";

/** Snapshots taken again when objects vanished under the first (deleted after it was taken). */
const MAX_ATTEMPTS = 3;

export interface BackupProgress {
  phase: "database" | "objects";
  done: number;
  total: number;
  bytes: number;
  totalBytes: number;
}

export interface BackupOptions {
  dataDir: string;
  /** A folder (incremental), or a file named .tar.zst / .tar.gz. */
  dest: string;
  /** Folder backups: keep this many newest snapshots afterwards (null: keep all). */
  keep?: number | null;
  /** Folder backups: hard-link objects when DEST is on the data directory's file system (default true). */
  links?: boolean;
  /** FILES_STORAGE: only a local store's objects are in the data directory to be copied. */
  storage: string;
  /** DATABASE_URL: the PostgreSQL database to back up instead of the data directory's cairn.db. */
  databaseUrl?: string;
  now: () => number;
  /** The job taking this backup, if one is (see snapshot.ts). */
  jobId?: number;
  signal?: AbortSignal;
  onProgress?: (progress: BackupProgress) => void;
}

export interface BackupResult {
  path: string;
  /** FILES_STORAGE: "local", or where the files are that this backup does not hold. */
  storage: string;
  name: string;
  kind: "folder" | "zst" | "gz";
  counts: Counts;
  objects: { copied: number; linked: number; reused: number; bytesWritten: number };
  pruned: string[];
  objectsRemoved: number;
  attempts: number;
}

/** Files of the data directory a restored instance needs besides the database and objects. */
function extraFiles(dataDir: string): string[] {
  const found: string[] = [];
  const walk = (rel: string) => {
    const path = join(dataDir, rel);
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path).sort()) walk(rel ? `${rel}/${name}` : name);
    else if (stat.isFile()) found.push(rel);
  };
  walk("tls");
  walk("cairn.toml");
  return found;
}

function checkPaths(dataDir: string, dest: string, postgres: boolean) {
  if (!postgres && !existsSync(join(dataDir, DATABASE_FILE))) throw badRequest(`${dataDir} holds no Cairn database (${DATABASE_FILE}): nothing to back up.`);
  const inside = relative(dataDir, dest);
  if (!(inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside))) {
    throw badRequest(`The backup destination ${dest} is inside the data directory ${dataDir}: choose a place outside it.`);
  }
}

export async function runBackup(options: BackupOptions): Promise<BackupResult> {
  const dataDir = resolve(options.dataDir);
  const dest = resolve(options.dest);
  checkPaths(dataDir, dest, Boolean(options.databaseUrl));
  const kind = archiveKindOf(dest);
  const folder = kind ? null : await openBackupFolder(dest);
  try {
    for (let attempt = 1; ; attempt++) {
      const sink = folder ? await folder.newSink(options.now(), options.links ?? true) : await openArchiveSink(dest, kind!, options.now());
      let committed = false;
      try {
        const written = await writeSnapshot(sink, dataDir, options);
        if (written.missing.length && attempt < MAX_ATTEMPTS) {
          await sink.abort();
          continue;
        }
        if (written.missing.length) {
          throw new BackupError(
            `${written.missing.length} object(s) the database references are missing from ${join(dataDir, "files", "objects")} (${written.missing.slice(0, 3).join(", ")}${written.missing.length > 3 ? ", ..." : ""}): run cairn files verify; no backup was written`,
          );
        }
        const path = await sink.commit(written.manifest);
        committed = true;
        const pruned = folder ? await folder.prune(options.keep ?? null) : { removed: [], objectsRemoved: 0 };
        return {
          path,
          storage: options.storage,
          name: sink.name,
          kind: kind ?? "folder",
          counts: written.manifest.counts,
          objects: written.stats,
          pruned: pruned.removed,
          objectsRemoved: pruned.objectsRemoved,
          attempts: attempt,
        };
      } catch (error) {
        if (!committed) await sink.abort();
        throw error;
      }
    }
  } finally {
    await folder?.release();
  }
}

async function writeSnapshot(sink: BackupSink, dataDir: string, options: BackupOptions) {
  const progress = (p: BackupProgress) => options.onProgress?.(p);
  progress({ phase: "database", done: 0, total: 1, bytes: 0, totalBytes: 0 });
  const now = options.now();
  const snapshotOptions = { ownJobId: options.jobId, jobResult: { snapshot: sink.name, note: "recorded inside the snapshot this job took" }, now };
  // The same SQLite file whichever engine the server runs on (postgres/snapshot.ts says why).
  const facts: SnapshotFacts = options.databaseUrl
    ? await snapshotPostgres(options.databaseUrl, sink.databasePath, snapshotOptions)
    : await snapshotDatabase(join(dataDir, DATABASE_FILE), sink.databasePath, snapshotOptions);
  const files: FileEntry[] = [await sink.putDatabase()];
  for (const path of extraFiles(dataDir)) files.push(await sink.putFile(path, join(dataDir, ...path.split("/"))));

  const local = options.storage === "local";
  const wanted = local ? facts.objects : [];
  const totalBytes = wanted.reduce((sum, o) => sum + o[1], 0);
  const stats = { copied: 0, linked: 0, reused: 0, bytesWritten: 0 };
  // In the order of the snapshot's list, whatever order the copies finish in.
  const placed: (ObjectEntry | null)[] = new Array(wanted.length).fill(null);
  const missing: string[] = [];
  let bytes = 0;
  let done = 0;
  const place = async (index: number) => {
    const [id, size, md5] = wanted[index]!;
    if (await sink.hasObject(id, size)) {
      // Placed whole and checked by an earlier run (ids are never reused; objects never change).
      placed[index] = [id, size, md5 || (await sink.md5OfObject(id))];
      stats.reused++;
    } else {
      try {
        const put = await sink.putObject(id, join(dataDir, "files", "objects", id.slice(0, 2), id), { size, md5 }, options.signal);
        placed[index] = [id, size, put.md5];
        if (put.linked) stats.linked++;
        else (stats.copied++, (stats.bytesWritten += size));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        missing.push(id);
      }
    }
    bytes += size;
    progress({ phase: "objects", done: ++done, total: wanted.length, bytes, totalBytes });
  };
  await inLanes(wanted.length, sink.parallel, place, options.signal);
  const objects = placed.filter((o): o is ObjectEntry => o !== null);
  const manifest = buildManifest({
    id: crypto.randomUUID(),
    name: sink.name,
    created: new Date(now).toISOString(),
    migration: { level: facts.level, last: facts.migrationIds.at(-1) ?? null, ids: facts.migrationIds },
    engine: options.databaseUrl ? "postgres" : "sqlite",
    storage: { files: options.storage },
    // What the database references, wherever it is kept (the list below holds what this backup has).
    counts: { ...facts.counts, objects: facts.objects.length, objectBytes: facts.objects.reduce((sum, o) => sum + o[1], 0) },
    files,
    objects,
  });
  return { manifest, stats, missing };
}
