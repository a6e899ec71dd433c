// Reading access requests' input into checked values: the body of `POST /records/{id}/access/request`
// (InvenioRDM's AccessRequestSchema) and the expiry an owner gives when accepting
// (`payload.expires_at`); 400 naming every bad field.
import { validationError, type FieldError } from "../core/errors";
import { DAY_MS } from "../core/time";
import { sanitizeDescription } from "../core/html";
import { readExpiry } from "../access/validate";
import { EMAIL_MAX, FULL_NAME_MAX, MESSAGE_MAX, type AccessRequestInput } from "./model";

/**
 * One address: no spaces, and none of the characters that make a list of them in a mail header
 * (a guest must not get the server to mail several people at once).
 */
const EMAIL = /^[^\s@,;:<>()"\\[\]]+@[^\s@,;:<>()"\\[\]]+$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const typeName = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "a list" : `a ${typeof v}`);

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

/** The end (exclusive, ms) of the UTC day `ms` falls in: access "until 2026-12-22" includes that day. */
const endOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS + DAY_MS;

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
