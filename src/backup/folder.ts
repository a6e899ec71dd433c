// A backup folder: dated snapshot folders sharing one pool of objects, written through a staging
// folder so that only a finished snapshot (manifest written last, then renamed) ever looks complete;
// its lock, the clean-up of what a killed run left, pruning to the last N and the pool's garbage.
//
//   DEST/.lock                  pid of the backup writing here
//   DEST/objects/xx/<id>        every object of every kept snapshot, once (hard link or copy)
//   DEST/<name>/manifest.json   a complete snapshot: cairn.db, tls/, cairn.toml, the manifest
//   DEST/.partial-<uuid>/       a snapshot being written (or left by a killed run)
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readdir, rename, rm, rmdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { conflict } from "../core/errors";
import { newUuid } from "../core/ids";
import { copyHashed, hashFile, placeHashed, syncDir, writeDurable } from "./copy";
import { DATABASE_FILE, MANIFEST_FILE, parseManifest, serializeManifest, type FileEntry, type Manifest } from "./manifest";
import type { BackupSink } from "./sink";
import { processAlive } from "../core/process-alive";

const PARTIAL = ".partial-";
const LOCK = ".lock";
export const POOL = "objects";

export const poolPath = (dest: string, id: string) => join(dest, POOL, id.slice(0, 2), id);

/** Snapshot folders of DEST that hold a manifest (complete), oldest first. */
export function listSnapshots(dest: string): { name: string; path: string }[] {
  if (!existsSync(dest)) return [];
  return readdirSync(dest)
    .filter((name) => !name.startsWith(".") && name !== POOL && existsSync(join(dest, name, MANIFEST_FILE)))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((name) => ({ name, path: join(dest, name) }));
}

export const readManifestAt = (snapshot: string) => parseManifest(readFileSync(join(snapshot, MANIFEST_FILE), "utf8"), snapshot);

/** Leftovers of killed runs (staging folders); said by `--verify`, removed by the next backup. */
export const listPartials = (dest: string) => (existsSync(dest) ? readdirSync(dest).filter((n) => n.startsWith(PARTIAL)) : []);

/** `20261122T120000Z`, with `-2`, `-3`... when a snapshot of that second exists. */
function snapshotName(dest: string, now: number): string {
  const base = new Date(now)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  let name = base;
  for (let n = 2; existsSync(join(dest, name)); n++) name = `${base}-${n}`;
  return name;
}

/** One writer per backup folder: pruning or collecting the pool under another run would remove objects it just placed. */
async function takeLock(dest: string): Promise<() => Promise<void>> {
  const path = join(dest, LOCK);
  for (let tries = 0; ; tries++) {
    try {
      await writeDurable(path, String(process.pid), "wx");
      return () => unlink(path).catch(() => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || tries > 0) throw error;
      const pid = Number(readFileSync(path, "utf8").trim());
      if (processAlive(pid)) throw conflict(`Another backup (pid ${pid}) is writing to ${dest}; try again when it has finished.`);
      await unlink(path); // left by a killed run
    }
  }
}

export interface BackupFolder {
  /** A new snapshot's staging; commit() makes it DEST/<name>. */
  newSink(now: number, links: boolean): Promise<BackupSink>;
  /** Keeps the newest `keep` snapshots; returns the names removed. Then drops pool objects no kept snapshot names. */
  prune(keep: number | null): Promise<{ removed: string[]; objectsRemoved: number }>;
  release(): Promise<void>;
}

/** Takes DEST (created if missing) for one backup run and removes what a killed run left there. */
export async function openBackupFolder(dest: string): Promise<BackupFolder> {
  await mkdir(join(dest, POOL), { recursive: true, mode: 0o700 });
  const release = await takeLock(dest);
  const leftovers = listPartials(dest);
  for (const name of leftovers) await rm(join(dest, name), { recursive: true, force: true });
  // A killed run may have placed objects in the pool that no snapshot names yet: collected below.
  let collect = leftovers.length > 0;

  return {
    async newSink(now, links) {
      const staging = join(dest, `${PARTIAL}${newUuid()}`);
      await mkdir(staging, { mode: 0o700 });
      const name = snapshotName(dest, now);
      const linking = { enabled: links };
      return {
        name,
        databasePath: join(staging, DATABASE_FILE),
        parallel: 4,
        linksUsed: () => linking.enabled,
        async hasObject(id, size) {
          const s = await stat(poolPath(dest, id)).catch(() => null);
          return s !== null && s.isFile() && s.size === size;
        },
        async md5OfObject(id) {
          return (await hashFile(poolPath(dest, id), "md5")).digest;
        },
        async putObject(id, from, expected, signal) {
          return placeHashed(from, join(staging, "tmp", id), poolPath(dest, id), expected, { links: linking, signal });
        },
        async putDatabase() {
          const { size, digest } = await hashFile(join(staging, DATABASE_FILE), "sha256");
          return { path: DATABASE_FILE, size, sha256: digest };
        },
        async putFile(path, from): Promise<FileEntry> {
          const { size, digest } = await copyHashed(from, join(staging, path), "sha256");
          return { path, size, sha256: digest };
        },
        async commit(manifest: Manifest) {
          await rm(join(staging, "tmp"), { recursive: true, force: true });
          for (const dir of new Set(manifest.objects.map(([id]) => id.slice(0, 2)))) await syncDir(join(dest, POOL, dir)).catch(() => {});
          await writeDurable(join(staging, MANIFEST_FILE), serializeManifest(manifest), "wx");
          await syncDir(staging);
          await rename(staging, join(dest, name));
          await syncDir(dest);
          return join(dest, name);
        },
        async abort() {
          await rm(staging, { recursive: true, force: true });
          collect = true;
        },
      };
    },

    async prune(keep) {
      const snapshots = listSnapshots(dest);
      const doomed = keep === null ? [] : snapshots.slice(0, Math.max(0, snapshots.length - keep));
      for (const s of doomed) {
        // Renamed out of sight first: a run killed half way through the removal leaves a staging
        // leftover, never a snapshot folder that has lost files but kept its manifest.
        const trash = join(dest, `${PARTIAL}${newUuid()}`);
        await rename(s.path, trash);
        await rm(trash, { recursive: true, force: true });
      }
      let objectsRemoved = 0;
      if (doomed.length || collect) objectsRemoved = await collectPool(dest);
      collect = false;
      return { removed: doomed.map((s) => s.name), objectsRemoved };
    },

    release,
  };
}

/** Removes pool objects that no complete snapshot's manifest lists. */
async function collectPool(dest: string): Promise<number> {
  const kept = new Set<string>();
  for (const s of listSnapshots(dest)) for (const [id] of readManifestAt(s.path).objects) kept.add(id);
  let removed = 0;
  const pool = join(dest, POOL);
  for (const dir of await readdir(pool)) {
    const path = join(pool, dir);
    if (!lstatSync(path).isDirectory()) continue;
    for (const id of await readdir(path)) {
      if (kept.has(id)) continue;
      await rm(join(path, id), { force: true });
      removed++;
    }
    await rmdir(path).catch(() => {}); // only when it became empty
  }
  return removed;
}
