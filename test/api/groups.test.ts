// The groups directory: search (signed-in only, 10 hits at most), single reads and generated avatars.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { renderAvatar } from "../../src/core/avatar";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";
import { exactlyDenied, scenarios } from "../helpers/scenarios";
import { hitIds } from "../helpers/search";

let ctx: TestApp;
const app = () => ctx;
/** Group name -> id; ids are random, so scenario rows address groups by name and check ids at run time. */
const ids: Record<string, string> = {};

const GROUPS: [string, string][] = [
  ["Data Stewards", "People who curate research data"],
  ["Library Staff", "The university library"],
  ["Ocean Lab", "Marine data-science & <oceanography>"],
  ["Ökologie", "Arbeitsgruppe für Ökologie"],
  ...Array.from({ length: 12 }, (_, i): [string, string] => [`Team ${String(i + 1).padStart(2, "0")}`, "A project team"]),
];

beforeAll(async () => {
  ctx = await createTestApp();
  for (const [name, description] of GROUPS) ids[name] = (await ctx.services.groups.createGroup(systemActor, { name, description })).id;
});
afterAll(() => ctx.close());

/** The body's hits are exactly these groups, in this order. */
const hitsAre =
  (...names: string[]) =>
  (body: any) =>
    expect(hitIds(body)).toEqual(names.map((n) => ids[n]));
const teams = (...numbers: number[]) => numbers.map((n) => `Team ${String(n).padStart(2, "0")}`);

describe("search needs a signed-in caller", () => {
  scenarios(app, [
    { name: "anonymous search", method: "GET", url: "/api/groups", status: 401, json: { status: 401 }, responseHeaders: { "www-authenticate": /^Bearer / } },
    { name: "anonymous search with q", method: "GET", url: "/api/groups?q=data", status: 401 },
    { name: "an invalid token", method: "GET", url: "/api/groups", token: "not-a-token", status: 401 },
    { name: "a user", method: "GET", url: "/api/groups", as: "alice", status: 200 },
    { name: "an administrator", method: "GET", url: "/api/groups?q=data", as: "admin", status: 200, check: hitsAre("Data Stewards", "Ocean Lab") },
  ]);
});

describe("search envelope, order and the 10-hit cap", () => {
  scenarios(app, [
    {
      name: "no q: everything by name, 10 hits, total of all",
      method: "GET",
      url: "/api/groups",
      as: "alice",
      status: 200,
      json: { hits: { total: 16 }, sortBy: "name", links: { self: `${BASE_URL}/api/groups?sort=name` } },
      check: (body) => {
        hitsAre("Data Stewards", "Library Staff", "Ocean Lab", ...teams(1, 2, 3, 4, 5, 6, 7))(body);
        expect(Object.keys(body.links)).toEqual(["self"]);
        expect(body.aggregations).toBeUndefined();
      },
    },
    {
      name: "a hit has the group's shape",
      method: "GET",
      url: "/api/groups?q=stewards",
      as: "bob",
      status: 200,
      check: (body) => {
        const id = ids["Data Stewards"]!;
        expect(body.hits.hits).toEqual([
          {
            id,
            revision_id: 1,
            created: "2026-11-22T12:00:00.000000+00:00",
            updated: "2026-11-22T12:00:00.000000+00:00",
            name: "Data Stewards",
            description: "People who curate research data",
            is_managed: false,
            links: { avatar: `${BASE_URL}/api/groups/${id}/avatar.svg`, self: `${BASE_URL}/api/groups/${id}` },
          },
        ]);
      },
    },
    { name: "q in links.self", method: "GET", url: "/api/groups?q=data", as: "alice", status: 200, json: { links: { self: `${BASE_URL}/api/groups?q=data&sort=name` } } },
    {
      name: "12 matches, 10 hits",
      method: "GET",
      url: "/api/groups?q=team",
      as: "alice",
      status: 200,
      json: { hits: { total: 12 } },
      check: hitsAre(...teams(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)),
    },
    {
      name: "page and size do not page",
      method: "GET",
      url: "/api/groups?q=team&page=2&size=50",
      as: "alice",
      status: 200,
      json: { hits: { total: 12 } },
      check: hitsAre(...teams(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)),
    },
    { name: "a sort option changes nothing", method: "GET", url: "/api/groups?q=team&sort=newest", as: "alice", status: 200, json: { sortBy: "name" } },
  ]);
});

describe("q matching", () => {
  scenarios(app, [
    { name: "name or description", method: "GET", url: "/api/groups?q=data", as: "alice", status: 200, json: { hits: { total: 2 } }, check: hitsAre("Data Stewards", "Ocean Lab") },
    { name: "case-insensitive", method: "GET", url: "/api/groups?q=DaTa", as: "alice", status: 200, check: hitsAre("Data Stewards", "Ocean Lab") },
    { name: "word prefix", method: "GET", url: "/api/groups?q=stew", as: "alice", status: 200, check: hitsAre("Data Stewards") },
    { name: "not inside a word", method: "GET", url: "/api/groups?q=ewards", as: "alice", status: 200, json: { hits: { hits: [], total: 0 } } },
    { name: "words are AND-ed", method: "GET", url: "/api/groups?q=data%20curate", as: "alice", status: 200, check: hitsAre("Data Stewards") },
    { name: "words are AND-ed across fields", method: "GET", url: "/api/groups?q=ocean%20marine", as: "alice", status: 200, check: hitsAre("Ocean Lab") },
    { name: "no group has both words", method: "GET", url: "/api/groups?q=data%20library", as: "alice", status: 200, check: hitsAre() },
    { name: "a number word", method: "GET", url: "/api/groups?q=team%201", as: "alice", status: 200, check: hitsAre(...teams(10, 11, 12)) },
    { name: "after a hyphen", method: "GET", url: "/api/groups?q=science", as: "alice", status: 200, check: hitsAre("Ocean Lab") },
    { name: "inside markup-like text", method: "GET", url: "/api/groups?q=oceanog", as: "alice", status: 200, check: hitsAre("Ocean Lab") },
    { name: "punctuation inside a word is kept", method: "GET", url: "/api/groups?q=data-sci", as: "alice", status: 200, check: hitsAre("Ocean Lab") },
    { name: "non-ASCII, other case", method: "GET", url: "/api/groups?q=%C3%B6kolog", as: "alice", status: 200, check: hitsAre("Ökologie") },
    { name: "non-ASCII, upper case", method: "GET", url: "/api/groups?q=%C3%96KOLOGIE", as: "alice", status: 200, check: hitsAre("Ökologie") },
    { name: "an empty q", method: "GET", url: "/api/groups?q=", as: "alice", status: 200, json: { hits: { total: 16 }, links: { self: `${BASE_URL}/api/groups?sort=name` } } },
    { name: "spaces only", method: "GET", url: "/api/groups?q=%20%20", as: "alice", status: 200, json: { hits: { total: 16 } } },
  ]);
});

describe("odd characters in q are words, never syntax or errors", () => {
  const ok = (name: string, q: string, expected: string[] | "all") => ({
    name,
    method: "GET",
    url: `/api/groups?q=${encodeURIComponent(q)}`,
    as: "alice" as const,
    status: 200,
    check: (body: any) => (expected === "all" ? expect(body.hits.total).toBe(16) : hitsAre(...expected)(body)),
  });
  scenarios(app, [
    ok("a lone quote", '"', "all"),
    ok("a lone star", "*", "all"),
    ok("a lone parenthesis", "(", "all"),
    ok("a lone colon", ":", "all"),
    ok("SQL wildcards alone", "%_", "all"),
    ok("quoted word", '"stewards"', ["Data Stewards"]),
    ok("trailing star", "stew*", ["Data Stewards"]),
    ok("parenthesised", "(library)", ["Library Staff"]),
    ok("a field prefix", "name:library", ["Library Staff"]),
    ok("a star inside a word is not a wildcard", "d*a", []),
    ok("a question mark inside a word is not a wildcard", "dat?", ["Data Stewards", "Ocean Lab"]),
    ok("a ? between letters", "d?ta", []),
    ok("brackets", "da[t]a", []),
    ok("LIKE wildcards are literal", "d%a", []),
    ok("an underscore is literal", "d_ta", []),
    ok("a single quote", "o'brien", []),
    ok("a backslash", "data\\", ["Data Stewards", "Ocean Lab"]),
    ok("SQL-looking text", "'; DROP TABLE groups; --", []),
    ok("a very long query", "x".repeat(5000) + " data ".repeat(200), []),
    ok("many words", Array.from({ length: 50 }, () => "data").join(" "), ["Data Stewards", "Ocean Lab"]),
  ]);
});

describe("reading a group", () => {
  const isDataStewards = (body: any) => expect(body.id).toBe(ids["Data Stewards"]);
  scenarios(app, [
    { name: "anonymous, by name", method: "GET", url: "/api/groups/Data%20Stewards", status: 200, check: isDataStewards },
    { name: "a name in another case", method: "GET", url: "/api/groups/data%20stewards", status: 200, check: isDataStewards },
    { name: "a user", method: "GET", url: "/api/groups/Library%20Staff", as: "alice", status: 200, json: { name: "Library Staff", is_managed: false } },
    { name: "a non-ASCII name", method: "GET", url: "/api/groups/%C3%96kologie", status: 200, json: { name: "Ökologie" } },
    { name: "a missing group", method: "GET", url: "/api/groups/no-such-group", status: 403, check: exactlyDenied },
    { name: "a missing group, signed in", method: "GET", url: "/api/groups/no-such-group", as: "admin", status: 403, check: exactlyDenied },
    { name: "a missing uuid", method: "GET", url: "/api/groups/00000000-0000-4000-8000-000000000000", status: 403, check: exactlyDenied },
    { name: "a name with odd characters", method: "GET", url: "/api/groups/%22%2A%28%3A%25", status: 403, check: exactlyDenied },
    { name: "an invalid token is still refused", method: "GET", url: "/api/groups/Data%20Stewards", token: "nope", status: 401 },
    {
      name: "prettyprint",
      method: "GET",
      url: "/api/groups/Data%20Stewards?prettyprint=1",
      status: 200,
      check: (_b, text) => expect(text).toContain('\n  "name": "Data Stewards"'),
    },
    { name: "writes are not routes", method: "DELETE", url: "/api/groups/Data%20Stewards", as: "admin", status: 405 },
  ]);

  test("by id: the spec's group shape with absolute links", async () => {
    const id = ids["Ocean Lab"]!;
    const res = await ctx.call("GET", `/api/groups/${id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id,
      revision_id: 1,
      created: "2026-11-22T12:00:00.000000+00:00",
      updated: "2026-11-22T12:00:00.000000+00:00",
      name: "Ocean Lab",
      description: "Marine data-science & <oceanography>",
      is_managed: false,
      links: { avatar: `${BASE_URL}/api/groups/${id}/avatar.svg`, self: `${BASE_URL}/api/groups/${id}` },
    });
  });

  // Names compare like the unique index on lower(name): ASCII letters fold, others do not.
  test("names are matched case-insensitively the way the unique index compares them", async () => {
    const lower = await ctx.services.groups.createGroup(systemActor, { name: "ökologie" });
    expect((await ctx.call("GET", "/api/groups/%C3%B6kologie")).json.id).toBe(lower.id);
    expect((await ctx.call("GET", "/api/groups/%C3%96kologie")).json.id).toBe(ids["Ökologie"]);
    await expect(ctx.services.groups.createGroup(systemActor, { name: "DATA stewards" })).rejects.toThrow("A validation error occurred.");
  });

  test("an id wins over a group named like it", async () => {
    const target = ids["Library Staff"]!;
    const impostor = await ctx.services.groups.createGroup(systemActor, { name: target });
    const res = await ctx.call("GET", `/api/groups/${target}`);
    expect(res.json.id).toBe(target);
    expect((await ctx.call("GET", `/api/groups/${impostor.id}`)).json.name).toBe(target);
  });
});

describe("group avatars", () => {
  const svgHeaders = {
    "content-type": "image/svg+xml; charset=utf-8",
    "content-disposition": "inline; filename=avatar.svg",
    etag: /^"[0-9a-f]{32}"$/,
    "cache-control": "public, max-age=3600",
    "x-content-type-options": "nosniff",
  };
  scenarios(app, [
    {
      name: "anonymous",
      method: "GET",
      url: "/api/groups/Data%20Stewards/avatar.svg",
      status: 200,
      responseHeaders: svgHeaders,
      check: (_b, text) => expect(text).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg".*>D<\/text><\/svg>$/),
    },
    {
      name: "a user",
      method: "GET",
      url: "/api/groups/Library%20Staff/avatar.svg",
      as: "alice",
      status: 200,
      responseHeaders: svgHeaders,
      check: (_b, text) => expect(text).toContain(">L</text>"),
    },
    { name: "a non-ASCII initial", method: "GET", url: "/api/groups/%C3%96kologie/avatar.svg", status: 200, check: (_b, text) => expect(text).toContain(">Ö</text>") },
    { name: "HEAD", method: "HEAD", url: "/api/groups/Data%20Stewards/avatar.svg", status: 200, responseHeaders: svgHeaders, check: (_b, text) => expect(text).toBe("") },
    { name: "a missing group", method: "GET", url: "/api/groups/no-such-group/avatar.svg", status: 403, check: exactlyDenied },
    {
      name: "If-None-Match *",
      method: "GET",
      url: "/api/groups/Data%20Stewards/avatar.svg",
      headers: { "if-none-match": "*" },
      status: 304,
      check: (_b, text) => expect(text).toBe(""),
    },
    { name: "another ETag", method: "GET", url: "/api/groups/Data%20Stewards/avatar.svg", headers: { "if-none-match": '"0000"' }, status: 200 },
    { name: "a missing group with If-None-Match *", method: "GET", url: "/api/groups/no-such-group/avatar.svg", headers: { "if-none-match": "*" }, status: 403 },
  ]);

  test("the ETag covers the bytes and answers If-None-Match with 304 and no body", async () => {
    const url = `/api/groups/${ids["Data Stewards"]}/avatar.svg`;
    const first = await ctx.call("GET", url);
    const etag = first.headers.get("etag")!;
    expect(etag).toBe(renderAvatar(ids["Data Stewards"]!, "D").etag);
    expect(first.text).toBe(renderAvatar(ids["Data Stewards"]!, "D").svg);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await ctx.call("GET", url, { headers: { "if-none-match": header } });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toBe("public, max-age=3600");
    }
  });

  test("the colour follows the id, not the name", async () => {
    const fill = (text: string) => /<rect [^>]*fill="(#[0-9a-f]{6})"/.exec(text)![1];
    const byName = await ctx.call("GET", "/api/groups/Data%20Stewards/avatar.svg");
    const byId = await ctx.call("GET", `/api/groups/${ids["Data Stewards"]}/avatar.svg`);
    expect(byName.text).toBe(byId.text);
    const colours = new Set<string>();
    for (const id of Object.values(ids)) colours.add(fill((await ctx.call("GET", `/api/groups/${id}/avatar.svg`)).text)!);
    expect(colours.size).toBeGreaterThan(3);
  });
});

describe("avatar rendering", () => {
  test("text is escaped", () => {
    const { svg } = renderAvatar("seed", `<&"'>`);
    expect(svg).toContain(">&lt;&amp;&quot;&apos;&gt;</text>");
    expect(svg).toContain('aria-label="&lt;&amp;&quot;&apos;&gt;"');
    expect(svg.match(/</g)!.length).toBe(5);
  });

  test("same input, same bytes and ETag; another label, another ETag", () => {
    expect(renderAvatar("a", "X")).toEqual(renderAvatar("a", "X"));
    expect(renderAvatar("a", "X").etag).not.toBe(renderAvatar("a", "Y").etag);
  });
});

describe("API docs", () => {
  // The OpenAPI plugin leaves out paths that look like static files (avatar.svg) by default.
  test("the groups paths are described", async () => {
    const paths = Object.keys((await ctx.call("GET", "/api/docs/json")).json.paths);
    expect(paths).toEqual(expect.arrayContaining(["/api/groups", "/api/groups/{id}"]));
  });
});
