// Byte-level access to vocabulary dump files shared by the importers: progress counting, gzip, lines, tar members.
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { Readable, pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import type * as TarStream from "tar-stream";
import { lazy } from "../../core/lazy";

/** tar-stream, loaded by the first import of a tar dump. */
const tar = lazy(() => require("tar-stream") as typeof TarStream);

/** Called as a dump is read: bytes of the file(s) on disk consumed so far, and their total size. */
export type Progress = (bytesRead: number, totalBytes: number) => void;

/** Accumulates bytes read and reports them; the importers share one per import so totals span several files. */
export function progressCounter(totalBytes: number, onProgress?: Progress): (n: number) => void {
  let read = 0;
  return (n) => {
    read += n;
    onProgress?.(read, totalBytes);
  };
}

export async function fileSize(path: string): Promise<number> {
  return (await stat(path)).size;
}

/** The first bytes of a file: formats are told apart by content where extensions lie (.json that is gzipped). */
export async function head(path: string, n = 4): Promise<Uint8Array> {
  const fh = await open(path, "r");
  try {
    const buf = new Uint8Array(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export const isGzip = (b: Uint8Array) => b[0] === 0x1f && b[1] === 0x8b;
export const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

/** Raw file chunks, counted as they are handed on, so progress tracks what has actually been consumed. */
export async function* rawChunks(path: string, count: (n: number) => void): AsyncGenerator<Uint8Array> {
  // 256 KiB reads keep the number of async hops low on multi-gigabyte dumps without holding much.
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      count(chunk.length);
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}

/** Gunzips a chunk stream; a pipeline so a failure on either side ends the other and surfaces to the reader. */
export function gunzip(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return pipeline(Readable.from(source, { objectMode: false }), createGunzip(), () => {});
}

/** A dump file's content, decompressed when it is gzip (by its magic bytes, whatever its name). */
export async function* fileContent(path: string, count: (n: number) => void): AsyncGenerator<Uint8Array> {
  const magic = await head(path);
  const raw = rawChunks(path, count);
  yield* isGzip(magic) ? gunzip(raw) : raw;
}

/** Splits bytes into text lines without keeping more than one partial line. */
export async function* lines(source: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let rest = "";
  let first = true;
  for await (const chunk of source) {
    let text = rest + decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    let start = 0;
    for (let nl = text.indexOf("\n", start); nl >= 0; nl = text.indexOf("\n", start)) {
      yield text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl);
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.decode();
  if (rest.length > 0) yield rest.endsWith("\r") ? rest.slice(0, -1) : rest;
}

export interface TarMember {
  name: string;
  content: AsyncIterable<Uint8Array>;
}

/**
 * Regular-file members of a .tar or .tar.gz, one at a time. A member's content must be read (or
 * left) before asking for the next: tar is sequential, which is what keeps memory flat.
 */
export async function* tarMembers(path: string, count: (n: number) => void): AsyncGenerator<TarMember> {
  const magic = await head(path);
  const raw = rawChunks(path, count);
  const archive = tar().extract();
  const source = Readable.from(isGzip(magic) ? gunzip(raw) : raw, { objectMode: false });
  source.on("error", (err) => archive.destroy(err));
  source.pipe(archive as unknown as NodeJS.WritableStream);
  try {
    for await (const entry of archive) {
      if (entry.header.type === "file" || entry.header.type === "contiguous-file") {
        yield { name: entry.header.name, content: entry as AsyncIterable<Uint8Array> };
      }
      // Whatever the caller left unread is drained, or the extractor would wait on it forever.
      entry.resume();
    }
  } finally {
    source.destroy();
    archive.destroy();
  }
}
