// The vocabulary entries a record's metadata names (resource types, roles, licences, funders...),
// read before the record is rendered: DataCite attributes and every export format look them up
// while they build, synchronously, from what was read here (one read per entry, none per lookup).
import { list, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import type { VocabularyEntry, VocabularyLookup } from "../vocabularies/model";

/** Entries read beforehand, answered at once; null or undefined for one that does not exist (or was not read). */
export type KnownEntries = (type: string, id: string) => VocabularyEntry | null | undefined;

/** Each vocabulary a renderer reads, with the references to it in a record's metadata. */
const REFERENCES: [string, (m: JsonObject) => unknown[]][] = [
  ["resourcetypes", (m) => [m.resource_type, ...list(m.related_identifiers).map((r) => r?.resource_type)]],
  ["creatorsroles", (m) => list(m.creators).map((c) => c?.role)],
  ["contributorsroles", (m) => list(m.contributors).map((c) => c?.role)],
  ["titletypes", (m) => list(m.additional_titles).map((t) => t?.type)],
  ["descriptiontypes", (m) => list(m.additional_descriptions).map((d) => d?.type)],
  ["datetypes", (m) => list(m.dates).map((d) => d?.type)],
  ["relationtypes", (m) => list(m.related_identifiers).map((r) => r?.relation_type)],
  ["licenses", (m) => list(m.rights)],
  ["subjects", (m) => list(m.subjects)],
  ["funders", (m) => list(m.funding).map((f) => f?.funder)],
  ["awards", (m) => list(m.funding).map((f) => f?.award)],
];

/**
 * Vocabularies renderers read only for props a reference does not carry (record-fields.ts
 * vocabProps): a reference with its own props needs no read. The others are read for their title
 * or name as well.
 */
const PROPS_ONLY = new Set(["resourcetypes", "creatorsroles", "contributorsroles", "titletypes", "descriptiontypes", "datetypes"]);

/** What a rendering reads: some vocabularies only (default all), and with `propsOnly` nothing of a reference that carries props. */
export interface EntryNeeds {
  types?: readonly string[];
  propsOnly?: boolean;
}

const keyOf = (type: string, id: string) => `${type}\u0000${id}`;

const NONE: KnownEntries = () => undefined;

/**
 * The entries `records` name, read through `lookup` (all at once), as a lookup that answers at once.
 * When nothing needs reading (most Signposting headers) the lookup comes back at once, with no
 * Promise: every record read renders that header.
 */
export function readVocabularyEntries(records: readonly RecordDocument[], lookup: VocabularyLookup | undefined, needs: EntryNeeds = {}): KnownEntries | Promise<KnownEntries> {
  if (!lookup) return NONE;
  const wanted = new Map<string, [string, string]>();
  for (const record of records) {
    const metadata: JsonObject = record.metadata ?? {};
    for (const [type, refsOf] of REFERENCES) {
      if (needs.types && !needs.types.includes(type)) continue;
      const propsOnly = needs.propsOnly || PROPS_ONLY.has(type);
      for (const ref of refsOf(metadata) as (JsonObject | undefined)[]) {
        const id = ref?.id;
        if (typeof id === "string" && id && !(propsOnly && ref!.props)) wanted.set(keyOf(type, id), [type, id]);
      }
    }
  }
  if (wanted.size === 0) return NONE;
  return Promise.all([...wanted].map(([key, [type, id]]) => Promise.resolve(lookup(type, id)).then((entry) => [key, entry] as const))).then((read) => {
    const entries = new Map(read);
    return (type: string, id: string) => entries.get(keyOf(type, id));
  });
}
