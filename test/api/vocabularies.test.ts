// Vocabularies over HTTP: search (q, suggest, tags, sorts, paging), reads, and administrator writes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { fixturesVersion, shippedVocabularies } from "../../src/vocabularies/fixtures";
import { createTestApp, type TestApp } from "../helpers/app";
import { scenarios } from "../helpers/scenarios";
import { hitIds } from "../helpers/search";
import { publishableDraft } from "../helpers/records";

let ctx: TestApp;
const app = () => ctx;
const invalid = (field: string) => ({ status: 400, errors: [{ field }] });

const NAMES = [
  {
    id: "0000-0002-1825-0097",
    given_name: "Ada",
    family_name: "Lovelace",
    identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }],
    affiliations: [{ id: "03yrm5c26", name: "Sent name" }],
  },
  { id: "n-babbage", given_name: "Charles", family_name: "Babbage", identifiers: [], affiliations: [{ name: "Cambridge" }] },
  { id: "n-lovell", given_name: "Bernard", family_name: "Lovell", identifiers: [], affiliations: [{ name: "Jodrell Bank" }] },
  { id: "n-noether", given_name: "Emmy", family_name: "Nöther", identifiers: [], affiliations: [] },
];

beforeAll(async () => {
  ctx = await createTestApp();
  const v = ctx.services.vocabularies;
  await v.create(
    systemActor,
    "affiliations",
    {
      id: "03yrm5c26",
      name: "California Digital Library",
      acronym: "CDL",
      country: "us",
      identifiers: [{ scheme: "ror", identifier: "03yrm5c26" }],
    },
    { via: "cli", address: null },
  );
  await v.create(
    systemActor,
    "funders",
    { id: "00k4n6c32", name: "European Commission", acronym: "EC", country: "BE", identifiers: [{ scheme: "ror", identifier: "00k4n6c32" }] },
    { via: "cli", address: null },
  );
  await v.create(
    systemActor,
    "funders",
    {
      id: "021nxhr62",
      name: "National Science Foundation",
      acronym: "NSF",
      country: "US",
      identifiers: [{ scheme: "doi", identifier: "10.13039/100000001" }],
    },
    { via: "cli", address: null },
  );
  for (const n of NAMES) {
    await v.create(systemActor, "names", n, { via: "cli", address: null });
    ctx.clock.advance(1000);
  }
  await v.create(systemActor, "subjects", { id: "https://id.nlm.nih.gov/mesh/D000001", scheme: "MeSH", subject: "Calcimycin" }, { via: "cli", address: null });
  await v.create(systemActor, "awards", { number: "101000001", title: { en: "Ocean observations" }, acronym: "OCEAN", funder: { id: "00k4n6c32" } }, { via: "cli", address: null });
});
afterAll(() => ctx.close());

describe("names", () => {
  test("a name is computed as `family, given`, and a known affiliation id takes the instance's name", async () => {
    const res = await ctx.call("GET", "/api/names/0000-0002-1825-0097");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe('"1"');
    expect(res.json).toEqual({
      id: "0000-0002-1825-0097",
      name: "Lovelace, Ada",
      given_name: "Ada",
      family_name: "Lovelace",
      identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }],
      affiliations: [{ id: "03yrm5c26", name: "California Digital Library" }],
      created: "2026-11-22T12:00:00.000000+00:00",
      updated: "2026-11-22T12:00:00.000000+00:00",
      revision_id: 1,
      links: { self: "http://127.0.0.1:5000/api/names/0000-0002-1825-0097" },
    });
  });

  test.each([
    ["suggest on a prefix of any word", "suggest=lov", ["n-lovell", "0000-0002-1825-0097"]],
    ["suggest on two prefixes", "suggest=ada%20lov", ["0000-0002-1825-0097"]],
    ["suggest ignores accents", "suggest=noth", ["n-noether"]],
    ["q on a field", "q=family_name:babbage", ["n-babbage"]],
    ["q on affiliations.name", "q=affiliations.name:jodrell", ["n-lovell"]],
    ["q on an identifier", "q=identifiers.identifier:%220000-0002-1825-0097%22", ["0000-0002-1825-0097"]],
    ["q with OR", "q=babbage%20OR%20lovell&sort=name", ["n-babbage", "n-lovell"]],
    ["q with NOT", "q=lov*%20NOT%20ada&sort=name", ["n-lovell"]],
    ["q of a negation alone excludes it, as in record search", "q=-babbage&sort=name", ["0000-0002-1825-0097", "n-lovell", "n-noether"]],
    ["q of a negated field", "q=-family_name:lovell%20-family_name:babbage&sort=name", ["0000-0002-1825-0097", "n-noether"]],
    ["q with a trailing wildcard", "q=lovel*&sort=name", ["0000-0002-1825-0097", "n-lovell"]],
    ["q that does not parse is searched as words", "q=%22babbage", ["n-babbage"]],
    ["q of punctuation only lists everything", "q=((&sort=name", ["n-babbage", "0000-0002-1825-0097", "n-lovell", "n-noether"]],
    ["default sort without q is name", "", ["n-babbage", "0000-0002-1825-0097", "n-lovell", "n-noether"]],
    ["newest", "sort=newest", ["n-noether", "n-lovell", "n-babbage", "0000-0002-1825-0097"]],
    ["oldest", "sort=oldest", ["0000-0002-1825-0097", "n-babbage", "n-lovell", "n-noether"]],
  ])("%s", async (_name, query, expected) => {
    const res = await ctx.call("GET", `/api/names?${query}`);
    expect(res.status).toBe(200);
    expect(hitIds(res.json)).toEqual(expected);
    expect(res.json.hits.total).toBe(expected.length);
  });

  test("sortBy reports what was applied; bestmatch without q falls back to the default", async () => {
    expect((await ctx.call("GET", "/api/names?q=lovelace")).json.sortBy).toBe("bestmatch");
    expect((await ctx.call("GET", "/api/names?sort=bestmatch")).json.sortBy).toBe("name");
    expect((await ctx.call("GET", "/api/names")).json.sortBy).toBe("name");
  });

  test("paging links carry q, sort, page and size", async () => {
    const res = await ctx.call("GET", "/api/names?suggest=lov&size=1");
    expect(res.json.hits.total).toBe(2);
    expect(res.json.links).toEqual({
      self: "http://127.0.0.1:5000/api/names?suggest=lov&sort=bestmatch&page=1&size=1",
      next: "http://127.0.0.1:5000/api/names?suggest=lov&sort=bestmatch&page=2&size=1",
    });
  });
});

describe("funders, affiliations, subjects, awards", () => {
  scenarios(app, [
    { name: "funder by country", method: "GET", url: "/api/funders?q=country:US", status: 200, check: (b) => expect(hitIds(b)).toEqual(["021nxhr62"]) },
    {
      name: "funder by identifier",
      method: "GET",
      url: "/api/funders?q=identifiers.identifier:%2210.13039/100000001%22",
      status: 200,
      check: (b) => expect(hitIds(b)).toEqual(["021nxhr62"]),
    },
    { name: "funder suggest on acronym", method: "GET", url: "/api/funders?suggest=ec", status: 200, check: (b) => expect(hitIds(b)).toEqual(["00k4n6c32"]) },
    {
      name: "funder read",
      method: "GET",
      url: "/api/funders/00k4n6c32",
      status: 200,
      json: {
        id: "00k4n6c32",
        name: "European Commission",
        country: "BE",
        identifiers: [{ scheme: "ror", identifier: "00k4n6c32" }],
        title: { en: "European Commission" },
        revision_id: 1,
        links: { self: "http://127.0.0.1:5000/api/funders/00k4n6c32" },
      },
    },
    { name: "affiliation country is upper-cased", method: "GET", url: "/api/affiliations/03yrm5c26", status: 200, json: { country: "US", acronym: "CDL" } },
    {
      name: "subject id with slashes",
      method: "GET",
      url: `/api/subjects/${encodeURIComponent("https://id.nlm.nih.gov/mesh/D000001")}`,
      status: 200,
      json: { subject: "Calcimycin", scheme: "MeSH" },
    },
    { name: "subjects suggest", method: "GET", url: "/api/subjects?suggest=calci", status: 200, check: (b) => expect(hitIds(b)).toEqual(["https://id.nlm.nih.gov/mesh/D000001"]) },
    {
      name: "award id from funder and number",
      method: "GET",
      url: "/api/awards/00k4n6c32::101000001",
      status: 200,
      json: { number: "101000001", acronym: "OCEAN", funder: { id: "00k4n6c32" } },
    },
    { name: "awards by number", method: "GET", url: "/api/awards?q=number:101000001", status: 200, check: (b) => expect(hitIds(b)).toEqual(["00k4n6c32::101000001"]) },
    { name: "the same type under /api/vocabularies", method: "GET", url: "/api/vocabularies/funders?q=nsf", status: 200, check: (b) => expect(hitIds(b)).toEqual(["021nxhr62"]) },
  ]);
});

describe("controlled vocabularies (shipped)", () => {
  const shipped = (type: string) => shippedVocabularies().find((v) => v.type === type)!.entries;
  scenarios(app, [
    {
      name: "entry shape",
      method: "GET",
      url: "/api/vocabularies/resourcetypes/image-photo",
      status: 200,
      json: {
        id: "image-photo",
        type: "resourcetypes",
        title: { en: "Photo" },
        props: { type: "image", subtype: "image-photo", datacite_general: "Image" },
        revision_id: 1,
        links: { self: "http://127.0.0.1:5000/api/vocabularies/resourcetypes/image-photo" },
      },
      check: (b) => {
        expect(b.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
        expect(b.tags).toContain("depositable");
      },
    },
    {
      name: "tags filter",
      method: "GET",
      url: "/api/vocabularies/licenses?tags=recommended",
      status: 200,
      check: (b) => {
        const expected = shipped("licenses")
          .filter((e) => e.tags?.includes("recommended"))
          .sort((x, y) => x.title.en!.toLowerCase().localeCompare(y.title.en!.toLowerCase()));
        expect(hitIds(b)).toEqual(expected.map((e) => e.id));
        expect(expected.map((e) => e.id)).toContain("cc-by-4.0");
      },
    },
    {
      name: "default sort is title",
      method: "GET",
      url: "/api/vocabularies/communitytypes",
      status: 200,
      check: (b) => {
        expect(hitIds(b)).toEqual(["event", "organization", "project", "topic"]);
        expect(b.sortBy).toBe("title");
      },
    },
    { name: "suggest on title", method: "GET", url: "/api/vocabularies/resourcetypes?suggest=pho", status: 200, check: (b) => expect(hitIds(b)).toEqual(["image-photo"]) },
    { name: "languages by code", method: "GET", url: "/api/vocabularies/languages?q=id:eng", status: 200, check: (b) => expect(hitIds(b)).toEqual(["eng"]) },
    { name: "languages suggest", method: "GET", url: "/api/vocabularies/languages?suggest=engli", status: 200, check: (b) => expect(hitIds(b)).toContain("eng") },
    { name: "licenses total", method: "GET", url: "/api/vocabularies/licenses?size=1", status: 200, check: (b) => expect(b.hits.total).toBe(shipped("licenses").length) },
  ]);

  test("every shipped type is loaded whole, once", async () => {
    for (const { type, entries } of shippedVocabularies()) {
      const res = await ctx.call("GET", `/api/vocabularies/${type}?size=1`);
      expect({ type, total: res.json.hits.total }).toEqual({ type, total: entries.length });
    }
    expect(await ctx.services.vocabularies.loadFixtures(shippedVocabularies, fixturesVersion())).toBeNull();
  });

  test("a release with changed data upgrades the shipped entries, keeping local ones", async () => {
    const changed = shippedVocabularies().map((v) =>
      v.type === "communitytypes" ? { ...v, entries: v.entries.map((e) => (e.id === "event" ? { ...e, title: { en: "Event or meeting" } } : e)) } : v,
    );
    await ctx.services.vocabularies.create(systemActor, "communitytypes", { id: "local-kind", title: { en: "Local kind" } }, { via: "cli", address: null });
    const summary = await ctx.services.vocabularies.loadFixtures(() => changed, "next-release");
    expect(summary).toMatchObject({ updated: 1, created: 0 });
    expect(await ctx.services.vocabularies.read(systemActor, "communitytypes", "event")).toMatchObject({ title: { en: "Event or meeting" }, revision_id: 2 });
    expect(await ctx.services.vocabularies.read(systemActor, "communitytypes", "local-kind")).toMatchObject({ id: "local-kind" });
    expect(await ctx.services.vocabularies.loadFixtures(() => changed, "next-release")).toBeNull();
  });
});

describe("wildcards in vocabulary queries", () => {
  // `?` is exactly one character, as in record search: "attribut?" is no prefix of "Attribution".
  test.each([
    ["attributio?", 61],
    ["attri?ution", 61],
    ["attribut*", 61],
    ["attribut?", 0],
  ])("licenses q=%s finds %i", async (q, total) => {
    const res = await ctx.call("GET", `/api/vocabularies/licenses?q=${q}&size=100`);
    expect(res.status).toBe(200);
    expect(res.json.hits.total).toBe(total);
    for (const hit of res.json.hits.hits) expect(JSON.stringify(hit.title).toLowerCase()).toContain("attribution");
  });
});

describe("bad input", () => {
  scenarios(app, [
    { name: "unknown type", method: "GET", url: "/api/vocabularies/colours", status: 404, json: { status: 404, message: "Vocabulary type 'colours' not found." } },
    { name: "unknown entry", method: "GET", url: "/api/names/nobody", status: 404, json: { status: 404, message: "The names entry 'nobody' does not exist." } },
    {
      name: "unknown sort",
      method: "GET",
      url: "/api/names?sort=colour",
      status: 400,
      json: { status: 400, message: "Invalid querystring parameters.", errors: [{ field: "sort" }] },
    },
    { name: "bad size", method: "GET", url: "/api/funders?size=1001", status: 400, json: invalid("size") },
    { name: "bad page", method: "GET", url: "/api/funders?page=zero", status: 400, json: invalid("page") },
    ...["q=%22", "q=(", "q=)", "q=AND", "q=NOT", "q=title:", "q=:", "q=%5C", "q=a:b:c", "q=*:*", "suggest=%22%22", "q=%7B%5B", "q=-", "q=%2B%2B"].map((query) => ({
      name: `odd query ${decodeURIComponent(query)}`,
      method: "GET",
      url: `/api/names?${query}`,
      status: 200,
      check: (b: any) => expect(Array.isArray(b.hits.hits)).toBe(true),
    })),
  ]);
});

describe("writes", () => {
  scenarios(app, [
    { name: "anonymous create", method: "POST", url: "/api/funders", body: { id: "x", name: "X" }, status: 401 },
    { name: "user create", method: "POST", url: "/api/funders", as: "alice", body: { id: "x", name: "X" }, status: 403, json: { status: 403, message: "Permission denied." } },
    { name: "user delete", method: "DELETE", url: "/api/funders/00k4n6c32", as: "bob", status: 403 },
    {
      name: "missing required fields",
      method: "POST",
      url: "/api/funders",
      as: "admin",
      body: { country: "Belgium" },
      status: 400,
      check: (b) => expect(b.errors.map((e: { field: string }) => e.field).sort()).toEqual(["country", "id", "name"]),
    },
    {
      name: "bad identifiers",
      method: "POST",
      url: "/api/names",
      as: "admin",
      body: { id: "n1", family_name: "X", identifiers: [{ scheme: "orcid" }] },
      status: 400,
      json: invalid("identifiers.0.identifier"),
    },
    { name: "generic entry needs a title", method: "POST", url: "/api/vocabularies/licenses", as: "admin", body: { id: "my-licence" }, status: 400, json: invalid("title") },
    { name: "duplicate id", method: "POST", url: "/api/funders", as: "admin", body: { id: "00k4n6c32", name: "Again" }, status: 400, json: invalid("id") },
    { name: "not JSON", method: "POST", url: "/api/funders", as: "admin", rawBody: "id=x", headers: { "content-type": "text/plain" }, status: 415 },
    { name: "a list instead of an object", method: "POST", url: "/api/funders", as: "admin", body: [1, 2], status: 400 },
  ]);

  test("an administrator creates, replaces (with If-Match) and deletes an entry", async () => {
    const created = await ctx.call("POST", "/api/vocabularies/licenses", {
      as: "admin",
      body: { id: "local-1.0", title: { en: "Local licence" }, props: { url: "https://example.org/l" } },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ id: "local-1.0", type: "licenses", revision_id: 1 });
    const stale = await ctx.call("PUT", "/api/vocabularies/licenses/local-1.0", { as: "admin", body: { title: { en: "Renamed" } }, headers: { "if-match": '"2"' } });
    expect(stale.status).toBe(412);
    ctx.clock.advance(5000);
    const updated = await ctx.call("PUT", "/api/vocabularies/licenses/local-1.0", { as: "admin", body: { title: { en: "Renamed" } }, headers: { "if-match": '"1"' } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ id: "local-1.0", title: { en: "Renamed" }, revision_id: 2 });
    expect(updated.json.updated).not.toBe(updated.json.created);
    expect(hitIds((await ctx.call("GET", "/api/vocabularies/licenses?q=renamed")).json)).toEqual(["local-1.0"]);
    expect(hitIds((await ctx.call("GET", "/api/vocabularies/licenses?q=local")).json)).toEqual(["local-1.0"]);
    const removed = await ctx.call("DELETE", "/api/vocabularies/licenses/local-1.0", { as: "admin" });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect((await ctx.call("GET", "/api/vocabularies/licenses/local-1.0")).status).toBe(404);
    expect((await ctx.call("GET", "/api/vocabularies/licenses?q=renamed")).json.hits.total).toBe(0);
  });
});

describe("deposits name entries as stored now", () => {
  test("a draft saved after an administrator retitled a licence, or removed it, carries the new title or the unknown-id error", async () => {
    await ctx.call("POST", "/api/vocabularies/licenses", { as: "admin", body: { id: "deposit-1.0", title: { en: "Deposit licence" } } });
    const body = (rights: unknown[]) => ({ ...publishableDraft(), metadata: { ...publishableDraft().metadata, rights } });
    const first = await ctx.call("POST", "/api/records", { as: "alice", body: body([{ id: "deposit-1.0" }]) });
    expect(first.status).toBe(201);
    expect(first.json.metadata.rights).toEqual([{ id: "deposit-1.0", title: { en: "Deposit licence" } }]);
    const renamed = await ctx.call("PUT", "/api/vocabularies/licenses/deposit-1.0", { as: "admin", body: { title: { en: "Deposit licence, second edition" } } });
    expect(renamed.status).toBe(200);
    const second = await ctx.call("POST", "/api/records", { as: "alice", body: body([{ id: "deposit-1.0" }]) });
    expect(second.json.metadata.rights).toEqual([{ id: "deposit-1.0", title: { en: "Deposit licence, second edition" } }]);
    expect((await ctx.call("DELETE", "/api/vocabularies/licenses/deposit-1.0", { as: "admin" })).status).toBe(204);
    const third = await ctx.call("POST", "/api/records", { as: "alice", body: body([{ id: "deposit-1.0" }]) });
    expect(third).toMatchObject({ status: 400, json: { errors: [{ field: "metadata.rights.0.id", messages: ["Invalid value deposit-1.0."] }] } });
  });
});
