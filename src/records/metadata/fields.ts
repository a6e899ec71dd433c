// Shared readers for metadata checks: error context, typed readers with marshmallow's messages, vocabulary ids, identifiers.
import type { FieldError } from "../../core/errors";
import { cleanText } from "../../core/html";
import type { VocabularyEntry } from "../../vocabularies/model";
import { detectSchemes, isValidIdentifier, normalizeIdentifier } from "./identifiers";

export type Obj = Record<string, unknown>;

/** A vocabulary entry by type and id, answered at once: records/document.ts reads the entries a document names beforehand. */
export type VocabularyLookup = (type: string, id: string) => VocabularyEntry | null | undefined;

export interface Ctx {
  lookup: VocabularyLookup;
  errors: FieldError[];
  unknownIds: FieldError[];
}

export const MISSING = "Missing data for required field.";
export const UNKNOWN_FIELD = "Unknown field.";

export const isObject = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);

export function fail(ctx: Ctx, field: string, message: string): void {
  ctx.errors.push({ field, messages: [message] });
}

/** An optional string; null counts as absent, anything else but a string is reported. */
export function readString(ctx: Ctx, value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    fail(ctx, field, "Not a valid string.");
    return undefined;
  }
  return cleanText(value);
}

export function readObject(ctx: Ctx, value: unknown, field: string, required = false): Obj | undefined {
  if (value === undefined || value === null) {
    if (required) fail(ctx, field, MISSING);
    return undefined;
  }
  if (!isObject(value)) {
    fail(ctx, field, "Invalid input type.");
    return undefined;
  }
  return value;
}

/** Reports keys outside `allowed` as unknown; `ignored` are dump-only keys a client may send back. */
export function checkKeys(ctx: Ctx, obj: Obj, field: string, allowed: readonly string[], ignored: readonly string[] = []): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key) && !ignored.includes(key)) fail(ctx, `${field}.${key}`, UNKNOWN_FIELD);
  }
}

/** marshmallow's URL validator: http(s)/ftp(s), a host with a top-level domain (or localhost), no spaces. */
export const isWebUrl = (value: string) => /^(?:https?|ftps?):\/\/(?:localhost|[^\s/?#:@]+\.[^\s/?#:@]+|\[[0-9a-f:.]+\])(?::\d+)?(?:[/?#]\S*)?$/i.test(value);

export function minLength(ctx: Ctx, value: string | undefined, field: string, min: number): void {
  if (value !== undefined && [...value].length < min) fail(ctx, field, `Shorter than minimum length ${min}.`);
}

/** Maps a list item by item; items the mapper rejects (undefined) are left out. */
export function readList<T>(ctx: Ctx, value: unknown, field: string, mapItem: (item: unknown, path: string) => T | undefined): T[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    fail(ctx, field, "Not a valid list.");
    return undefined;
  }
  const out: T[] = [];
  value.forEach((item, index) => {
    const mapped = mapItem(item, `${field}.${index}`);
    if (mapped !== undefined) out.push(mapped);
  });
  return out;
}

/** Sets `key` only when there is a value, so absent fields stay absent in the stored JSON. */
export function put(target: Obj, key: string, value: unknown): void {
  if (value !== undefined) target[key] = value;
}

export function reportUnknownId(ctx: Ctx, field: string, id: string): void {
  // InvenioRDM's relation check message; the service turns these into a 400 even on drafts.
  ctx.unknownIds.push({ field, messages: [`Invalid value ${id}.`] });
}

/**
 * A vocabulary-backed `{id}` dumped with the entry's `keys`, as InvenioRDM's relations are; an
 * unknown id is reported and kept bare, so the draft still shows what was sent.
 */
export function fromVocabulary(ctx: Ctx, type: string, id: string, field: string, keys: string[]): Obj {
  const entry = ctx.lookup(type, id);
  if (!entry) {
    reportUnknownId(ctx, field, id);
    return { id };
  }
  const out: Obj = { id };
  for (const key of keys) put(out, key, entry[key]);
  return out;
}

/**
 * `{id}` of a controlled vocabulary: kept with the entry's `title`. A sent `title` is a dump-only
 * key (VocabularyRelationSchema drops it before loading) and is recomputed here.
 */
export function readVocabularyRef(ctx: Ctx, value: unknown, field: string, type: string, required = false): Obj | undefined {
  const obj = readObject(ctx, value, field, required);
  if (!obj) return undefined;
  checkKeys(ctx, obj, field, ["id"], ["title"]);
  const id = readString(ctx, obj.id, `${field}.id`);
  if (!id) {
    if (obj.id === undefined || obj.id === null || id === "") fail(ctx, `${field}.id`, MISSING);
    return undefined;
  }
  const entry = ctx.lookup(type, id);
  if (!entry) {
    reportUnknownId(ctx, `${field}.id`, id);
    return { id };
  }
  return entry.title ? { id, title: entry.title } : { id };
}

interface IdentifierOptions {
  identifierRequired?: boolean;
}

/**
 * marshmallow-utils' IdentifierSchema over `obj.scheme` / `obj.identifier`: the scheme is
 * lower-cased or detected from the value, must be one of `allowed`, and the value must pass the
 * scheme's check; valid values are stored normalised, invalid ones as sent (drafts keep work).
 */
export function readIdentifierPair(ctx: Ctx, obj: Obj, field: string, allowed: readonly string[], options: IdentifierOptions = {}): Obj {
  const identifier = readString(ctx, obj.identifier, `${field}.identifier`);
  const sentScheme = readString(ctx, obj.scheme, `${field}.scheme`)?.toLowerCase();
  if (!identifier) {
    if (options.identifierRequired ?? true) fail(ctx, `${field}.identifier`, "Missing required identifier.");
    return sentScheme ? { scheme: sentScheme } : {};
  }
  const scheme = sentScheme ? (allowed.includes(sentScheme) ? sentScheme : undefined) : detectSchemes(identifier).find((s) => allowed.includes(s));
  if (!scheme) {
    fail(ctx, `${field}.scheme`, `Missing or invalid scheme for identifier ${identifier}.`);
    return sentScheme ? { scheme: sentScheme, identifier } : { identifier };
  }
  if (!isValidIdentifier(scheme, identifier)) {
    fail(ctx, `${field}.identifier`, `Invalid value ${identifier} for scheme ${scheme}.`);
    return { scheme, identifier };
  }
  return { scheme, identifier: normalizeIdentifier(scheme, identifier) };
}

/** A list of `{scheme, identifier}` with at most one per scheme (marshmallow-utils' IdentifierSet). */
export function readIdentifierSet(ctx: Ctx, value: unknown, field: string, allowed: readonly string[]): Obj[] | undefined {
  const list = readList(ctx, value, field, (item, path) => {
    const obj = readObject(ctx, item, path);
    if (!obj) return undefined;
    checkKeys(ctx, obj, path, ["scheme", "identifier"]);
    return readIdentifierPair(ctx, obj, path, allowed);
  });
  if (list) {
    const schemes = list.map((item) => item.scheme).filter((scheme) => scheme !== undefined);
    if (new Set(schemes).size !== schemes.length) fail(ctx, field, "Only one identifier per scheme is allowed.");
  }
  return list;
}
