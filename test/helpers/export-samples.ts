// Records for export tests and the export benchmark: a draft body using every metadata field and
// the four custom fields, the directory entries it refers to, and a record JSON built by hand in
// the API's shape (any number of creators and files) for unit tests without an app.
import { createLinks } from "../../src/core/links";
import type { RecordDocument as ExportRecord } from "../../src/core/record-document";
import type { ExportContext } from "../../src/exports/types";
import { shippedVocabularies } from "../../src/vocabularies/fixtures";

/** Directory entries (not shipped) the rich metadata refers to; POST them as admin first. */
export const DIRECTORY_ENTRIES: [type: string, entry: Record<string, unknown>][] = [
  ["affiliations", { id: "01ggx4157", name: "CERN", acronym: "CERN", country: "CH", identifiers: [{ scheme: "ror", identifier: "01ggx4157" }] }],
  ["funders", { id: "00k4n6c32", name: "European Commission", acronym: "EC", country: "BE", identifiers: [{ scheme: "ror", identifier: "00k4n6c32" }] }],
  [
    "awards",
    {
      number: "101004490",
      title: { en: "Open science for glaciers" },
      acronym: "GLACIO",
      funder: { id: "00k4n6c32" },
      identifiers: [{ scheme: "url", identifier: "https://cordis.europa.eu/projects/101004490" }],
    },
  ],
  ["subjects", { id: "https://id.nlm.nih.gov/mesh/D000001", scheme: "MeSH", subject: "Calcimycin" }],
];

/** Every metadata field of the spec table and InvenioRDM §3.3, with LaTeX and HTML specials in text. */
export const RICH_METADATA = {
  resource_type: { id: "publication-article" },
  title: "Measurements of glaciers & ice_caps: 100% #1 {draft}",
  additional_titles: [{ title: "A subtitle", type: { id: "subtitle" }, lang: { id: "eng" } }],
  publication_date: "2024-05-17",
  creators: [
    {
      person_or_org: { type: "personal", given_name: "Jane", family_name: "Doe-Müller", identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] },
      role: { id: "datacollector" },
      affiliations: [{ id: "01ggx4157" }, { name: "Free University" }],
    },
    { person_or_org: { type: "organizational", name: "ACME Lab", identifiers: [{ scheme: "ror", identifier: "01ggx4157" }] } },
  ],
  contributors: [{ person_or_org: { type: "personal", given_name: "Richard", family_name: "Roe" }, role: { id: "supervisor" } }],
  publisher: "Cairn test repository",
  version: "v1.0",
  copyright: "© 2024 The authors",
  description: "<p>Data <b>collected</b> on glaciers &amp; ice caps, 2023 season.</p>",
  additional_descriptions: [
    { description: "<h2>Methods</h2>We measured with GPS.", type: { id: "methods" }, lang: { id: "eng" } },
    { description: "Presented at the glacier workshop.", type: { id: "other" } },
  ],
  subjects: [{ id: "https://id.nlm.nih.gov/mesh/D000001" }, { subject: "glaciers" }],
  languages: [{ id: "eng" }, { id: "dan" }],
  dates: [{ date: "2023-06-01/2023-08-31", type: { id: "collected" }, description: "Field season" }],
  rights: [{ id: "cc-by-4.0" }, { title: { en: "Custom terms" }, description: { en: "Ask us." }, link: "https://example.org/terms" }],
  identifiers: [
    { scheme: "doi", identifier: "10.5281/zenodo.123" },
    { scheme: "arxiv", identifier: "arXiv:1501.00001" },
    { scheme: "isbn", identifier: "978-3-16-148410-0" },
  ],
  related_identifiers: [
    { identifier: "10.1234/paper.1", scheme: "doi", relation_type: { id: "iscitedby" }, resource_type: { id: "publication-article" } },
    { identifier: "https://example.org/data", scheme: "url", relation_type: { id: "cites" } },
  ],
  sizes: ["2 files", "1 GB"],
  formats: ["text/csv"],
  references: [{ reference: "Doe J. (2020) Things.", identifier: "0000000121032683", scheme: "isni" }],
  funding: [
    { funder: { id: "00k4n6c32" }, award: { id: "00k4n6c32::101004490" } },
    { funder: { name: "Local Trust" }, award: { number: "LT-1", title: { en: "Small grant" } } },
  ],
  locations: {
    features: [
      { geometry: { type: "Point", coordinates: [6.05, 46.23] }, place: "CERN", description: "Main site", identifiers: [{ scheme: "geonames", identifier: "2661604" }] },
      {
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [7.9, 46.4],
              [8.1, 46.4],
              [8.1, 46.6],
              [7.9, 46.6],
              [7.9, 46.4],
            ],
          ],
        },
        place: "Aletsch glacier",
      },
      { place: "Somewhere in the Alps" },
    ],
  },
};

export const RICH_CUSTOM_FIELDS = {
  "journal:journal": { title: "Journal of Glaciology", volume: "70", issue: "3", pages: "101-120", issn: "0022-1430" },
  "imprint:imprint": { title: "Proceedings of Ice", isbn: "978-3-16-148410-0", pages: "1-10", place: "Geneva", edition: "2" },
  "meeting:meeting": { title: "Glacier workshop", acronym: "GW", dates: "1-3 May 2024", place: "Zermatt", session: "A", session_part: "1", url: "https://example.org/gw" },
  "thesis:university": "University of Bern",
};

// The shipped vocabularies plus the directory entries above: what `vocabularies.lookup` answers.
const entries = new Map<string, Map<string, Record<string, any>>>();
for (const { type, entries: list } of shippedVocabularies()) entries.set(type, new Map(list.map((e) => [e.id, e])));
for (const [type, entry] of DIRECTORY_ENTRIES) {
  const id = type === "awards" ? `00k4n6c32::${entry.number}` : String(entry.id);
  if (!entries.has(type)) entries.set(type, new Map());
  entries.get(type)!.set(id, { ...entry, id });
}

export const BASE = "http://127.0.0.1:5000";

/** An export context as the app builds it, over the shipped vocabularies and the entries above. */
export function testContext(params: Record<string, string> = {}): ExportContext {
  return {
    links: createLinks(BASE),
    siteName: "Cairn",
    lookup: (type, id) => entries.get(type)?.get(id) ?? null,
    doiUrl: (doi) => `https://handle.stage.datacite.org/${doi}`,
    params,
  };
}

const vocab = (type: string, id: string) => ({ id, title: entries.get(type)?.get(id)?.title ?? { en: id } });

/** A published record's JSON in the API's shape, with `creators` creators and `files` files. */
export function sampleRecord(options: { creators?: number; files?: number; id?: string } = {}): ExportRecord {
  const { creators = 2, files = 2, id = "abcde-12345" } = options;
  const people = Array.from({ length: creators }, (_, i) => ({
    person_or_org: {
      type: "personal",
      name: `Family${i}, Given${i}`,
      given_name: `Given${i}`,
      family_name: `Family${i}`,
      ...(i % 5 === 0 ? { identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] } : {}),
    },
    affiliations: [{ id: "01ggx4157", name: "CERN" }],
  }));
  const entriesByKey = Object.fromEntries(
    Array.from({ length: files }, (_, i) => {
      const key = `data/part-${i}.csv`;
      return [
        key,
        {
          id: `f${i}`,
          key,
          size: 1000 + i,
          mimetype: "text/csv",
          checksum: "md5:0cc175b9c0f1b6a831c399e269772661",
          links: { self: `/api/records/${id}/files/${key}`, content: `/api/records/${id}/files/${key}/content` },
        },
      ];
    }),
  );
  const metadata = {
    ...RICH_METADATA,
    resource_type: vocab("resourcetypes", "dataset"),
    creators: people,
    languages: [vocab("languages", "eng")],
    rights: [{ ...entries.get("licenses")!.get("cc-by-4.0") }],
    subjects: [{ id: "https://id.nlm.nih.gov/mesh/D000001", subject: "Calcimycin", scheme: "MeSH" }, { subject: "glaciers" }],
    funding: [{ funder: { id: "00k4n6c32", name: "European Commission" }, award: { id: "00k4n6c32::101004490", number: "101004490", title: { en: "Open science for glaciers" } } }],
  };
  return {
    id,
    created: "2026-11-22T12:00:00.000000+00:00",
    updated: "2026-11-22T12:00:00.000000+00:00",
    revision_id: 3,
    access: { record: "public", files: "public", embargo: { active: false, until: null, reason: null }, status: "open" },
    files: { enabled: true, default_preview: null, order: [], count: files, total_bytes: files * 1000, entries: entriesByKey },
    metadata,
    custom_fields: RICH_CUSTOM_FIELDS,
    pids: { doi: { identifier: `10.1234/${id}`, provider: "datacite", client: "datacite" }, oai: { identifier: `oai:127.0.0.1:${id}`, provider: "oai" } },
    parent: { id: "zzzzz-00000", pids: { doi: { identifier: "10.1234/zzzzz-00000", provider: "datacite" } } },
    versions: { index: 1, is_latest: true, is_latest_draft: true },
    is_published: true,
    is_draft: false,
    status: "published",
    links: { self: `${BASE}/api/records/${id}`, self_html: `${BASE}/records/${id}` },
  };
}

/** The least a published record carries: type, title, date, one creator; no DOI, no files. */
export function minimalRecord(id = "mnmal-00001"): ExportRecord {
  const record = sampleRecord({ id, creators: 1, files: 0 });
  return {
    ...record,
    files: { enabled: false, default_preview: null, order: [], count: 0, total_bytes: 0, entries: {} },
    metadata: {
      resource_type: vocab("resourcetypes", "dataset"),
      title: "Sea surface temperature 2020-2024",
      publication_date: "2026",
      creators: [{ person_or_org: { type: "personal", name: "Lovelace, Ada", given_name: "Ada", family_name: "Lovelace" } }],
    },
    custom_fields: {},
    pids: {},
    parent: { id: "mnmal-00000", pids: {} },
  };
}
