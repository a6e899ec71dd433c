// Record exports over HTTP: every format by Accept on GET /api/records/{id} for a minimal record
// and one using every metadata field (validated against the official schemas), negotiation
// (quality values, charset, 406, ?style), the download route, visibility, Signposting.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EXPORT_FORMATS, RECORD_MEDIA_TYPES } from "../../src/exports/registry";
import { createTestApp, type TestApp, type Who } from "../helpers/app";
import { DIRECTORY_ENTRIES, RICH_CUSTOM_FIELDS, RICH_METADATA } from "../helpers/export-samples";
import { cslItemErrors, dataciteJsonErrors, geojsonErrors, parseBibtexStrict } from "../helpers/json-validate";
import { publishableDraft, publishRecord } from "../helpers/records";
import { expectDcatConforms, expectXsdValid } from "../helpers/xml-validate";

const BASE = "http://127.0.0.1:5000";
const PREFIX = "10.1234";
let t: TestApp;
const ids = { rich: "", minimal: "", restricted: "", closedFiles: "" };

beforeAll(async () => {
  t = await createTestApp({ DATACITE_PREFIX: PREFIX });
  for (const [type, entry] of DIRECTORY_ENTRIES) expect((await t.call("POST", `/api/${type}`, { as: "admin", body: entry })).status).toBe(201);
  const files: [string, string][] = [
    ["data.csv", "a,b\n1,2\n"],
    ["docs/read me.txt", "hello"],
  ];
  ids.rich = (
    await publishRecord(t, { access: { record: "public", files: "public" }, files: { enabled: true }, metadata: RICH_METADATA, custom_fields: RICH_CUSTOM_FIELDS }, { files })
  ).id;
  ids.minimal = (await publishRecord(t)).id;
  ids.restricted = (await publishRecord(t, publishableDraft({ access: { record: "restricted", files: "restricted" } }))).id;
  ids.closedFiles = (
    await publishRecord(t, publishableDraft({ access: { record: "public", files: "restricted" }, files: { enabled: true } }), { files: [["secret.csv", "x"]] })
  ).id;
});
afterAll(() => t.close());

const get = (path: string, accept?: string, as?: Who) => t.call("GET", path, { as, headers: accept === undefined ? {} : { accept } });
const record = (id: string, accept?: string, as?: Who) => get(`/api/records/${id}`, accept, as);

describe("every format by Accept validates against its standard", () => {
  test("DataCite JSON (kernel 4.5 JSON schema)", async () => {
    for (const id of [ids.minimal, ids.rich]) {
      const res = await record(id, "application/vnd.datacite.datacite+json");
      expect(res.headers.get("content-type")).toBe("application/vnd.datacite.datacite+json; charset=utf-8");
      expect(dataciteJsonErrors(res.json)).toEqual([]);
    }
    const d = (await record(ids.rich, "application/vnd.datacite.datacite+json")).json;
    expect(d.doi).toBe(`${PREFIX}/${ids.rich}`);
    expect(d.titles).toEqual([{ title: RICH_METADATA.title }, { title: "A subtitle", titleType: "Subtitle", lang: "eng" }]);
    expect(d.creators.map((c: any) => [c.name, c.nameType])).toEqual([
      ["Doe-Müller, Jane", "Personal"],
      ["ACME Lab", "Organizational"],
    ]);
    expect(d.creators[0].affiliation.map((a: any) => a.name)).toEqual(["CERN", "Free University"]);
    expect(d.publicationYear).toBe("2024");
    expect(d.types).toEqual({ resourceTypeGeneral: "JournalArticle", resourceType: "" });
    expect(d.rightsList[0]).toMatchObject({ rightsIdentifier: "cc-by-4.0", rightsUri: "https://creativecommons.org/licenses/by/4.0/legalcode" });
    expect(d.relatedIdentifiers.at(-1)).toMatchObject({ relatedIdentifierType: "DOI", relationType: "IsVersionOf" });
  });

  test("CSL JSON (csl-data.json)", async () => {
    for (const id of [ids.minimal, ids.rich]) expect(cslItemErrors((await record(id, "application/vnd.citationstyles.csl+json")).json)).toEqual([]);
    const item = (await record(ids.rich, "application/vnd.citationstyles.csl+json")).json;
    expect(item).toMatchObject({
      id: ids.rich,
      type: "article-journal",
      title: RICH_METADATA.title,
      author: [{ family: "Doe-Müller", given: "Jane" }, { family: "ACME Lab" }],
      issued: { "date-parts": [[2024, 5, 17]] },
      DOI: `${PREFIX}/${ids.rich}`,
      "container-title": "Journal of Glaciology",
      note: "Funding by European Commission ROR 00k4n6c32.",
    });
    expect((await record(ids.minimal, "application/vnd.citationstyles.csl+json")).json).toMatchObject({
      type: "dataset",
      author: [{ family: "Lovelace", given: "Ada" }],
      issued: { "date-parts": [[2026, 11, 1]] },
    });
  });

  test("GeoJSON under both media types (FeatureCollection.json)", async () => {
    for (const type of ["application/vnd.geojson+json", "application/vnd.geo+json"]) {
      const res = await record(ids.rich, type);
      expect(res.headers.get("content-type")).toBe(`${type}; charset=utf-8`);
      expect(geojsonErrors(res.json)).toEqual([]);
      expect(res.json.features.map((f: any) => f.properties.place)).toEqual(["CERN", "Aletsch glacier", "Somewhere in the Alps"]);
    }
    const empty = (await record(ids.minimal, "application/vnd.geojson+json")).json;
    expect(empty).toEqual({ type: "FeatureCollection", features: [] });
    expect(geojsonErrors(empty)).toEqual([]);
  });

  test("BibTeX (parsed by a BibTeX parser)", async () => {
    const [minimal] = parseBibtexStrict((await record(ids.minimal, "application/x-bibtex")).text);
    expect(minimal!.type).toBe("dataset");
    expect(minimal!.key).toBe(`lovelace_2026_${ids.minimal}`);
    const res = await record(ids.rich, "application/x-bibtex");
    expect(res.headers.get("content-type")).toBe("application/x-bibtex; charset=utf-8");
    const [rich] = parseBibtexStrict(res.text);
    expect(rich!.type).toBe("article");
    expect(rich!.key).toBe(`doe_muller_2024_${ids.rich}`);
    expect(rich!.fields).toMatchObject({
      title: RICH_METADATA.title,
      journal: "Journal of Glaciology",
      volume: "70",
      number: "3",
      pages: "101-120",
      year: "2024",
      month: "5",
      doi: `${PREFIX}/${ids.rich}`,
    });
    expect(rich!.fields.author).toEqual([{ lastName: "Doe-Müller", firstName: "Jane" }, { name: "ACME Lab" }]);
  });

  test("the XML formats (XSD with xmllint; DCAT-AP with the SHACL shapes)", async () => {
    const text = async (type: string) => (await Promise.all([ids.minimal, ids.rich].map((id) => record(id, type)))).map((r) => r.text);
    await expectXsdValid("datacite", ...(await text("application/vnd.datacite.datacite+xml")));
    await expectXsdValid("oai_dc", ...(await text("application/x-dc+xml")));
    await expectXsdValid("marc21", ...(await text("application/marcxml+xml")));
    for (const doc of await text("application/dcat+xml")) await expectDcatConforms(doc);
    const [, richDc] = await text("application/x-dc+xml");
    expect(richDc).toContain(`<dc:title>${RICH_METADATA.title.replace("&", "&amp;")}</dc:title>`);
  });

  test("Schema.org JSON-LD and the formatted citation", async () => {
    const ld = (await record(ids.rich, "application/ld+json")).json;
    expect(ld).toMatchObject({ "@context": "http://schema.org", "@type": "ScholarlyArticle", name: RICH_METADATA.title, datePublished: "2024-05-17" });
    expect(ld.distribution.map((d: any) => d.contentUrl)).toEqual([
      `${BASE}/api/records/${ids.rich}/files/data.csv/content`,
      `${BASE}/api/records/${ids.rich}/files/docs/read%20me.txt/content`,
    ]);
    const cite = await record(ids.minimal, "text/x-bibliography");
    expect(cite.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(cite.text).toBe(`Lovelace, A. (2026). <i>Sea surface temperature 2020-2024</i> [Data set]. Cairn test repository. https://doi.org/${PREFIX}/${ids.minimal}`);
  });
});

describe("negotiation", () => {
  test("no Accept, */* and the vendor types give the record JSON with ETag, Vary and Signposting", async () => {
    for (const accept of [undefined, "*/*", "application/json", "application/vnd.inveniordm.v1+json"]) {
      const res = await record(ids.minimal, accept);
      expect(res.status).toBe(200);
      expect(res.json.id).toBe(ids.minimal);
      expect(res.headers.get("etag")).toBe(`"${res.json.revision_id}"`);
      expect(res.headers.get("vary")).toBe("Accept");
      expect(res.headers.get("link")).toContain('rel="cite-as"');
    }
    expect((await record(ids.minimal, "application/vnd.inveniordm.v1+json")).headers.get("content-type")).toBe("application/vnd.inveniordm.v1+json");
  });

  test.each([
    ["application/x-bibtex;charset=UTF-8", "application/x-bibtex"],
    ["application/x-bibtex; charset=utf-8; q=1", "application/x-bibtex"],
    ["application/x-bibtex;q=0.5, application/vnd.citationstyles.csl+json;q=0.9", "application/vnd.citationstyles.csl+json"],
    ["application/json;q=0.1, application/marcxml+xml", "application/marcxml+xml"],
    ["application/marcxml+xml;q=0.1, application/json", "application/json"],
    ["text/html, application/ld+json;q=0.3", "application/ld+json"],
  ])("Accept %p -> %s", async (accept, type) => {
    const res = await record(ids.rich, accept);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")!.split(";")[0]).toBe(type);
  });

  test("an unsupported Accept is a 406 whose JSON body lists every supported type, before the record is read", async () => {
    for (const id of [ids.minimal, "nopee-00000"]) {
      const res = await record(id, "text/html");
      expect(res.status).toBe(406);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.json.status).toBe(406);
      expect(res.json.message).toBe(`None of the requested media types can be served. Supported: ${RECORD_MEDIA_TYPES.join(", ")}.`);
    }
  });

  test("?style= renders the citation; ?locale= translates; unknown style or locale is a 400", async () => {
    const ieee = await get(`/api/records/${ids.minimal}?style=ieee`);
    expect(ieee.status).toBe(200);
    expect(ieee.text).toBe(`[1] A. Lovelace, “Sea surface temperature 2020-2024.” Cairn test repository, Nov. 01, 2026. doi: ${PREFIX}/${ids.minimal}.`);
    const mla = await get(`/api/records/${ids.rich}?style=modern-language-association&locale=de-DE`, "text/x-bibliography");
    expect(mla.text).toContain("Bd. 70, Nr. 3, Mai 2024, S. 101–20");
    expect((await get(`/api/records/${ids.minimal}?style=apa`, "application/json")).json.id).toBe(ids.minimal);
    const bad = await get(`/api/records/${ids.minimal}?style=chicago`);
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      status: 400,
      message:
        "Citation style 'chicago' is not available. Available styles: apa, harvard-cite-them-right, modern-language-association, vancouver, chicago-fullnote-bibliography, ieee.",
    });
    expect((await get(`/api/records/${ids.minimal}?locale=tlh`, "text/x-bibliography")).status).toBe(400);
  });
});

describe("download route /records/{id}/export/{format}", () => {
  const NAMES: [string, string, string][] = [
    ["json", "application/json", "json"],
    ["json-ld", "application/ld+json", "json"],
    ["csl", "application/vnd.citationstyles.csl+json", "json"],
    ["datacite-json", "application/vnd.datacite.datacite+json", "json"],
    ["datacite-xml", "application/vnd.datacite.datacite+xml", "xml"],
    ["dublincore", "application/x-dc+xml", "xml"],
    ["marcxml", "application/marcxml+xml", "xml"],
    ["bibtex", "application/x-bibtex", "bib"],
    ["geojson", "application/vnd.geojson+json", "geojson"],
    ["dcat-ap", "application/dcat+xml", "rdf"],
    ["codemeta", "application/vnd.codemeta.ld+json", "json"],
    ["cff", "application/x-yaml", "yaml"],
    ["datapackage", "application/vnd.datapackage+json", "json"],
  ];

  test.each(NAMES)("%s: %s, attachment <id>.%s, same body as by Accept", async (name, type, extension) => {
    const res = await get(`/records/${ids.rich}/export/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(`${type}; charset=utf-8`);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename=${ids.rich}.${extension}`);
    if (name === "json") expect(JSON.parse(res.text)).toEqual((await record(ids.rich)).json);
    else expect(res.text).toBe((await record(ids.rich, type)).text);
  });

  test.each([
    ["xm", "marcxml"],
    ["hx", "bibtex"],
    ["xd", "datacite-xml"],
    ["dcite4", "datacite-xml"],
    ["schemaorg_jsonld", "json-ld"],
  ])("Zenodo's name %s (zen4R) answers as %s", async (alias, name) => {
    const viaAlias = await get(`/records/${ids.rich}/export/${alias}`);
    const viaName = await get(`/records/${ids.rich}/export/${name}`);
    expect(viaAlias.status).toBe(200);
    expect(viaAlias.text).toBe(viaName.text);
    expect(viaAlias.headers.get("content-type")).toBe(viaName.headers.get("content-type"));
  });

  test("every registered format has a download; an unknown one is a 404 naming them", async () => {
    expect(NAMES.map(([name]) => name)).toEqual(EXPORT_FORMATS.map((f) => f.id).filter((id) => id !== "citation"));
    const res = await get(`/records/${ids.rich}/export/no-such-format`);
    expect(res.status).toBe(404);
    expect(res.json.message).toBe(`Export format 'no-such-format' does not exist. Available formats: ${EXPORT_FORMATS.map((f) => f.id).join(", ")}.`);
    expect((await get("/records/nopee-00000/export/json")).status).toBe(404);
    const cite = await get(`/records/${ids.minimal}/export/citation?style=vancouver`);
    expect(cite.headers.get("content-disposition")).toBe(`attachment; filename=${ids.minimal}.txt`);
    expect(cite.text).toStartWith("1. Lovelace A.");
  });
});

describe("visibility", () => {
  test.each([
    ["anonymous", 401],
    ["bob", 403],
    ["alice", 200],
    ["admin", 200],
  ] as const)("restricted record as %s -> %d, by Accept and by download", async (who, status) => {
    expect((await record(ids.restricted, "application/x-bibtex", who)).status).toBe(status);
    expect((await get(`/records/${ids.restricted}/export/datacite-xml`, undefined, who)).status).toBe(status);
    expect((await get(`/api/records/${ids.restricted}?style=apa`, undefined, who)).status).toBe(status);
  });

  test("restricted files are not listed to callers who may not read them", async () => {
    const items = (res: { headers: Headers }) => (res.headers.get("link") ?? "").split(", ").filter((l) => l.includes('rel="item"'));
    const anonymous = await record(ids.closedFiles);
    expect(items(anonymous)).toEqual([]);
    expect((await record(ids.closedFiles, "application/ld+json")).json.distribution).toBeUndefined();
    const owner = await record(ids.closedFiles, undefined, "alice");
    expect(items(owner)).toEqual([`<${BASE}/api/records/${ids.closedFiles}/files/secret.csv/content>; rel="item"; type="text/csv"`]);
    expect((await record(ids.closedFiles, "application/ld+json", "alice")).json.distribution).toHaveLength(1);
  });
});

describe("FAIR Signposting on GET /api/records/{id}", () => {
  test("cite-as DOI, describedby per export format, type, author ORCID, licence and one item per file", async () => {
    const links = (await record(ids.rich)).headers.get("link")!.split(", ");
    const api = `${BASE}/api/records/${ids.rich}`;
    expect(links[0]).toBe(`<https://handle.stage.datacite.org/${PREFIX}/${ids.rich}>; rel="cite-as"`);
    expect(links.filter((l) => l.includes("describedby"))).toEqual(
      EXPORT_FORMATS.filter((f) => f.id !== "citation").map((f) => `<${api}>; rel="describedby"; type="${f.mediaTypes[0]}"`),
    );
    expect(links).toContain('<https://schema.org/ScholarlyArticle>; rel="type"');
    expect(links).toContain('<https://orcid.org/0000-0002-1825-0097>; rel="author"');
    expect(links).toContain('<https://creativecommons.org/licenses/by/4.0/legalcode>; rel="license"');
    expect(links).toContain('<https://example.org/terms>; rel="license"');
    expect(links.filter((l) => l.includes('rel="item"'))).toEqual([
      `<${api}/files/data.csv/content>; rel="item"; type="text/csv"`,
      `<${api}/files/docs/read%20me.txt/content>; rel="item"; type="text/plain"`,
    ]);
    // Export responses carry the same links.
    expect((await record(ids.rich, "application/x-bibtex")).headers.get("link")).toBe(links.join(", "));
  });
});
