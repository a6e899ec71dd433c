// Reading the grants and secret-links bodies field by field into typed inputs (400 with every
// problem), expiry dates read against the injected clock.
import { validationError, type FieldError } from "../core/errors";
import { DAY_MS, formatDate } from "../core/time";
import { PERMISSIONS } from "./directory";
import { LINK_PERMISSIONS, MAX_DESCRIPTION_LENGTH, MAX_GRANTS_PER_CALL, MAX_MESSAGE_LENGTH, SUBJECT_TYPES, type GrantFields, type GrantInput, type LinkInput } from "./model";

const MAX_ID_LENGTH = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const requireObject = (body: unknown): Record<string, unknown> => {
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  return body;
};

const FUTURE_EXPIRY = "Expiration date must be set to the future.";

/**
 * An expiry date (`YYYY-MM-DD`, later than today by `now`) -> the first instant after that day
 * (UTC), when access stops; null clears it; undefined (with a field error) when it is not valid.
 */
export function readExpiry(value: unknown, field: string, now: number, errors: FieldError[]): number | null | undefined {
  if (value === null) return null;
  const m = typeof value === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  const start = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(start) || formatDate(start) !== value) {
    errors.push({ field, messages: ["Not a valid date: use YYYY-MM-DD."] });
    return undefined;
  }
  if (value <= formatDate(now)) {
    errors.push({ field, messages: [FUTURE_EXPIRY] });
    return undefined;
  }
  return start + DAY_MS;
}

function readChoice<T extends string>(value: unknown, choices: readonly T[], field: string, errors: FieldError[]): T | undefined {
  if (typeof value === "string" && (choices as readonly string[]).includes(value)) return value as T;
  errors.push({ field, messages: [value === undefined ? "Missing data for required field." : `Must be one of: ${choices.join(", ")}.`] });
  return undefined;
}

function readText(value: unknown, max: number, field: string, errors: FieldError[]): string | null | undefined {
  if (value === null) return null;
  if (typeof value !== "string") errors.push({ field, messages: ["Not a valid string."] });
  else if (value.length > max) errors.push({ field, messages: [`Longer than maximum length ${max}.`] });
  else return value.trim();
  return undefined;
}

/** The fields of one grant object at `path` (`grants.0.` or ""); subject and permission must be there when `required`. */
function readGrantObject(item: Record<string, unknown>, path: string, now: number, errors: FieldError[], required: boolean) {
  const fields: GrantFields & { subject?: GrantInput["subject"] } = {};
  if (item.subject !== undefined || required) {
    const subject = item.subject;
    if (!isObject(subject)) {
      errors.push({
        field: `${path}subject`,
        messages: [subject === undefined ? "Missing data for required field." : 'Must be an object such as {"type": "user", "id": "<id>"}.'],
      });
    } else {
      const type = readChoice(subject.type, SUBJECT_TYPES, `${path}subject.type`, errors);
      const raw = typeof subject.id === "number" && Number.isInteger(subject.id) ? String(subject.id) : subject.id;
      if (typeof raw !== "string" || !raw.trim() || raw.length > MAX_ID_LENGTH) errors.push({ field: `${path}subject.id`, messages: ["Must be the id of a user or group."] });
      else if (type) fields.subject = { type, id: raw.trim() };
    }
  }
  if (item.permission !== undefined || required) fields.permission = readChoice(item.permission, PERMISSIONS, `${path}permission`, errors);
  if (item.message !== undefined) fields.message = readText(item.message, MAX_MESSAGE_LENGTH, `${path}message`, errors) || null;
  if (item.expires_at !== undefined) fields.expiresAt = readExpiry(item.expires_at, `${path}expires_at`, now, errors);
  if (item.notify !== undefined) {
    if (typeof item.notify === "boolean") fields.notify = item.notify;
    else errors.push({ field: `${path}notify`, messages: ["Not a valid boolean."] });
  }
  // Read-only fields a client sends back as it read them.
  for (const key of Object.keys(item)) {
    if (!["subject", "permission", "message", "expires_at", "notify", "origin", "id"].includes(key))
      errors.push({ field: `${path}${key.slice(0, 100)}`, messages: ["Unknown field."] });
  }
  return fields;
}

/** `{grants: [grant, ...]}` (1 to 100, one per subject) of POST .../access/grants. */
export function readGrantsBody(body: unknown, now: number): GrantInput[] {
  const list = requireObject(body).grants;
  if (!Array.isArray(list)) throw validationError([{ field: "grants", messages: [list === undefined ? "Missing data for required field." : "Must be a list."] }]);
  if (list.length < 1 || list.length > MAX_GRANTS_PER_CALL) throw validationError([{ field: "grants", messages: [`Length must be between 1 and ${MAX_GRANTS_PER_CALL}.`] }]);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const grants = list.map((item, i) => {
    if (!isObject(item)) {
      errors.push({ field: `grants.${i}`, messages: ["Must be an object."] });
      return null;
    }
    const fields = readGrantObject(item, `grants.${i}.`, now, errors, true);
    if (fields.subject) {
      const key = `${fields.subject.type}:${fields.subject.id}`;
      if (seen.has(key)) errors.push({ field: `grants.${i}.subject`, messages: ["The same subject is given twice."] });
      seen.add(key);
    }
    return fields as GrantInput;
  });
  if (errors.length) throw validationError(errors);
  return grants as GrantInput[];
}

/**
 * One grant of PUT (`partial` false: subject and permission required, message and expiry replaced)
 * or PATCH (only what is given changes); PATCH on a subject's grant takes `{permission}` and the like.
 */
export function readGrantUpdate(body: unknown, now: number, partial: boolean): GrantFields & { subject?: GrantInput["subject"] } {
  const errors: FieldError[] = [];
  const fields = readGrantObject(requireObject(body), "", now, errors, !partial);
  if (errors.length) throw validationError(errors);
  if (!partial) return { message: null, expiresAt: null, ...fields };
  return fields;
}

/** `{permission, expires_at?, description?}` of POST .../access/links (`partial` false) or PATCH (`partial` true). */
export function readLinkBody(body: unknown, now: number, partial: boolean): LinkInput {
  const item = requireObject(body);
  const errors: FieldError[] = [];
  const input: LinkInput = {};
  if (item.permission !== undefined || !partial) input.permission = readChoice(item.permission, LINK_PERMISSIONS, "permission", errors);
  if (item.expires_at !== undefined) input.expiresAt = readExpiry(item.expires_at, "expires_at", now, errors);
  if (item.description !== undefined) input.description = readText(item.description, MAX_DESCRIPTION_LENGTH, "description", errors) ?? "";
  for (const key of Object.keys(item)) {
    if (!["permission", "expires_at", "description", "id", "created_at", "origin"].includes(key)) errors.push({ field: key.slice(0, 100), messages: ["Unknown field."] });
  }
  if (errors.length) throw validationError(errors);
  return input;
}
