// Community listings (all, the caller's own), their words, sorts, facets and paging; restricted
// communities never counted for non-members; records of a community; communities as OAI-PMH sets.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BASE_URL } from "../helpers/app";
import { COMMUNITY_BODY, createCommunitiesTestApp, roleScenarios, type CommunitiesTestApp } from "../helpers/communities";
import { expectXsdValid } from "../helpers/xml-validate";

let ctx: CommunitiesTestApp;
const app = () => ctx;
/** Every OAI-PMH answer, validated against the schema at the end. */
const oaiAnswers: string[] = [];

beforeAll(async () => {
  ctx = await createCommunitiesTestApp();
  const make = async (slug: string, overrides: Parameters<typeof ctx.makeCommunity>[1]) => {
    ctx.clock.advance(60_000);
    await ctx.makeCommunity(slug, overrides);
  };
  await make("ocean", { title: "Ocean Observatory", description: "Sea temperature data", type: "organization" });
  await make("coral", { title: "Coral Reefs", description: "Ocean reef monitoring", type: "project" });
  await make("secret-ocean", { title: "Secret Ocean Lab", type: "organization", visibility: "restricted" });
  ctx.clock.advance(60_000);
  expect((await ctx.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("glacier", { title: "Glacier Summit", type: "event" }) })).status).toBe(201);
  await make("no-type", { title: "Untyped" });
  // Coral changes last: first by updated-desc, and the highest revision.
  ctx.clock.advance(60_000);
  expect(
    (
      await ctx.call("PUT", "/api/communities/coral", {
        as: "owner",
        body: COMMUNITY_BODY("coral", { title: "Coral Reefs", description: "Ocean reef monitoring", type: "project" }),
      })
    ).status,
  ).toBe(200);
});
afterAll(() => ctx.close());

const slugs = (body: any) => body.hits.hits.map((h: any) => h.slug);
const slugsAre =
  (...expected: string[]) =>
  (body: any) =>
    expect(slugs(body)).toEqual(expected);
const buckets = (body: any, facet: string) => body.aggregations[facet].buckets.map((b: any) => [b.key, b.doc_count, b.is_selected]);

describe("GET /api/communities", () => {
  roleScenarios(app, [
    {
      name: "newest first, restricted left out of hits, total and facets",
      method: "GET",
      url: "/api/communities",
      status: 200,
      json: { hits: { total: 4 }, sortBy: "newest", links: { self: `${BASE_URL}/api/communities?sort=newest&page=1&size=10` } },
      check: (b) => {
        slugsAre("no-type", "glacier", "coral", "ocean")(b);
        expect(b.aggregations.type.label).toBe("Type");
        expect(b.aggregations.type.buckets).toEqual([
          { key: "event", doc_count: 1, label: "Event", is_selected: false },
          { key: "organization", doc_count: 1, label: "Organization", is_selected: false },
          { key: "project", doc_count: 1, label: "Project", is_selected: false },
        ]);
      },
    },
    { name: "another user sees the same", method: "GET", url: "/api/communities", as: "bob", status: 200, json: { hits: { total: 4 } } },
    {
      name: "a member sees the restricted one too",
      method: "GET",
      url: "/api/communities",
      as: "grouped",
      status: 200,
      json: { hits: { total: 5 } },
      check: (b) => expect(buckets(b, "type")).toContainEqual(["organization", 2, false]),
    },
    { name: "an administrator sees all", method: "GET", url: "/api/communities", as: "admin", status: 200, json: { hits: { total: 5 } } },
    {
      name: "q: best match first",
      method: "GET",
      url: "/api/communities?q=ocean",
      status: 200,
      json: { sortBy: "bestmatch", hits: { total: 2 } },
      check: slugsAre("ocean", "coral"),
    },
    { name: "q for a member", method: "GET", url: "/api/communities?q=ocean", as: "reader", status: 200, check: slugsAre("secret-ocean", "ocean", "coral") },
    { name: "q words are AND-ed", method: "GET", url: "/api/communities?q=ocean%20reef", status: 200, check: slugsAre("coral") },
    { name: "q matches the slug", method: "GET", url: "/api/communities?q=no-type", status: 200, check: slugsAre("no-type") },
    { name: "q finds no restricted one for others", method: "GET", url: "/api/communities?q=secret", as: "alice", status: 200, json: { hits: { hits: [], total: 0 } } },
    { name: "q with sort", method: "GET", url: "/api/communities?q=ocean&sort=oldest", status: 200, json: { sortBy: "oldest" }, check: slugsAre("ocean", "coral") },
    { name: "query syntax is words", method: "GET", url: "/api/communities?q=metadata.title:%22glacier%22", status: 200, check: slugsAre("glacier") },
    { name: "bestmatch without q is newest", method: "GET", url: "/api/communities?sort=bestmatch", status: 200, json: { sortBy: "newest" } },
    { name: "oldest", method: "GET", url: "/api/communities?sort=oldest", status: 200, check: slugsAre("ocean", "coral", "glacier", "no-type") },
    { name: "updated-desc", method: "GET", url: "/api/communities?sort=updated-desc", status: 200, check: (b) => expect(slugs(b)[0]).toBe("coral") },
    { name: "updated-asc", method: "GET", url: "/api/communities?sort=updated-asc", status: 200, check: (b) => expect(slugs(b)[3]).toBe("coral") },
    { name: "version", method: "GET", url: "/api/communities?sort=version", status: 200, check: (b) => expect(slugs(b)[0]).toBe("coral") },
    { name: "an unknown sort", method: "GET", url: "/api/communities?sort=mostviewed", status: 400, json: { errors: [{ field: "sort" }] } },
    {
      name: "type filter; its facet still counts every type",
      method: "GET",
      url: "/api/communities?type=organization",
      status: 200,
      json: { hits: { total: 1 }, links: { self: `${BASE_URL}/api/communities?type=organization&sort=newest&page=1&size=10` } },
      check: (b) => {
        slugsAre("ocean")(b);
        expect(buckets(b, "type")).toEqual([
          ["event", 1, false],
          ["organization", 1, true],
          ["project", 1, false],
        ]);
      },
    },
    { name: "two types", method: "GET", url: "/api/communities?type=organization&type=project", status: 200, check: slugsAre("coral", "ocean") },
    { name: "comma-separated types", method: "GET", url: "/api/communities?type=organization,event", status: 200, check: slugsAre("glacier", "ocean") },
    { name: "an unknown type", method: "GET", url: "/api/communities?type=club", status: 200, json: { hits: { total: 0 } } },
    {
      name: "paging",
      method: "GET",
      url: "/api/communities?size=2&page=2",
      status: 200,
      json: { links: { prev: `${BASE_URL}/api/communities?sort=newest&page=1&size=2`, self: `${BASE_URL}/api/communities?sort=newest&page=2&size=2` } },
      check: (b) => (slugsAre("coral", "ocean")(b), expect(b.links.next).toBeUndefined()),
    },
    { name: "page 0", method: "GET", url: "/api/communities?page=0", status: 400, json: { message: "Invalid pagination parameters." } },
    { name: "size over the maximum", method: "GET", url: "/api/communities?size=1001", status: 400 },
    { name: "size not a number", method: "GET", url: "/api/communities?size=ten", status: 400 },
    {
      name: "zen4R: q, size, page with the InvenioRDM vendor type",
      method: "GET",
      url: "/api/communities?q=&size=100&page=1",
      headers: { accept: "application/vnd.inveniordm.v1+json" },
      status: 200,
      responseHeaders: { "content-type": /^application\/vnd\.inveniordm\.v1\+json/ },
      json: { hits: { total: 4 } },
    },
  ]);

  test("a query with no words (punctuation, a lone wildcard) lists everything, in both listings, never a 500", async () => {
    for (const q of ["*", "((", "-", '"', "*:*"]) {
      for (const path of ["/api/communities", "/api/user/communities"]) {
        const res = await ctx.call("GET", `${path}?q=${encodeURIComponent(q)}`, { as: "alice" });
        expect({ q, path, status: res.status }).toEqual({ q, path, status: 200 });
        expect(Array.isArray(res.json.hits.hits)).toBe(true);
      }
    }
  });
});

describe("GET /api/user/communities", () => {
  roleScenarios(app, [
    { name: "anonymous", method: "GET", url: "/api/user/communities", status: 401 },
    { name: "the creator", method: "GET", url: "/api/user/communities", as: "alice", status: 200, check: slugsAre("glacier") },
    { name: "nobody's member", method: "GET", url: "/api/user/communities", as: "bob", status: 200, json: { hits: { hits: [], total: 0 } } },
    { name: "administrators list only their own", method: "GET", url: "/api/user/communities", as: "admin", status: 200, json: { hits: { total: 0 } } },
    {
      name: "a member through a group, with the visibility facet",
      method: "GET",
      url: "/api/user/communities",
      as: "grouped",
      status: 200,
      json: { links: { self: `${BASE_URL}/api/user/communities?sort=newest&page=1&size=10` } },
      check: (b) => {
        slugsAre("no-type", "secret-ocean", "coral", "ocean")(b);
        expect(b.aggregations.visibility).toEqual({
          label: "Visibility",
          buckets: [
            { key: "public", doc_count: 3, label: "Public", is_selected: false },
            { key: "restricted", doc_count: 1, label: "Restricted", is_selected: false },
          ],
        });
      },
    },
    { name: "visibility filter", method: "GET", url: "/api/user/communities?visibility=restricted", as: "curator", status: 200, check: slugsAre("secret-ocean") },
    { name: "type filter and q", method: "GET", url: "/api/user/communities?q=ocean&type=organization", as: "owner", status: 200, check: slugsAre("secret-ocean", "ocean") },
  ]);
});

describe("GET /api/communities/{id}/records", () => {
  roleScenarios(app, [
    {
      name: "the envelope, empty until records are included",
      method: "GET",
      url: "/api/communities/ocean/records",
      status: 200,
      json: { hits: { hits: [], total: 0 }, sortBy: "newest", aggregations: { access_status: { buckets: [] }, resource_type: { buckets: [] }, language: { buckets: [] } } },
      check: (b) => expect(b.links.self).toMatch(new RegExp(`^${BASE_URL}/api/communities/[0-9a-f-]{36}/records\\?sort=newest&page=1&size=10$`)),
    },
    { name: "restricted: others", method: "GET", url: "/api/communities/secret-ocean/records", as: "alice", status: 404 },
    { name: "restricted: a reader", method: "GET", url: "/api/communities/secret-ocean/records", as: "reader", status: 200 },
    { name: "unknown community", method: "GET", url: "/api/communities/nothing/records", status: 404 },
    { name: "bad paging", method: "GET", url: "/api/communities/ocean/records?size=0", status: 400 },
    { name: "q sorts by best match", method: "GET", url: "/api/communities/ocean/records?q=sea", status: 200, json: { sortBy: "bestmatch" } },
  ]);
});

describe("OAI-PMH sets of communities", () => {
  const harvest = async (query: string) => {
    const text = await ctx.oai(query);
    oaiAnswers.push(text);
    return text;
  };
  const specs = (xml: string) => [...xml.matchAll(/<setSpec>([^<]+)<\/setSpec>/g)].map((m) => m[1]);

  test("every public community is a set user-<slug>, named by its title", async () => {
    const xml = await harvest("verb=ListSets");
    expect(specs(xml)).toEqual(["user-coral", "user-glacier", "user-no-type", "user-ocean"]);
    expect(xml).toContain("<setName>Ocean Observatory</setName>");
    expect(xml).toContain("<dc:description>Sea temperature data</dc:description>");
    expect(xml).toContain("<dc:description>Records belonging to the community &apos;Glacier Summit&apos;</dc:description>");
  });

  test("harvesting a community's set is valid and matches nothing yet", async () => {
    for (const verb of ["ListRecords", "ListIdentifiers"]) {
      expect(await harvest(`verb=${verb}&metadataPrefix=oai_dc&set=user-ocean`)).toContain('<error code="noRecordsMatch">');
    }
    expect(await harvest("verb=ListRecords&metadataPrefix=oai_dc&set=user-secret-ocean")).toContain('<error code="noRecordsMatch">');
  });

  test("a renamed community's set follows its slug; an administrator's set of the same spec wins", async () => {
    expect((await ctx.call("POST", "/api/communities/glacier/rename", { as: "alice", body: { slug: "ice" } })).status).toBe(200);
    const res = await ctx.call("POST", "/api/oaipmh/sets", {
      as: "admin",
      body: { name: "Curated coral", spec: "user-coral", search_pattern: "metadata.title:coral", description: "" },
    });
    expect(res.status).toBe(201);
    const xml = await harvest("verb=ListSets");
    expect(specs(xml)).toEqual(["user-coral", "user-ice", "user-no-type", "user-ocean"]);
    expect(xml).toContain("<setName>Curated coral</setName>");
  });

  test("every answer is valid OAI-PMH", async () => {
    await expectXsdValid("oai-pmh", ...oaiAnswers);
  });
});
