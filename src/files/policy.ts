// Who may touch which files is decided by the records module (it owns drafts and records); this
// file holds the files' own rules: what a draft's files may still undergo, and which hosts a
// fetched file may come from.
import { isIP } from "node:net";
import { lookup } from "node:dns/promises";
import { badRequest, forbidden } from "../core/errors";

/** What the records module tells the files module about a draft or record it may work on. */
export interface FileTarget {
  settings: { enabled: boolean; default_preview: string | null; order: string[] };
  /** The draft edits a published record: its files are those of the record and cannot change. */
  locked: boolean;
  parentId: string;
  /** Last change of the record (for Last-Modified of archives). */
  updated: number;
}

/** A published record's files are never written (InvenioRDM's Disable): 403, whoever asks. */
export function refusePublishedWrite(): never {
  throw forbidden(
    "The files of a published record cannot be changed: edit the record (POST /api/records/{id}/draft) for its metadata, or publish a new version to change its files.",
  );
}

export function requireUnlocked(target: FileTarget) {
  if (target.locked) throw forbidden("The files of a published record cannot be changed in an edit: start a new version to change them.");
}

export function requireFilesEnabled(target: FileTarget) {
  if (!target.settings.enabled) throw badRequest("Files are not enabled on this draft: set files.enabled to true first.");
}

/** `host` is one of the allowed domains exactly, or a subdomain of one. */
export function matchAllowedDomain(host: string, allowed: string[]): "exact" | "subdomain" | null {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  for (const d of allowed.map((a) => a.toLowerCase())) if (h === d) return "exact";
  for (const d of allowed.map((a) => a.toLowerCase())) if (h.endsWith(`.${d}`)) return "subdomain";
  return null;
}

/** Loopback, private, link-local and other non-public addresses (IPv4 and IPv6). */
export function isPrivateAddress(address: string): boolean {
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  if (isIP(v4) === 4) {
    const [a = 0, b = 0] = v4.split(".").map(Number);
    return (
      a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b < 128) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168) || a >= 224
    );
  }
  const v6 = address.toLowerCase();
  return (
    v6 === "::" ||
    v6 === "::1" ||
    v6.startsWith("fc") ||
    v6.startsWith("fd") ||
    v6.startsWith("fe8") ||
    v6.startsWith("fe9") ||
    v6.startsWith("fea") ||
    v6.startsWith("feb") ||
    v6.startsWith("ff")
  );
}

/**
 * Refuses a fetch URL unless its host is trusted: listed exactly (then any address, so an
 * administrator can trust an intranet host), or a subdomain of a listed domain that resolves only
 * to public addresses. Returns the reason, or null when allowed.
 */
export async function fetchRefusal(url: string, allowed: string[], resolve = defaultResolve): Promise<string | null> {
  if (!URL.canParse(url)) return "The URL is not valid.";
  const u = new URL(url);
  if (u.protocol !== "http:" && u.protocol !== "https:") return "Only http and https URLs can be fetched.";
  const match = matchAllowedDomain(u.hostname, allowed);
  if (!match) return `The host '${u.hostname}' is not in the trusted domains (RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS).`;
  if (match === "exact") return null;
  const addresses = isIP(u.hostname.replace(/^\[|\]$/g, "")) ? [u.hostname.replace(/^\[|\]$/g, "")] : await resolve(u.hostname);
  if (addresses.length === 0) return `The host '${u.hostname}' does not resolve.`;
  if (addresses.some(isPrivateAddress)) return `The host '${u.hostname}' resolves to a private or loopback address; list it exactly to allow it.`;
  return null;
}

async function defaultResolve(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return [];
  }
}
