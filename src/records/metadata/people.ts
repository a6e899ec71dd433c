// Creators and contributors: person_or_org with computed names, identifiers, roles and affiliations.
import { type Ctx, type Obj, checkKeys, fail, put, readIdentifierSet, readList, readObject, readString, readVocabularyRef, fromVocabulary } from "./fields";
import { ORGANISATION_SCHEMES, PERSON_ORG_SCHEMES } from "./identifiers";

const TYPE_ERROR = "Invalid value. Choose one of ['organizational', 'personal'].";

/**
 * PersonOrOrganizationSchema: a person needs a family name and gets `name` = "family, given";
 * an organisation needs a name and loses given/family names (InvenioRDM's post_load).
 */
function readPersonOrOrg(ctx: Ctx, value: unknown, field: string): Obj | undefined {
  const obj = readObject(ctx, value, field, true);
  if (!obj) return undefined;
  checkKeys(ctx, obj, field, ["type", "name", "given_name", "family_name", "identifiers"]);
  const type = readString(ctx, obj.type, `${field}.type`);
  const name = readString(ctx, obj.name, `${field}.name`);
  const given = readString(ctx, obj.given_name, `${field}.given_name`);
  const family = readString(ctx, obj.family_name, `${field}.family_name`);
  const out: Obj = {};
  put(out, "type", type);
  if (type === "personal") {
    if (!family) fail(ctx, `${field}.family_name`, "Family name cannot be blank.");
    // The sent `name` of a person is always replaced: clients send back the computed one.
    const computed = [family, given].filter(Boolean).join(", ");
    if (computed) out.name = computed;
    put(out, "given_name", given);
    put(out, "family_name", family);
  } else if (type === "organizational") {
    if (!name) fail(ctx, `${field}.name`, "Name cannot be blank.");
    put(out, "name", name);
  } else {
    if (obj.type === undefined || obj.type === null || type !== undefined) fail(ctx, `${field}.type`, TYPE_ERROR);
    put(out, "name", name);
    put(out, "given_name", given);
    put(out, "family_name", family);
  }
  put(out, "identifiers", readIdentifierSet(ctx, obj.identifiers, `${field}.identifiers`, PERSON_ORG_SCHEMES));
  return out;
}

/**
 * `{id}` from the affiliations vocabulary or a free-text `{name}`. With a known id the stored
 * name is always the vocabulary's (the spec's affiliation rule), whatever name was sent.
 */
function readAffiliation(ctx: Ctx, item: unknown, path: string): Obj | undefined {
  const obj = readObject(ctx, item, path);
  if (!obj) return undefined;
  checkKeys(ctx, obj, path, ["id", "name", "identifiers"]);
  const id = readString(ctx, obj.id, `${path}.id`);
  const name = readString(ctx, obj.name, `${path}.name`);
  if (id) return fromVocabulary(ctx, "affiliations", id, `${path}.id`, ["name"]);
  if (!name) {
    fail(ctx, path, "An existing id or a free text name must be present.");
    return undefined;
  }
  const out: Obj = { name };
  put(out, "identifiers", readIdentifierSet(ctx, obj.identifiers, `${path}.identifiers`, ORGANISATION_SCHEMES));
  return out;
}

function readAffiliations(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  const list = readList(ctx, value, field, (item, path) => readAffiliation(ctx, item, path));
  if (list) {
    // The same organisation twice would print twice in every citation and export.
    const keys = list.map((a) => (a.id ? `id:${a.id}` : `name:${String(a.name).toLowerCase()}`));
    if (new Set(keys).size !== keys.length) fail(ctx, field, "Duplicated affiliations.");
  }
  return list;
}

function readCreatibutor(ctx: Ctx, item: unknown, path: string, roles: string, roleRequired: boolean): Obj | undefined {
  const obj = readObject(ctx, item, path);
  if (!obj) return undefined;
  checkKeys(ctx, obj, path, ["person_or_org", "role", "affiliations"]);
  const out: Obj = {};
  put(out, "person_or_org", readPersonOrOrg(ctx, obj.person_or_org, `${path}.person_or_org`));
  put(out, "role", readVocabularyRef(ctx, obj.role, `${path}.role`, roles, roleRequired));
  put(out, "affiliations", readAffiliations(ctx, obj.affiliations, `${path}.affiliations`));
  return out;
}

/** Creators: role optional (creatorsroles). At least one creator is checked by the caller. */
export function readCreators(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => readCreatibutor(ctx, item, path, "creatorsroles", false));
}

/** Contributors: role required (contributorsroles). */
export function readContributors(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => readCreatibutor(ctx, item, path, "contributorsroles", true));
}
