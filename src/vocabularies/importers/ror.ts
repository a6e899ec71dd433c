// Reads the ROR data dump (schema v2 JSON array, plain or gzipped) into funder or affiliation entries.
import { basename } from "node:path";
import { JSONParser } from "@streamparser/json";
import type { AffiliationEntry, EntryByType, FunderEntry, Identifier, ImportItem, Localized } from "../model";
import { type Progress, fileContent, fileSize, head, isZip, progressCounter } from "./source";

export type RorKind = "funders" | "affiliations";

/** InvenioRDM's VOCABULARIES_FUNDER_DOI_PREFIX: a Crossref Funder ID becomes this DOI. */
export const FUNDREF_DOI_PREFIX = "10.13039";

/**
 * External id types kept per kind, as InvenioRDM's VOCABULARIES_FUNDER_SCHEMES and
 * VOCABULARIES_AFFILIATION_SCHEMES allow them; Wikidata is in neither, so it is dropped. Funders
 * also keep fundref, rewritten to scheme "doi".
 */
export const ROR_EXTERNAL_SCHEMES: Record<RorKind, ReadonlySet<string>> = {
  funders: new Set(["grid", "gnd", "isni", "ror", "doi"]),
  affiliations: new Set(["grid", "gnd", "isni", "ror", "pic", "edmo"]),
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** Maps one ROR v2 organisation; `position` names records that lack an id in skip reasons. */
export function mapRorOrganisation(record: unknown, kind: RorKind, position: number): ImportItem<FunderEntry | AffiliationEntry> {
  const org = isObject(record) ? record : {};
  const id = text(org.id)?.replace(/^https?:\/\/(www\.)?ror\.org\//i, "");
  if (!id) return { skip: `ROR record ${position}: no id` };
  if (!Array.isArray(org.names)) return { skip: `ROR ${id}: no "names" list (a schema v1 record? import the *_schema_v2.json file)` };

  let name: string | undefined;
  let acronym: string | undefined;
  let untaggedLabel: string | undefined;
  const title: Localized = {};
  for (const entry of org.names) {
    if (!isObject(entry)) continue;
    const value = text(entry.value);
    const types = Array.isArray(entry.types) ? entry.types : [];
    if (!value) continue;
    if (types.includes("ror_display")) name ??= value;
    // InvenioRDM keeps the first acronym as the acronym (the others become aliases, which Cairn lacks).
    if (types.includes("acronym")) acronym ??= value;
    if (types.includes("label")) {
      const lang = text(entry.lang)?.toLowerCase();
      // A label without a language counts as English, as in InvenioRDM; an explicitly English one wins.
      if (lang) title[lang] ??= value;
      else untaggedLabel ??= value;
    }
  }
  if (!name) return { skip: `ROR ${id}: no name of type "ror_display"` };
  title.en ??= untaggedLabel ?? name;

  const locations = Array.isArray(org.locations) ? org.locations : [];
  const geo = isObject(locations[0]) && isObject(locations[0].geonames_details) ? locations[0].geonames_details : {};
  const country = text(geo.country_code)?.toUpperCase();

  const identifiers: Identifier[] = [{ scheme: "ror", identifier: id }];
  const allowed = ROR_EXTERNAL_SCHEMES[kind];
  for (const ext of Array.isArray(org.external_ids) ? org.external_ids : []) {
    if (!isObject(ext)) continue;
    const type = text(ext.type)?.toLowerCase();
    const all = Array.isArray(ext.all) ? ext.all : [];
    const value = text(ext.preferred) ?? text(all[0]);
    if (!type || !value) continue;
    if (type === "fundref") {
      if (kind === "funders") identifiers.push({ scheme: "doi", identifier: `${FUNDREF_DOI_PREFIX}/${value}` });
    } else if (allowed.has(type)) {
      identifiers.push({ scheme: type, identifier: value });
    }
  }

  return {
    entry: {
      id,
      name,
      ...(acronym ? { acronym } : {}),
      ...(country && /^[A-Z]{2}$/.test(country) ? { country } : {}),
      identifiers,
      title,
    },
  };
}

/**
 * Streams a ROR dump, one organisation at a time. Every organisation is imported whatever its
 * status or types, as InvenioRDM does for both funders and affiliations.
 */
export async function* readRor<K extends RorKind>(path: string, kind: K, onProgress?: Progress): AsyncGenerator<ImportItem<EntryByType[K]>> {
  if (isZip(await head(path))) {
    throw new Error(`${basename(path)} is a zip archive: unzip it and import the *_schema_v2.json file inside (or gzip it to save space).`);
  }
  const count = progressCounter(await fileSize(path), onProgress);
  const parser = new JSONParser({ paths: ["$.*"], keepStack: false });
  const pending: unknown[] = [];
  let notAnArray = false;
  parser.onValue = ({ value, key }) => {
    if (typeof key === "number") pending.push(value);
    else notAnArray = true;
  };

  let position = 0;
  try {
    for await (const chunk of fileContent(path, count)) {
      if (parser.isEnded) {
        if (new TextDecoder().decode(chunk).trim()) throw new Error("data after the end of the JSON array");
        continue;
      }
      parser.write(chunk);
      if (notAnArray) throw new Error("expected a JSON array of organisations at the top level");
      // Only the organisations this chunk completed are held at once.
      for (const record of pending.splice(0)) yield mapRorOrganisation(record, kind, ++position) as ImportItem<EntryByType[K]>;
    }
    if (!parser.isEnded) parser.end();
  } catch (err) {
    throw new Error(`ROR dump ${basename(path)}: ${(err as Error).message}`);
  }
}
