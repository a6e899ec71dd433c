// CodeMeta 3.0, Citation File Format 1.2.0 and Frictionless Data Package exports over HTTP: each
// validated against its standard (test/fixtures/schemas), their values, the download names and
// Accept negotiation, files only as the caller may see them, and 404 for drafts and unknown ids.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { RECORD_MEDIA_TYPES } from "../../src/exports/registry";
import { createTestApp, type TestApp, type Who } from "../helpers/app";
import { DIRECTORY_ENTRIES, RICH_CUSTOM_FIELDS, RICH_METADATA } from "../helpers/export-samples";
import { md5 } from "../helpers/files";
import { createDraft, publishableDraft, publishRecord } from "../helpers/records";

const BASE = "http://127.0.0.1:5000";
const PREFIX = "10.1234";
const REPOSITORY = "https://github.com/example/glacier-tools";
const CODEMETA = "application/vnd.codemeta.ld+json";
const CFF = "application/x-yaml";
const DATAPACKAGE = "application/vnd.datapackage+json";

const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/schemas", name), "utf8"));
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
// The Data Package profile is draft-04, which ajv 8 reads without its meta-schema; `textarea` is a form hint, not a format.
ajv.addFormat("textarea", true);
const dataPackageSchema = fixture("data-package-1.0.schema.json");
delete dataPackageSchema.$schema;
const validators = { cff: ajv.compile(fixture("cff-1.2.0.schema.json")), datapackage: ajv.compile(dataPackageSchema) };
const schemaErrors = (name: keyof typeof validators, doc: unknown) =>
  validators[name](doc) ? [] : (validators[name].errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);

// CodeMeta has no JSON schema: a document is CodeMeta 3.0 when its context is 3.0's and every key
// (at every depth) is a term that context defines; types are its type terms or `schema:` IRIs.
const TERMS = fixture("codemeta-3.0-terms.json");
const KEYS = new Set<string>([...TERMS.keywords, ...TERMS.schemaOrgProperties, ...TERMS.codemetaProperties]);
function codemetaErrors(doc: any): string[] {
  const errors: string[] = doc?.["@context"] === TERMS.context ? [] : [`@context is ${JSON.stringify(doc?.["@context"])}`];
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}/${i}`));
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (!KEYS.has(key)) errors.push(`${path}/${key} is not a CodeMeta 3.0 term`);
      if (key === "@type" && !TERMS.types.includes(value) && !/^schema:[A-Z][A-Za-z]+$/.test(String(value))) errors.push(`${path}/@type ${value}`);
      if (key !== "@context") walk(value, `${path}/${key}`);
    }
  };
  walk(doc, "");
  return errors;
}

let t: TestApp;
const ids = { rich: "", minimal: "", software: "", closedFiles: "", restricted: "", draft: "" };
const RICH_FILES: [string, string][] = [
  ["data.csv", "a,b\n1,2\n"],
  ["docs/read me.txt", "hello"],
];

beforeAll(async () => {
  t = await createTestApp({ DATACITE_PREFIX: PREFIX });
  for (const [type, entry] of DIRECTORY_ENTRIES) expect((await t.call("POST", `/api/${type}`, { as: "admin", body: entry })).status).toBe(201);
  const rich = { access: { record: "public", files: "public" }, files: { enabled: true }, metadata: RICH_METADATA, custom_fields: RICH_CUSTOM_FIELDS };
  ids.rich = (await publishRecord(t, rich, { files: RICH_FILES })).id;
  ids.minimal = (await publishRecord(t)).id;
  const software = publishableDraft({
    metadata: {
      ...publishableDraft().metadata,
      resource_type: { id: "software" },
      version: "2.1.0",
      rights: [{ id: "mit" }],
      related_identifiers: [{ identifier: REPOSITORY, scheme: "url", relation_type: { id: "issupplementto" }, resource_type: { id: "software" } }],
    },
  });
  ids.software = (await publishRecord(t, software)).id;
  ids.closedFiles = (
    await publishRecord(t, publishableDraft({ access: { record: "public", files: "restricted" }, files: { enabled: true } }), { files: [["secret.csv", "x"]] })
  ).id;
  ids.restricted = (await publishRecord(t, publishableDraft({ access: { record: "restricted", files: "restricted" } }))).id;
  ids.draft = (await createDraft(t)).id;
});
afterAll(() => t.close());

const get = (path: string, accept?: string, as?: Who) => t.call("GET", path, { as, headers: accept === undefined ? {} : { accept } });
const record = (id: string, accept: string, as?: Who) => get(`/api/records/${id}`, accept, as);
const cffOf = async (id: string, as?: Who) => parseYaml((await record(id, CFF, as)).text);

describe("CodeMeta 3.0", () => {
  test("every record is CodeMeta 3.0 JSON-LD: the context's terms only", async () => {
    for (const id of [ids.minimal, ids.rich, ids.software, ids.closedFiles]) {
      const res = await record(id, CODEMETA);
      expect(res.headers.get("content-type")).toBe(`${CODEMETA}; charset=utf-8`);
      expect(codemetaErrors(res.json)).toEqual([]);
    }
    expect(codemetaErrors({ "@context": TERMS.context, distribution: [] })).toEqual(["/distribution is not a CodeMeta 3.0 term"]);
  });

  test("title, authors with ORCID and affiliations, DOI, SPDX licence, version, keywords, files", async () => {
    const doc = (await record(ids.rich, CODEMETA)).json;
    expect(doc).toMatchObject({
      "@context": "https://w3id.org/codemeta/3.0",
      "@type": "schema:ScholarlyArticle",
      "@id": `https://handle.stage.datacite.org/${PREFIX}/${ids.rich}`,
      identifier: `https://handle.stage.datacite.org/${PREFIX}/${ids.rich}`,
      name: RICH_METADATA.title,
      description: "Data collected on glaciers & ice caps, 2023 season.",
      datePublished: "2024-05-17",
      version: "v1.0",
      keywords: ["Calcimycin", "glaciers"],
      license: ["https://spdx.org/licenses/CC-BY-4.0", "https://example.org/terms"],
      publisher: { "@type": "Organization", name: "Cairn test repository" },
      url: `${BASE}/records/${ids.rich}`,
      funder: [
        { "@type": "Organization", "@id": "https://ror.org/00k4n6c32", name: "European Commission" },
        { "@type": "Organization", name: "Local Trust" },
      ],
      funding: ["European Commission, 101004490: Open science for glaciers", "Local Trust, LT-1: Small grant"],
      isAccessibleForFree: true,
    });
    expect(doc.author).toEqual([
      {
        "@type": "Person",
        "@id": "https://orcid.org/0000-0002-1825-0097",
        givenName: "Jane",
        familyName: "Doe-Müller",
        affiliation: [
          { "@type": "Organization", name: "CERN" },
          { "@type": "Organization", name: "Free University" },
        ],
      },
      { "@type": "Organization", "@id": "https://ror.org/01ggx4157", name: "ACME Lab" },
    ]);
    expect(doc.contributor).toEqual([{ "@type": "Person", givenName: "Richard", familyName: "Roe" }]);
    expect(doc.downloadUrl).toEqual([`${BASE}/api/records/${ids.rich}/files/data.csv/content`, `${BASE}/api/records/${ids.rich}/files/docs/read%20me.txt/content`]);
  });

  test("software is SoftwareSourceCode with its code repository; a metadata-only record has no downloads", async () => {
    const doc = (await record(ids.software, CODEMETA)).json;
    expect(doc).toMatchObject({ "@type": "SoftwareSourceCode", codeRepository: REPOSITORY, version: "2.1.0", license: ["https://spdx.org/licenses/MIT"] });
    expect(doc.downloadUrl).toBeUndefined();
    expect((await record(ids.minimal, CODEMETA)).json).toMatchObject({ "@type": "schema:Dataset", "@id": `https://handle.stage.datacite.org/${PREFIX}/${ids.minimal}` });
  });
});

describe("Citation File Format 1.2.0", () => {
  test("YAML valid against the CFF 1.2.0 schema for every record", async () => {
    for (const id of [ids.minimal, ids.rich, ids.software, ids.closedFiles]) {
      const res = await record(id, CFF);
      expect(res.headers.get("content-type")).toBe(`${CFF}; charset=utf-8`);
      expect(schemaErrors("cff", parseYaml(res.text))).toEqual([]);
    }
    expect(schemaErrors("cff", { "cff-version": "1.2.0", message: "m", title: "t", authors: [{ "given-names": "A", orcid: "0000-0002-1825-0097" }] })).not.toEqual([]);
  });

  test("title, authors with ORCID URL and affiliation, DOI, identifiers, date, SPDX licence, keywords", async () => {
    const cff = await cffOf(ids.rich);
    expect(cff).toEqual({
      "cff-version": "1.2.0",
      message: "If you use this work, please cite it using the metadata from this file.",
      title: RICH_METADATA.title,
      authors: [{ "family-names": "Doe-Müller", "given-names": "Jane", orcid: "https://orcid.org/0000-0002-1825-0097", affiliation: "CERN" }, { name: "ACME Lab" }],
      doi: `${PREFIX}/${ids.rich}`,
      identifiers: [
        { type: "doi", value: "10.5281/zenodo.123" },
        { type: "other", value: "arXiv:1501.00001", description: "arxiv" },
        { type: "other", value: "978-3-16-148410-0", description: "isbn" },
      ],
      "date-released": "2024-05-17",
      version: "v1.0",
      license: "CC-BY-4.0",
      "license-url": "https://example.org/terms",
      keywords: ["Calcimycin", "glaciers"],
      abstract: "Data collected on glaciers & ice caps, 2023 season.",
      url: `${BASE}/records/${ids.rich}`,
    });
  });

  test("type software or dataset, the code repository of software, no release date from a partial date", async () => {
    expect(await cffOf(ids.software)).toMatchObject({
      type: "software",
      message: "If you use this software, please cite it using the metadata from this file.",
      "repository-code": REPOSITORY,
      version: "2.1.0",
      license: "MIT",
      "date-released": "2026-11-01",
    });
    const minimal = await cffOf(ids.minimal);
    expect(minimal).toMatchObject({ type: "dataset", authors: [{ "family-names": "Lovelace", "given-names": "Ada" }] });
    expect(minimal.license).toBeUndefined();
  });
});

describe("Frictionless Data Package", () => {
  test("valid against the Data Package profile for every record, a metadata-only one included", async () => {
    for (const id of [ids.minimal, ids.rich, ids.software, ids.closedFiles]) {
      const res = await record(id, DATAPACKAGE);
      expect(res.headers.get("content-type")).toBe(`${DATAPACKAGE}; charset=utf-8`);
      expect(schemaErrors("datapackage", res.json)).toEqual([]);
    }
    expect(schemaErrors("datapackage", { name: "x", resources: [] })).not.toEqual([]);
  });

  test("name, id, title, licences, contributors, keywords, and one resource per file with URL, size and MD5", async () => {
    const pkg = (await record(ids.rich, DATAPACKAGE)).json;
    expect(pkg).toMatchObject({
      name: ids.rich,
      id: `https://handle.stage.datacite.org/${PREFIX}/${ids.rich}`,
      title: RICH_METADATA.title,
      version: "v1.0",
      homepage: `${BASE}/records/${ids.rich}`,
      created: "2026-11-22T12:00:00.000000Z",
      keywords: ["Calcimycin", "glaciers"],
      licenses: [
        { name: "CC-BY-4.0", path: "https://creativecommons.org/licenses/by/4.0/legalcode", title: "Creative Commons Attribution 4.0 International" },
        { path: "https://example.org/terms", title: "Custom terms" },
      ],
    });
    expect(pkg.contributors).toEqual([
      { title: "Doe-Müller, Jane", path: "https://orcid.org/0000-0002-1825-0097", organisation: "CERN", role: "author" },
      { title: "ACME Lab", role: "author" },
      { title: "Roe, Richard", role: "contributor" },
      { title: "Cairn test repository", role: "publisher" },
    ]);
    expect(pkg.resources).toEqual([
      {
        name: "data.csv",
        path: `${BASE}/api/records/${ids.rich}/files/data.csv/content`,
        title: "data.csv",
        bytes: 8,
        hash: md5("a,b\n1,2\n"),
        mediatype: "text/csv",
        format: "csv",
      },
      {
        name: "docs-read-me.txt",
        path: `${BASE}/api/records/${ids.rich}/files/docs/read%20me.txt/content`,
        title: "docs/read me.txt",
        bytes: 5,
        hash: md5("hello"),
        mediatype: "text/plain",
        format: "txt",
      },
    ]);
  });

  test("a record without files has its record JSON as the one resource", async () => {
    const pkg = (await record(ids.minimal, DATAPACKAGE)).json;
    expect(pkg.resources).toEqual([
      { name: "metadata", path: `${BASE}/api/records/${ids.minimal}`, title: "Record metadata (InvenioRDM JSON)", mediatype: "application/json", format: "json" },
    ]);
  });
});

describe("names and negotiation", () => {
  test.each([
    ["codemeta", CODEMETA, "json"],
    ["cff", CFF, "yaml"],
    ["datapackage", DATAPACKAGE, "json"],
  ])("/records/{id}/export/%s: %s, attachment <id>.%s, the same body as by Accept", async (name, type, extension) => {
    const res = await get(`/records/${ids.rich}/export/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(`${type}; charset=utf-8`);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename=${ids.rich}.${extension}`);
    expect(res.text).toBe((await record(ids.rich, type)).text);
  });

  test("each new media type is offered and listed in the 406; application/ld+json stays Schema.org's", async () => {
    for (const type of [CODEMETA, CFF, "application/vnd.cff+yaml", DATAPACKAGE]) expect(RECORD_MEDIA_TYPES).toContain(type);
    expect((await record(ids.rich, "application/vnd.cff+yaml")).text).toBe((await record(ids.rich, CFF)).text);
    expect((await record(ids.rich, "application/ld+json")).json["@context"]).toBe("http://schema.org");
    expect((await record(ids.rich, 'application/ld+json;profile="https://w3id.org/codemeta/3.0"')).json["@context"]).toBe("http://schema.org");
    const refused = await record(ids.rich, "text/html");
    expect(refused.status).toBe(406);
    for (const type of [CODEMETA, CFF, DATAPACKAGE]) expect(refused.json.message).toContain(type);
  });

  test("Signposting describes the record in the three formats", async () => {
    const links = (await record(ids.rich, "application/json")).headers.get("link")!;
    for (const type of [CODEMETA, CFF, DATAPACKAGE]) expect(links).toContain(`<${BASE}/api/records/${ids.rich}>; rel="describedby"; type="${type}"`);
  });
});

describe("visibility", () => {
  const NAMES = ["codemeta", "cff", "datapackage"];

  test("restricted files: listed to the owner, not to anonymous callers", async () => {
    const secret = `${BASE}/api/records/${ids.closedFiles}/files/secret.csv/content`;
    for (const name of NAMES) expect((await get(`/records/${ids.closedFiles}/export/${name}`)).text).not.toContain("secret.csv");
    expect((await record(ids.closedFiles, CODEMETA)).json.downloadUrl).toBeUndefined();
    expect((await record(ids.closedFiles, DATAPACKAGE)).json.resources.map((r: any) => r.name)).toEqual(["metadata"]);

    expect((await record(ids.closedFiles, CODEMETA, "alice")).json.downloadUrl).toEqual([secret]);
    expect((await record(ids.closedFiles, DATAPACKAGE, "alice")).json.resources).toEqual([
      { name: "secret.csv", path: secret, title: "secret.csv", bytes: 1, hash: md5("x"), mediatype: "text/csv", format: "csv" },
    ]);
  });

  test.each([
    ["anonymous", 401],
    ["bob", 403],
    ["alice", 200],
  ] as const)("a restricted record as %s -> %d in every new format", async (who, status) => {
    for (const name of NAMES) expect((await get(`/records/${ids.restricted}/export/${name}`, undefined, who)).status).toBe(status);
    for (const type of [CODEMETA, CFF, DATAPACKAGE]) expect((await record(ids.restricted, type, who)).status).toBe(status);
  });

  test("a draft (even to its owner) and an unknown record are 404", async () => {
    for (const name of NAMES) {
      for (const [id, who] of [
        [ids.draft, "alice"],
        [ids.draft, "anonymous"],
        ["nopee-00000", "alice"],
      ] as const) {
        const res = await get(`/records/${id}/export/${name}`, undefined, who);
        expect({ id, name, status: res.status }).toEqual({ id, name, status: 404 });
      }
    }
  });
});
