// The record's `custom_fields`: InvenioRDM's contrib journal, imprint, meeting and thesis fields.
//
// InvenioRDM ships these as optional custom fields (RDM_CUSTOM_FIELDS); Cairn enables the four
// that its exports (BibTeX, CSL, DataCite, MARC) read. Every sub-field is free text.
import type { FieldError } from "../../core/errors";
import { type Ctx, type Obj, UNKNOWN_FIELD, checkKeys, fail, isWebUrl, put, readObject, readString } from "./fields";

/** Sub-fields of each nested custom field; `null` marks a plain text field. */
export const CUSTOM_FIELDS: Record<string, readonly string[] | null> = {
  "journal:journal": ["title", "volume", "issue", "pages", "issn"],
  "imprint:imprint": ["title", "isbn", "pages", "place", "edition"],
  "meeting:meeting": ["title", "acronym", "dates", "place", "session", "session_part", "url"],
  "thesis:university": null,
};

function readNested(ctx: Ctx, value: unknown, field: string, subfields: readonly string[]): Obj | undefined {
  const obj = readObject(ctx, value, field);
  if (!obj) return undefined;
  checkKeys(ctx, obj, field, subfields);
  const out: Obj = {};
  for (const key of subfields) put(out, key, readString(ctx, obj[key], `${field}.${key}`));
  // MeetingCF validates its url; the other sub-fields are free text in InvenioRDM.
  if (typeof out.url === "string" && out.url !== "" && !isWebUrl(out.url)) fail(ctx, `${field}.url`, "Not a valid URL.");
  return out;
}

/**
 * Checks `custom_fields` and returns what to store: known keys with their string sub-fields
 * (trimmed); unknown keys and wrong shapes are errors naming `custom_fields.<key>` and are left out.
 */
export function checkCustomFields(value: unknown, errors: FieldError[]): Obj {
  // Custom fields never reference vocabularies, so no lookup is needed.
  const ctx: Ctx = { lookup: () => null, errors, unknownIds: [] };
  const obj = readObject(ctx, value, "custom_fields");
  if (!obj) return {};
  const out: Obj = {};
  for (const [key, item] of Object.entries(obj)) {
    const field = `custom_fields.${key}`;
    // Own keys only: `in` would take "constructor" or "toString" for a custom field.
    if (!Object.hasOwn(CUSTOM_FIELDS, key)) {
      fail(ctx, field, UNKNOWN_FIELD);
      continue;
    }
    const subfields = CUSTOM_FIELDS[key];
    put(out, key, subfields ? readNested(ctx, item, field, subfields) : readString(ctx, item, field));
  }
  return out;
}
