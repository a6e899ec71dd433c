// `backup --verify`: re-hashes a backup (every snapshot of a folder, one snapshot, or an archive)
// against its manifest and checks its database's integrity; lists every problem found.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { newUuid } from "../core/ids";
import { readArchive, readManifestEntry } from "./archive";
import { hashFile, hashing, inLanes, writeHashed } from "./copy";
import { poolPath, readManifestAt } from "./folder";
import { DATABASE_FILE, MANIFEST_FILE, type Manifest } from "./manifest";
import { checkIntegrity } from "./sqlite/snapshot";
import { resolveSource, type BackupSource } from "./source";

/** Objects hashed at once (see inLanes). */
const LANES = 4;

export interface VerifyReport {
  snapshots: { name: string; problems: string[] }[];
  objectsChecked: number;
  bytesChecked: number;
  /** Unfinished snapshots a stopped run left (ignored; the next backup removes them). */
  leftovers: string[];
}

export type VerifyProgress = (bytes: number, totalBytes: number) => void;

export async function verifyBackup(given: string, onProgress: VerifyProgress = () => {}): Promise<VerifyReport> {
  const source = await resolveSource(given);
  if (source.kind === "archive") return verifyArchive(source, onProgress);
  const snapshots = source.kind === "folder" ? source.snapshots : [{ name: source.path, path: source.path }];
  const dest = source.kind === "folder" ? source.dest : dirname(source.path);
  const report: VerifyReport = { snapshots: [], objectsChecked: 0, bytesChecked: 0, leftovers: source.kind === "folder" ? source.leftovers : [] };
  // Snapshots share objects: each is hashed once, its verdict reused.
  const verdicts = new Map<string, string | null>();
  const manifests = snapshots.map((s) => {
    try {
      return readManifestAt(s.path);
    } catch (error) {
      return error as Error;
    }
  });
  const sizes = new Map<string, number>();
  for (const m of manifests) if (!(m instanceof Error)) for (const [id, size] of m.objects) sizes.set(id, size);
  const totalBytes = manifests.reduce(
    (sum, m) => sum + (m instanceof Error ? 0 : m.files.reduce((a, f) => a + f.size, 0)),
    [...sizes.values()].reduce((a, b) => a + b, 0),
  );
  let bytes = 0;
  const tick = (n: number) => onProgress((bytes += n), totalBytes);
  for (const [i, s] of snapshots.entries()) {
    const manifest = manifests[i]!;
    const problems: string[] = [];
    report.snapshots.push({ name: s.name, problems });
    if (manifest instanceof Error) {
      problems.push(manifest.message);
      continue;
    }
    for (const f of manifest.files) {
      const path = join(s.path, ...f.path.split("/"));
      if (!existsSync(path)) problems.push(`${f.path}: missing`);
      else {
        const got = await hashFile(path, "sha256");
        if (got.digest !== f.sha256 || got.size !== f.size) problems.push(`${f.path}: changed (SHA-256 ${got.digest}, the manifest says ${f.sha256})`);
      }
      report.bytesChecked += f.size;
      tick(f.size);
    }
    if (existsSync(join(s.path, DATABASE_FILE))) for (const line of checkIntegrity(join(s.path, DATABASE_FILE))) problems.push(`${DATABASE_FILE}: integrity check: ${line}`);
    const fresh = manifest.objects.filter(([id]) => !verdicts.has(id));
    await inLanes(fresh.length, LANES, async (index) => {
      const [id, size, md5] = fresh[index]!;
      verdicts.set(id, await checkPoolObject(poolPath(dest, id), size, md5));
      report.objectsChecked++;
      report.bytesChecked += size;
      tick(size);
    });
    for (const [id] of manifest.objects) {
      const verdict = verdicts.get(id);
      if (verdict) problems.push(`object ${id}: ${verdict}`);
    }
  }
  return report;
}

async function checkPoolObject(path: string, size: number, md5: string): Promise<string | null> {
  if (!existsSync(path)) return "missing";
  const got = await hashFile(path, "md5");
  if (got.size !== size) return `${got.size} bytes, the manifest says ${size}`;
  if (got.digest !== md5) return `changed (MD5 ${got.digest}, the manifest says ${md5})`;
  return null;
}

async function verifyArchive(source: Extract<BackupSource, { kind: "archive" }>, onProgress: VerifyProgress): Promise<VerifyReport> {
  const problems: string[] = [];
  const report: VerifyReport = { snapshots: [{ name: source.path, problems }], objectsChecked: 0, bytesChecked: 0, leftovers: [] };
  const seen = new Map<string, { size: number; digest: string }>();
  const total = Bun.file(source.path).size;
  let manifest: Manifest | null = null;
  let read = 0;
  try {
    for await (const entry of readArchive(source.path, source.archive, (n) => onProgress((read += n), total))) {
      if (entry.name === MANIFEST_FILE) {
        manifest = await readManifestEntry(entry, source.path);
        continue;
      }
      const algorithm = entry.name.startsWith("objects/") ? "md5" : "sha256";
      let got: { size: number; digest: string };
      if (entry.name === DATABASE_FILE) {
        // Unpacked to a temporary file for its integrity check, as a folder's database is checked in place.
        const temporary = join(tmpdir(), `cairn-verify-${newUuid()}.db`);
        try {
          got = await writeHashed(temporary, entry.chunks, algorithm);
          for (const line of checkIntegrity(temporary)) problems.push(`${DATABASE_FILE}: integrity check: ${line}`);
        } finally {
          await rm(temporary, { force: true });
        }
      } else {
        const hashed = hashing(entry.chunks, algorithm);
        for await (const _ of hashed.blocks);
        got = hashed.result();
      }
      seen.set(entry.name, got);
      report.bytesChecked += got.size;
    }
  } catch (error) {
    problems.push(`the archive cannot be read to its end: ${(error as Error).message}`);
  }
  if (!manifest) {
    problems.push("no manifest: the archive is incomplete (cut off, or left by a stopped run)");
    return report;
  }
  for (const f of manifest.files) {
    const got = seen.get(f.path);
    if (!got) problems.push(`${f.path}: missing`);
    else if (got.digest !== f.sha256 || got.size !== f.size) problems.push(`${f.path}: changed (SHA-256 ${got.digest}, the manifest says ${f.sha256})`);
  }
  for (const [id, size, md5] of manifest.objects) {
    const got = seen.get(`objects/${id.slice(0, 2)}/${id}`);
    report.objectsChecked++;
    if (!got) problems.push(`object ${id}: missing`);
    else if (got.size !== size || got.digest !== md5) problems.push(`object ${id}: changed (MD5 ${got.digest}, the manifest says ${md5})`);
  }
  return report;
}
