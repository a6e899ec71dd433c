// ETags and conditional requests.
import { preconditionFailed } from "./errors";

/** A resource ETag from its revision: `"3"`. */
export const revisionEtag = (revisionId: number): string => `"${revisionId}"`;

/** Reads `If-Match` as a revision id: absent -> null; InvenioRDM clients send the bare number or a quoted one. */
export function ifMatchRevision(header: string | null | undefined): number | null {
  if (!header || header.trim() === "*") return null;
  const m = /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(header);
  if (!m) throw preconditionFailed("If-Match must be the revision id of the resource.");
  return Number(m[1]);
}

/** 412 unless the If-Match revision (when sent) is the current one. */
export function checkRevision(header: string | null | undefined, current: number): void {
  const wanted = ifMatchRevision(header);
  if (wanted !== null && wanted !== current) throw preconditionFailed();
}

/** True when `If-None-Match` names the given ETag (or `*`). */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}
