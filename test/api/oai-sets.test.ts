// OAI-PMH set administration: administrators only, spec fixed after creation, validation errors
// in the API's shape, sorts with sort_direction, paging and the links to the harvesting endpoint.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";
import { scenarios } from "../helpers/scenarios";

let ctx: TestApp;
const app = () => ctx;
/** Set spec -> id, filled as the scenario rows create them. */
const ids: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const SECONDS_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const denied = { status: 403, message: "Permission denied." };
const fieldsOf = (body: any) => body.errors.map((e: { field: string }) => e.field).sort();
const specsOf = (body: any) => body.hits.hits.map((h: { spec: string }) => h.spec);

async function createSet(body: Record<string, unknown>, advanceMs = 60_000) {
  ctx.clock.advance(advanceMs);
  const res = await ctx.call("POST", "/api/oaipmh/sets", { as: "admin", body });
  expect(res.status).toBe(201);
  ids[res.json.spec] = res.json.id;
  return res.json;
}

describe("who may manage sets", () => {
  const body = { name: "Physics", spec: "physics", search_pattern: "physics" };
  scenarios(app, [
    { name: "anonymous list", method: "GET", url: "/api/oaipmh/sets", status: 401, json: { status: 401 }, responseHeaders: { "www-authenticate": /^Bearer / } },
    { name: "user list", method: "GET", url: "/api/oaipmh/sets", as: "alice", status: 403, check: (b) => expect(b).toEqual(denied) },
    { name: "anonymous create", method: "POST", url: "/api/oaipmh/sets", body, status: 401 },
    { name: "user create", method: "POST", url: "/api/oaipmh/sets", as: "bob", body, status: 403, check: (b) => expect(b).toEqual(denied) },
    { name: "an invalid token", method: "GET", url: "/api/oaipmh/sets", token: "nope", status: 401 },
    { name: "anonymous formats", method: "GET", url: "/api/oaipmh/formats", status: 401 },
    { name: "user formats", method: "GET", url: "/api/oaipmh/formats", as: "alice", status: 403 },
    { name: "admin list, empty", method: "GET", url: "/api/oaipmh/sets", as: "admin", status: 200, json: { hits: { hits: [], total: 0 }, sortBy: "name" } },
  ]);
  test("nothing was created by the refused calls", async () => expect((await ctx.services.oai.listSets({ kind: "system" }, {})).hits.total).toBe(0));
});

describe("create, read, update, delete", () => {
  test("create returns the set with the spec's fields and links", async () => {
    const set = await createSet({ name: "Physics", spec: "physics", search_pattern: "metadata.subjects.subject:physics", description: "Records about physics" });
    expect(set).toEqual({
      id: expect.any(Number),
      name: "Physics",
      spec: "physics",
      search_pattern: "metadata.subjects.subject:physics",
      description: "Records about physics",
      created: expect.stringMatching(SECONDS_TIME),
      updated: expect.stringMatching(SECONDS_TIME),
      links: {
        self: `${BASE_URL}/api/oaipmh/sets/${set.id}`,
        "oai-listrecords": `${BASE_URL}/oai2d?verb=ListRecords&metadataPrefix=oai_dc&set=physics`,
        "oai-listidentifiers": `${BASE_URL}/oai2d?verb=ListIdentifiers&metadataPrefix=oai_dc&set=physics`,
      },
    });
    expect(set.created).toBe(new Date(ctx.clock.now()).toISOString().slice(0, 19));
  });

  test("description is optional", async () => {
    const set = await createSet({ name: "Open data", spec: "user-open:data_2024", search_pattern: "access.record:public" });
    expect(set.description).toBe("");
  });

  scenarios(app, [
    {
      name: "missing fields",
      method: "POST",
      url: "/api/oaipmh/sets",
      as: "admin",
      body: {},
      status: 400,
      json: { status: 400, message: "A validation error occurred." },
      check: (b) => {
        expect(fieldsOf(b)).toEqual(["name", "search_pattern", "spec"]);
        expect(b.errors[0].messages).toEqual(["Missing data for required field."]);
      },
    },
    {
      name: "blank name",
      method: "POST",
      url: "/api/oaipmh/sets",
      as: "admin",
      body: { name: "  ", spec: "x", search_pattern: "a" },
      status: 400,
      check: (b) => expect(fieldsOf(b)).toEqual(["name"]),
    },
    {
      name: "name too long",
      method: "POST",
      url: "/api/oaipmh/sets",
      as: "admin",
      body: { name: "n".repeat(256), spec: "x", search_pattern: "a" },
      status: 400,
      check: (b) => expect(fieldsOf(b)).toEqual(["name"]),
    },
    ...["has space", "a::b", ":a", "a/b", "é", "a:"].map((spec) => ({
      name: `spec '${spec}' is not an OAI setSpec`,
      method: "POST",
      url: "/api/oaipmh/sets",
      as: "admin" as const,
      body: { name: "X", spec, search_pattern: "a" },
      status: 400,
      check: (b: any) => expect(b.errors).toEqual([{ field: "spec", messages: [expect.stringContaining("OAI setSpec")] }]),
    })),
    {
      name: "a spec used already",
      method: "POST",
      url: "/api/oaipmh/sets",
      as: "admin",
      body: { name: "Physics again", spec: "physics", search_pattern: "a" },
      status: 400,
      check: (b) => expect(b.errors).toEqual([{ field: "spec", messages: ["A set with the spec 'physics' exists already."] }]),
    },
    ...['title:"unclosed', "(ocean AND", "metadata.publication_date:[2020 TO"].map((pattern) => ({
      name: `search_pattern ${pattern} does not parse`,
      method: "POST",
      url: "/api/oaipmh/sets",
      as: "admin" as const,
      body: { name: "X", spec: "bad-pattern", search_pattern: pattern },
      status: 400,
      check: (b: any) => expect(b.errors).toEqual([{ field: "search_pattern", messages: [expect.stringContaining("Not a valid search query")] }]),
    })),
    {
      name: "a number as name",
      method: "POST",
      url: "/api/oaipmh/sets",
      as: "admin",
      body: { name: 5, spec: "x", search_pattern: "a" },
      status: 400,
      check: (b) => expect(fieldsOf(b)).toEqual(["name"]),
    },
    { name: "not JSON", method: "POST", url: "/api/oaipmh/sets", as: "admin", rawBody: "{oops", headers: { "content-type": "application/json" }, status: 400 },
    { name: "read an unknown id", method: "GET", url: "/api/oaipmh/sets/9999", as: "admin", status: 404, json: { status: 404, message: "The OAI-PMH set does not exist." } },
    { name: "read a non-numeric id", method: "GET", url: "/api/oaipmh/sets/physics", as: "admin", status: 404 },
    { name: "delete an unknown id", method: "DELETE", url: "/api/oaipmh/sets/9999", as: "admin", status: 404 },
  ]);

  test("read by id: admin 200, user 403, anonymous 401", async () => {
    const id = ids.physics;
    expect((await ctx.call("GET", `/api/oaipmh/sets/${id}`, { as: "admin" })).json).toMatchObject({ id, spec: "physics", name: "Physics" });
    expect((await ctx.call("GET", `/api/oaipmh/sets/${id}`, { as: "alice" })).status).toBe(403);
    expect((await ctx.call("GET", `/api/oaipmh/sets/${id}`)).status).toBe(401);
  });

  test("update changes name, pattern and description, and the updated time; spec stays", async () => {
    const id = ids.physics;
    const before = (await ctx.call("GET", `/api/oaipmh/sets/${id}`, { as: "admin" })).json;
    ctx.clock.advance(3_600_000);
    const res = await ctx.call("PUT", `/api/oaipmh/sets/${id}`, {
      as: "admin",
      body: { name: "Physics & astronomy", search_pattern: "physics OR astronomy", description: "Wider" },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, spec: "physics", name: "Physics & astronomy", search_pattern: "physics OR astronomy", description: "Wider", created: before.created });
    expect(res.json.updated).toBe(new Date(ctx.clock.now()).toISOString().slice(0, 19));
    expect(res.json.updated > before.updated).toBe(true);
  });

  test("sending the same spec back is accepted; another spec is refused and nothing changes", async () => {
    const id = ids.physics;
    const same = await ctx.call("PUT", `/api/oaipmh/sets/${id}`, { as: "admin", body: { name: "Physics", spec: "physics", search_pattern: "physics" } });
    expect(same.status).toBe(200);
    const other = await ctx.call("PUT", `/api/oaipmh/sets/${id}`, { as: "admin", body: { name: "Renamed", spec: "phys", search_pattern: "physics" } });
    expect(other.status).toBe(400);
    expect(other.json.errors).toEqual([{ field: "spec", messages: ["The spec cannot be changed; delete the set and create it again."] }]);
    expect((await ctx.call("GET", `/api/oaipmh/sets/${id}`, { as: "admin" })).json).toMatchObject({ name: "Physics", spec: "physics" });
  });

  test("update validates like create", async () => {
    const res = await ctx.call("PUT", `/api/oaipmh/sets/${ids.physics}`, { as: "admin", body: { search_pattern: '"open' } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.json)).toEqual(["name", "search_pattern"]);
    expect((await ctx.call("PUT", `/api/oaipmh/sets/${ids.physics}`, { as: "alice", body: { name: "x", search_pattern: "x" } })).status).toBe(403);
    expect((await ctx.call("PUT", "/api/oaipmh/sets/9999", { as: "admin", body: { name: "x", search_pattern: "x" } })).status).toBe(404);
  });

  test("delete: user 403, admin 204, then 404", async () => {
    const set = await createSet({ name: "Temporary", spec: "temp", search_pattern: "x" });
    expect((await ctx.call("DELETE", `/api/oaipmh/sets/${set.id}`, { as: "alice" })).status).toBe(403);
    const res = await ctx.call("DELETE", `/api/oaipmh/sets/${set.id}`, { as: "admin" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await ctx.call("GET", `/api/oaipmh/sets/${set.id}`, { as: "admin" })).status).toBe(404);
    delete ids.temp;
  });
});

describe("listing: sorts, direction, paging and links", () => {
  beforeAll(async () => {
    // Names, specs and creation times in three different orders.
    await createSet({ name: "Zoology", spec: "a-zoo", search_pattern: "zoology" });
    await createSet({ name: "Botany", spec: "c-bot", search_pattern: "botany" });
    await createSet({ name: "Geology", spec: "b-geo", search_pattern: "geology" });
    ctx.clock.advance(60_000);
    await ctx.call("PUT", `/api/oaipmh/sets/${ids["a-zoo"]}`, { as: "admin", body: { name: "Zoology", search_pattern: "zoology OR animals" } });
  });
  // Sets so far: physics (oldest, updated later), user-open:data_2024, a-zoo (updated last), c-bot, b-geo.
  const listed =
    (...specs: string[]) =>
    (b: any) =>
      expect(specsOf(b)).toEqual(specs);
  scenarios(app, [
    {
      name: "default: name ascending",
      method: "GET",
      url: "/api/oaipmh/sets",
      as: "admin",
      status: 200,
      json: { sortBy: "name", hits: { total: 5 } },
      check: listed("c-bot", "b-geo", "user-open:data_2024", "physics", "a-zoo"),
    },
    {
      name: "name descending",
      method: "GET",
      url: "/api/oaipmh/sets?sort=name&sort_direction=desc",
      as: "admin",
      status: 200,
      check: listed("a-zoo", "physics", "user-open:data_2024", "b-geo", "c-bot"),
    },
    {
      name: "spec",
      method: "GET",
      url: "/api/oaipmh/sets?sort=spec",
      as: "admin",
      status: 200,
      json: { sortBy: "spec" },
      check: listed("a-zoo", "b-geo", "c-bot", "physics", "user-open:data_2024"),
    },
    { name: "created", method: "GET", url: "/api/oaipmh/sets?sort=created", as: "admin", status: 200, check: listed("physics", "user-open:data_2024", "a-zoo", "c-bot", "b-geo") },
    {
      name: "created descending",
      method: "GET",
      url: "/api/oaipmh/sets?sort=created&sort_direction=desc",
      as: "admin",
      status: 200,
      check: listed("b-geo", "c-bot", "a-zoo", "user-open:data_2024", "physics"),
    },
    {
      name: "updated descending",
      method: "GET",
      url: "/api/oaipmh/sets?sort=updated&sort_direction=desc",
      as: "admin",
      status: 200,
      check: listed("a-zoo", "b-geo", "c-bot", "physics", "user-open:data_2024"),
    },
    {
      name: "unknown sort",
      method: "GET",
      url: "/api/oaipmh/sets?sort=bestmatch",
      as: "admin",
      status: 400,
      check: (b) => expect(b.errors).toEqual([{ field: "sort", messages: ["Must be one of: name, spec, created, updated."] }]),
    },
    {
      name: "unknown direction",
      method: "GET",
      url: "/api/oaipmh/sets?sort_direction=up",
      as: "admin",
      status: 400,
      check: (b) => expect(fieldsOf(b)).toEqual(["sort_direction"]),
    },
    { name: "bad size", method: "GET", url: "/api/oaipmh/sets?size=0", as: "admin", status: 400, json: { message: "Invalid pagination parameters." } },
    {
      name: "page 2 of size 2, with links",
      method: "GET",
      url: "/api/oaipmh/sets?sort=spec&size=2&page=2",
      as: "admin",
      status: 200,
      check: (b) => {
        expect(specsOf(b)).toEqual(["c-bot", "physics"]);
        expect(b.hits.total).toBe(5);
        expect(b.links).toEqual({
          self: `${BASE_URL}/api/oaipmh/sets?sort_direction=asc&sort=spec&page=2&size=2`,
          prev: `${BASE_URL}/api/oaipmh/sets?sort_direction=asc&sort=spec&page=1&size=2`,
          next: `${BASE_URL}/api/oaipmh/sets?sort_direction=asc&sort=spec&page=3&size=2`,
          "oai-listsets": `${BASE_URL}/oai2d?verb=ListSets`,
          "oai-listrecords": `${BASE_URL}/oai2d?verb=ListRecords&metadataPrefix=oai_dc`,
          "oai-listidentifiers": `${BASE_URL}/oai2d?verb=ListIdentifiers&metadataPrefix=oai_dc`,
          "oai-identify": `${BASE_URL}/oai2d?verb=Identify`,
        });
      },
    },
    {
      name: "last page has no next",
      method: "GET",
      url: "/api/oaipmh/sets?sort=spec&size=2&page=3",
      as: "admin",
      status: 200,
      check: (b) => (expect(specsOf(b)).toEqual(["user-open:data_2024"]), expect(b.links.next).toBeUndefined()),
    },
  ]);
});

describe("metadata formats", () => {
  scenarios(app, [
    {
      name: "every prefix with its schema and namespace",
      method: "GET",
      url: "/api/oaipmh/formats",
      as: "admin",
      status: 200,
      check: (b) => {
        expect(b.hits.total).toBe(6);
        expect(b.hits.hits.map((f: { id: string }) => f.id)).toEqual(["oai_dc", "datacite", "oai_datacite", "marcxml", "marc21", "dcat"]);
        expect(b.hits.hits[0]).toEqual({ id: "oai_dc", schema: "http://www.openarchives.org/OAI/2.0/oai_dc.xsd", namespace: "http://www.openarchives.org/OAI/2.0/oai_dc/" });
        expect(b.hits.hits[2]).toEqual({ id: "oai_datacite", schema: "http://schema.datacite.org/oai/oai-1.1/oai.xsd", namespace: "http://schema.datacite.org/oai/oai-1.1/" });
      },
    },
  ]);
});
