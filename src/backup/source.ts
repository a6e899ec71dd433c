// What a path given to `backup --verify` or `restore` is: a backup folder (its snapshots), one
// snapshot folder of it, or an archive; and which relative paths a backup may name.
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { badRequest } from "../core/errors";
import { archiveKindOfFile, type ArchiveKind } from "./archive";
import { listPartials, listSnapshots, POOL } from "./folder";
import { MANIFEST_FILE } from "./manifest";

export type BackupSource =
  | { kind: "folder"; dest: string; snapshots: { name: string; path: string }[]; leftovers: string[] }
  | { kind: "snapshot"; path: string; pool: string }
  | { kind: "archive"; path: string; archive: ArchiveKind };

export async function resolveSource(given: string): Promise<BackupSource> {
  const path = resolve(given);
  if (!existsSync(path)) throw badRequest(`${given} does not exist.`);
  if (statSync(path).isFile()) {
    const archive = await archiveKindOfFile(path);
    if (!archive) throw badRequest(`${given} is neither a backup folder nor a .tar.zst/.tar.gz backup archive.`);
    return { kind: "archive", path, archive };
  }
  if (existsSync(join(path, MANIFEST_FILE))) return { kind: "snapshot", path, pool: join(dirname(path), POOL) };
  const snapshots = listSnapshots(path);
  const leftovers = listPartials(path);
  if (!snapshots.length) {
    throw badRequest(`${given} holds no complete backup${leftovers.length ? ` (only ${leftovers.length} unfinished one(s), left by a stopped run)` : ""}.`);
  }
  return { kind: "folder", dest: path, snapshots, leftovers };
}

/** The snapshot a restore takes from a source: the one given, or a folder's newest. */
export function snapshotOf(source: BackupSource): { path: string; pool: string } | null {
  if (source.kind === "snapshot") return source;
  if (source.kind === "folder") return { path: source.snapshots.at(-1)!.path, pool: join(source.dest, POOL) };
  return null;
}

const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * Where a path named by a backup (a manifest's file, an archive's entry) goes in a data directory,
 * or null for a name a Cairn backup never holds: nothing outside the data directory, no `..`.
 */
export function dataDirPathOf(name: string): string | null {
  const segments = name.split("/");
  if (!segments.every((s) => SAFE_SEGMENT.test(s))) return null;
  if (name === "cairn.db" || name === "cairn.toml") return name;
  if (segments[0] === "tls" && segments.length >= 2) return name;
  if (segments[0] === POOL && segments.length === 3 && segments[2]!.startsWith(segments[1]!)) return `files/${name}`;
  return null;
}
