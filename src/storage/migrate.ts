// `cairn files migrate --to s3`: every object of the local store copied to the S3 bucket, read
// back and its MD5 checked, then (on a server already running with FILES_STORAGE = s3) its local
// copy removed. Reads never stop: the S3 store serves an object from the local folder while it is
// still there. Each object is done on its own, so a stopped run simply starts again; objects
// already in the bucket are checked, not sent again.
import { existsSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../config";
import { localLayout } from "./local";
import { hashFile } from "./receive";
import { createS3Bucket, s3OptionsOf, type S3Bucket } from "./s3";

export interface MigrateOptions {
  /** Remove each local copy once its S3 copy is checked (only when the server reads from S3). */
  removeLocal: boolean;
  /** What the database recorded of an object (files), or null (logos, which only the local copy vouches for). */
  expected(id: string): Promise<{ size: number; checksum: string } | null> | { size: number; checksum: string } | null;
  onProgress?(done: number, total: number): void;
}

export interface MigrateReport {
  /** Local objects found. */
  objects: number;
  copied: number;
  /** Already in the bucket with the right bytes (a run before this one). */
  present: number;
  removedLocal: number;
  failures: { id: string; error: string }[];
  target: string;
}

/** The local objects, by id (objects/xx/<id>). */
function localObjects(objectsDir: string): string[] {
  if (!existsSync(objectsDir)) return [];
  return readdirSync(objectsDir).flatMap((dir) => readdirSync(join(objectsDir, dir)).filter((name) => name.startsWith(dir)));
}

/** Copies one object unless the bucket holds it already, and checks the bucket's bytes; returns whether it was sent. */
async function moveOne(bucket: S3Bucket, path: string, id: string, want: { size: number; md5: string }): Promise<boolean> {
  let sent = false;
  if ((await bucket.size(id)) !== want.size) {
    await bucket.upload(path, id, want.size);
    sent = true;
  }
  let stored = await bucket.hash(id);
  if (!sent && (stored?.md5 !== want.md5 || stored.size !== want.size)) {
    // Left different by an interrupted or older copy: sent again.
    await bucket.upload(path, id, want.size);
    sent = true;
    stored = await bucket.hash(id);
  }
  if (stored?.md5 !== want.md5 || stored.size !== want.size) {
    throw new Error(`the copy in the bucket reads back as ${stored ? `md5:${stored.md5}, ${stored.size} bytes` : "missing"}, not md5:${want.md5}, ${want.size} bytes`);
  }
  return sent;
}

export async function migrateToS3(config: Config, options: MigrateOptions): Promise<MigrateReport> {
  const s3 = s3OptionsOf(config);
  const bucket = createS3Bucket(s3);
  const { objectsDir, objectPath } = localLayout(join(config.DATA_DIR, "files"));
  const ids = localObjects(objectsDir);
  const report: MigrateReport = { objects: ids.length, copied: 0, present: 0, removedLocal: 0, failures: [], target: `s3://${s3.bucket}/${s3.prefix}` };
  /** Deleted by the server while it was being copied (its row and local copy gone): nothing to move, and no copy to keep. */
  async function removedMeanwhile(id: string) {
    if (existsSync(objectPath(id)) || (await options.expected(id))) return false;
    await bucket.client.delete(bucket.keyOf(id)).catch(() => {});
    return true;
  }
  for (const [i, id] of ids.entries()) {
    options.onProgress?.(i, ids.length);
    const path = objectPath(id);
    try {
      const recorded = await options.expected(id);
      // The MD5 the object must have: the one recorded when it arrived, else the local copy's own.
      const want = recorded ? { size: recorded.size, md5: recorded.checksum.replace(/^md5:/, "") } : await hashFile(path);
      if (recorded) {
        const local = await hashFile(path);
        if (local.md5 !== want.md5 || local.size !== want.size) throw new Error(`the local copy is damaged (md5:${local.md5}, expected md5:${want.md5}): not copied`);
      }
      const sent = await moveOne(bucket, path, id, want);
      if (await removedMeanwhile(id)) continue;
      if (sent) report.copied++;
      else report.present++;
      if (options.removeLocal) {
        await rm(path, { force: true });
        report.removedLocal++;
      }
    } catch (error) {
      if (await removedMeanwhile(id)) continue;
      report.failures.push({ id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  options.onProgress?.(ids.length, ids.length);
  return report;
}
