// The controlled vocabularies Cairn ships (InvenioRDM's default lists, ISO 639-3, SPDX) and their version hash.
import { createHash } from "node:crypto";
import { iso6393 } from "iso-639-3";
// The package's plain data file: its index is CommonJS with an `export =` typing, and full.json
// carries every licence text (5 MB) that we never serve.
import spdxLicences from "spdx-license-list/spdx.json" with { type: "json" };
import communitytypes from "../../data/vocabularies/communitytypes.json" with { type: "json" };
import contributorsroles from "../../data/vocabularies/contributorsroles.json" with { type: "json" };
import creatorsroles from "../../data/vocabularies/creatorsroles.json" with { type: "json" };
import datetypes from "../../data/vocabularies/datetypes.json" with { type: "json" };
import descriptiontypes from "../../data/vocabularies/descriptiontypes.json" with { type: "json" };
import licenceExtras from "../../data/vocabularies/licenses-extras.json" with { type: "json" };
import relationtypes from "../../data/vocabularies/relationtypes.json" with { type: "json" };
import removalreasons from "../../data/vocabularies/removalreasons.json" with { type: "json" };
import resourcetypes from "../../data/vocabularies/resourcetypes.json" with { type: "json" };
import titletypes from "../../data/vocabularies/titletypes.json" with { type: "json" };
import { GENERIC_TYPES, type GenericEntry, type GenericType } from "./model.ts";

export interface ShippedVocabulary {
  type: GenericType;
  entries: GenericEntry[];
}

interface SpdxLicence {
  name: string;
  url?: string;
  osiApproved: boolean;
}

const typedByHand: Record<Exclude<GenericType, "languages" | "licenses">, unknown> = {
  resourcetypes,
  creatorsroles,
  contributorsroles,
  titletypes,
  descriptiontypes,
  datetypes,
  relationtypes,
  communitytypes,
  removalreasons,
};

/** Every generic vocabulary with its shipped entries, in GENERIC_TYPES order. Built fresh on each call. */
export function shippedVocabularies(): ShippedVocabulary[] {
  return GENERIC_TYPES.map((type) => {
    if (type === "languages") return { type, entries: languageEntries() };
    if (type === "licenses") return { type, entries: licenceEntries() };
    return { type, entries: checkedEntries(type, typedByHand[type]) };
  });
}

let cachedVersion: string | undefined;

/** Hash of all shipped vocabulary data: changes exactly when a release ships different entries. */
export function fixturesVersion(): string {
  cachedVersion ??= vocabulariesHash(shippedVocabularies());
  return cachedVersion;
}

/**
 * sha256 (hex) over the vocabularies as JSON; pure, so a changed copy can be compared with the
 * shipped one. Plain JSON.stringify (no key sorting): the same code builds keys in the same order,
 * and hashing stays a few milliseconds of every start-up.
 */
export function vocabulariesHash(vocabularies: readonly ShippedVocabulary[]): string {
  return createHash("sha256").update(JSON.stringify(vocabularies)).digest("hex");
}

function languageEntries(): GenericEntry[] {
  return iso6393.map((language) => {
    const props: Record<string, string> = {};
    if (language.iso6391) props.alpha_2 = language.iso6391;
    if (language.iso6392B) props.alpha_3b = language.iso6392B;
    if (language.iso6392T) props.alpha_3t = language.iso6392T;
    // scope `special` and type `special` coincide (e.g. `und`); one tag says it.
    const tags = [...new Set<string>([language.scope, language.type])];
    const entry: GenericEntry = { id: language.iso6393, title: { en: language.name }, tags };
    if (Object.keys(props).length > 0) entry.props = props;
    return entry;
  });
}

function licenceEntries(): GenericEntry[] {
  const extras = new Map(checkedEntries("licenses", licenceExtras, { titles: false }).map((extra) => [extra.id, extra]));
  const licences = spdxLicences as Record<string, SpdxLicence>;
  return Object.keys(licences)
    .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
    .map((spdxId) => {
      const licence = licences[spdxId]!;
      const id = spdxId.toLowerCase();
      const props: Record<string, string> = {};
      // Three SPDX entries carry no URL of the licence text (zen4R's getLicenses() reads props.url
      // of every one): their page in the SPDX License List stands for it.
      props.url = licence.url || `https://spdx.org/licenses/${spdxId}.html`;
      props.scheme = "spdx";
      props.osi_approved = licence.osiApproved ? "true" : "false";
      const entry: GenericEntry = { id, title: { en: licence.name }, props };
      const extra = extras.get(id);
      if (extra?.icon) entry.icon = extra.icon;
      if (extra?.description) entry.description = extra.description;
      if (extra?.tags) entry.tags = extra.tags;
      return entry;
    });
}

/**
 * Checks the shape of a hand-typed JSON list, so a slip in the data fails loudly at start-up
 * (and in the unit tests) rather than surfacing as a malformed API response.
 */
function checkedEntries(type: GenericType, data: unknown, options = { titles: true }): GenericEntry[] {
  if (!Array.isArray(data)) throw new Error(`vocabulary ${type}: shipped data is not an array`);
  const seen = new Set<string>();
  return data.map((raw: unknown, index) => {
    const where = `vocabulary ${type}, entry ${index}`;
    if (!isRecord(raw)) throw new Error(`${where}: not an object`);
    const { id, title, description, icon, props, tags } = raw;
    if (typeof id !== "string" || id === "") throw new Error(`${where}: id must be a non-empty string`);
    if (seen.has(id)) throw new Error(`${where}: duplicate id ${id}`);
    seen.add(id);
    const entry: GenericEntry = { id, title: {} };
    if (options.titles || title !== undefined) {
      if (!isStringRecord(title) || !title.en) throw new Error(`${where} (${id}): title.en is required`);
      entry.title = { ...title };
    }
    if (description !== undefined) {
      if (!isStringRecord(description)) throw new Error(`${where} (${id}): description must map locales to strings`);
      entry.description = { ...description };
    }
    if (icon !== undefined) {
      if (typeof icon !== "string") throw new Error(`${where} (${id}): icon must be a string`);
      entry.icon = icon;
    }
    if (props !== undefined) {
      if (!isStringRecord(props)) throw new Error(`${where} (${id}): props values must be strings`);
      entry.props = { ...props };
    }
    if (tags !== undefined) {
      if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === "string")) {
        throw new Error(`${where} (${id}): tags must be strings`);
      }
      entry.tags = [...tags];
    }
    return entry;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((item) => typeof item === "string");
}
