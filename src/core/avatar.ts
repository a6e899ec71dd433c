// Generated SVG avatars of users and groups: a coloured square with initials, its strong ETag,
// and the HTTP response that serves it (conditional requests included).
import { createHash } from "node:crypto";
import { matchesIfNoneMatch } from "./etag";

export interface Avatar {
  svg: string;
  /** Strong ETag over the SVG bytes. */
  etag: string;
}

// Dark enough for white text to keep WCAG AA contrast (4.5:1 or more) on every colour.
const PALETTE = ["#1f6f8b", "#2e7d32", "#6a1b9a", "#ad1457", "#c62828", "#4e342e", "#283593", "#00695c", "#37474f", "#0d47a1", "#bf360c", "#5b2c83"];

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

const firstLetter = (word: string) => /[\p{L}\p{N}]/u.exec(word)?.[0]?.toUpperCase() ?? "";

/** Initials of a name: the first letter of its first word and, when `max` is 2, of its last; "?" when none. */
export function initialsOf(name: string, max: 1 | 2): string {
  const words = name
    .normalize("NFC")
    .split(/\s+/)
    .filter((w) => firstLetter(w));
  if (words.length === 0) return "?";
  const first = firstLetter(words[0]!);
  return max === 2 && words.length > 1 ? first + firstLetter(words.at(-1)!) : first;
}

/** The avatar for `seed` (a stable id: it picks the colour, so a rename keeps it) showing `label`. */
export function renderAvatar(seed: string, label: string): Avatar {
  const colour = PALETTE[createHash("sha256").update(seed).digest().readUInt32BE(0) % PALETTE.length]!;
  const text = escapeXml(label);
  const fontSize = [...label].length > 1 ? 40 : 50;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100" role="img" aria-label="${text}">` +
    `<rect width="100" height="100" fill="${colour}"/>` +
    `<text x="50" y="50" dy="0.35em" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="${fontSize}" fill="#ffffff">${text}</text>` +
    `</svg>`;
  return { svg, etag: `"${createHash("sha256").update(svg).digest("hex").slice(0, 32)}"` };
}

/**
 * The avatar as an HTTP response: 304 without a body when `If-None-Match` names its ETag.
 * `private` when what is served depends on who asks (user profiles), so shared caches keep none.
 */
export function avatarResponse(avatar: Avatar, ifNoneMatch: string | null, cache: "public" | "private"): Response {
  const headers: Record<string, string> = {
    ETag: avatar.etag,
    // An hour of freshness, then a cheap revalidation by ETag: names change rarely.
    "Cache-Control": `${cache}, max-age=3600`,
  };
  if (matchesIfNoneMatch(ifNoneMatch, avatar.etag)) return new Response(null, { status: 304, headers });
  return new Response(avatar.svg, {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Content-Disposition": "inline; filename=avatar.svg",
      "X-Content-Type-Options": "nosniff",
      // The SVG holds no script or reference; opened on its own it may not load any.
      "Content-Security-Policy": "default-src 'none'",
    },
  });
}
