// Backups as one file: a tar (tar-stream) compressed with zstd (.tar.zst) or gzip (.tar.gz), both
// from node:zlib. The archive is written under a temporary name beside DEST and renamed only once
// whole and fsynced; its manifest is the last entry, so a cut-off copy has none.
import { createReadStream, createWriteStream, existsSync, readdirSync } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { constants, createGunzip, createGzip, createZstdCompress, createZstdDecompress } from "node:zlib";
import type { Pack } from "tar-stream";
import type * as TarStream from "tar-stream";
import { conflict } from "../core/errors";
import { newUuid } from "../core/ids";
import { lazy } from "../core/lazy";
import { checkObject, hashing, readBlocks, syncDir, type Algorithm } from "./copy";
import { DATABASE_FILE, MANIFEST_FILE, parseManifest, serializeManifest, type FileEntry, type Manifest } from "./manifest";
import type { BackupSink } from "./sink";

/** tar-stream, loaded by the first archive backup or restore (most servers never make one). */
const tar = lazy(() => require("tar-stream") as typeof TarStream);

export type ArchiveKind = "zst" | "gz";

// Reads of an archive being restored or verified.
const BLOCK = 1024 * 1024;
// gzip is slow whatever the level on data that does not compress (about 40 MiB/s here); level 3
// keeps most of level 6's gain on text at three times its speed. zstd's default level is 3.
const GZIP_LEVEL = 3;

/** The archive kind a destination's name asks for; null: a folder. */
export function archiveKindOf(path: string): ArchiveKind | null {
  if (/\.(tar\.zst|tzst)$/i.test(path)) return "zst";
  if (/\.(tar\.gz|tgz)$/i.test(path)) return "gz";
  return null;
}

/** The archive kind of an existing file, by its first bytes; null when neither. */
export async function archiveKindOfFile(path: string): Promise<ArchiveKind | null> {
  const handle = await open(path, "r");
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head[0] === 0x1f && head[1] === 0x8b) return "gz";
    if (head.readUInt32LE(0) === 0xfd2fb528) return "zst";
    return null;
  } finally {
    await handle.close();
  }
}

/** Writes one entry of `size` bytes; rejects when the archive's pipeline fails meanwhile. */
function addEntry(pack: Pack, failed: Promise<never>, name: string, size: number, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, mtime: Date): Promise<void> {
  const written = new Promise<void>((resolve, reject) => {
    const entry = pack.entry({ name, size, mode: 0o600, mtime }, (error) => (error ? reject(error) : resolve()));
    (async () => {
      for await (const chunk of source) if (!entry.write(chunk)) await Promise.race([new Promise<void>((r) => entry.once("drain", () => r())), failed]);
      entry.end(undefined); // streamx types ask for an argument; undefined writes nothing
    })().catch((error) => {
      entry.destroy(error);
      reject(error);
    });
  });
  return Promise.race([written, failed]);
}

/** Removes archives a killed run left beside DEST (DEST.partial-*). */
async function cleanLeftovers(dest: string) {
  const prefix = `${basename(dest)}.partial-`;
  for (const name of readdirSync(dirname(dest))) if (name.startsWith(prefix)) await rm(join(dirname(dest), name), { force: true });
}

export async function openArchiveSink(dest: string, kind: ArchiveKind, now: number): Promise<BackupSink> {
  if (existsSync(dest)) throw conflict(`${dest} exists; a backup archive is never overwritten: choose a new name.`);
  await cleanLeftovers(dest);
  const temporary = `${dest}.partial-${newUuid()}`;
  const databasePath = `${temporary}.db`;
  const mtime = new Date(now);
  const pack = tar().pack();
  const compressor = kind === "zst" ? createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: 3 } }) : createGzip({ level: GZIP_LEVEL });
  const finished = pipeline(pack, compressor, createWriteStream(temporary, { flags: "wx", mode: 0o600 }));
  const failed = finished.then(() => new Promise<never>(() => {}));
  failed.catch(() => {});
  const add = async (name: string, path: string, algorithm: Algorithm, signal?: AbortSignal) => {
    const hashed = hashing(readBlocks(path, signal), algorithm);
    await addEntry(pack, failed, name, (await stat(path)).size, hashed.blocks, mtime);
    return hashed.result();
  };
  return {
    name: basename(dest),
    databasePath,
    parallel: 1,
    linksUsed: () => false,
    hasObject: async () => false,
    md5OfObject: async () => "",
    async putObject(id, from, expected, signal) {
      const got = await add(`objects/${id.slice(0, 2)}/${id}`, from, "md5", signal);
      checkObject(from, expected, got); // the archive is abandoned: it never gets its manifest
      return { md5: got.digest, linked: false };
    },
    async putDatabase(): Promise<FileEntry> {
      const { size, digest } = await add(DATABASE_FILE, databasePath, "sha256");
      await rm(databasePath, { force: true });
      return { path: DATABASE_FILE, size, sha256: digest };
    },
    async putFile(path, from) {
      const { size, digest } = await add(path, from, "sha256");
      return { path, size, sha256: digest };
    },
    async commit(manifest: Manifest) {
      const text = Buffer.from(serializeManifest(manifest));
      await addEntry(pack, failed, MANIFEST_FILE, text.byteLength, [text], mtime);
      pack.finalize();
      await finished;
      const handle = await open(temporary, "r");
      await handle.sync().finally(() => handle.close());
      await rename(temporary, dest);
      await syncDir(dirname(dest));
      return dest;
    },
    async abort() {
      pack.destroy();
      await finished.catch(() => {});
      await rm(temporary, { force: true });
      await rm(databasePath, { force: true });
    },
  };
}

export interface ArchiveEntry {
  name: string;
  size: number;
  /** The entry's bytes; read each entry to its end before asking for the next. */
  chunks: AsyncIterable<Uint8Array>;
}

/** The manifest entry of the archive at `path`, read whole (bytes joined before decoding: a character may span chunks) and parsed. */
export async function readManifestEntry(entry: ArchiveEntry, path: string): Promise<Manifest> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of entry.chunks) chunks.push(chunk);
  return parseManifest(Buffer.concat(chunks).toString("utf8"), `${path}: ${MANIFEST_FILE}`);
}

/** The entries of a backup archive, in order, decompressed as they are read; `onRead` counts the archive's bytes. */
export async function* readArchive(path: string, kind: ArchiveKind, onRead?: (bytes: number) => void): AsyncGenerator<ArchiveEntry> {
  const extract = tar().extract();
  const input = createReadStream(path, { highWaterMark: BLOCK });
  if (onRead) input.on("data", (chunk) => onRead(chunk.length));
  const done = pipeline(input, kind === "zst" ? createZstdDecompress() : createGunzip(), extract);
  done.catch((error) => extract.destroy(error));
  for await (const entry of extract) {
    if (entry.header.type !== "file") continue;
    yield { name: entry.header.name, size: entry.header.size ?? 0, chunks: entry as AsyncIterable<Uint8Array> };
  }
  await done;
}
