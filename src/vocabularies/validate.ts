// Checks and normalises vocabulary entries written through the API, per type; errors carry the
// dotted field paths of the spec's validation error body.
import type { FieldError } from "../core/errors";
import type { VocabularyType } from "./model";
import { isSpecificType } from "./kinds";

type Body = Record<string, unknown>;
type Check = (body: Body, errors: FieldError[]) => Body;

const isObject = (v: unknown): v is Body => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v.trim() : undefined);
const fail = (errors: FieldError[], field: string, message: string) => errors.push({ field, messages: [message] });

function requiredString(body: Body, field: string, errors: FieldError[]): string {
  const value = str(body[field]);
  if (!value) fail(errors, field, "Missing data for required field.");
  return value ?? "";
}

function optionalString(body: Body, field: string, errors: FieldError[]): string | undefined {
  if (body[field] === undefined || body[field] === null) return undefined;
  const value = str(body[field]);
  if (value === undefined) fail(errors, field, "Not a valid string.");
  return value || undefined;
}

function localizedMap(value: unknown, field: string, errors: FieldError[], required: boolean): Record<string, string> | undefined {
  if (value === undefined || value === null) {
    if (required) fail(errors, field, "Missing data for required field.");
    return undefined;
  }
  if (!isObject(value) || Object.values(value).some((v) => typeof v !== "string") || (required && Object.keys(value).length === 0)) {
    fail(errors, field, 'Must be an object of language codes to text, e.g. {"en": "..."}.');
    return undefined;
  }
  return value as Record<string, string>;
}

function identifiers(value: unknown, errors: FieldError[]) {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    fail(errors, "identifiers", "Must be a list of {scheme, identifier}.");
    return [];
  }
  return value.map((item, i) => {
    const scheme = isObject(item) ? str(item.scheme) : undefined;
    const identifier = isObject(item) ? str(item.identifier) : undefined;
    if (!scheme) fail(errors, `identifiers.${i}.scheme`, "Missing data for required field.");
    if (!identifier) fail(errors, `identifiers.${i}.identifier`, "Missing data for required field.");
    return { scheme: scheme?.toLowerCase() ?? "", identifier: identifier ?? "" };
  });
}

function country(body: Body, errors: FieldError[]) {
  const value = optionalString(body, "country", errors);
  if (value !== undefined && !/^[A-Za-z]{2}$/.test(value)) fail(errors, "country", "Must be a two-letter country code.");
  return value?.toUpperCase();
}

const generic: Check = (body, errors) => {
  const tags = body.tags;
  if (tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== "string"))) fail(errors, "tags", "Must be a list of strings.");
  const props = body.props;
  if (props !== undefined && (!isObject(props) || Object.values(props).some((v) => typeof v !== "string"))) fail(errors, "props", "Must be an object of strings.");
  return {
    id: requiredString(body, "id", errors),
    title: localizedMap(body.title, "title", errors, true),
    ...(body.description !== undefined ? { description: localizedMap(body.description, "description", errors, false) } : {}),
    ...(body.icon !== undefined ? { icon: optionalString(body, "icon", errors) } : {}),
    props: (props as Record<string, string>) ?? {},
    tags: (tags as string[]) ?? [],
  };
};

const organisation: Check = (body, errors) => {
  const name = requiredString(body, "name", errors);
  const acronym = optionalString(body, "acronym", errors);
  const code = country(body, errors);
  return {
    id: requiredString(body, "id", errors),
    name,
    ...(acronym ? { acronym } : {}),
    ...(code ? { country: code } : {}),
    identifiers: identifiers(body.identifiers, errors),
    title: localizedMap(body.title, "title", errors, false) ?? { en: name },
  };
};

const names: Check = (body, errors) => {
  const given = optionalString(body, "given_name", errors);
  const family = optionalString(body, "family_name", errors);
  const name = optionalString(body, "name", errors) ?? [family, given].filter(Boolean).join(", ");
  if (!name) fail(errors, "family_name", "A name needs a family name, a given name or a name.");
  const ids = identifiers(body.identifiers, errors);
  const affiliations = Array.isArray(body.affiliations) ? body.affiliations : body.affiliations === undefined ? [] : null;
  if (affiliations === null) fail(errors, "affiliations", "Must be a list of {id, name}.");
  const orcid = ids.find((i) => i.scheme === "orcid")?.identifier;
  const id = optionalString(body, "id", errors) ?? orcid;
  if (!id) fail(errors, "id", "Missing data for required field (or an orcid identifier to take it from).");
  return {
    id: id ?? "",
    name,
    ...(given ? { given_name: given } : {}),
    ...(family ? { family_name: family } : {}),
    identifiers: ids,
    affiliations: (affiliations ?? []).map((a, i) => {
      const aid = isObject(a) ? str(a.id) : undefined;
      const aname = isObject(a) ? str(a.name) : undefined;
      if (!aid && !aname) fail(errors, `affiliations.${i}.name`, "An affiliation needs an id or a name.");
      return { ...(aid ? { id: aid } : {}), name: aname ?? "" };
    }),
  };
};

const subjects: Check = (body, errors) => ({
  id: requiredString(body, "id", errors),
  scheme: requiredString(body, "scheme", errors),
  subject: requiredString(body, "subject", errors),
});

const awards: Check = (body, errors) => {
  const number = requiredString(body, "number", errors);
  const funder = isObject(body.funder) ? str(body.funder.id) : undefined;
  if (!funder) fail(errors, "funder.id", "Missing data for required field.");
  const acronym = optionalString(body, "acronym", errors);
  const program = optionalString(body, "program", errors);
  return {
    id: optionalString(body, "id", errors) ?? `${funder ?? ""}::${number}`,
    number,
    title: localizedMap(body.title, "title", errors, true),
    ...(acronym ? { acronym } : {}),
    ...(program ? { program } : {}),
    funder: { id: funder ?? "", ...(isObject(body.funder) && str(body.funder.name) ? { name: str(body.funder.name) } : {}) },
    identifiers: identifiers(body.identifiers, errors),
  };
};

const CHECKS: Record<string, Check> = { funders: organisation, affiliations: organisation, names, subjects, awards };

/** The normalised entry and the problems found; `id` is checked for length and control characters. */
export function validateEntry(type: VocabularyType, body: unknown): { entry: Body & { id: string }; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!isObject(body)) return { entry: { id: "" }, errors: [{ field: "", messages: ["The body must be a JSON object."] }] };
  const entry = (isSpecificType(type) ? CHECKS[type]! : generic)(body, errors) as Body & { id: string };
  if (entry.id && (entry.id.length > 255 || /[\u0000-\u001f]/.test(entry.id))) fail(errors, "id", "An id has at most 255 characters and no control characters.");
  return { entry, errors };
}
