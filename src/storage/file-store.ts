// The file store on disk: uploads streamed to a temporary file with their MD5 computed on the
// way and fsynced before they are renamed into place; multipart parts; reads; removal.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { constants } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
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
// Blocks in flight: filling, being written, being hashed.
const SLOTS = 4;
// Below this size hashing on the request's thread is cheaper than handing blocks to the worker.
const WORKER_THRESHOLD = 16 * 1024 * 1024;
const COLLECT_EVERY = 64 * 1024 * 1024;
let collectAfter = COLLECT_EVERY;

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export function createFileStore(root: string) {
  const tmpDir = join(root, "tmp");
  const partsDir = join(root, "parts");
  const objectsDir = join(root, "objects");
  for (const dir of [tmpDir, partsDir, objectsDir]) mkdirSync(dir, { recursive: true });

  const objectPath = (id: string) => join(objectsDir, id.slice(0, 2), id);

  /**
   * Streams bytes to a new temporary file, hashing them; nothing is left behind on failure.
   * Bytes are gathered into blocks; a full block is written while the next one fills, and for
   * large uploads hashed on a second thread at the same time (MD5 costs as much as the rest).
   */
  async function receive(source: ByteSource, limits: { maxBytes: number; expectedBytes?: number | null; hash?: boolean; into?: { path: string; position: number } }): Promise<Received> {
    const path = limits.into?.path ?? join(tmpDir, newUuid());
    // A part is written in place into its upload's file; anything else into a new temporary file.
    const handle = await open(path, limits.into ? constants.O_RDWR | constants.O_CREAT : "wx", 0o600);
    let position = limits.into?.position ?? null;
    const hashing = limits.hash !== false;
    const offThread = hashing && (limits.expectedBytes == null || limits.expectedBytes > WORKER_THRESHOLD) ? createWorkerMd5() : null;
    const hasher = hashing && !offThread ? new Bun.CryptoHasher("md5") : null;
    const slots = Array.from({ length: SLOTS }, () => ({ block: new Uint8Array(offThread ? new SharedArrayBuffer(BLOCK) : new ArrayBuffer(BLOCK)), busy: Promise.resolve() as Promise<unknown> }));
    let slot = 0;
    let filled = 0;
    let size = 0;
    let writes: Promise<unknown> = Promise.resolve();
    const flush = async () => {
      const { block } = slots[slot]!;
      const length = filled;
      // Writes stay in order; hashing runs beside them.
      const at = position;
      if (position !== null) position += length;
      const written = (writes = writes.then(() => handle.write(block, 0, length, at)));
      const hashed = offThread ? offThread.update(block.buffer as SharedArrayBuffer, length) : hasher?.update(block.subarray(0, length));
      slots[slot]!.busy = Promise.all([written, hashed]);
      slot = (slot + 1) % SLOTS;
      filled = 0;
      // Each network chunk is a new buffer: without a nudge, garbage from a few parallel uploads
      // piles up to hundreds of MB before the collector runs.
      if ((collectAfter -= length) <= 0) {
        collectAfter = COLLECT_EVERY;
        Bun.gc(false);
      }
      await slots[slot]!.busy; // the next block is reused only once written and hashed
    };
    try {
      for await (const chunk of source as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > limits.maxBytes) throw new ContentTooLargeError();
        let offset = 0;
        while (offset < chunk.byteLength) {
          const n = Math.min(BLOCK - filled, chunk.byteLength - offset);
          slots[slot]!.block.set(chunk.subarray(offset, offset + n), filled);
          filled += n;
          offset += n;
          if (filled === BLOCK) await flush();
        }
      }
      if (filled > 0) await flush();
      await Promise.all(slots.map((s) => s.busy));
      if (limits.expectedBytes != null && size !== limits.expectedBytes) throw new ContentLengthMismatchError(limits.expectedBytes, size);
      await handle.sync();
      await handle.close();
      const md5 = offThread ? await offThread.digest() : (hasher?.digest("hex") ?? "");
      return { path, size, md5 };
    } catch (error) {
      offThread?.drop();
      await Promise.allSettled(slots.map((s) => s.busy));
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
    mkdirSync(dir, { recursive: true });
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
    root,
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
