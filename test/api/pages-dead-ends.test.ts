// No dead ends for people: an unknown URL, a method a URL does not take and a fault of ours answer a
// browser with the HTML error page in the layout (API clients and every /api/ path keep the spec's
// JSON), refusals before routing (a rate limit's 429, a refused Host) answer the same way, and a query
// that cannot be read says so on the search pages while the API searches its words.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withClientAddress } from "../../src/core/client-address";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";
import { COMMUNITY_BODY } from "../helpers/communities";
import { publishRecord, publishableDraft } from "../helpers/records";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** What Chromium sends when a person follows a link. */
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const NOT_FOUND_JSON = { status: 404, message: "The requested URL was not found on the server." };
const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
/** The layout's header: the site's navigation with the way to the search. */
const siteNav = (html: string) => /<nav[^>]* aria-label="Site"[^>]*>[\s\S]*?<a href="\/search">Search<\/a>/.test(html);

describe("an unknown URL", () => {
  test("a browser gets the 404 page in the layout, with the site's navigation", async () => {
    for (const path of ["/no/such/page", "/records/abc12-xyz89/nope", "/communities/x/y/z?q=1"]) {
      const res = await app.call("GET", path, { headers: { accept: BROWSER } });
      expect({ path, status: res.status, type: res.headers.get("content-type"), h1: h1(res.text), nav: siteNav(res.text), vary: res.headers.get("vary") }).toEqual({
        path,
        status: 404,
        type: "text/html; charset=utf-8",
        h1: "Not found",
        nav: true,
        vary: "Accept",
      });
      expect(res.text).toContain("The requested URL was not found on the server.");
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    }
  });

  test("a signed-in person's 404 page shows their navigation", async () => {
    const res = await app.call("GET", "/no/such/page", { as: "alice", headers: { accept: BROWSER } });
    expect(res.status).toBe(404);
    expect(res.text).toContain('<a href="/me/uploads">My dashboard</a>');
  });

  test("API clients get the spec's JSON: JSON asked for, any type, no Accept, or HTML below JSON", async () => {
    for (const accept of ["application/json", "*/*", "", "text/html;q=0.5, application/json", "application/json, text/html;q=0.9", "text/*", "text/html;q=0"]) {
      const res = await app.call("GET", "/no/such/page", { headers: accept ? { accept } : {} });
      // The same URL is a page for a browser: caches keep the two apart.
      expect({ accept, status: res.status, type: res.headers.get("content-type"), json: res.json, vary: res.headers.get("vary") }).toEqual({
        accept,
        status: 404,
        type: "application/json",
        json: NOT_FOUND_JSON,
        vary: "Accept",
      });
    }
  });

  test("HTML named equal to JSON is a page", async () => {
    const res = await app.call("GET", "/no/such/page", { headers: { accept: "application/json, text/html" } });
    expect({ status: res.status, h1: h1(res.text) }).toEqual({ status: 404, h1: "Not found" });
  });

  test("an /api/ path is JSON whatever is asked (as InvenioRDM's API answers)", async () => {
    for (const path of ["/api/nothing-here", "/api/records/x/y/z", "/api"]) {
      const res = await app.call("GET", path, { headers: { accept: BROWSER } });
      expect({ path, status: res.status, type: res.headers.get("content-type"), json: res.json }).toEqual({ path, status: 404, type: "application/json", json: NOT_FOUND_JSON });
    }
  });
});

describe("other errors no page answered", () => {
  test("a method the page does not take: the 405 page with its Allow header for a browser, JSON for a client", async () => {
    const record = await publishRecord(app, publishableDraft());
    const path = `/records/${record.id}/access/request`;
    const page = await app.call("GET", path, { headers: { accept: BROWSER } });
    expect({ status: page.status, allow: page.headers.get("allow"), h1: h1(page.text), nav: siteNav(page.text) }).toEqual({
      status: 405,
      allow: "POST",
      h1: "That did not work",
      nav: true,
    });
    expect(page.text).toContain("The method is not allowed for the requested URL. Allowed: POST.");
    const json = await app.call("GET", path);
    expect({ status: json.status, body: json.json }).toEqual({ status: 405, body: { status: 405, message: "The method is not allowed for the requested URL. Allowed: POST." } });
  });

  test("a fault of ours on a page: the 500 page for a browser (logged), JSON on the API", async () => {
    const records = app.services.records as { searchRecords: (...args: unknown[]) => unknown };
    const original = records.searchRecords;
    records.searchRecords = () => {
      throw new Error("the index is on fire");
    };
    try {
      const page = await app.call("GET", "/search?q=x", { headers: { accept: BROWSER } });
      expect({ status: page.status, type: page.headers.get("content-type"), h1: h1(page.text), nav: siteNav(page.text) }).toEqual({
        status: 500,
        type: "text/html; charset=utf-8",
        h1: "Something went wrong",
        nav: true,
      });
      expect(page.text).not.toContain("on fire");
      const api = await app.call("GET", "/api/records?q=x", { headers: { accept: BROWSER } });
      expect({ status: api.status, json: api.json }).toEqual({ status: 500, json: { status: 500, message: "Internal server error." } });
      expect(app.logs.filter((l) => l.includes("the index is on fire"))).toHaveLength(2);
    } finally {
      records.searchRecords = original;
    }
  });
});

describe("a query that cannot be read", () => {
  let recordId: string;
  beforeAll(async () => {
    const record = await publishRecord(app, publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Glacier mass balance of Svalbard" } }));
    recordId = record.id;
    const community = await app.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("glaciers") });
    expect(community.status).toBe(201);
  });

  test("the API searches its plain words and its JSON is what it was (no field added)", async () => {
    const res = await app.call("GET", `/api/records?q=${encodeURIComponent('glacier "svalbard')}`);
    expect(res.status).toBe(200);
    expect(res.json.hits.hits.map((h: { id: string }) => h.id)).toEqual([recordId]);
    expect(Object.keys(res.json).sort()).toEqual(["aggregations", "hits", "links", "sortBy"]);
    expect(res.text).not.toContain("could not be read");
  });

  test("the search page says the query could not be read, why, and which words it searched", async () => {
    const res = await app.call("GET", `/search?q=${encodeURIComponent('glacier "svalbard')}`, { headers: { accept: BROWSER } });
    expect(res.status).toBe(200);
    const notice = /<p class="notice query-fallback" role="status">([\s\S]*?)<\/p>/.exec(res.text)?.[1]?.replace(/<[^>]+>/g, "");
    expect(notice).toBe("Your query could not be read as a query (a quotation mark is not closed); showing results for the words glacier svalbard. How to write a query");
    expect(res.text).toContain(`href="/records/${recordId}"`);
  });

  test("each kind of mistake is named in words; a query that reads well says nothing", async () => {
    const cases: [string, string][] = [
      ["(glacier", "a parenthesis is not closed"],
      ["glacier AND", "it ends where a word was expected (after AND, OR, NOT, + or -)"],
      ["title:", "a field name has no value after its colon"],
      ["glacier)", "a closing parenthesis has no opening one"],
      ["year:[2020 TO", "a range such as [2020 TO 2024] is not closed"],
    ];
    for (const [q, reason] of cases) {
      const res = await app.call("GET", `/search?q=${encodeURIComponent(q)}`, { headers: { accept: BROWSER } });
      expect({ q, says: res.text.includes(`could not be read as a query (${reason.replace(/&/g, "&amp;")})`) }).toEqual({ q, says: true });
    }
    for (const q of ["glacier", 'title:"mass balance"', "glacier AND svalbard", ""]) {
      const res = await app.call("GET", `/search?q=${encodeURIComponent(q)}`, { headers: { accept: BROWSER } });
      expect({ q, status: res.status, says: res.text.includes("could not be read") }).toEqual({ q, status: 200, says: false });
    }
  });

  test("a community's search page says it too", async () => {
    const res = await app.call("GET", `/communities/glaciers?q=${encodeURIComponent("ice (sheet")}`, { headers: { accept: BROWSER } });
    expect(res.status).toBe(200);
    expect(res.text).toContain("Your query could not be read as a query (a parenthesis is not closed); showing results for the words <q>ice</q> <q>sheet</q>");
  });
});

describe("refusals before routing", () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({ RATELIMIT_GUEST_USER: "2 per minute" });
    // Windows are whole minutes of the clock: start at one, so the wait below is predictable.
    r.clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
  });
  afterAll(() => r.close());

  /** Through app.handle from `address` (what the server's socket would report), as the rate limit sees a client. */
  async function from(address: string, path: string, headers: Record<string, string>) {
    const res = await r.app.handle(withClientAddress(new Request(BASE_URL + path, { headers }), address));
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: text.startsWith("{") ? JSON.parse(text) : undefined };
  }

  test("over the rate limit, a browser on a page gets the 429 page saying when to try again, with Retry-After", async () => {
    for (let i = 0; i < 2; i++) expect((await from("203.0.113.9", "/search", { accept: BROWSER })).status).toBe(200);
    r.clock.advance(15_000);
    const page = await from("203.0.113.9", "/search", { accept: BROWSER });
    expect({
      status: page.status,
      type: page.headers.get("content-type"),
      h1: h1(page.text),
      nav: siteNav(page.text),
      retry: page.headers.get("retry-after"),
      vary: page.headers.get("vary"),
    }).toEqual({
      status: 429,
      type: "text/html; charset=utf-8",
      h1: "Too many attempts",
      nav: true,
      retry: "45",
      vary: "Accept",
    });
    expect(page.text).toContain("Retry after 45 seconds.");
    expect(page.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  test("over the rate limit, an API client (and /api/ for anyone) gets the JSON 429 with Retry-After", async () => {
    r.clock.set(Date.UTC(2026, 10, 22, 13, 0, 0));
    for (let i = 0; i < 2; i++) expect((await from("203.0.113.10", "/search", { accept: "application/json" })).status).toBe(200);
    r.clock.advance(30_000);
    const message = "Too many requests: the limit for this client address is 2 per 1 minute. Retry after 30 seconds.";
    for (const [path, accept] of [
      ["/search", "application/json"],
      ["/api/records", BROWSER],
      ["/api/records", "application/json"],
    ]) {
      const res = await from("203.0.113.10", path!, { accept: accept! });
      expect({ path, accept, status: res.status, type: res.headers.get("content-type"), json: res.json, retry: res.headers.get("retry-after") }).toEqual({
        path,
        accept,
        status: 429,
        type: "application/json",
        json: { status: 429, message },
        retry: "30",
      });
    }
  });

  test("a Host not served here: the error page for a browser, the JSON for an API client", async () => {
    const page = await from("203.0.113.11", "/search", { accept: BROWSER, host: "evil.example.org" });
    expect({ status: page.status, type: page.headers.get("content-type"), h1: h1(page.text) }).toEqual({ status: 400, type: "text/html; charset=utf-8", h1: "That did not work" });
    expect(page.text).toContain("<p>Host 'evil.example.org' is not served here; use 127.0.0.1 or localhost or ::1.</p>");
    const api = await from("203.0.113.11", "/api/records", { accept: BROWSER, host: "evil.example.org" });
    expect({ status: api.status, type: api.headers.get("content-type"), message: api.json?.message }).toEqual({
      status: 400,
      type: "application/json",
      message: "Host 'evil.example.org' is not served here; use 127.0.0.1 or localhost or ::1.",
    });
  });
});
