// The OAI-PMH 2.0 endpoint /oai2d: every verb and error, full harvests with resumption tokens
// (each public record exactly once, never a restricted one), dates, sets, deleted records, tokens
// that survive a restart and expire; every response valid against oai-pmh-with-formats.xsd.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { XMLParser } from "fast-xml-parser";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { BASE_URL, createTestApp, type TestApp, type Who } from "../helpers/app";
import { publishableDraft, publishDraft, publishRecord } from "../helpers/records";
import { expectDcatConforms, expectXsdValid, validateXsd } from "../helpers/xml-validate";

const PREFIX = "cairn.example";
let ctx: TestApp;
/** Every OAI response seen (but dcat's RDF payloads, which no XSD covers): validated together at the end. */
const responses: string[] = [];

const LISTS = new Set([
  "OAI-PMH.ListRecords.record",
  "OAI-PMH.ListIdentifiers.header",
  "OAI-PMH.ListSets.set",
  "OAI-PMH.ListMetadataFormats.metadataFormat",
  "OAI-PMH.error",
  "OAI-PMH.Identify.adminEmail",
]);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  isArray: (name, jpath) => LISTS.has(String(jpath)) || String(jpath).endsWith("header.setSpec"),
});

interface OaiAnswer {
  status: number;
  contentType: string | null;
  text: string;
  root: any;
}

async function oai(query: string, options: { method?: "GET" | "POST"; validate?: boolean; on?: TestApp } = {}): Promise<OaiAnswer> {
  const target = options.on ?? ctx;
  const res =
    options.method === "POST"
      ? await target.call("POST", "/oai2d", { rawBody: query, headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/xml" } })
      : await target.call("GET", `/oai2d?${query}`);
  if (options.validate !== false) responses.push(res.text);
  return { status: res.status, contentType: res.headers.get("content-type"), text: res.text, root: parser.parse(res.text)["OAI-PMH"] };
}

/** The error code of an answer (and that it is the only content besides the envelope). */
const errorOf = (a: OaiAnswer) => a.root.error?.[0]?.["@_code"];
const idOf = (recordId: string) => `oai:${PREFIX}:${recordId}`;
const datestamp = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";

/** Record ids by name, and when each was published. */
const rec: Record<string, string> = {};
const publishedAt: Record<string, number> = {};

async function publish(name: string, metadata: Record<string, unknown> = {}, access = { record: "public", files: "public" }, as: Who = "alice") {
  ctx.clock.advance(60_000);
  const base = publishableDraft();
  rec[name] = (await publishRecord(ctx, { ...base, access, metadata: { ...base.metadata, title: `Record ${name}`, ...metadata } }, { as })).id;
  publishedAt[name] = ctx.clock.now();
}

/** Edits a published record's access through a new draft and publishes it. */
async function setAccess(name: string, record: "public" | "restricted") {
  ctx.clock.advance(60_000);
  const id = rec[name]!;
  const draft = await ctx.call("POST", `/api/records/${id}/draft`, { as: "alice" });
  expect(draft.status).toBe(201);
  const put = await ctx.call("PUT", `/api/records/${id}/draft`, { as: "alice", body: { ...draft.json, access: { record, files: record } } });
  expect(put.status).toBe(200);
  await publishDraft(ctx, id);
  publishedAt[name] = ctx.clock.now();
}

const ocean = { subjects: [{ subject: "ocean" }] };
const glacier = { subjects: [{ subject: "glacier" }] };

beforeAll(async () => {
  ctx = await createTestApp({ OAISERVER_ID_PREFIX: PREFIX, OAISERVER_PAGE_SIZE: 3 });
  await publish("r1", ocean);
  await publish("r2", ocean);
  await publish("r3", ocean);
  await publish("r4", glacier);
  await publish("r5", glacier);
  await publish("r6");
  await publish("hidden", ocean, { record: "restricted", files: "restricted" }, "bob");
  await publish("gone", glacier);
  await publish("r7");
});
afterAll(() => ctx.close());

/** The public records in harvest order ("gone" is made restricted later on). */
const IN_ORDER = ["r1", "r2", "r3", "r4", "r5", "r6", "gone", "r7"];

/** Follows resumption tokens to the end; returns every page. */
async function harvest(first: string, verb: "ListRecords" | "ListIdentifiers" | "ListSets", options: { on?: TestApp } = {}) {
  const pages: any[] = [];
  let answer = await oai(first, options);
  for (;;) {
    expect(errorOf(answer)).toBeUndefined();
    pages.push(answer.root[verb]);
    const token = answer.root[verb].resumptionToken;
    const value = typeof token === "object" ? token["#text"] : token;
    if (!value) return pages;
    answer = await oai(`verb=${verb}&resumptionToken=${encodeURIComponent(value)}`, options);
  }
}

const headersOf = (pages: any[], verb: "ListRecords" | "ListIdentifiers") => pages.flatMap((p) => (verb === "ListRecords" ? p.record.map((r: any) => r.header) : p.header));

describe("the envelope", () => {
  test("Identify: text/xml, the repository's facts, and the request echoed", async () => {
    const a = await oai("verb=Identify");
    expect(a.status).toBe(200);
    expect(a.contentType).toBe("text/xml; charset=utf-8");
    expect(a.root.responseDate).toBe(datestamp(ctx.clock.now()));
    expect(a.root.request).toEqual({ "#text": `${BASE_URL}/oai2d`, "@_verb": "Identify" });
    const identify = a.root.Identify;
    expect(identify).toMatchObject({
      repositoryName: "Cairn",
      baseURL: `${BASE_URL}/oai2d`,
      protocolVersion: "2.0",
      adminEmail: ["admin@example.org"],
      earliestDatestamp: datestamp(publishedAt.r1!),
      deletedRecord: "persistent",
      granularity: "YYYY-MM-DDThh:mm:ssZ",
    });
    expect(identify.description["oai-identifier"]).toMatchObject({ scheme: "oai", repositoryIdentifier: PREFIX, delimiter: ":", sampleIdentifier: `oai:${PREFIX}:abcde-12345` });
  });

  test("POST with a form body answers as GET does", async () => {
    const get = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc");
    const post = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc", { method: "POST" });
    expect(post.status).toBe(200);
    expect(post.text).toBe(get.text);
  });

  test("POST with a JSON body is refused; other methods are 405", async () => {
    const json = await ctx.call("POST", "/oai2d", { body: { verb: "Identify" } });
    expect(json.status).toBe(415);
    expect((await ctx.call("PUT", "/oai2d")).status).toBe(405);
  });
});

describe("ListMetadataFormats", () => {
  test("every format, for the repository and for one item", async () => {
    for (const query of ["verb=ListMetadataFormats", `verb=ListMetadataFormats&identifier=${idOf(rec.r1!)}`]) {
      const formats = (await oai(query)).root.ListMetadataFormats.metadataFormat;
      expect(formats.map((f: any) => f.metadataPrefix)).toEqual(["oai_dc", "datacite", "oai_datacite", "marcxml", "marc21", "dcat"]);
      expect(formats[3]).toEqual({
        metadataPrefix: "marcxml",
        schema: "http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd",
        metadataNamespace: "http://www.loc.gov/MARC21/slim",
      });
    }
  });

  test("idDoesNotExist for unknown, foreign and restricted identifiers", async () => {
    for (const identifier of [idOf("aaaaa-bbbbb"), `oai:other.example:${rec.r1}`, idOf(rec.hidden!), "nonsense"]) {
      const a = await oai(`verb=ListMetadataFormats&identifier=${encodeURIComponent(identifier)}`);
      expect(errorOf(a)).toBe("idDoesNotExist");
      expect(a.root.request["@_identifier"]).toBe(identifier);
    }
  });
});

describe("GetRecord", () => {
  const rootOf = (a: OaiAnswer) => Object.keys(a.root.GetRecord.record.metadata).filter((k) => !k.startsWith("@_"));
  test.each([
    ["oai_dc", "oai_dc:dc"],
    ["datacite", "resource"],
    ["oai_datacite", "oai_datacite"],
    ["marcxml", "record"],
    ["marc21", "record"],
  ])("%s payload", async (prefix, element) => {
    const a = await oai(`verb=GetRecord&identifier=${idOf(rec.r2!)}&metadataPrefix=${prefix}`);
    expect(a.root.GetRecord.record.header).toEqual({ identifier: idOf(rec.r2!), datestamp: datestamp(publishedAt.r2!) });
    expect(rootOf(a)).toEqual([element]);
    expect(a.text).toContain("Record r2");
  });

  test("oai_datacite wraps the DataCite resource with schema version and data centre", async () => {
    const wrapper = (await oai(`verb=GetRecord&identifier=${idOf(rec.r2!)}&metadataPrefix=oai_datacite`)).root.GetRecord.record.metadata.oai_datacite;
    expect(wrapper).toMatchObject({ schemaVersion: "4.5", datacentreSymbol: "CAIRN" });
    expect(wrapper.payload.resource.titles.title).toBe("Record r2");
  });

  test("dcat payload conforms to DCAT-AP 2.1.1", async () => {
    const a = await oai(`verb=GetRecord&identifier=${idOf(rec.r2!)}&metadataPrefix=dcat`, { validate: false });
    const rdf = /<rdf:RDF[\s\S]*<\/rdf:RDF>/.exec(a.text)?.[0];
    expect(rdf).toBeDefined();
    await expectDcatConforms(rdf!);
  });

  test("errors: unknown prefix, missing arguments, unknown and restricted items", async () => {
    expect(errorOf(await oai(`verb=GetRecord&identifier=${idOf(rec.r1!)}&metadataPrefix=mods`))).toBe("cannotDisseminateFormat");
    expect(errorOf(await oai(`verb=GetRecord&identifier=${idOf(rec.r1!)}`))).toBe("badArgument");
    expect(errorOf(await oai("verb=GetRecord&metadataPrefix=oai_dc"))).toBe("badArgument");
    expect(errorOf(await oai(`verb=GetRecord&identifier=${idOf("zzzzz-00000")}&metadataPrefix=oai_dc`))).toBe("idDoesNotExist");
    const hidden = await oai(`verb=GetRecord&identifier=${idOf(rec.hidden!)}&metadataPrefix=oai_dc`);
    expect(errorOf(hidden)).toBe("idDoesNotExist");
    expect(hidden.text).not.toContain("Record hidden");
  });
});

describe("full harvests with resumption tokens", () => {
  test("ListRecords returns every public record exactly once, in pages of 3, with cursor, size and expiry", async () => {
    const pages = await harvest("verb=ListRecords&metadataPrefix=oai_dc", "ListRecords");
    const ids = headersOf(pages, "ListRecords").map((h: any) => h.identifier);
    expect(ids).toEqual(IN_ORDER.map((n) => idOf(rec[n]!)));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(idOf(rec.hidden!));
    expect(pages.map((p) => p.record.length)).toEqual([3, 3, 2]);
    expect(pages.map((p) => [p.resumptionToken["@_cursor"], p.resumptionToken["@_completeListSize"]])).toEqual([
      ["0", "8"],
      ["3", "8"],
      ["6", "8"],
    ]);
    expect(pages[0].resumptionToken["@_expirationDate"]).toBe(datestamp(ctx.clock.now() + 3600_000));
    expect(pages[2].resumptionToken["#text"]).toBeUndefined();
    for (const record of pages.flatMap((p) => p.record)) expect(record.metadata["oai_dc:dc"]["dc:title"]).toMatch(/^Record /);
  });

  test("ListIdentifiers: the same headers, in (datestamp, id) order", async () => {
    const headers = headersOf(await harvest("verb=ListIdentifiers&metadataPrefix=oai_datacite", "ListIdentifiers"), "ListIdentifiers");
    expect(headers.map((h: any) => h.identifier)).toEqual(IN_ORDER.map((n) => idOf(rec[n]!)));
    expect(headers.map((h: any) => h.datestamp)).toEqual(IN_ORDER.map((n) => datestamp(publishedAt[n]!)));
  });

  test("a token is tied to its verb, and the request of a resumed list echoes only the token", async () => {
    const first = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc");
    const token = first.root.ListIdentifiers.resumptionToken["#text"];
    expect(errorOf(await oai(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`))).toBe("badResumptionToken");
    const next = await oai(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`);
    expect(next.root.request).toEqual({ "#text": `${BASE_URL}/oai2d`, "@_verb": "ListIdentifiers", "@_resumptionToken": token });
  });
});

describe("dates", () => {
  test("from and until at second granularity, inclusive", async () => {
    const from = await oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&from=${datestamp(publishedAt.r5!)}&until=${datestamp(publishedAt.r6!)}`);
    expect(from.root.ListIdentifiers.header.map((h: any) => h.identifier)).toEqual([idOf(rec.r5!), idOf(rec.r6!)]);
    expect(from.root.request["@_from"]).toBe(datestamp(publishedAt.r5!));
    const until = await oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&until=${datestamp(publishedAt.r2!)}`);
    expect(until.root.ListIdentifiers.header.map((h: any) => h.identifier)).toEqual([idOf(rec.r1!), idOf(rec.r2!)]);
  });

  test("day granularity", async () => {
    const day = datestamp(publishedAt.r1!).slice(0, 10);
    const a = await oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&from=${day}&until=${day}`);
    expect(a.root.ListIdentifiers.resumptionToken["@_completeListSize"]).toBe("8");
    expect(errorOf(await oai("verb=ListIdentifiers&metadataPrefix=oai_dc&until=2026-11-21"))).toBe("noRecordsMatch");
    expect(errorOf(await oai("verb=ListRecords&metadataPrefix=oai_dc&from=2027-01-01T00:00:00Z"))).toBe("noRecordsMatch");
  });

  test.each([
    ["from=2026-11-22&until=2026-11-23T00:00:00Z", "mixed granularity"],
    ["from=2026-11-23&until=2026-11-22", "from after until"],
    ["from=2026-02-30", "a day that does not exist"],
    ["from=2026-11-22T12:00:00", "no Z"],
    ["from=2026-11-22T12:00:00.123Z", "finer than seconds"],
    ["until=yesterday", "not a date"],
  ])("%s (%s) is badArgument", async (dates) => {
    const a = await oai(`verb=ListRecords&metadataPrefix=oai_dc&${dates}`);
    expect(errorOf(a)).toBe("badArgument");
    expect(a.root.request).toBe(`${BASE_URL}/oai2d`);
  });
});

describe("verbs and arguments", () => {
  test.each([
    ["", "badVerb"],
    ["verb=Harvest", "badVerb"],
    ["verb=Identify&verb=Identify", "badVerb"],
    ["verb=Identify&foo=1", "badArgument"],
    ["verb=Identify&metadataPrefix=oai_dc", "badArgument"],
    ["verb=ListRecords", "badArgument"],
    ["verb=ListIdentifiers&metadataPrefix=oai_dc&metadataPrefix=marcxml", "badArgument"],
    ["verb=ListRecords&metadataPrefix=", "badArgument"],
    ["verb=ListRecords&metadataPrefix=oai%20dc", "badArgument"],
    ["verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=abc", "badArgument"],
    ["verb=ListSets&set=x", "badArgument"],
    ["verb=ListRecords&metadataPrefix=oai_dc&set=bad%20spec", "badArgument"],
    ["verb=ListRecords&metadataPrefix=mods", "cannotDisseminateFormat"],
    ["verb=ListIdentifiers&metadataPrefix=oai_dc&access_token=x", "badArgument"],
  ])("?%s -> %s, request without arguments", async (query, code) => {
    const a = await oai(query);
    expect(a.status).toBe(200);
    expect(errorOf(a)).toBe(code);
    if (code !== "cannotDisseminateFormat") expect(a.root.request).toBe(`${BASE_URL}/oai2d`);
    else expect(a.root.request["@_metadataPrefix"]).toBe("mods");
  });

  test.each([
    ["not a token", "garbage"],
    ["eyJ2ZXJiIjoiTGlzdFJlY29yZHMifQ.AAAAAAAAAAAAAAAAAAAAAA", "a forged signature"],
  ])("badResumptionToken for %s", async (token) => {
    expect(errorOf(await oai(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`))).toBe("badResumptionToken");
  });

  test("a token whose payload was altered is refused", async () => {
    const token: string = (await oai("verb=ListRecords&metadataPrefix=oai_dc")).root.ListRecords.resumptionToken["#text"];
    const [payload, signature] = token.split(".");
    const state = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const altered = Buffer.from(JSON.stringify({ ...state, cursor: 0, after: [0, ""] })).toString("base64url");
    expect(errorOf(await oai(`verb=ListRecords&resumptionToken=${altered}.${signature}`))).toBe("badResumptionToken");
  });
});

describe("sets", () => {
  test("noSetHierarchy while there are no sets", async () => {
    expect(errorOf(await oai("verb=ListSets"))).toBe("noSetHierarchy");
    expect(errorOf(await oai("verb=ListRecords&metadataPrefix=oai_dc&set=earth"))).toBe("noSetHierarchy");
  });

  test("ListSets pages the sets administrators defined", async () => {
    const sets = [
      { name: "Oceans", spec: "earth:ocean", search_pattern: "metadata.subjects.subject:ocean", description: "Sea & ocean data" },
      { name: "Ice", spec: "earth:ice", search_pattern: "metadata.subjects.subject:glacier" },
      { name: "Nothing", spec: "empty", search_pattern: "metadata.title:nosuchword" },
      { name: "Record six", spec: "six", search_pattern: '"Record r6"' },
    ];
    for (const body of sets) expect((await ctx.call("POST", "/api/oaipmh/sets", { as: "admin", body })).status).toBe(201);
    const pages = await harvest("verb=ListSets", "ListSets");
    const listed = pages.flatMap((p) => p.set);
    expect(listed.map((s: any) => s.setSpec)).toEqual(["earth:ice", "earth:ocean", "empty", "six"]);
    expect(listed[1]).toEqual({ setSpec: "earth:ocean", setName: "Oceans", setDescription: { "oai_dc:dc": expect.objectContaining({ "dc:description": "Sea & ocean data" }) } });
    expect(pages[0].resumptionToken).toMatchObject({ "@_cursor": "0", "@_completeListSize": "4" });
  });

  test("set selects by its query; headers name every set of the record", async () => {
    const ocean = headersOf(await harvest("verb=ListIdentifiers&metadataPrefix=oai_dc&set=earth:ocean", "ListIdentifiers"), "ListIdentifiers");
    expect(ocean.map((h: any) => h.identifier)).toEqual([idOf(rec.r1!), idOf(rec.r2!), idOf(rec.r3!)]);
    expect(ocean.every((h: any) => h.setSpec.length === 1 && h.setSpec[0] === "earth:ocean")).toBe(true);
    const all = headersOf(await harvest("verb=ListRecords&metadataPrefix=oai_dc", "ListRecords"), "ListRecords");
    expect(all.find((h: any) => h.identifier === idOf(rec.r6!)).setSpec).toEqual(["six"]);
    expect(all.find((h: any) => h.identifier === idOf(rec.r7!)).setSpec).toBeUndefined();
  });

  test("a parent spec holds its sub-sets; unknown and empty sets match nothing", async () => {
    const earth = headersOf(await harvest("verb=ListIdentifiers&metadataPrefix=oai_dc&set=earth", "ListIdentifiers"), "ListIdentifiers");
    expect(earth.map((h: any) => h.identifier)).toEqual(["r1", "r2", "r3", "r4", "r5", "gone"].map((n) => idOf(rec[n]!)));
    expect(errorOf(await oai("verb=ListIdentifiers&metadataPrefix=oai_dc&set=mars"))).toBe("noRecordsMatch");
    expect(errorOf(await oai("verb=ListRecords&metadataPrefix=oai_dc&set=empty"))).toBe("noRecordsMatch");
    expect(errorOf(await oai("verb=ListRecords&metadataPrefix=oai_dc&set=ear"))).toBe("noRecordsMatch");
  });
});

describe("a set deleted during a harvest", () => {
  test("resuming its list answers noRecordsMatch", async () => {
    const created = await ctx.call("POST", "/api/oaipmh/sets", { as: "admin", body: { name: "Every record", spec: "every", search_pattern: "Record" } });
    const first = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc&set=every");
    expect(first.root.ListIdentifiers.header).toHaveLength(3);
    const token = first.root.ListIdentifiers.resumptionToken["#text"];
    expect((await ctx.call("DELETE", `/api/oaipmh/sets/${created.json.id}`, { as: "admin" })).status).toBe(204);
    expect(errorOf(await oai(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`))).toBe("noRecordsMatch");
  });
});

describe("deleted records", () => {
  test("a record made restricted is reported deleted, with the time it changed and its sets", async () => {
    await setAccess("gone", "restricted");
    const headers = headersOf(await harvest("verb=ListRecords&metadataPrefix=oai_dc", "ListRecords"), "ListRecords");
    const gone = headers.find((h: any) => h.identifier === idOf(rec.gone!));
    expect(gone).toEqual({ "@_status": "deleted", identifier: idOf(rec.gone!), datestamp: datestamp(publishedAt.gone!), setSpec: ["earth:ice"] });
    expect(headers[headers.length - 1]).toBe(gone);
    expect(headers.filter((h: any) => h["@_status"] === "deleted")).toHaveLength(1);
    expect(headers).toHaveLength(8);
  });

  test("deleted records carry no metadata; GetRecord answers the header; no formats are listed", async () => {
    const list = (await harvest(`verb=ListRecords&metadataPrefix=marcxml&from=${datestamp(publishedAt.gone!)}`, "ListRecords"))[0];
    expect(list.record).toEqual([{ header: expect.objectContaining({ "@_status": "deleted" }) }]);
    const get = await oai(`verb=GetRecord&identifier=${idOf(rec.gone!)}&metadataPrefix=datacite`);
    expect(get.root.GetRecord.record).toEqual({ header: { "@_status": "deleted", identifier: idOf(rec.gone!), datestamp: datestamp(publishedAt.gone!), setSpec: ["earth:ice"] } });
    expect(get.text).not.toContain("Record gone");
    expect(errorOf(await oai(`verb=ListMetadataFormats&identifier=${idOf(rec.gone!)}`))).toBe("noMetadataFormats");
    expect(errorOf(await oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&set=earth:ice&from=${datestamp(publishedAt.gone!)}`))).toBeUndefined();
  });

  test("made public again: listed with its new datestamp, no longer deleted", async () => {
    await setAccess("gone", "public");
    const headers = headersOf(await harvest("verb=ListIdentifiers&metadataPrefix=oai_dc", "ListIdentifiers"), "ListIdentifiers");
    expect(headers[headers.length - 1]).toEqual({ identifier: idOf(rec.gone!), datestamp: datestamp(publishedAt.gone!), setSpec: ["earth:ice"] });
    expect(headers.some((h: any) => h["@_status"])).toBe(false);
    await setAccess("gone", "restricted");
  });
});

describe("resumption tokens over time", () => {
  test("a token survives a restart: a new app on the same data directory continues the list", async () => {
    const first = await oai("verb=ListRecords&metadataPrefix=oai_dc");
    const token = first.root.ListRecords.resumptionToken["#text"];
    const expected = (await oai(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`)).text;
    const config = loadConfig({ flags: { DATA_DIR: ctx.dataDir, HTTP: true, BASE_URL, OAISERVER_ID_PREFIX: PREFIX, OAISERVER_PAGE_SIZE: 3 }, env: {} });
    const restarted = createApp({ config, clock: ctx.clock, log: () => {} });
    try {
      const res = await restarted.app.handle(new Request(`${BASE_URL}/oai2d?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`));
      const text = await res.text();
      responses.push(text);
      expect(text).toBe(expected);
    } finally {
      await restarted.services.close();
    }
  });

  test("a token expires after OAISERVER_RESUMPTION_TOKEN_EXPIRE_SECONDS", async () => {
    const token = (await oai("verb=ListIdentifiers&metadataPrefix=oai_dc")).root.ListIdentifiers.resumptionToken["#text"];
    ctx.clock.advance(3599_000);
    expect(errorOf(await oai(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`))).toBeUndefined();
    ctx.clock.advance(1000);
    const expired = await oai(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`);
    expect(errorOf(expired)).toBe("badResumptionToken");
    expect(expired.root.error[0]["#text"]).toContain("expired");
  });
});

describe("defaults", () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp();
  });
  afterAll(() => other.close());

  test("identifiers use the host of BASE_URL; a host that is not a domain name gets no oai-identifier description", async () => {
    const identify = await oai("verb=Identify", { on: other });
    expect(identify.root.Identify.description).toBeUndefined();
    expect(identify.root.Identify.earliestDatestamp).toBe(datestamp(other.clock.now()));
    expect(errorOf(await oai("verb=ListRecords&metadataPrefix=oai_dc", { on: other }))).toBe("noRecordsMatch");
    const draft = await other.call("POST", "/api/records", { as: "alice", body: publishableDraft() });
    await other.call("POST", `/api/records/${draft.json.id}/draft/actions/publish`, { as: "alice" });
    const list = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc", { on: other });
    expect(list.root.ListIdentifiers.header[0].identifier).toBe(`oai:127.0.0.1:${draft.json.id}`);
    expect(list.root.ListIdentifiers.resumptionToken).toBeUndefined();
  });
});

test("every response is valid against oai-pmh-with-formats.xsd", async () => {
  expect(responses.length).toBeGreaterThan(60);
  await expectXsdValid("oai-pmh", ...responses);
});

test("the validator does reject a broken response", async () => {
  const broken = responses[0]!.replace("<protocolVersion>2.0</protocolVersion>", "");
  expect((await validateXsd("oai-pmh", broken))[0]!.valid).toBe(false);
});
