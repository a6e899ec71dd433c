// Grant and secret-link rows -> the API's JSON (InvenioRDM's shapes); a link's token never leaves
// here except in the answer that created it.
import { formatDate, formatIsoTime } from "../core/time";
import type { GrantRow, LinkRow } from "./store";

/** The `YYYY-MM-DD` an expiry ends: stored as the first instant after it (the end of that day, UTC). */
export const expiryDate = (expiresAt: number | null): string | null => (expiresAt === null ? null : formatDate(expiresAt - 1));

export interface GrantJson {
  /** The grant's position among the parent's grants: its id in the API. */
  id: number;
  subject: { type: string; id: string };
  permission: string;
  origin: string;
  message?: string;
  expires_at?: string;
}

export function presentGrant(row: GrantRow, index: number): GrantJson {
  return {
    id: index,
    subject: { type: row.subjectType, id: row.subjectId },
    permission: row.permission,
    origin: row.origin,
    ...(row.message ? { message: row.message } : {}),
    ...(row.expiresAt !== null ? { expires_at: expiryDate(row.expiresAt)! } : {}),
  };
}

export interface LinkJson {
  id: string;
  created_at: string;
  expires_at: string | null;
  permission: string;
  description: string;
  origin: string;
  token?: string;
}

export const presentLink = (row: LinkRow): LinkJson => ({
  id: row.id,
  created_at: formatIsoTime(row.created),
  expires_at: expiryDate(row.expiresAt),
  permission: row.permission,
  description: row.description,
  origin: row.origin,
});

/** A list as InvenioRDM's access endpoints return it. */
export const hitsOf = <T>(items: T[]) => ({ hits: { hits: items, total: items.length } });
