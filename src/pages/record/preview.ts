// Inline previews of a record's files: which types are previewed and how (images, PDF in the
// browser's own viewer, the start of text files), reading the start of a text file, and the
// preview route's answer — the same bytes the files service sends, shown inline instead of saved.
import type { Actor } from "../../core/actor";
import { badRequest, notFound } from "../../core/errors";
import type { ContentRequest } from "../../files/download";
import type { PageServices } from "../services";
import { readTablePreview, tableDelimiter, type TablePreview } from "./table-preview";

export type PreviewKind = "image" | "pdf" | "text" | "table";

/** What the page reads of a text or table file before rendering its open preview. */
export type PreviewStart = { kind: "text"; text: string; truncated: boolean } | { kind: "table"; table: TablePreview };

/** Bytes of a text file shown on the page. */
export const TEXT_PREVIEW_BYTES = 64 * 1024;

// Raster images only: an SVG is a document that can carry scripts.
const IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"]);
const TEXTS = new Set(["application/json", "application/xml", "application/x-yaml", "application/yaml", "application/x-tex", "application/x-sh", "application/x-python"]);

/** How a file of this media type is previewed; null when it is not. */
export function previewKind(mimetype: unknown): PreviewKind | null {
  if (typeof mimetype !== "string") return null;
  const type = mimetype.split(";")[0]!.trim().toLowerCase();
  if (IMAGES.has(type)) return "image";
  if (type === "application/pdf") return "pdf";
  // CSV and TSV as tables (the preview route still sends their text).
  if (tableDelimiter(type)) return "table";
  if (type.startsWith("text/") || TEXTS.has(type) || type.endsWith("+json") || type.endsWith("+xml")) return "text";
  return null;
}

/** Previews are no downloads: no visitor is given, so statistics count only the download links. */
const PREVIEWER = null;

const plainRequest = (range: string | null): ContentRequest => ({ head: false, range, ifRange: null, ifNoneMatch: null, ifModifiedSince: null });

/** The first 64 KB of a text file as text (invalid UTF-8 shown as U+FFFD), and whether there is more. */
export async function readTextStart(
  files: PageServices["files"],
  actor: Actor,
  id: string,
  isDraft: boolean,
  key: string,
  size: number,
): Promise<{ text: string; truncated: boolean }> {
  if (size <= 0) return { text: "", truncated: false };
  const response = await files.content(actor, id, isDraft, key, plainRequest(`bytes=0-${TEXT_PREVIEW_BYTES - 1}`), PREVIEWER);
  const text = new TextDecoder().decode(await response.arrayBuffer());
  return { text, truncated: size > TEXT_PREVIEW_BYTES };
}

/** The start of a text or table file as the page shows it in its preview. */
export async function readPreviewStart(
  files: PageServices["files"],
  actor: Actor,
  id: string,
  isDraft: boolean,
  row: { key: string; size: number; mimetype: string },
): Promise<PreviewStart> {
  const delimiter = tableDelimiter(row.mimetype);
  if (delimiter) return { kind: "table", table: await readTablePreview(files, actor, id, isDraft, row.key, delimiter) };
  return { kind: "text", ...(await readTextStart(files, actor, id, isDraft, row.key, row.size)) };
}

// Uploaded content never runs as a page of this site: images and text are sandboxed like the
// content route's answers. Chrome's PDF viewer does not run in a sandboxed document, so a PDF
// gets a policy that loads nothing and runs nothing (the viewer is the browser's own), framed by
// this site only.
const POLICIES: Record<PreviewKind, string> = {
  image: "default-src 'none'; sandbox",
  text: "default-src 'none'; sandbox",
  table: "default-src 'none'; sandbox",
  pdf: "default-src 'none'; frame-ancestors 'self'",
};

/** Reads `a%20b/c.csv` (the route's wildcard, percent-encoded) as a file key; 400 when it is not valid UTF-8. */
export function keyOfPath(raw: string): string {
  try {
    return raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw badRequest("The file key is not valid percent-encoded UTF-8.");
  }
}

/**
 * `GET /records/{id}/preview/{key}`: the file's content response (ranges and conditional
 * requests as the files service answers them) with `Content-Disposition: inline` and the policy
 * of its kind; text is sent as text/plain, so no browser renders it as a page. 404 for other types.
 */
export async function previewResponse(files: PageServices["files"], actor: Actor, id: string, isDraft: boolean, key: string, request: ContentRequest): Promise<Response> {
  files.checkKey(key);
  // The entry's type, not the answer's: several ranges are answered as multipart/byteranges.
  const kind = previewKind(((await files.readFile(actor, id, isDraft, key)) as { mimetype?: unknown }).mimetype);
  if (!kind) throw notFound(`The file '${key}' has no preview: download it instead.`);
  const response = await files.content(actor, id, isDraft, key, request, PREVIEWER);
  const headers = new Headers(response.headers);
  headers.set("Content-Disposition", "inline");
  headers.set("Content-Security-Policy", POLICIES[kind]);
  if ((kind === "text" || kind === "table") && !headers.get("content-type")?.startsWith("multipart/")) headers.set("Content-Type", "text/plain; charset=utf-8");
  if (kind === "pdf") headers.set("X-Frame-Options", "SAMEORIGIN");
  return new Response(response.body, { status: response.status, headers });
}
