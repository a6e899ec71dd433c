// Funding: funder and award, each a vocabulary id (funders/awards) or free text.
import { type Ctx, type Obj, checkKeys, fail, isObject, put, readIdentifierSet, readList, readObject, readString, fromVocabulary } from "./fields";
import { ORGANISATION_SCHEMES, RECORD_IDENTIFIER_SCHEMES } from "./identifiers";

// Older InvenioRDM schemas (and the spec's table) carry one `identifier` + `scheme` on funder and
// award; newer ones an `identifiers` list. Both are accepted and kept in the shape sent.
function readLegacyIdentifier(ctx: Ctx, obj: Obj, path: string, out: Obj): void {
  put(out, "identifier", readString(ctx, obj.identifier, `${path}.identifier`));
  put(out, "scheme", readString(ctx, obj.scheme, `${path}.scheme`)?.toLowerCase());
}

/** FunderRelationSchema: `{id}` dumped with the funder's name, or a free `{name}`. */
function readFunder(ctx: Ctx, value: unknown, path: string): Obj | undefined {
  const obj = readObject(ctx, value, path, true);
  if (!obj) return undefined;
  checkKeys(ctx, obj, path, ["id", "name", "identifiers", "identifier", "scheme"]);
  const id = readString(ctx, obj.id, `${path}.id`);
  if (id) return fromVocabulary(ctx, "funders", id, `${path}.id`, ["name"]);
  const name = readString(ctx, obj.name, `${path}.name`);
  if (!name) fail(ctx, path, "An existing id or a free text name must be present.");
  const out: Obj = {};
  put(out, "name", name);
  put(out, "identifiers", readIdentifierSet(ctx, obj.identifiers, `${path}.identifiers`, ORGANISATION_SCHEMES));
  readLegacyIdentifier(ctx, obj, path, out);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** An award title: InvenioRDM's `{lang: text}` map; a plain string (older shape) is kept as sent. */
function readAwardTitle(ctx: Ctx, value: unknown, field: string): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim();
  if (isObject(value) && Object.values(value).every((text) => typeof text === "string")) {
    return Object.fromEntries(Object.entries(value as Record<string, string>).map(([lang, text]) => [lang, text.trim()]));
  }
  fail(ctx, field, "Not a valid mapping type.");
  return undefined;
}

/** AwardRelationSchema: `{id}` dumped from the awards vocabulary, or free `{number, title, ...}`. */
function readAward(ctx: Ctx, value: unknown, path: string): Obj | undefined {
  const obj = readObject(ctx, value, path);
  if (!obj) return undefined;
  checkKeys(ctx, obj, path, ["id", "number", "title", "identifiers", "acronym", "program", "identifier", "scheme"]);
  const id = readString(ctx, obj.id, `${path}.id`);
  if (id) return awardFromVocabulary(ctx, id, `${path}.id`);
  const out: Obj = {};
  put(out, "number", readString(ctx, obj.number, `${path}.number`));
  put(out, "title", readAwardTitle(ctx, obj.title, `${path}.title`));
  put(out, "identifiers", readIdentifierSet(ctx, obj.identifiers, `${path}.identifiers`, RECORD_IDENTIFIER_SCHEMES));
  put(out, "acronym", readString(ctx, obj.acronym, `${path}.acronym`));
  put(out, "program", readString(ctx, obj.program, `${path}.program`));
  readLegacyIdentifier(ctx, obj, path, out);
  const hasTitle = typeof out.title === "string" ? out.title !== "" : isObject(out.title) && Object.keys(out.title).length > 0;
  if (!out.number || !hasTitle) fail(ctx, path, "An existing id or number/title must be present.");
  return Object.keys(out).length > 0 ? out : undefined;
}

function awardFromVocabulary(ctx: Ctx, id: string, field: string): Obj {
  const out = fromVocabulary(ctx, "awards", id, field, ["number", "title", "identifiers", "acronym", "program"]);
  // An award without identifiers is dumped without the key, as InvenioRDM does.
  if (Array.isArray(out.identifiers) && out.identifiers.length === 0) delete out.identifiers;
  return out;
}

/** FundingSchema: funder required, award optional. */
export function readFunding(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => {
    const obj = readObject(ctx, item, path);
    if (!obj) return undefined;
    checkKeys(ctx, obj, path, ["funder", "award"]);
    const out: Obj = {};
    put(out, "funder", readFunder(ctx, obj.funder, `${path}.funder`));
    put(out, "award", readAward(ctx, obj.award, `${path}.award`));
    return out;
  });
}
