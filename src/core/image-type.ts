// Image types told from a file's first bytes, never from a name or a header: community logos and
// the site's THEME_LOGO accept only what this recognises.
import { closeSync, openSync, readSync, statSync } from "node:fs";

/** How many leading bytes the sniffer reads: enough for an SVG's XML declaration, doctype and comments. */
export const HEAD_BYTES = 4096;

const startsWith = (head: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

/** The image type of a file's first bytes, or null when it is none of the accepted ones. */
export function sniffImageType(head: Uint8Array): string | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) return "image/gif";
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return "image/webp";
  if (isSvg(head)) return "image/svg+xml";
  return null;
}

/** An SVG document: UTF-8 text whose first element, after the prolog, is `<svg`. */
function isSvg(head: Uint8Array): boolean {
  let text: string;
  try {
    // A character cut at the end of the head is not an error: at most 3 bytes are dropped.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(head.length >= HEAD_BYTES ? head.subarray(0, head.length - 3) : head);
  } catch {
    return false;
  }
  const prolog = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*<svg[\s>/]/i;
  return prolog.test(text.replace(/^\uFEFF/, ""));
}

const TYPE_NAMES: Record<string, string> = { "image/png": "PNG", "image/svg+xml": "SVG", "image/jpeg": "JPEG", "image/webp": "WebP", "image/gif": "GIF" };

/** What is wrong with an image file on disk (missing, not a file, over `maxBytes`, not one of `accepted`), or null. */
export function imageFileProblem(path: string, accepted: string[], maxBytes: number): string | null {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return `${path} is not a file`;
    size = stat.size;
  } catch {
    return `${path} does not exist or cannot be read`;
  }
  if (size > maxBytes) return `${path} is ${size} bytes, more than the ${maxBytes} allowed`;
  const head = new Uint8Array(Math.min(size, HEAD_BYTES));
  const fd = openSync(path, "r");
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const type = sniffImageType(head);
  const names = accepted.map((t) => TYPE_NAMES[t] ?? t);
  return type && accepted.includes(type) ? null : `${path} is not a ${names.slice(0, -1).join(", ")} or ${names.at(-1)} image`;
}
