// The access part of a draft or record: visibility of the record and its files, embargoes, and
// the computed access.status (InvenioRDM's open / embargoed / restricted / metadata-only).
import type { FieldError } from "../core/errors";

export type Visibility = "public" | "restricted";

export interface Access {
  record: Visibility;
  files: Visibility;
  embargo: { active: boolean; until: string | null; reason: string | null };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const visibility = (v: unknown): v is Visibility => v === "public" || v === "restricted";

function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** Reads `access` as sent (defaults public/public, no embargo), collecting problems. */
export function normalizeAccess(input: unknown, errors: FieldError[], allowRestricted: boolean): Access {
  const access: Access = { record: "public", files: "public", embargo: { active: false, until: null, reason: null } };
  if (input === undefined || input === null) return access;
  if (!isObject(input)) {
    errors.push({ field: "access", messages: ["Must be an object."] });
    return access;
  }
  for (const key of ["record", "files"] as const) {
    if (input[key] === undefined) continue;
    if (visibility(input[key])) access[key] = input[key];
    else errors.push({ field: `access.${key}`, messages: ["Must be one of: public, restricted."] });
  }
  if (!allowRestricted && access.record === "restricted") {
    errors.push({ field: "access.record", messages: ["Restricted records are not allowed on this repository."] });
  }
  const embargo = input.embargo;
  if (embargo !== undefined && embargo !== null) {
    if (!isObject(embargo)) {
      errors.push({ field: "access.embargo", messages: ["Must be an object."] });
    } else {
      access.embargo.active = embargo.active === true;
      access.embargo.reason = typeof embargo.reason === "string" && embargo.reason ? embargo.reason : null;
      if (typeof embargo.until === "string" && embargo.until) {
        if (isCalendarDate(embargo.until)) access.embargo.until = embargo.until;
        else errors.push({ field: "access.embargo.until", messages: ["Not a valid date (YYYY-MM-DD)."] });
      }
      if (access.embargo.active && !access.embargo.until && !errors.some((e) => e.field === "access.embargo.until")) {
        errors.push({ field: "access.embargo.until", messages: ["An active embargo needs an end date."] });
      }
      if (access.embargo.active && access.record === "public" && access.files === "public") {
        errors.push({ field: "access.embargo", messages: ["An embargo applies to a restricted record or restricted files."] });
      }
    }
  }
  return access;
}

/** 400 at publish for an embargo that has already ended: it would be lifted at once. */
export function checkEmbargoInFuture(access: Access, today: string, errors: FieldError[]) {
  if (access.embargo.active && access.embargo.until && access.embargo.until <= today) {
    errors.push({ field: "access.embargo.until", messages: ["The embargo end date must be in the future."] });
  }
}

export function accessStatus(access: Access, filesEnabled: boolean): "open" | "embargoed" | "restricted" | "metadata-only" {
  if (access.embargo.active) return "embargoed";
  if (access.record === "restricted" || access.files === "restricted") return "restricted";
  if (!filesEnabled) return "metadata-only";
  return "open";
}

/** The access after an embargo ends: kept for transparency but inactive, record and files public. */
export const liftedAccess = (access: Access): Access => ({ record: "public", files: "public", embargo: { ...access.embargo, active: false } });
