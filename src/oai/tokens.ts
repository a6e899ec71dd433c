// OAI-PMH resumption tokens: the list's whole state (filters, position, cursor, size, expiry)
// encoded in the token and signed with a key kept in the database. Nothing is stored per token,
// so harvests never write, expired tokens need no clean-up, and tokens outlive a restart.
import { createHmac, timingSafeEqual } from "node:crypto";

export type ListVerb = "ListRecords" | "ListIdentifiers" | "ListSets";

export interface ListState {
  verb: ListVerb;
  /** metadataPrefix of record lists. */
  prefix?: string;
  set?: string;
  /** Inclusive lower bound of datestamps (ms). */
  from?: number;
  /** Exclusive upper bound (ms), fixed at the first request so the list does not grow under the harvester. */
  until?: number;
  /** Last item returned: (datestamp ms, record id) for records; for sets, the number of sets returned. */
  after?: [number, string] | number;
  /** Items returned before the next page (OAI `cursor`). */
  cursor: number;
  /** OAI `completeListSize`, counted at the first request. */
  total: number;
  /** Expiry (ms). */
  expires: number;
}

const SIGNATURE_LENGTH = 22; // 128 bits of HMAC-SHA256 in base64url

function sign(key: string, payload: string): string {
  return createHmac("sha256", key).update(payload).digest("base64url").slice(0, SIGNATURE_LENGTH);
}

export function encodeToken(key: string, state: ListState): string {
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url");
  return `${payload}.${sign(key, payload)}`;
}

const isVerb = (v: unknown): v is ListVerb => v === "ListRecords" || v === "ListIdentifiers" || v === "ListSets";
const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const optional = (v: unknown, check: (x: unknown) => boolean) => v === undefined || check(v);

function isState(v: any): v is ListState {
  if (!v || typeof v !== "object" || !isVerb(v.verb) || !isInt(v.cursor) || !isInt(v.total) || !isInt(v.expires)) return false;
  const after = v.after === undefined || isInt(v.after) || (Array.isArray(v.after) && v.after.length === 2 && isInt(v.after[0]) && typeof v.after[1] === "string");
  return after && optional(v.prefix, (x) => typeof x === "string") && optional(v.set, (x) => typeof x === "string") && optional(v.from, isInt) && optional(v.until, isInt);
}

/** The state of a token signed with one of `keys`, or why it is refused. */
export function decodeToken(keys: string[], token: string, now: number): { state: ListState } | { problem: string } {
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length) return { problem: "The resumptionToken is not one this repository issued." };
  const valid = keys.some((key) => {
    const expected = Buffer.from(sign(key, payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!valid) return { problem: "The resumptionToken is not one this repository issued." };
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { problem: "The resumptionToken is malformed." };
  }
  if (!isState(state)) return { problem: "The resumptionToken is malformed." };
  if (state.expires <= now) return { problem: "The resumptionToken has expired; start the list again." };
  return { state };
}
