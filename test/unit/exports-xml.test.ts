// src/exports/xml: DataCite XML 4.5, Dublin Core (oai_dc), MARCXML and DCAT-AP 2.1.1, each validated
// against the official schema (XSD through xmllint-wasm, DCAT-AP through the SHACL shapes) and read back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { XMLParser } from "fast-xml-parser";
import { systemActor } from "../../src/core/actor";
import { createLinks } from "../../src/core/links";
import type { RecordDocument as ExportRecord } from "../../src/core/record-document";
import { renderContext } from "../../src/exports/context";
import type { ExportContext, ExportFormat } from "../../src/exports/types";
import { dcatFormat, dcatRdf } from "../../src/exports/xml/dcat";
import { dataciteResource, dataciteXmlFormat } from "../../src/exports/xml/datacite";
import { renderXml, xmlBuilder } from "../../src/exports/xml/document";
import { dublinCoreElement, dublinCoreFormat } from "../../src/exports/xml/dublin-core";
import { marcxmlFormat, marcxmlRecord } from "../../src/exports/xml/marcxml";
import { doiResolverUrl } from "../../src/pids/doi";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";
import { DIRECTORY_ENTRIES, sampleRecord, testContext } from "../helpers/export-samples";
import { expectDcatConforms, expectXsdValid, parseRdfXml, validateDcat, validateXsd, type XsdName } from "../helpers/xml-validate";

const ctx = testContext();
const XSD_FORMATS: [ExportFormat, XsdName][] = [
  [dataciteXmlFormat, "datacite"],
  [dublinCoreFormat, "oai_dc"],
  [marcxmlFormat, "marc21"],
];

// Fixtures in presentRecord's shape (vocabulary values dumped with their titles and props, files
// entries keyed by name with path-only links). The metadata also loads as a draft body.

/** presentRecord's shape around `metadata`. */
function exportRecord(id: string, metadata: Record<string, any>, overrides: Record<string, any> = {}): ExportRecord {
  const api = (p: string) => `${BASE_URL}/api/records/${id}${p}`;
  return {
    id,
    created: "2026-11-20 09:00:00.000000",
    updated: "2026-11-22 12:00:00.000000",
    revision_id: 3,
    access: { record: "public", files: "public", embargo: { active: false, reason: null }, status: "open" },
    files: { enabled: false, default_preview: null, order: [], count: 0, total_bytes: 0, entries: {} },
    metadata,
    custom_fields: {},
    pids: {},
    parent: { id: "pqrst-11111", access: { owned_by: { user: "2" }, links: [], grants: [], settings: {} }, communities: {}, pids: {} },
    is_published: true,
    is_draft: false,
    status: "published",
    versions: { index: 1, is_latest: true, is_latest_draft: true },
    links: { self: api(""), self_html: `${BASE_URL}/records/${id}`, files: api("/files") },
    ...overrides,
  };
}

const MINIMAL_EXPORT_METADATA = {
  resource_type: { id: "dataset", title: { en: "Dataset" } },
  title: "Sea surface temperature 2020-2024",
  publication_date: "2026",
  creators: [{ person_or_org: { type: "personal", name: "Lovelace, Ada", given_name: "Ada", family_name: "Lovelace" } }],
};

/** Every metadata field of InvenioRDM's MetadataSchema, dumped. */
const FULL_EXPORT_METADATA = {
  resource_type: { id: "image-photo", title: { en: "Photo" } },
  creators: [
    {
      person_or_org: { type: "personal", name: "Silva, Ana", given_name: "Ana", family_name: "Silva", identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] },
      role: { id: "datacollector", title: { en: "Data collector" } },
      affiliations: [{ id: "01ggx4157", name: "CERN" }, { name: "Sea Institute" }],
    },
    { person_or_org: { type: "organizational", name: "Seal Watch", identifiers: [{ scheme: "ror", identifier: "03yrm5c26" }] } },
  ],
  title: "Harbour seals of the north shore",
  additional_titles: [{ title: "A drone survey", type: { id: "subtitle", title: { en: "Subtitle" } }, lang: { id: "eng", title: { en: "English" } } }],
  publisher: "Sea Institute",
  publication_date: "2023-09/2024-02",
  subjects: [{ subject: "seals" }, { subject: "drones" }, { id: "https://id.nlm.nih.gov/mesh/D000001", subject: "Calcimycin", scheme: "MeSH" }],
  contributors: [
    { person_or_org: { type: "personal", name: "Berg, Ola", given_name: "Ola", family_name: "Berg" }, role: { id: "editor", title: { en: "Editor" } } },
    { person_or_org: { type: "personal", name: "Dupont, Marie", given_name: "Marie", family_name: "Dupont" }, role: { id: "translator", title: { en: "Translator" } } },
  ],
  dates: [
    { date: "2023-09-01/2023-09-30", type: { id: "collected", title: { en: "Collected" } }, description: "Field season" },
    { date: "2024-03", type: { id: "accepted", title: { en: "Accepted" } } },
  ],
  languages: [
    { id: "eng", title: { en: "English" } },
    { id: "nor", title: { en: "Norwegian" } },
  ],
  identifiers: [
    { identifier: "ark:/12345/x1", scheme: "ark" },
    { identifier: "https://sea.example/seals", scheme: "url" },
  ],
  related_identifiers: [
    {
      identifier: "10.5555/paper.1",
      scheme: "doi",
      relation_type: { id: "issupplementto", title: { en: "Is supplement to" } },
      resource_type: { id: "publication-article", title: { en: "Journal article" } },
    },
    { identifier: "https://example.org/site", scheme: "url", relation_type: { id: "references", title: { en: "References" } } },
    { identifier: "10.5555/translated", scheme: "doi", relation_type: { id: "hastranslation", title: { en: "Has translation" } } },
  ],
  sizes: ["12 images", "3 MB"],
  formats: ["image/jpeg"],
  version: "v2.1",
  rights: [
    { id: "cc-by-4.0", title: { en: "Creative Commons Attribution 4.0 International" }, props: { url: "https://creativecommons.org/licenses/by/4.0/legalcode", scheme: "spdx" } },
    { title: { en: "Ask the institute" }, description: { en: "Reuse needs a signed form." }, link: "https://sea.example/terms" },
    { title: { en: "No commercial drones" } },
  ],
  copyright: "© 2024 Sea Institute",
  description: "<p>Seals &amp; <b>pups</b> on the &quot;north&quot; shore.</p>",
  additional_descriptions: [
    { description: "<p>Drone flights at <i>40 m</i>.</p>", type: { id: "methods", title: { en: "Methods" } }, lang: { id: "eng", title: { en: "English" } } },
  ],
  locations: {
    features: [
      { geometry: { type: "Point", coordinates: [10.5, 59.9] }, place: "North shore", description: "Main colony" },
      {
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [10, 59],
              [11, 59],
              [11, 60],
              [10, 60],
              [10, 59],
            ],
          ],
        },
        place: "Survey area",
      },
    ],
  },
  funding: [
    {
      funder: { id: "00k4n6c32", name: "European Commission" },
      award: { title: { en: "SEALS" }, number: "101000001", identifiers: [{ scheme: "url", identifier: "https://cordis.europa.eu/project/id/101000001" }] },
    },
    { funder: { name: "Sea Foundation" } },
  ],
  references: [{ reference: "Nilsen (2020) Seals of Norway", scheme: "doi", identifier: "10.5555/ref.1" }, { reference: "Unpublished field notes" }],
};

/** Files keyed by name, path-only links: an md5 checksum (what uploads get) and a sha1 one. */
function exportFiles(id: string) {
  const entry = (key: string, size: number, mimetype: string, checksum: string) => {
    const self = `/api/records/${id}/files/${encodeURIComponent(key)}`;
    return { key, size, mimetype, checksum, ext: key.split(".").pop(), links: { self, content: `${self}/content` } };
  };
  const entries = {
    "seals.csv": entry("seals.csv", 1024, "text/csv", "md5:0123456789abcdef0123456789abcdef"),
    "photo 1.jpg": entry("photo 1.jpg", 2048000, "image/jpeg", "sha1:0123456789abcdef0123456789abcdef01234567"),
  };
  return { enabled: true, default_preview: "seals.csv", order: [], count: 2, total_bytes: 2049024, entries };
}

const doiPid = (doi: string) => ({ doi: { identifier: doi, provider: "datacite", client: "datacite" } });
const full = () =>
  exportRecord("fghjk-67890", FULL_EXPORT_METADATA, {
    pids: { ...doiPid("10.1234/fghjk-67890"), oai: { identifier: "oai:127.0.0.1:fghjk-67890", provider: "oai" } },
    parent: { id: "pqrst-11111", access: { owned_by: { user: "2" }, links: [], grants: [], settings: {} }, communities: {}, pids: doiPid("10.1234/pqrst-11111") },
    custom_fields: { "thesis:university": "University of the Sea" },
    files: exportFiles("fghjk-67890"),
  });
const minimal = () => exportRecord("abcde-12345", MINIMAL_EXPORT_METADATA);

// Text no export may pass through raw: markup, entities, quotes, C0 controls, a lone surrogate, U+FFFE.
const HOSTILE_TITLE = `Tags <b>&amp; "quotes" 'single' & more\u0001\u000b\u001f\ud800\ufffe done`;
const HOSTILE_TITLE_CLEAN = `Tags <b>&amp; "quotes" 'single' & more done`;
const hostile = () =>
  exportRecord(
    "hstle-00001",
    {
      ...MINIMAL_EXPORT_METADATA,
      title: HOSTILE_TITLE,
      description: `<script>alert("x")</script><p>a &lt; b &amp;&amp; c</p><img src=x onerror="y">\u0007`,
      creators: [{ person_or_org: { type: "personal", name: "O'Brien & <Sons>", family_name: "O'Brien & <Sons>" } }],
      subjects: [{ subject: "]]> <!-- -->" }],
      publisher: `Pub "&" <lisher>`,
    },
    {
      files: {
        ...exportFiles("hstle-00001"),
        entries: { 'a&b "c"\u0002.csv': { key: 'a&b "c"\u0002.csv', size: 3, mimetype: "text/csv; charset=x", checksum: "md5:00", links: {} } },
      },
    },
  );

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  parseTagValue: false,
  isArray: (name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute && name !== "#text",
});
const parse = (xml: string): any => parser.parse(xml);
/** Text of an element (every element parses as a list): a bare string, or #text beside attributes. */
const text = (node: any): string => (typeof node === "string" ? node : (node?.["#text"] ?? ""));

describe("every XML export validates against its schema", () => {
  for (const [format, schema] of XSD_FORMATS) {
    test(`${format.id}: minimal, full and hostile records against ${schema}`, async () => {
      await expectXsdValid(schema, ...[minimal(), full(), hostile()].map((r) => format.render(r, ctx)));
    });
  }

  test("dcat-ap: minimal, full and hostile records conform to the DCAT-AP 2.1.1 SHACL shapes", async () => {
    for (const record of [minimal(), full(), hostile()]) await expectDcatConforms(dcatFormat.render(record, ctx));
  });

  test("the export benchmark's record (50 creators, 100 files, custom fields) is valid in every format", async () => {
    const big = sampleRecord({ creators: 50, files: 100 });
    for (const [format, schema] of XSD_FORMATS) await expectXsdValid(schema, format.render(big, ctx));
    await expectDcatConforms(dcatFormat.render(big, ctx));
    const marc = parse(marcxmlFormat.render(big, ctx)).record[0];
    expect(marc.datafield.filter((f: any) => f["@_tag"] === "856")).toHaveLength(101); // landing page + 100 files
  });

  test("the validators reject what they should (a schema failure fails the test)", async () => {
    const broken = dataciteXmlFormat.render(minimal(), ctx).replace(/<publicationYear>\d+<\/publicationYear>/, "");
    const [result] = await validateXsd("datacite", broken);
    expect(result!.valid).toBe(false);
    expect(result!.errors.join("\n")).toContain("publicationYear");
    await expect(expectXsdValid("marc21", marcxmlFormat.render(minimal(), ctx).replace("<leader>", "<leader>x"))).rejects.toThrow("leader");
    const noTitle = dcatFormat.render(minimal(), ctx).replace(/<dct:title>[^<]*<\/dct:title>/, "");
    const report = await validateDcat(noTitle);
    expect(report.conforms).toBe(false);
    expect(report.messages.join("\n")).toContain("http://purl.org/dc/terms/title");
  });

  test("formats carry InvenioRDM's ids, media types and extensions", () => {
    expect([dataciteXmlFormat, dublinCoreFormat, marcxmlFormat, dcatFormat].map((f) => [f.id, f.mediaTypes[0], f.extension])).toEqual([
      ["datacite-xml", "application/vnd.datacite.datacite+xml", "xml"],
      ["dublincore", "application/x-dc+xml", "xml"],
      ["marcxml", "application/marcxml+xml", "xml"],
      ["dcat-ap", "application/dcat+xml", "rdf"],
    ]);
  });
});

describe("DataCite XML values", () => {
  test("identifier, creators, titles, dates and the kernel-4.5 limits", () => {
    const r = parse(dataciteXmlFormat.render(full(), ctx)).resource[0];
    expect(r["@_xmlns"]).toBe("http://datacite.org/schema/kernel-4");
    expect(r["@_xsi:schemaLocation"]).toBe("http://datacite.org/schema/kernel-4 http://schema.datacite.org/meta/kernel-4.5/metadata.xsd");
    expect([text(r.identifier[0]), r.identifier[0]["@_identifierType"]]).toEqual(["10.1234/fghjk-67890", "DOI"]);
    const creators = r.creators[0].creator;
    expect(creators.map((c: any) => text(c.creatorName[0]))).toEqual(["Silva, Ana", "Seal Watch"]);
    expect(creators[0].nameIdentifier[0]).toMatchObject({ "#text": "0000-0002-1825-0097", "@_nameIdentifierScheme": "ORCID" });
    expect(creators[0].affiliation[0]).toMatchObject({ "#text": "CERN", "@_affiliationIdentifier": "https://ror.org/01ggx4157" });
    expect(r.titles[0].title.map(text)).toEqual(["Harbour seals of the north shore", "A drone survey"]);
    expect(text(r.publicationYear[0])).toBe("2023");
    expect(r.resourceType[0]).toMatchObject({ "#text": "Photo", "@_resourceTypeGeneral": "Image" });
    expect(r.dates[0].date.map((d: any) => [text(d), d["@_dateType"]])).toEqual([
      ["2023-09/2024-02", "Issued"],
      ["2023-09-01/2023-09-30", "Collected"],
      ["2024-03", "Accepted"],
      ["2026-11-22", "Updated"],
    ]);
    // 4.6 values are not in kernel 4.5: a translator is Other, a HasTranslation relation is left out.
    expect(r.contributors[0].contributor.map((c: any) => c["@_contributorType"])).toEqual(["Editor", "Other"]);
    expect(r.relatedIdentifiers[0].relatedIdentifier.map((x: any) => x["@_relationType"])).toEqual(["IsSupplementTo", "References", "IsVersionOf"]);
    expect(text(r.descriptions[0].description[0])).toBe('Seals & pups on the "north" shore.');
  });

  test("without a DOI the landing page is the identifier (the element is mandatory)", () => {
    const r = parse(dataciteXmlFormat.render(minimal(), ctx)).resource[0];
    expect(r.identifier[0]).toMatchObject({ "#text": `${BASE_URL}/records/abcde-12345`, "@_identifierType": "URL" });
    expect(r.alternateIdentifiers).toBeUndefined();
    expect(r.publisher.map(text)).toEqual([ctx.siteName]); // DataCite requires a publisher
  });
});

describe("Dublin Core values", () => {
  test("oai_dc elements as InvenioRDM maps them", () => {
    const dc = parse(dublinCoreFormat.render(full(), ctx))["oai_dc:dc"][0];
    expect(dc["dc:title"].map(text)).toEqual(["Harbour seals of the north shore", "A drone survey"]);
    expect(dc["dc:creator"].map(text)).toEqual(["Silva, Ana", "Seal Watch"]);
    expect(dc["dc:contributor"].map(text)).toEqual(["Berg, Ola", "Dupont, Marie"]);
    expect(dc["dc:subject"].map(text)).toEqual(["seals", "drones"]);
    expect(dc["dc:description"].map(text)).toEqual(['Seals & pups on the "north" shore.', "Drone flights at 40 m."]);
    expect(dc["dc:date"].map(text)).toEqual(["2023-09/2024-02"]);
    expect(dc["dc:type"].map(text)).toEqual(["info:eu-repo/semantics/other"]);
    expect(dc["dc:identifier"].map(text)).toContain("10.1234/fghjk-67890");
    expect(dc["dc:identifier"].map(text)).toContain(`${BASE_URL}/records/fghjk-67890`);
    expect(dc["dc:language"].map(text)).toEqual(["eng", "nor"]);
    expect(dc["dc:relation"].map(text)).toEqual(["doi:10.5555/paper.1", "url:https://example.org/site", "doi:10.5555/translated", "doi:10.1234/pqrst-11111"]);
    expect(dc["dc:rights"].map(text).slice(0, 3)).toEqual([
      "info:eu-repo/semantics/openAccess",
      "Creative Commons Attribution 4.0 International",
      "https://creativecommons.org/licenses/by/4.0/legalcode",
    ]);
    expect(dc["dc:coverage"].map(text)).toEqual(["North shore", "Survey area"]);
    expect(dc["dc:format"].map(text)).toEqual(["image/jpeg"]);
  });

  test("an embargo gives embargoedAccess and the embargo end date", () => {
    const record = exportRecord("embrg-00001", MINIMAL_EXPORT_METADATA, {
      access: { record: "public", files: "restricted", embargo: { active: true, until: "2027-01-01", reason: null }, status: "embargoed" },
    });
    const dc = parse(dublinCoreFormat.render(record, ctx))["oai_dc:dc"][0];
    expect(dc["dc:rights"].map(text)).toEqual(["info:eu-repo/semantics/embargoedAccess"]);
    expect(dc["dc:date"].map(text)).toEqual(["2026", "info:eu-repo/date/embargoEnd/2027-01-01"]);
  });
});

describe("MARCXML values", () => {
  const fields = (xml: string) => {
    const rec = parse(xml).record[0];
    const data = (tag: string) => rec.datafield.filter((f: any) => f["@_tag"] === tag).map((f: any) => Object.fromEntries(f.subfield.map((s: any) => [s["@_code"], text(s)])));
    return { rec, data };
  };

  test("leader, control fields, DOI, people, title, publication, files", () => {
    const { rec, data } = fields(marcxmlFormat.render(full(), ctx));
    expect(text(rec.leader[0])).toBe("00000nkm a2200000zu 4500"); // k: image
    expect(rec.controlfield.map((c: any) => [c["@_tag"], text(c)])).toEqual([
      ["001", "fghjk-67890"],
      ["005", "20261122120000.0"],
    ]);
    expect(data("024")[0]).toEqual({ a: "10.1234/fghjk-67890", "2": "doi" });
    expect(data("100")).toEqual([{ a: "Silva, Ana", "0": "(orcid)0000-0002-1825-0097", u: "CERN", "4": "col" }]);
    expect(data("700").map((f: any) => f.a)).toEqual(["Seal Watch", "Berg, Ola", "Dupont, Marie"]);
    expect(data("245")).toEqual([{ a: "Harbour seals of the north shore" }]);
    expect(data("260")).toEqual([{ b: "Sea Institute", c: "2023-09/2024-02" }]);
    expect(data("520")).toEqual([{ a: 'Seals & pups on the "north" shore.' }]);
    expect(data("540")[0]).toMatchObject({ a: "Creative Commons Attribution 4.0 International", u: "https://creativecommons.org/licenses/by/4.0/legalcode" });
    expect(data("650")).toEqual([{ a: "Calcimycin", "0": "https://id.nlm.nih.gov/mesh/D000001", "2": "MeSH" }]);
    expect(data("653").map((f: any) => f.a)).toEqual(["seals", "drones"]);
    expect(data("856").map((f: any) => f.u)).toEqual([
      `${BASE_URL}/records/fghjk-67890`,
      `${BASE_URL}/api/records/fghjk-67890/files/seals.csv/content`,
      `${BASE_URL}/api/records/fghjk-67890/files/photo%201.jpg/content`,
    ]);
    expect(data("856")[1]).toMatchObject({ s: "1024", z: "md5:0123456789abcdef0123456789abcdef" });
    expect(data("980")).toEqual([{ a: "image", b: "photo" }]);
  });

  test("a dataset is a computer file; a minimal record has no empty fields", () => {
    const { rec } = fields(marcxmlFormat.render(minimal(), ctx));
    expect(text(rec.leader[0])).toBe("00000nmm a2200000zu 4500");
    expect(rec.datafield.map((f: any) => f["@_tag"])).toEqual(["100", "245", "260", "542", "856", "980"]);
  });
});

describe("DCAT-AP values", () => {
  const objects = (ds: any, s: string | null, p: string) =>
    [...ds.match(s ? { termType: "NamedNode", value: s } : null, { termType: "NamedNode", value: p })].map((q: any) => q.object);

  test("the dataset, its creators and one distribution per file", async () => {
    const ds = await parseRdfXml(dcatFormat.render(full(), ctx));
    const id = ctx.doiUrl("10.1234/fghjk-67890");
    const DCT = "http://purl.org/dc/terms/";
    const DCAT = "http://www.w3.org/ns/dcat#";
    expect(objects(ds, id, `${DCT}title`).map((o) => o.value)).toEqual(["Harbour seals of the north shore"]);
    expect(objects(ds, id, `${DCT}issued`).map((o) => [o.value, o.datatype.value])).toEqual([["2023-09", "http://www.w3.org/2001/XMLSchema#gYearMonth"]]);
    expect(objects(ds, id, `${DCT}creator`).map((o) => o.value)).toEqual(["https://orcid.org/0000-0002-1825-0097", "https://ror.org/03yrm5c26"]);
    expect(objects(ds, id, `${DCT}accessRights`).map((o) => o.value)).toEqual(["http://publications.europa.eu/resource/authority/access-right/PUBLIC"]);
    expect(objects(ds, id, `${DCT}language`).map((o) => o.value)).toEqual([
      "http://publications.europa.eu/resource/authority/language/ENG",
      "http://publications.europa.eu/resource/authority/language/NOR",
    ]);
    expect(objects(ds, id, `${DCAT}keyword`).map((o) => o.value)).toEqual(["seals", "drones", "Calcimycin"]);
    const distributions = objects(ds, id, `${DCAT}distribution`).map((o) => o.value);
    expect(distributions).toEqual([`${BASE_URL}/api/records/fghjk-67890/files/seals.csv/content`, `${BASE_URL}/api/records/fghjk-67890/files/photo%201.jpg/content`]);
    expect(objects(ds, distributions[0]!, `${DCAT}accessURL`).map((o) => o.value)).toEqual([`${BASE_URL}/records/fghjk-67890`]);
    expect(objects(ds, distributions[0]!, `${DCAT}byteSize`).map((o) => o.value)).toEqual(["1024"]);
    // SHA-1 is the only algorithm the 2.1.1 Checksum shape admits: the md5 file has none.
    expect(objects(ds, distributions[0]!, "http://spdx.org/rdf/terms#checksum")).toEqual([]);
    const [sum] = objects(ds, distributions[1]!, "http://spdx.org/rdf/terms#checksum");
    expect(objects(ds, null, "http://spdx.org/rdf/terms#checksumValue").map((o) => o.value)).toEqual(["0123456789abcdef0123456789abcdef01234567"]);
    expect(sum).toBeDefined();
  });

  test("a record without a description is described by its title; restricted files are RESTRICTED", async () => {
    const record = exportRecord("rstrc-00001", MINIMAL_EXPORT_METADATA, { access: { record: "public", files: "restricted", embargo: { active: false }, status: "restricted" } });
    const xml = dcatFormat.render(record, ctx);
    await expectDcatConforms(xml);
    const ds = await parseRdfXml(xml);
    const id = `${BASE_URL}/records/rstrc-00001`;
    expect(objects(ds, id, "http://purl.org/dc/terms/description").map((o) => o.value)).toEqual([MINIMAL_EXPORT_METADATA.title]);
    expect(objects(ds, id, "http://purl.org/dc/terms/accessRights").map((o) => o.value)).toEqual(["http://publications.europa.eu/resource/authority/access-right/RESTRICTED"]);
  });
});

describe("escaping", () => {
  test("hostile text is escaped, stripped of XML-forbidden characters, and HTML-free where the standard wants plain text", async () => {
    const record = hostile();
    const dc = parse(dublinCoreFormat.render(record, ctx))["oai_dc:dc"][0];
    expect(dc["dc:title"].map(text)).toEqual([HOSTILE_TITLE_CLEAN]);
    expect(dc["dc:description"].map(text)).toEqual(["a < b && c"]);
    expect(dc["dc:creator"].map(text)).toEqual(["O'Brien & <Sons>"]);
    expect(dc["dc:publisher"].map(text)).toEqual(['Pub "&" <lisher>']);
    const datacite = parse(dataciteXmlFormat.render(record, ctx)).resource[0];
    expect(text(datacite.titles[0].title[0])).toBe(HOSTILE_TITLE_CLEAN);
    expect(text(datacite.descriptions[0].description[0])).toBe("a < b && c");
    const marc = marcxmlFormat.render(record, ctx);
    expect(marc).not.toContain("<script");
    expect(marc).not.toContain("<b>");
    expect(marc).toContain(`<subfield code="y">a&amp;b &quot;c&quot;.csv</subfield>`);
    const ds = await parseRdfXml(dcatFormat.render(record, ctx));
    expect([...ds.match(null, { termType: "NamedNode", value: "http://purl.org/dc/terms/title" })].map((q: any) => q.object.value)).toContain(HOSTILE_TITLE_CLEAN);
  });

  test("the shared builder escapes attributes, keeps true-valued attributes, and writes the declaration", () => {
    const xml = renderXml({ a: { "@_x": `q"'<&>\u0000`, "@_flag": "true", b: ["1 < 2", ""], c: { "#text": "t & t", "@_n": 5 } } });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<a ')).toBe(true);
    expect(xml).toContain('x="q&quot;&apos;&lt;&amp;&gt;"');
    expect(xml).toContain('flag="true"');
    expect(xml).toContain("<b>1 &lt; 2</b>");
    expect(xml).toContain('<c n="5">t &amp; t</c>');
    expect(parse(xml).a[0]["@_x"]).toBe(`q"'<&>`);
    expect(xmlBuilder.build({ z: "x" })).not.toContain("<?xml");
  });

  test("element trees for OAI-PMH are one-key objects naming the root element", () => {
    expect(Object.keys(dataciteResource(minimal(), ctx))).toEqual(["resource"]);
    expect(Object.keys(dublinCoreElement(minimal(), ctx))).toEqual(["oai_dc:dc"]);
    expect(Object.keys(marcxmlRecord(minimal(), ctx))).toEqual(["record"]);
    expect(Object.keys(dcatRdf(minimal(), ctx))).toEqual(["rdf:RDF"]);
  });
});

describe("a record published through the API", () => {
  let t: TestApp;
  let record: ExportRecord;
  let apiCtx: ExportContext;

  beforeAll(async () => {
    t = await createTestApp();
    for (const [type, entry] of DIRECTORY_ENTRIES) await t.services.vocabularies.create(systemActor, type as any, entry, { via: "cli", address: null });
    const draft = await t.call("POST", "/api/records", {
      as: "alice",
      body: { access: { record: "public", files: "public" }, files: { enabled: false }, metadata: FULL_EXPORT_METADATA },
    });
    expect(draft.status).toBe(201);
    const published = await t.call("POST", `/api/records/${draft.json.id}/draft/actions/publish`, { as: "alice" });
    expect(published.status).toBe(202);
    record = (await t.call("GET", `/api/records/${draft.json.id}`)).json;
    apiCtx = await renderContext({ links: createLinks(BASE_URL), siteName: "Cairn", lookup: t.services.vocabularies.lookup, doiUrl: (doi) => doiResolverUrl(doi, false) }, [
      record,
    ]);
  });
  afterAll(() => t.close());

  test("the real record JSON renders valid documents with its values", async () => {
    expect(record.metadata.contributors).toHaveLength(2);
    for (const [format, schema] of XSD_FORMATS) await expectXsdValid(schema, format.render(record, apiCtx));
    await expectDcatConforms(dcatFormat.render(record, apiCtx));
    const dc = parse(dublinCoreFormat.render(record, apiCtx))["oai_dc:dc"][0];
    expect(dc["dc:title"].map(text)[0]).toBe(FULL_EXPORT_METADATA.title);
    expect(dc["dc:creator"].map(text)).toEqual(["Silva, Ana", "Seal Watch"]);
    const datacite = parse(dataciteXmlFormat.render(record, apiCtx)).resource[0];
    expect(datacite.creators[0].creator[0].affiliation.map(text)).toEqual(["CERN", "Sea Institute"]);
    expect(datacite.rightsList[0].rights[0]["@_rightsURI"]).toBe("https://creativecommons.org/licenses/by/4.0/legalcode");
  });
});
