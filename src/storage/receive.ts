// Receiving bytes on the local disk: a stream written to a new temporary file (or a part written at
// its offset into its upload's file) with its MD5 computed on the way and fsynced; hashing a file.
// Both stores receive here: the S3 store stages uploads on the local disk before sending them on.
import { constants } from "node:fs";
import { open, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { newUuid } from "../core/ids";
import { ContentLengthMismatchError, ContentTooLargeError, type ByteSource, type Received, type ReceiveLimits } from "./types";
import { createWorkerMd5 } from "./md5-worker";

// Writes go to disk in blocks of this size: fewer system calls than one per network chunk.
const BLOCK = 1024 * 1024;
// Blocks in flight to the MD5 worker.
const SLOTS = 4;
// Below this size hashing on the request's thread is cheaper than handing blocks to the worker.
const WORKER_THRESHOLD = 16 * 1024 * 1024;
const COLLECT_EVERY = 128 * 1024 * 1024;
let collectAfter = COLLECT_EVERY;

/** Appends through Bun's buffered writer (few system calls, no copy into our own blocks). */
function appendSink(path: string) {
  const writer = Bun.file(path).writer({ highWaterMark: BLOCK });
  return {
    write: (chunk: Uint8Array) => writer.write(chunk),
    end: async () => void (await writer.end()),
  };
}

/** Writes at increasing offsets from `position`, gathered into 1 MiB blocks. */
function positionalSink(handle: FileHandle, position: number) {
  const block = new Uint8Array(BLOCK);
  let filled = 0;
  let at = position;
  const flush = async () => {
    if (filled === 0) return;
    await handle.write(block, 0, filled, at);
    at += filled;
    filled = 0;
  };
  return {
    async write(chunk: Uint8Array) {
      for (let offset = 0; offset < chunk.byteLength;) {
        const n = Math.min(BLOCK - filled, chunk.byteLength - offset);
        block.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === BLOCK) await flush();
      }
    },
    end: flush,
  };
}

/**
 * The MD5 of an upload as it arrives. Large ones are hashed on the worker thread from shared
 * blocks (MD5 costs as much as receiving and writing together), small ones right here.
 */
function createMd5(expectedBytes: number | null) {
  if (expectedBytes !== null && expectedBytes <= WORKER_THRESHOLD) {
    const hasher = new Bun.CryptoHasher("md5");
    return { update: (chunk: Uint8Array) => void hasher.update(chunk), digest: async () => hasher.digest("hex"), drop: () => {} };
  }
  const worker = createWorkerMd5();
  const slots = Array.from({ length: SLOTS }, () => ({ block: new Uint8Array(new SharedArrayBuffer(BLOCK)), busy: Promise.resolve() as Promise<unknown> }));
  let slot = 0;
  let filled = 0;
  const send = async () => {
    slots[slot]!.busy = worker.update(slots[slot]!.block.buffer as SharedArrayBuffer, filled);
    slot = (slot + 1) % SLOTS;
    filled = 0;
    await slots[slot]!.busy; // a block is refilled only once the worker has hashed it
  };
  return {
    async update(chunk: Uint8Array) {
      for (let offset = 0; offset < chunk.byteLength;) {
        const n = Math.min(BLOCK - filled, chunk.byteLength - offset);
        slots[slot]!.block.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === BLOCK) await send();
      }
    },
    async digest() {
      if (filled > 0) await send();
      await Promise.all(slots.map((s) => s.busy));
      return worker.digest();
    },
    drop: () => worker.drop(),
  };
}

/**
 * Each network chunk is a new buffer: without a nudge, garbage from a few parallel uploads piles up
 * before the collector runs. A full collection every 128 MB received keeps a 1 GiB upload under
 * ~180 MB resident at the same speed; an asynchronous one every 16 MB peaked above 200 MB.
 */
function collectGarbage(bytes: number) {
  if ((collectAfter -= bytes) > 0) return;
  collectAfter = COLLECT_EVERY;
  Bun.gc(true);
}

/**
 * Streams bytes to a new temporary file in `tmpDir`, hashing them; nothing is left behind on failure.
 * Whole uploads go through Bun's buffered file writer; parts are written at their offset.
 */
export async function receiveBytes(tmpDir: string, source: ByteSource, limits: ReceiveLimits): Promise<Received> {
  const path = limits.into?.path ?? join(tmpDir, newUuid());
  // A part is written in place into its upload's file; anything else into a new temporary file.
  const handle = await open(path, limits.into ? constants.O_RDWR | constants.O_CREAT : "wx", 0o600);
  const sink = limits.into ? positionalSink(handle, limits.into.position) : appendSink(path);
  const md5 = limits.hash === false ? null : createMd5(limits.expectedBytes ?? null);
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) throw new ContentTooLargeError();
      await sink.write(chunk);
      await md5?.update(chunk);
      collectGarbage(chunk.byteLength);
    }
    await sink.end();
    if (limits.expectedBytes != null && size !== limits.expectedBytes) throw new ContentLengthMismatchError(limits.expectedBytes, size);
    await handle.sync();
    await handle.close();
    return { path, size, md5: md5 ? await md5.digest() : "" };
  } catch (error) {
    md5?.drop();
    await sink.end().catch(() => {});
    await handle.close().catch(() => {});
    // A failed part leaves its range to be written again; the upload's file stays.
    if (!limits.into) await rm(path, { force: true });
    throw error;
  }
}

/** Hashes a file as it is on disk (a multipart upload once every part is in place, a stored object). */
export async function hashFile(path: string): Promise<Received> {
  const hasher = new Bun.CryptoHasher("md5");
  let size = 0;
  for await (const chunk of Bun.file(path).stream() as unknown as AsyncIterable<Uint8Array>) {
    hasher.update(chunk);
    size += chunk.byteLength;
  }
  return { path, size, md5: hasher.digest("hex") };
}
