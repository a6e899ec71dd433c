// Checking a community body (create, update, rename) field by field, with InvenioRDM's messages
// (invenio-communities' CommunitySchema), into the normalised slug, access and metadata stored.
import { validationError, type FieldError } from "../core/errors";
import { cleanText, sanitizeDescription } from "../core/html";
import { isWebUrl, MISSING } from "../records/metadata/fields";
import { isRor, normalizeIdentifier } from "../records/metadata/identifiers";
import type { KnownEntries } from "../vocabularies/entries";
import { MEMBERS_VISIBILITIES, POLICIES, REVIEW_POLICIES, VISIBILITIES, type CommunityInput, type Policy, type ReviewPolicy } from "./model";

type Obj = Record<string, unknown>;

export const SLUG_MAX = 100;
export const TITLE_MAX = 250;
export const TEXT_MAX = 2000;

const RESERVED_SLUGS = ["featured"];
const METADATA_KEYS = ["title", "description", "curation_policy", "page", "type", "website", "organizations"];
const ACCESS_KEYS = ["visibility", "members_visibility", "member_policy", "record_policy", "record_submission_policy", "review_policy"];

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const blankOrLonger = (max: number) => `Field cannot be blank or longer than ${max} characters.`;

/** Python's uuid.UUID(): after dropping every hyphen, 32 hex digits. The regex check already ruled out braces and `urn:`. */
export const looksLikeUuid = (value: string) => /^[0-9a-f]{32}$/i.test(value.replace(/-/g, ""));

class Checker {
  readonly errors: FieldError[] = [];
  constructor(readonly lookup: KnownEntries) {}

  fail(field: string, message: string) {
    this.errors.push({ field, messages: [message] });
  }

  /** SanitizedUnicode: a string, cleaned and trimmed; null is absent. */
  text(value: unknown, field: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") return void this.fail(field, "Not a valid string.");
    return cleanText(value);
  }

  /** InvenioRDM's _not_blank(max): 1 to `max` characters (code points, as Python counts). */
  bounded(value: string | undefined, field: string, max: number): string | undefined {
    if (value === undefined) return undefined;
    if (value.length === 0 || [...value].length > max) return void this.fail(field, blankOrLonger(max));
    return value;
  }

  object(value: unknown, field: string, required: boolean): Obj | undefined {
    if (value === undefined || value === null) return void (required && this.fail(field, MISSING));
    if (!isObject(value)) return void this.fail(field, "Invalid input type.");
    return value;
  }

  unknownKeys(obj: Obj, field: string, allowed: string[]) {
    for (const key of Object.keys(obj)) if (!allowed.includes(key)) this.fail(`${field}.${key}`, "Unknown field.");
  }

  oneOf<T extends string>(value: unknown, field: string, options: readonly T[]): T | undefined {
    if (value === undefined || value === null) return void this.fail(field, MISSING);
    if (typeof value !== "string" || !options.includes(value as T)) return void this.fail(field, `Must be one of: ${options.join(", ")}.`);
    return value as T;
  }
}

function checkSlug(c: Checker, value: unknown): string | undefined {
  if (value === undefined || value === null) return void c.fail("slug", MISSING);
  const slug = c.bounded(c.text(value, "slug"), "slug", SLUG_MAX);
  if (slug === undefined) return undefined;
  // flags=re.ASCII: \w is [A-Za-z0-9_] only.
  if (!/^[-\w]+$/.test(slug)) return void c.fail("slug", "The ID should contain only letters with numbers or dashes.");
  // A slug that reads as a UUID would shadow the community whose id it is.
  if (looksLikeUuid(slug)) return void c.fail("slug", "The ID must not be an Universally Unique IDentifier (UUID).");
  // /api/communities/featured is the featured search: a community of that slug could not be read by it.
  if (RESERVED_SLUGS.includes(slug.toLowerCase())) return void c.fail("slug", `The ID '${slug}' is reserved.`);
  return slug.toLowerCase();
}

const given = (value: unknown) => value !== undefined && value !== null;

/**
 * The spec's `record_policy` under either name: InvenioRDM renamed it `record_submission_policy`,
 * so clients of either send one or both; both must then agree.
 */
function checkRecordPolicy(c: Checker, access: Obj): Policy | undefined {
  const spec = given(access.record_policy) ? c.oneOf(access.record_policy, "access.record_policy", POLICIES) : undefined;
  const renamed = given(access.record_submission_policy) ? c.oneOf(access.record_submission_policy, "access.record_submission_policy", POLICIES) : undefined;
  if (!given(access.record_policy) && !given(access.record_submission_policy)) return void c.fail("access.record_policy", MISSING);
  if (spec && renamed && spec !== renamed) return void c.fail("access.record_submission_policy", "Must equal access.record_policy: both name the record submission policy.");
  return spec ?? renamed;
}

/**
 * An absent review_policy follows the record policy, so a client that knows only the spec's
 * fields gets the spec's meaning of them: `open`, members submit without review (`members`);
 * `closed`, review always (`closed`, also InvenioRDM's default).
 */
const reviewPolicyFor = (recordPolicy: Policy): ReviewPolicy => (recordPolicy === "open" ? "members" : "closed");

function checkAccess(c: Checker, value: unknown): CommunityInput["access"] | undefined {
  const access = c.object(value, "access", true);
  if (!access) return undefined;
  c.unknownKeys(access, "access", ACCESS_KEYS);
  const visibility = c.oneOf(access.visibility, "access.visibility", VISIBILITIES);
  const member_policy = c.oneOf(access.member_policy, "access.member_policy", POLICIES);
  const record_policy = checkRecordPolicy(c, access);
  // InvenioRDM's default: members are listed publicly unless the owners restrict the listing.
  const members_visibility = given(access.members_visibility) ? c.oneOf(access.members_visibility, "access.members_visibility", MEMBERS_VISIBILITIES) : "public";
  const review_policy = given(access.review_policy) ? c.oneOf(access.review_policy, "access.review_policy", REVIEW_POLICIES) : record_policy && reviewPolicyFor(record_policy);
  if (!visibility || !member_policy || !record_policy || !members_visibility || !review_policy) return undefined;
  return { visibility, members_visibility, member_policy, record_policy, review_policy };
}

/** `{id}` of the communitytypes vocabulary, or the id as a plain string (the spec's rename example). */
function checkType(c: Checker, value: unknown): Obj | undefined {
  if (value === undefined || value === null) return undefined;
  const field = "metadata.type";
  let id: string | undefined;
  if (typeof value === "string") id = cleanText(value);
  else {
    const obj = c.object(value, field, false);
    if (!obj) return undefined;
    // `title` is dump-only: the vocabulary's is shown whatever a client sends back.
    c.unknownKeys(obj, field, ["id", "title"]);
    id = c.text(obj.id, `${field}.id`);
    if (!id) return void c.fail(`${field}.id`, MISSING);
  }
  if (!id) return void c.fail(field, MISSING);
  const entry = c.lookup("communitytypes", id);
  if (!entry) return void c.fail(typeof value === "string" ? field : `${field}.id`, `Invalid value ${id}.`);
  return entry.title ? { id, title: entry.title } : { id };
}

/** `{id}` of an organisation (the affiliations vocabulary, else a ROR id) or a free-text `{name}`. */
function checkOrganization(c: Checker, value: unknown, path: string): Obj | undefined {
  const obj = c.object(value, path, false);
  if (!obj) return value === null ? void c.fail(path, "Field may not be null.") : undefined;
  c.unknownKeys(obj, path, ["id", "name"]);
  const id = c.text(obj.id, `${path}.id`);
  const name = c.text(obj.name, `${path}.name`);
  if (id) {
    const entry = c.lookup("affiliations", id);
    if (entry) return { id, name: entry.name };
    // A ROR id names the organisation even when the affiliations vocabulary is not loaded.
    if (isRor(id)) return { id: normalizeIdentifier("ror", id) };
    return void c.fail(`${path}.id`, `Invalid value ${id}.`);
  }
  if (!name) return void c.fail(path, "An existing id or a free text name must be present.");
  return { name };
}

function checkOrganizations(c: Checker, value: unknown): Obj[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return void c.fail("metadata.organizations", "Not a valid list.");
  return value.flatMap((item: unknown, i): Obj[] => {
    const org = checkOrganization(c, item, `metadata.organizations.${i}`);
    return org ? [org] : [];
  });
}

function checkMetadata(c: Checker, value: unknown): Obj | undefined {
  // An absent or empty metadata reports its required title, as the spec's error table shows.
  const metadata = value === undefined || value === null ? {} : c.object(value, "metadata", true);
  if (!metadata) return undefined;
  c.unknownKeys(metadata, "metadata", METADATA_KEYS);
  const out: Obj = {};
  const put = (key: string, v: unknown) => v !== undefined && (out[key] = v);
  if (metadata.title === undefined || metadata.title === null) c.fail("metadata.title", MISSING);
  put("title", c.bounded(c.text(metadata.title, "metadata.title"), "metadata.title", TITLE_MAX));
  put("description", c.bounded(c.text(metadata.description, "metadata.description"), "metadata.description", TEXT_MAX));
  for (const key of ["curation_policy", "page"]) {
    // SanitizedHTML: cleaned first, then measured, as marshmallow loads before it validates.
    const html = c.text(metadata[key], `metadata.${key}`);
    put(key, c.bounded(html === undefined ? undefined : sanitizeDescription(html), `metadata.${key}`, TEXT_MAX));
  }
  put("type", checkType(c, metadata.type));
  const website = c.bounded(c.text(metadata.website, "metadata.website"), "metadata.website", Number.MAX_SAFE_INTEGER);
  if (website !== undefined && !isWebUrl(website)) c.fail("metadata.website", "Not a valid URL.");
  else put("website", website);
  put("organizations", checkOrganizations(c, metadata.organizations));
  return out;
}

/**
 * A create, update or rename body -> the stored fields; a 400 listing every problem otherwise.
 * Top-level keys other than these are ignored (InvenioRDM's EXCLUDE), so a community read and
 * sent back with its id, links and timestamps is accepted.
 */
export function checkCommunityBody(body: unknown, lookup: KnownEntries): CommunityInput {
  const c = new Checker(lookup);
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  const slug = checkSlug(c, body.slug);
  const access = checkAccess(c, body.access);
  const metadata = checkMetadata(c, body.metadata);
  if (c.errors.length || !slug || !access || !metadata) throw validationError(c.errors);
  return { slug, access, metadata };
}

/** A rename body: only its `slug` counts (InvenioRDM loads it as a partial community). */
export function checkRenameBody(body: unknown, lookup: KnownEntries): string {
  const c = new Checker(lookup);
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  const slug = checkSlug(c, body.slug);
  if (c.errors.length || !slug) throw validationError(c.errors);
  return slug;
}
