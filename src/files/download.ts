// File content responses: the spec's headers, conditional requests (304), HEAD, and Range
// requests (206, one range or several as multipart/byteranges; 416 when none is satisfiable), or a
// redirect to a presigned object-storage URL when the store gives one.
import { HttpError } from "../core/errors";
import { matchesIfNoneMatch } from "../core/etag";
import type { ObjectBody } from "../storage/file-store";

export interface Download {
  /** The bytes, whole or one range (from the file store). */
  open(range?: ByteRange): ObjectBody;
  /** A URL the client fetches the bytes from itself (a presigned object-storage URL), or null to send them. */
  redirect?(): string | null;
  key: string;
  size: number;
  /** `md5:<hex>` */
  checksum: string;
  mimetype: string;
  lastModified: number;
}

/** What a content request asks, read from its method and headers by the route. */
export interface ContentRequest {
  /** HEAD (or the GET that answers one): headers only, no bytes sent. */
  head: boolean;
  range: string | null;
  ifRange: string | null;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
}

type ByteRange = { start: number; end: number };

const MAX_MULTIRANGE_BYTES = 64 * 1024 * 1024;

/** RFC 9110 byte ranges; null means "serve the whole file" (no header, or one we ignore). */
export function parseRange(header: string | null, size: number): ByteRange[] | "unsatisfiable" | null {
  if (!header) return null;
  const m = /^bytes=(.+)$/i.exec(header.trim());
  if (!m) return null;
  const ranges: ByteRange[] = [];
  for (const spec of m[1]!.split(",")) {
    const r = /^\s*(\d*)-(\d*)\s*$/.exec(spec);
    if (!r || (r[1] === "" && r[2] === "")) return null;
    if (r[1] === "") {
      const suffix = Number(r[2]);
      if (suffix === 0) continue;
      ranges.push({ start: Math.max(0, size - suffix), end: size - 1 });
    } else {
      const start = Number(r[1]);
      const end = r[2] === "" ? size - 1 : Math.min(Number(r[2]), size - 1);
      if (r[2] !== "" && Number(r[2]) < start) return null;
      if (start >= size) continue;
      ranges.push({ start, end });
    }
  }
  return ranges.length ? ranges : "unsatisfiable";
}

function contentDisposition(key: string, plainWhenAscii = false) {
  const name = key.slice(key.lastIndexOf("/") + 1);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  if (plainWhenAscii && ascii === name) return `attachment; filename="${name}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The header a presigned URL asks the object store to send: the plain form when the name is printable ASCII (RFC 6266 needs no more). */
export const presignedDisposition = (key: string) => contentDisposition(key, true);

/** Base64 of the MD5 (Content-MD5 is base64 by RFC 1864). */
const contentMd5 = (checksum: string) => Buffer.from(checksum.replace(/^md5:/, ""), "hex").toString("base64");

function notModified(request: ContentRequest, etag: string, lastModified: number) {
  if (request.ifNoneMatch !== null) return matchesIfNoneMatch(request.ifNoneMatch, etag);
  const ims = request.ifModifiedSince;
  if (ims) {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && Math.floor(lastModified / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** A range is honoured unless If-Range names another version of the file. */
function ifRangeHolds(request: ContentRequest, etag: string, lastModified: number) {
  const ifRange = request.ifRange;
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith("W/")) return ifRange === etag;
  const at = Date.parse(ifRange);
  return !Number.isNaN(at) && Math.floor(lastModified / 1000) <= Math.floor(at / 1000);
}

/** The response for GET or HEAD of a file's content; `onBytes` is told how much is sent (statistics). */
export function downloadResponse(request: ContentRequest, file: Download, onBytes?: (bytes: number, firstRange: boolean) => void): Response {
  const etag = `"${file.checksum}"`;
  const headers = new Headers({
    "Content-Disposition": contentDisposition(file.key),
    "Content-Type": file.mimetype,
    "Content-MD5": contentMd5(file.checksum),
    ETag: etag,
    "Last-Modified": new Date(file.lastModified).toUTCString(),
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, no-cache",
    // Uploaded content is never run as a page of this site.
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "X-Content-Type-Options": "nosniff",
  });
  if (notModified(request, etag, file.lastModified)) return new Response(null, { status: 304, headers });
  const head = request.head;
  const ranges = ifRangeHolds(request, etag, file.lastModified) ? parseRange(request.range, file.size) : null;
  if (ranges === "unsatisfiable") {
    throw new HttpError(416, `The requested range is outside the file's ${file.size} bytes.`, undefined, { "Content-Range": `bytes */${file.size}` });
  }
  // Presigned: the client takes the bytes (and its one Range) to the object store; counted as sent.
  // Several ranges stay here: S3 answers only one range per GET.
  const location = head || (ranges && ranges.length > 1) ? null : (file.redirect?.() ?? null);
  if (location) {
    const sent = ranges ? ranges.reduce((n, r) => n + r.end - r.start + 1, 0) : file.size;
    onBytes?.(sent, !ranges || ranges[0]!.start === 0);
    return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });
  }
  if (!ranges) {
    headers.set("Content-Length", String(file.size));
    if (!head) onBytes?.(file.size, true);
    return new Response(head ? null : file.open(), { status: 200, headers });
  }
  if (ranges.length === 1) {
    const { start, end } = ranges[0]!;
    headers.set("Content-Range", `bytes ${start}-${end}/${file.size}`);
    headers.set("Content-Length", String(end - start + 1));
    if (!head) onBytes?.(end - start + 1, start === 0);
    return new Response(head ? null : file.open({ start, end }), { status: 206, headers });
  }
  // Several ranges are assembled in one body: only for small ones (resume points, index reads).
  if (ranges.reduce((n, r) => n + r.end - r.start + 1, 0) > MAX_MULTIRANGE_BYTES) {
    headers.set("Content-Length", String(file.size));
    if (!head) onBytes?.(file.size, true);
    return new Response(head ? null : file.open(), { status: 200, headers });
  }
  return multipartRanges(file, ranges, headers, head, onBytes);
}

function multipartRanges(file: Download, ranges: ByteRange[], headers: Headers, head: boolean, onBytes?: (bytes: number, firstRange: boolean) => void) {
  const boundary = `cairn-${crypto.randomUUID()}`;
  const encoder = new TextEncoder();
  const partHead = (r: ByteRange) => encoder.encode(`\r\n--${boundary}\r\nContent-Type: ${file.mimetype}\r\nContent-Range: bytes ${r.start}-${r.end}/${file.size}\r\n\r\n`);
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const length = ranges.reduce((n, r) => n + partHead(r).byteLength + r.end - r.start + 1, tail.byteLength);
  async function* body() {
    for (const r of ranges) {
      yield partHead(r);
      yield new Uint8Array(await new Response(file.open(r)).arrayBuffer());
    }
    yield tail;
  }
  headers.set("Content-Type", `multipart/byteranges; boundary=${boundary}`);
  headers.set("Content-Length", String(length));
  if (!head)
    onBytes?.(
      ranges.reduce((n, r) => n + r.end - r.start + 1, 0),
      ranges[0]!.start === 0,
    );
  return new Response(head ? null : (body() as unknown as ReadableStream<Uint8Array>), { status: 206, headers });
}
