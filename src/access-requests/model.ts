// Access requests' wire shapes: the body of `POST /records/{id}/access/request` (InvenioRDM's
// AccessRequestSchema) read into checked values, the payload both request types keep,
// and the expiry an owner gives when accepting (`payload.expires_at`).
import { validationError, type FieldError } from "../core/errors";
import { DAY_MS } from "../core/time";
import { readExpiry } from "../access/model";
import { sanitizeDescription } from "../core/html";

export const EMAIL_MAX = 254;
export const FULL_NAME_MAX = 255;
/** The message, after sanitising (it becomes the request's first comment). */
export const MESSAGE_MAX = 10_000;

/**
 * One address: no spaces, and none of the characters that make a list of them in a mail header
 * (a guest must not get the server to mail several people at once).
 */
const EMAIL = /^[^\s@,;:<>()"\\[\]]+@[^\s@,;:<>()"\\[\]]+$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const typeName = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "a list" : `a ${typeof v}`);

export interface AccessRequestInput {
  permission: "view";
  /** As typed (trimmed); compared and stored lower-cased. */
  email: string;
  fullName: string;
  /** Sanitised HTML; "" without one. */
  message: string;
  consent: boolean;
}

/** Reads the body; 400 naming every bad field. Unknown members are ignored, as in the other bodies. */
export function readAccessRequestBody(body: unknown): AccessRequestInput {
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  const errors: FieldError[] = [];
  const bad = (field: string, message: string) => errors.push({ field, messages: [message] });
  const text = (field: string, max: number, required: boolean): string => {
    const value = body[field];
    if (value === undefined || value === null) {
      if (required) bad(field, "Missing data for required field.");
      return "";
    }
    if (typeof value !== "string") {
      bad(field, `Must be a string, not ${typeName(value)}.`);
      return "";
    }
    if (value.trim().length > max) bad(field, `At most ${max} characters.`);
    return value.trim();
  };

  if (body.permission === undefined || body.permission === null) bad("permission", "Missing data for required field.");
  else if (body.permission !== "view") bad("permission", "Must be one of: view.");
  const email = text("email", EMAIL_MAX, true);
  if (!email && typeof body.email === "string") bad("email", "Missing data for required field.");
  if (email && email.length <= EMAIL_MAX && !EMAIL.test(email)) bad("email", "Not a valid e-mail address.");
  const fullName = text("full_name", FULL_NAME_MAX, false);
  const raw = text("message", Number.MAX_SAFE_INTEGER, false);
  const message = raw ? sanitizeDescription(raw) : "";
  if (message.length > MESSAGE_MAX) bad("message", `At most ${MESSAGE_MAX} characters.`);
  const consentRaw = body.consent_to_share_personal_data;
  let consent = false;
  // InvenioRDM sends the checkbox as the strings "true"/"false"; a JSON boolean means the same.
  if (consentRaw === "true" || consentRaw === true) consent = true;
  else if (consentRaw !== undefined && consentRaw !== null && consentRaw !== "false" && consentRaw !== false) bad("consent_to_share_personal_data", 'Must be "true" or "false".');
  if (errors.length) throw validationError(errors);
  return { permission: "view", email, fullName, message, consent };
}

/** The two request types (request-types.ts), as InvenioRDM names them. */
export const USER_ACCESS_REQUEST = "user-access-request";
export const GUEST_ACCESS_REQUEST = "guest-access-request";

/** What a user- or guest-access-request keeps in its payload (not shown in the request JSON). */
export interface AccessRequestPayload {
  permission: "view";
  email: string;
  full_name: string;
  /** The message as plain HTML; it is also the first comment. */
  message: string;
  consent_to_share_personal_data: "true" | "false";
  /** The record's default expiry when the request was made (days; 0: none), counted from acceptance. */
  secret_link_expiration: number;
  record_title: string;
  /** The record's page and API URL, for the mail the requester gets on acceptance. */
  record_url: string;
  record_api_url: string;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** The payload as the request types read it back (tolerant: a field the row lacks reads as empty). */
export function payloadOf(payload: Record<string, unknown>): AccessRequestPayload {
  const days = payload.secret_link_expiration;
  return {
    permission: "view",
    email: str(payload.email),
    full_name: str(payload.full_name),
    message: str(payload.message),
    consent_to_share_personal_data: payload.consent_to_share_personal_data === "true" ? "true" : "false",
    secret_link_expiration: typeof days === "number" && Number.isInteger(days) && days > 0 ? days : 0,
    record_title: str(payload.record_title),
    record_url: str(payload.record_url),
    record_api_url: str(payload.record_api_url),
  };
}

/** The end (exclusive, ms) of the UTC day `ms` falls in: access "until 2026-12-22" includes that day. */
export const endOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS + DAY_MS;

/**
 * When the access given on acceptance ends (ms; null: never). The owner's `payload.expires_at`:
 * a date after today (the access ends with that day, UTC, as grants' and links' dates do) or null
 * for no end; without it the request's default days, counted from acceptance. 400 otherwise.
 */
export function accessExpiry(input: Record<string, unknown>, defaultDays: number, now: number): number | null {
  const value = input.expires_at;
  if (value === undefined) return defaultDays > 0 ? endOfDay(now + defaultDays * DAY_MS) : null;
  const errors: FieldError[] = [];
  const expiresAt = readExpiry(typeof value === "string" ? value.trim() : value, "payload.expires_at", now, errors);
  if (expiresAt === undefined) throw validationError(errors);
  return expiresAt;
}
