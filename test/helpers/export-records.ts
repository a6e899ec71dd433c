// Records for the XML export tests, in the API's record shape: a minimal one and a full one (every
// field the XML mappings read), the directory entries they refer to, and the export context.
import { createLinks } from "../../src/core/links";
import type { RecordDocument as ExportRecord } from "../../src/core/record-document";
import type { ExportContext } from "../../src/exports/types";
import { doiResolverUrl } from "../../src/pids/doi";
import { shippedVocabularies } from "../../src/vocabularies/fixtures";
import { BASE_URL } from "./app";

type Json = Record<string, any>;

/** Directory entries the full metadata refers to (not shipped): create them before publishing. */
export const EXTRA_VOCABULARY: Record<string, Json[]> = {
  affiliations: [{ id: "01ggx4157", name: "CERN", acronym: "CERN", country: "CH", identifiers: [{ scheme: "ror", identifier: "01ggx4157" }] }],
  subjects: [{ id: "https://id.nlm.nih.gov/mesh/D012621", scheme: "MeSH", subject: "Seals, Earless" }],
};

export const MINIMAL_EXPORT_METADATA = {
  resource_type: { id: "dataset" },
  title: "Sea surface temperature 2020-2024",
  publication_date: "2026",
  creators: [{ person_or_org: { type: "personal", name: "Lovelace, Ada", given_name: "Ada", family_name: "Lovelace" } }],
  publisher: "Cairn test repository",
};

export const FULL_EXPORT_METADATA = {
  resource_type: { id: "image-photo" },
  title: "Harbour seals of the north shore",
  additional_titles: [{ title: "A drone survey", type: { id: "subtitle" }, lang: { id: "eng" } }],
  publication_date: "2023-09/2024-02",
  creators: [
    {
      person_or_org: { type: "personal", name: "Silva, Ana", given_name: "Ana", family_name: "Silva", identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] },
      role: { id: "datacollector" },
      affiliations: [{ id: "01ggx4157" }, { name: "Sea Institute" }],
    },
    { person_or_org: { type: "organizational", name: "Seal Watch", identifiers: [{ scheme: "ror", identifier: "03yrm5c26" }] } },
  ],
  contributors: [
    { person_or_org: { type: "personal", name: "Berg, Ola", given_name: "Ola", family_name: "Berg" }, role: { id: "editor" } },
    { person_or_org: { type: "personal", name: "Dupont, Marie", given_name: "Marie", family_name: "Dupont" }, role: { id: "translator" } },
  ],
  publisher: "Sea Institute",
  version: "2.0",
  description: '<p>Seals &amp; pups on the "north" shore.</p>',
  additional_descriptions: [{ description: "<p>Drone flights at 40 m.</p>", type: { id: "methods" } }],
  subjects: [{ subject: "seals" }, { subject: "drones" }, { id: "https://id.nlm.nih.gov/mesh/D012621" }],
  languages: [{ id: "eng" }, { id: "nor" }],
  dates: [
    { date: "2023-09-01/2023-09-30", type: { id: "collected" }, description: "Flights" },
    { date: "2024-03", type: { id: "accepted" } },
  ],
  rights: [{ id: "cc-by-4.0" }],
  related_identifiers: [
    { identifier: "10.5555/paper.1", scheme: "doi", relation_type: { id: "issupplementto" } },
    { identifier: "https://example.org/site", scheme: "url", relation_type: { id: "references" } },
    { identifier: "10.5555/translated", scheme: "doi", relation_type: { id: "hastranslation" } },
  ],
  formats: ["image/jpeg"],
  locations: {
    features: [
      { geometry: { type: "Point", coordinates: [10.75, 59.91] }, place: "North shore" },
      {
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [10.7, 59.9],
              [10.8, 59.9],
              [10.8, 60],
              [10.7, 60],
              [10.7, 59.9],
            ],
          ],
        },
        place: "Survey area",
      },
    ],
  },
};

// The shipped vocabularies plus EXTRA_VOCABULARY: what the app's `vocabularies.lookup` answers.
const entries = new Map<string, Map<string, Json>>();
for (const { type, entries: list } of shippedVocabularies()) entries.set(type, new Map(list.map((e) => [e.id, e])));
for (const [type, list] of Object.entries(EXTRA_VOCABULARY)) entries.set(type, new Map(list.map((e) => [e.id, { ...e, title: { en: e.name ?? e.subject } }])));

export function exportContext(): ExportContext {
  return {
    links: createLinks(BASE_URL),
    siteName: "Cairn",
    lookup: (type, id) => entries.get(type)?.get(id) ?? null,
    doiUrl: (doi) => doiResolverUrl(doi, false),
  };
}

/** The `files` object of a record with two files: an md5 CSV and a sha1 photo whose name needs escaping. */
export function exportFiles(id: string): Json {
  const entry = (key: string, size: number, mimetype: string, checksum: string) => {
    const self = `/api/records/${id}/files/${encodeURIComponent(key)}`;
    return [key, { id: `${key}-id`, key, size, mimetype, checksum, ext: key.split(".").pop(), links: { self, content: `${self}/content` } }];
  };
  return {
    enabled: true,
    default_preview: null,
    order: [],
    count: 2,
    total_bytes: 1024 + 2048,
    entries: Object.fromEntries([
      entry("seals.csv", 1024, "text/csv", "md5:0123456789abcdef0123456789abcdef"),
      entry("photo 1.jpg", 2048, "image/jpeg", "sha1:0123456789abcdef0123456789abcdef01234567"),
    ]),
  };
}

/** A published record's JSON in the API's shape; `overrides` replace top-level members. */
export function exportRecord(id: string, metadata: Json, overrides: Json = {}): ExportRecord {
  return {
    id,
    created: "2026-11-22T12:00:00.000000+00:00",
    updated: "2026-11-22T12:00:00.000000+00:00",
    revision_id: 1,
    access: { record: "public", files: "public", embargo: { active: false, until: null, reason: null }, status: "metadata-only" },
    files: { enabled: false, default_preview: null, order: [], count: 0, total_bytes: 0, entries: {} },
    metadata,
    custom_fields: {},
    pids: {},
    parent: { id: "pqrst-11111", access: { owned_by: { user: "1" } }, communities: {}, pids: {} },
    versions: { index: 1, is_latest: true, is_latest_draft: true },
    is_published: true,
    is_draft: false,
    status: "published",
    links: { self: `${BASE_URL}/api/records/${id}`, self_html: `${BASE_URL}/records/${id}` },
    ...overrides,
  };
}

/** The full record: DOI, concept DOI, two files, public. */
export function fullExportRecord(): ExportRecord {
  const id = "fghjk-67890";
  return exportRecord(id, FULL_EXPORT_METADATA, {
    access: { record: "public", files: "public", embargo: { active: false, until: null, reason: null }, status: "open" },
    files: exportFiles(id),
    pids: { doi: { identifier: `10.1234/${id}`, provider: "datacite", client: "datacite" } },
    parent: {
      id: "pqrst-11111",
      access: { owned_by: { user: "1" } },
      communities: {},
      pids: { doi: { identifier: "10.1234/pqrst-11111", provider: "datacite", client: "datacite" } },
    },
  });
}
