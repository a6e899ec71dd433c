// Moving bytes for backups and restores: copies that hash what they read, hard links, whole-file
// hashes and fsyncs. Reads and writes are asynchronous (the server keeps answering during a
// scheduled backup); only hashing runs on this thread, a megabyte at a time.
import { link, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { mkdirSync } from "node:fs";
import { BackupError } from "./manifest";

const BLOCK = 1024 * 1024;

export type Algorithm = "md5" | "sha256";

/** A file's bytes in fresh 1 MiB blocks (a consumer such as tar-stream may keep them). */
export async function* readBlocks(path: string, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const handle = await open(path, "r");
  try {
    for (let at = 0; ;) {
      signal?.throwIfAborted();
      const buffer = Buffer.allocUnsafe(BLOCK);
      const { bytesRead } = await handle.read(buffer, 0, BLOCK, at);
      if (bytesRead === 0) return;
      at += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** Passes blocks on while hashing them; `result()` once they have all gone through. */
export function hashing(source: AsyncIterable<Uint8Array>, algorithm: Algorithm) {
  const hasher = new Bun.CryptoHasher(algorithm);
  let size = 0;
  return {
    blocks: (async function* () {
      for await (const chunk of source) {
        hasher.update(chunk);
        size += chunk.byteLength;
        yield chunk;
      }
    })(),
    result: () => ({ size, digest: hasher.digest("hex") }),
  };
}

/** Writes blocks to a new file `to` (its folder made), fsynced, hashing them; returns size and hex digest. */
export async function writeHashed(to: string, source: AsyncIterable<Uint8Array>, algorithm: Algorithm): Promise<{ size: number; digest: string }> {
  mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
  const target = await open(to, "wx", 0o600);
  try {
    const hashed = hashing(source, algorithm);
    let at = 0;
    for await (const chunk of hashed.blocks) {
      await target.write(chunk, 0, chunk.byteLength, at);
      at += chunk.byteLength;
    }
    await target.sync();
    return hashed.result();
  } finally {
    await target.close();
  }
}

/** Copies `from` to `to`, hashing the bytes on the way. */
export const copyHashed = (from: string, to: string, algorithm: Algorithm, signal?: AbortSignal) => writeHashed(to, readBlocks(from, signal), algorithm);

/** Hex digest and size of a file. */
export async function hashFile(path: string, algorithm: Algorithm, signal?: AbortSignal): Promise<{ size: number; digest: string }> {
  const hashed = hashing(readBlocks(path, signal), algorithm);
  for await (const _ of hashed.blocks);
  return hashed.result();
}

/**
 * Puts the bytes of `from` at `to` through `staging` (a name in the same folder tree as `to`, so
 * the last step is a rename): a hard link when `links` allows and the two are on one file system,
 * else a copy. Either way the bytes are hashed and checked against `expected` before the rename,
 * so `to` only ever appears whole and good. Returns how it went; `links` is turned off after the first cross-device failure.
 */
export async function placeHashed(
  from: string,
  staging: string,
  to: string,
  expected: { size: number; md5: string },
  options: { links: { enabled: boolean }; signal?: AbortSignal },
): Promise<{ md5: string; linked: boolean }> {
  mkdirSync(dirname(staging), { recursive: true, mode: 0o700 });
  let linked = false;
  let result: { size: number; digest: string };
  if (options.links.enabled) {
    try {
      await link(from, staging);
      linked = true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Another file system, or one without hard links: copy from now on.
      if (code === "EXDEV" || code === "EPERM" || code === "ENOTSUP" || code === "EMLINK") options.links.enabled = false;
      else throw error;
    }
  }
  try {
    result = linked ? await hashFile(staging, "md5", options.signal) : await copyHashed(from, staging, "md5", options.signal);
    checkObject(from, expected, result);
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
    await rename(staging, to);
  } catch (error) {
    await rm(staging, { force: true });
    throw error;
  }
  return { md5: result.digest, linked };
}

/** A stored object whose bytes are not those the database recorded fails the whole backup, loudly. */
export function checkObject(path: string, expected: { size: number; md5: string }, got: { size: number; digest: string }) {
  if (got.size !== expected.size || (expected.md5 && got.digest !== expected.md5)) {
    throw new BackupError(
      `the stored object ${path} is damaged: ${got.size} bytes with MD5 ${got.digest}, the database recorded ${expected.size} bytes${expected.md5 ? ` with MD5 ${expected.md5}` : ""} (see cairn files verify); no backup was written`,
    );
  }
}

/** fsync of a directory: a rename or a new name in it is durable only after it. */
export async function syncDir(path: string) {
  // Windows cannot open a directory as a file (EISDIR); NTFS journals the rename itself.
  if (process.platform === "win32") return;
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes a small file whole and fsynced (the manifest, the lock). */
export async function writeDurable(path: string, text: string, flags = "w") {
  const handle = await open(path, flags, 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Runs `work(0..count-1)`, `lanes` at a time: one item is hashed on this thread while the others
 * wait on the disk (reads, writes, fsyncs). After a failure the other lanes finish the item they
 * hold and stop, so nothing writes into a folder the caller then removes; the first error is thrown.
 */
export async function inLanes(count: number, lanes: number, work: (index: number) => Promise<void>, signal?: AbortSignal) {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (next < count && !failure) {
      try {
        signal?.throwIfAborted();
        await work(next++);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failure) throw (failure as { error: unknown }).error;
}
