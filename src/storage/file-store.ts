// The file store on disk: uploads streamed to a temporary file with their MD5 computed on the
// way and fsynced before they are renamed into place; multipart parts; reads; removal.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { constants } from "node:fs";
import { open, rename, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { newUuid } from "../core/ids";
import { createWorkerMd5 } from "./md5-worker";

export interface Received {
  /** The temporary file holding the bytes, durable on disk. */
  path: string;
  size: number;
  /** Lower-case hex MD5 of the bytes (empty for multipart parts, which are hashed when joined). */
  md5: string;
}

/** The stream went past the allowed size: the bytes are discarded. */
export class ContentTooLargeError extends Error {}
/** The stream ended with another length than announced (a cut connection, a wrong Content-Length). */
export class ContentLengthMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`expected ${expected} bytes, received ${received}`);
  }
}

// Writes go to disk in blocks of this size: fewer system calls than one per network chunk.
const BLOCK = 1024 * 1024;
// Blocks in flight to the MD5 worker.
const SLOTS = 4;
// Below this size hashing on the request's thread is cheaper than handing blocks to the worker.
const WORKER_THRESHOLD = 16 * 1024 * 1024;
const COLLECT_EVERY = 128 * 1024 * 1024;
let collectAfter = COLLECT_EVERY;

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

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

export function createFileStore(root: string) {
  const tmpDir = join(root, "tmp");
  const partsDir = join(root, "parts");
  const objectsDir = join(root, "objects");
  // Owner-only, like the data directory (server/data-dir.ts): uploaded bytes may be restricted.
  for (const dir of [tmpDir, partsDir, objectsDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });

  const objectPath = (id: string) => join(objectsDir, id.slice(0, 2), id);

  /**
   * Streams bytes to a new temporary file, hashing them; nothing is left behind on failure.
   * Whole uploads go through Bun's buffered file writer; parts are written at their offset.
   */
  async function receive(
    source: ByteSource,
    limits: { maxBytes: number; expectedBytes?: number | null; hash?: boolean; into?: { path: string; position: number } },
  ): Promise<Received> {
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

  /** Makes a received temporary file the object `id` (a rename, durable once the directory is synced). */
  async function adopt(received: Received, id: string) {
    const target = objectPath(id);
    const dir = join(objectsDir, id.slice(0, 2));
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await rename(received.path, target);
    const handle = await open(dir, "r");
    await handle.sync().finally(() => handle.close());
  }

  /** Hashes a file as it is on disk (a multipart upload once every part is in place). */
  async function hashFile(path: string): Promise<Received> {
    const hasher = new Bun.CryptoHasher("md5");
    let size = 0;
    for await (const chunk of Bun.file(path).stream() as unknown as AsyncIterable<Uint8Array>) {
      hasher.update(chunk);
      size += chunk.byteLength;
    }
    return { path, size, md5: hasher.digest("hex") };
  }

  return {
    objectPath,
    receive,
    adopt,
    /** Where a multipart upload's parts are written, each at its offset (parts/ survives restarts). */
    partsPath: (uploadId: string) => join(partsDir, uploadId),
    /** A multipart part, written in place at `position` and fsynced; hashed only at commit, as a whole. */
    receivePart: (source: ByteSource, limits: { maxBytes: number; expectedBytes: number; path: string; position: number }) =>
      receive(source, { maxBytes: limits.maxBytes, expectedBytes: limits.expectedBytes, hash: false, into: { path: limits.path, position: limits.position } }),
    hashFile,
    async removeObject(id: string) {
      await rm(objectPath(id), { force: true });
    },
    async removeFile(path: string) {
      await rm(path, { force: true });
    },
    /** Part files not in `keep` (their upload was deleted while a part was arriving). */
    clearParts(keep: Set<string>) {
      for (const name of readdirSync(partsDir)) if (!keep.has(join(partsDir, name))) rmSync(join(partsDir, name), { force: true });
    },
    /** Temporary files of uploads that were cut off by a stop: nothing refers to them. */
    clearTemporary() {
      for (const name of readdirSync(tmpDir)) rmSync(join(tmpDir, name), { force: true });
    },
  };
}

export type FileStore = ReturnType<typeof createFileStore>;
