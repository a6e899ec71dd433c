// The file store on the local disk: objects in DATA/files/objects/xx/<id> (renamed into place
// once durable), uploads staged in tmp/, multipart parts written in place in parts/<upload>.
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { hashFile, receiveBytes } from "./receive";
import type { ByteRange, FileStore, Received } from "./types";

/** The local layout, shared with the S3 store (which stages uploads here and reads objects not yet moved). */
export function localLayout(root: string) {
  const objectsDir = join(root, "objects");
  return {
    tmpDir: join(root, "tmp"),
    partsDir: join(root, "parts"),
    objectsDir,
    objectPath: (id: string) => join(objectsDir, id.slice(0, 2), id),
  };
}

/** The bytes of a local file as a body: Bun sends a file Blob with sendfile. */
export function fileBody(path: string, range?: ByteRange) {
  const file = Bun.file(path);
  return range ? file.slice(range.start, range.end + 1) : file;
}

export async function fileHead(path: string, bytes: number) {
  return new Uint8Array(await Bun.file(path).slice(0, bytes).arrayBuffer());
}

export function createLocalFileStore(root: string): FileStore & { objectPath(id: string): string } {
  const { tmpDir, partsDir, objectsDir, objectPath } = localLayout(root);
  // Owner-only, like the data directory (server/data-dir.ts): uploaded bytes may be restricted.
  for (const dir of [tmpDir, partsDir, objectsDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });

  /** Makes a received temporary file the object `id` (a rename, durable once the directory is synced). */
  async function adopt(received: Received, id: string) {
    const target = objectPath(id);
    const dir = join(objectsDir, id.slice(0, 2));
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await rename(received.path, target);
    // Windows cannot open a directory as a file (EISDIR); NTFS journals the rename itself.
    if (process.platform === "win32") return;
    const handle = await open(dir, "r");
    await handle.sync().finally(() => handle.close());
  }

  return {
    kind: "local",
    /** For backup and migration, which work on the files themselves. */
    objectPath,
    receive: (source, limits) => receiveBytes(tmpDir, source, limits),
    adopt,
    async removeFile(path) {
      await rm(path, { force: true });
    },
    read: (id, range) => fileBody(objectPath(id), range),
    readHead: (id, bytes) => fileHead(objectPath(id), bytes),
    async hashObject(id) {
      const path = objectPath(id);
      if (!existsSync(path)) return null;
      const { size, md5 } = await hashFile(path);
      return { size, md5 };
    },
    presign: () => null,
    async removeObject(id) {
      await rm(objectPath(id), { force: true });
    },
    partsPath: (uploadKey) => join(partsDir, uploadKey),
    receivePart: (source, limits) =>
      receiveBytes(tmpDir, source, { maxBytes: limits.maxBytes, expectedBytes: limits.expectedBytes, hash: false, into: { path: limits.path, position: limits.position } }),
    hashFile,
    multipart: null,
    clearParts(keep) {
      for (const name of readdirSync(partsDir)) if (!keep.has(join(partsDir, name))) rmSync(join(partsDir, name), { force: true });
    },
    clearTemporary() {
      for (const name of readdirSync(tmpDir)) rmSync(join(tmpDir, name), { force: true });
    },
  };
}
