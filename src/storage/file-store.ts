// The file store on disk: uploads streamed to a temporary file with their MD5 computed on the
// way and fsynced before they are renamed into place; multipart parts; reads; removal.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { newUuid } from "../core/ids";

export interface Received {
  /** The temporary file holding the bytes, durable on disk. */
  path: string;
  size: number;
  /** Lower-case hex MD5 of the bytes. */
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

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export function createFileStore(root: string) {
  const tmpDir = join(root, "tmp");
  const partsDir = join(root, "parts");
  const objectsDir = join(root, "objects");
  for (const dir of [tmpDir, partsDir, objectsDir]) mkdirSync(dir, { recursive: true });

  const objectPath = (id: string) => join(objectsDir, id.slice(0, 2), id);

  /** Streams bytes to a new temporary file, hashing them; nothing is left behind on failure. */
  async function receive(source: ByteSource, limits: { maxBytes: number; expectedBytes?: number | null; dir?: string }): Promise<Received> {
    const path = join(limits.dir ?? tmpDir, newUuid());
    const handle = await open(path, "wx", 0o600);
    const hasher = new Bun.CryptoHasher("md5");
    const block = new Uint8Array(BLOCK);
    let filled = 0;
    let size = 0;
    try {
      for await (const chunk of source as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > limits.maxBytes) throw new ContentTooLargeError();
        hasher.update(chunk);
        let offset = 0;
        while (offset < chunk.byteLength) {
          const n = Math.min(BLOCK - filled, chunk.byteLength - offset);
          block.set(chunk.subarray(offset, offset + n), filled);
          filled += n;
          offset += n;
          if (filled === BLOCK) {
            await handle.write(block, 0, filled);
            filled = 0;
          }
        }
      }
      if (filled > 0) await handle.write(block, 0, filled);
      if (limits.expectedBytes != null && size !== limits.expectedBytes) throw new ContentLengthMismatchError(limits.expectedBytes, size);
      await handle.sync();
      await handle.close();
      return { path, size, md5: hasher.digest("hex") };
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(path, { force: true });
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

  /** The parts of a multipart upload, in order, as one stream. */
  async function* concatenate(paths: string[]): AsyncIterable<Uint8Array> {
    for (const path of paths) yield* Bun.file(path).stream() as unknown as AsyncIterable<Uint8Array>;
  }

  return {
    root,
    objectPath,
    receive,
    adopt,
    /** A multipart part: kept in parts/ (which survives restarts) until commit assembles it. */
    receivePart: (source: ByteSource, limits: { maxBytes: number; expectedBytes?: number | null }) => receive(source, { ...limits, dir: partsDir }),
    /** Joins parts into one temporary file, hashing it on the way. */
    assemble: (paths: string[], expectedBytes: number | null) => receive(concatenate(paths), { maxBytes: Number.MAX_SAFE_INTEGER, expectedBytes }),
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
