// HTTP conventions every endpoint shares: host check, negotiation, prettyprint, auth, errors, paging.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { systemActor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";
import { scenarios } from "../helpers/scenarios";

let ctx: TestApp;
const app = () => ctx;
let revokedToken = "";
let expiredToken = "";

// A probe route with a JSON body, to drive the shared body handling through the real hooks.
const probe = new Elysia()
  .post("/api/probe", ({ body }) => ({ received: body }), {
    body: t.Object({ title: t.String(), items: t.Optional(t.Array(t.Object({ n: t.Integer() }))) }),
  })
  .get("/api/probe/crash", () => {
    throw new Error("secret internal detail");
  });

beforeAll(async () => {
  ctx = await createTestApp({ MAX_CONTENT_LENGTH: 1024 });
  ctx.app.use(probe);
  const userId = ctx.users.bob.user.id;
  const revoked = await ctx.services.tokens.createToken(systemActor, { userId, name: "revoked" });
  await ctx.services.tokens.revokeToken(systemActor, revoked.token.id);
  revokedToken = revoked.secret;
  expiredToken = (await ctx.services.tokens.createToken(systemActor, { userId, name: "expired", expiresAt: ctx.clock.now() - 1 })).secret;
});
afterAll(() => ctx.close());

const emptyEnvelope = { hits: { hits: [], total: 0 }, sortBy: "newest", links: { self: "http://127.0.0.1:5000/api/records?sort=newest&page=1&size=10" } };

describe("ping, routes and methods", () => {
  scenarios(app, [
    { name: "ping", method: "GET", url: "/ping", status: 200, check: (_b, text) => expect(text).toBe("OK") },
    { name: "ping answers any host", method: "GET", url: "/ping", headers: { host: "monitor.internal" }, status: 200 },
    { name: "search envelope", method: "GET", url: "/api/records", status: 200, json: emptyEnvelope },
    { name: "HEAD of a GET route", method: "HEAD", url: "/api/records", status: 200 },
    { name: "unknown route", method: "GET", url: "/api/nothing-here", status: 404, json: { status: 404, message: "The requested URL was not found on the server." } },
    // (Not /records/…: that is the landing page, whose unknown ids answer an HTML 404 page.)
    { name: "unknown route outside /api", method: "GET", url: "/nothing-here", status: 404, json: { status: 404 } },
    {
      name: "wrong method",
      method: "DELETE",
      url: "/api/records",
      status: 405,
      json: { status: 405, message: "The method is not allowed for the requested URL. Allowed: GET, HEAD, POST." },
      responseHeaders: { allow: "GET, HEAD, POST" },
    },
    { name: "wrong method on a POST route", method: "GET", url: "/api/probe", status: 405, responseHeaders: { allow: "POST" } },
  ]);
});

describe("host names", () => {
  test("an explicit list is strict: aliases are refused", async () => {
    const strict = await createTestApp({ APP_ALLOWED_HOSTS: "127.0.0.1" });
    try {
      const res = await strict.call("GET", "/api/records", { headers: { host: "localhost:5000" } });
      expect(res.json).toEqual({ status: 400, message: "Host 'localhost' is not served here; use 127.0.0.1." });
    } finally {
      await strict.close();
    }
  });

  scenarios(app, [
    { name: "configured host with port", method: "GET", url: "/api/records", headers: { host: "127.0.0.1:5000" }, status: 200 },
    { name: "host names are case-insensitive", method: "GET", url: "/api/records", headers: { host: "127.0.0.1" }, status: 200 },
    { name: "a loopback install answers its loopback aliases", method: "GET", url: "/api/records", headers: { host: "localhost:5000" }, status: 200 },
    {
      name: "another name is refused",
      method: "GET",
      url: "/api/records",
      headers: { host: "cairn.internal:5000" },
      status: 400,
      json: { status: 400, message: "Host 'cairn.internal' is not served here; use 127.0.0.1 or localhost or ::1." },
    },
    { name: "a foreign host is refused", method: "POST", url: "/api/probe", headers: { host: "evil.example" }, body: { title: "x" }, status: 400 },
  ]);
});

describe("content negotiation and prettyprint", () => {
  const typeIs = (type: string) => ({ "content-type": type });
  scenarios(app, [
    { name: "no Accept", method: "GET", url: "/api/records", status: 200, responseHeaders: typeIs("application/json") },
    { name: "JSON", method: "GET", url: "/api/records", headers: { accept: "application/json" }, status: 200, responseHeaders: typeIs("application/json") },
    { name: "JSON with charset", method: "GET", url: "/api/records", headers: { accept: "application/json;charset=UTF-8" }, status: 200 },
    { name: "any", method: "GET", url: "/api/records", headers: { accept: "*/*" }, status: 200, responseHeaders: typeIs("application/json") },
    {
      name: "service vendor type",
      method: "GET",
      url: "/api/records",
      headers: { accept: "application/vnd.service.v1+json" },
      status: 200,
      responseHeaders: typeIs("application/vnd.service.v1+json"),
    },
    {
      name: "InvenioRDM vendor type",
      method: "GET",
      url: "/api/records",
      headers: { accept: "application/vnd.inveniordm.v1+json" },
      status: 200,
      json: emptyEnvelope,
      responseHeaders: typeIs("application/vnd.inveniordm.v1+json"),
    },
    {
      name: "both, as real clients send",
      method: "GET",
      url: "/api/records",
      headers: { accept: "application/vnd.inveniordm.v1+json, application/json" },
      status: 200,
      responseHeaders: typeIs("application/json"),
    },
    {
      name: "quality values",
      method: "GET",
      url: "/api/records",
      headers: { accept: "application/json;q=0.5, application/vnd.inveniordm.v1+json;q=0.9" },
      status: 200,
      responseHeaders: typeIs("application/vnd.inveniordm.v1+json"),
    },
    {
      name: "unsupported type",
      method: "GET",
      url: "/api/records",
      headers: { accept: "text/html" },
      status: 406,
      json: {
        status: 406,
        message: "None of the requested media types can be served. Supported: application/json, application/vnd.service.v1+json, application/vnd.inveniordm.v1+json.",
      },
    },
    { name: "JSON refused with q=0", method: "GET", url: "/api/records", headers: { accept: "application/json;q=0, text/csv" }, status: 406 },
    { name: "writes check Accept before acting", method: "POST", url: "/api/probe", headers: { accept: "text/html" }, body: { title: "x" }, status: 406 },
    {
      name: "prettyprint=1 indents",
      method: "GET",
      url: "/api/records?prettyprint=1",
      status: 200,
      check: (_b, text) => expect(text).toStartWith('{\n  "hits": {\n    "hits": [],'),
    },
    { name: "compact by default", method: "GET", url: "/api/records", status: 200, check: (_b, text) => expect(text).not.toContain("\n") },
    { name: "errors are prettyprinted too", method: "GET", url: "/api/nothing?prettyprint=1", status: 404, check: (_b, text) => expect(text).toContain('\n  "status": 404') },
  ]);
});

describe("authentication", () => {
  const challenge = { "www-authenticate": /^Bearer / };
  scenarios(app, [
    { name: "anonymous read", method: "GET", url: "/api/records", status: 200 },
    { name: "valid bearer token", method: "GET", url: "/api/records", as: "alice", status: 200 },
    {
      name: "invalid bearer token",
      method: "GET",
      url: "/api/records",
      token: "not-a-token",
      status: 401,
      json: { status: 401, message: "The access token is invalid, expired or revoked." },
      responseHeaders: challenge,
    },
    { name: "invalid token in the query", method: "GET", url: "/api/records?access_token=nope", status: 401, responseHeaders: challenge },
    { name: "bearer scheme is case-insensitive", method: "GET", url: "/api/records", headers: { authorization: "bearer nope" }, status: 401 },
    { name: "other schemes are not tokens", method: "GET", url: "/api/records", headers: { authorization: "Basic YTpi" }, status: 200 },
  ]);

  test("a token in ?access_token= authenticates", async () => {
    const res = await ctx.call("GET", `/api/records?access_token=${ctx.users.alice.token}`);
    expect(res.status).toBe(200);
  });

  test("revoked and expired tokens are refused with 401", async () => {
    for (const token of [revokedToken, expiredToken]) {
      const res = await ctx.call("GET", "/api/records", { token });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toStartWith("Bearer");
    }
  });

  test("using a token records when it was last used", async () => {
    const { token, user } = ctx.users.bob;
    await ctx.call("GET", "/api/records", { token });
    const row = (await ctx.services.tokens.listTokens(systemActor, user.id)).find((t) => t.name === "bob-token")!;
    expect(row.lastUsed).toBe(ctx.clock.now());
  });
});

describe("request bodies", () => {
  scenarios(app, [
    {
      name: "valid JSON",
      method: "POST",
      url: "/api/probe",
      body: { title: "Ocean data", items: [{ n: 1 }] },
      status: 200,
      json: { received: { title: "Ocean data", items: [{ n: 1 }] } },
    },
    {
      name: "malformed JSON",
      method: "POST",
      url: "/api/probe",
      rawBody: '{"title": "x"',
      headers: { "content-type": "application/json" },
      status: 400,
      json: { status: 400, message: "Unable to decode JSON data in request body." },
    },
    {
      name: "wrong content type",
      method: "POST",
      url: "/api/probe",
      rawBody: "title=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      status: 415,
      json: { status: 415, message: "Unsupported media type: send the body as application/json." },
    },
    {
      name: "validation errors name dotted fields",
      method: "POST",
      url: "/api/probe",
      body: { title: 5, items: [{ n: 1 }, { n: "two" }] },
      status: 400,
      check: (body) => {
        expect(body.status).toBe(400);
        expect(body.message).toBe("A validation error occurred.");
        expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["items.1.n", "title"]);
        for (const e of body.errors) expect(e.messages.length).toBeGreaterThan(0);
      },
    },
    {
      name: "an empty JSON body is an empty object",
      method: "POST",
      url: "/api/probe",
      rawBody: "",
      headers: { "content-type": "application/json" },
      status: 400,
      check: (body) => expect(body.errors.map((e: { field: string }) => e.field)).toEqual(["title"]),
    },
    {
      name: "body over MAX_CONTENT_LENGTH",
      method: "POST",
      url: "/api/probe",
      body: { title: "x".repeat(2000) },
      status: 413,
      json: { status: 413, message: "The request body is larger than the limit of 1024 bytes." },
    },
  ]);

  test("a streamed body without Content-Length is cut off at the limit", async () => {
    const chunk = new TextEncoder().encode(`{"title": "${"y".repeat(600)}`);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await ctx.app.handle(new Request("http://127.0.0.1:5000/api/probe", { method: "POST", body: stream, headers: { "content-type": "application/json" } }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ status: 413, message: "The request body is larger than the limit of 1024 bytes." });
  });

  test("an unexpected failure is a 500 without internals", async () => {
    const res = await ctx.call("GET", "/api/probe/crash");
    expect(res.json).toEqual({ status: 500, message: "Internal server error." });
    expect(res.text).not.toContain("secret internal detail");
  });

  test("an unexpected failure reaches the app's log with its message and stack", async () => {
    const before = ctx.logs.length;
    const res = await ctx.call("GET", "/api/probe/crash");
    expect(res.json).toEqual({ status: 500, message: "Internal server error." });
    const logged = ctx.logs.slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toStartWith("[cairn] GET /api/probe/crash failed: Error: secret internal detail");
    // The stack names where it was thrown, so the fault can be found from the log alone.
    expect(logged[0]).toContain("core.test.ts");
  });
});

describe("paging", () => {
  const invalid = (field: string) => ({ status: 400, message: "Invalid pagination parameters.", errors: [{ field }] });
  scenarios(app, [
    { name: "size 0", method: "GET", url: "/api/records?size=0", status: 400, json: invalid("size") },
    { name: "size above the maximum", method: "GET", url: "/api/records?size=1001", status: 400, json: invalid("size") },
    { name: "size not a number", method: "GET", url: "/api/records?size=ten", status: 400, json: invalid("size") },
    { name: "page 0", method: "GET", url: "/api/records?page=0", status: 400, json: invalid("page") },
    { name: "negative page", method: "GET", url: "/api/records?page=-2", status: 400, json: invalid("page") },
    { name: "beyond the 10,000 window", method: "GET", url: "/api/records?size=100&page=101", status: 400, json: invalid("page") },
    {
      name: "the last page of the window",
      method: "GET",
      url: "/api/records?size=100&page=100",
      status: 200,
      json: { hits: { total: 0 }, links: { self: "http://127.0.0.1:5000/api/records?sort=newest&page=100&size=100" } },
    },
  ]);
});

describe("pages of 1,000 (zen4R asks vocabularies for size=1000)", () => {
  test("every licence in one page; page x size still bounded by the 10,000 window", async () => {
    const res = await ctx.call("GET", "/api/vocabularies/licenses?size=1000");
    expect(res.status).toBe(200);
    expect(res.json.hits.total).toBeGreaterThan(500);
    expect(res.json.hits.hits).toHaveLength(res.json.hits.total);
    expect(res.json.hits.hits.every((h: { props?: { url?: string } }) => typeof h.props?.url === "string")).toBe(true);
    expect((await ctx.call("GET", "/api/records?size=1000&page=10")).status).toBe(200);
    expect((await ctx.call("GET", "/api/records?size=1000&page=11")).status).toBe(400);
  });
});

describe("API docs", () => {
  test("the docs page loads its scripts from this server, not the internet", async () => {
    const res = await ctx.call("GET", "/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    const refs = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.sort()).toEqual(["/api/docs/assets/start.js", "/api/docs/assets/swagger-ui-bundle.js", "/api/docs/assets/swagger-ui.css"]);
    // No inline script: the page's content security policy allows scripts from this server only.
    expect(res.text).not.toMatch(/<script>/);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self';");
    expect((await ctx.call("GET", "/api/docs/assets/start.js")).text).toContain('url: "/api/docs/json"');
    for (const ref of refs.filter((r) => !r.endsWith("start.js"))) {
      const asset = await ctx.call("GET", ref);
      expect(asset.status).toBe(200);
      expect(asset.text.length).toBeGreaterThan(100_000);
    }
  });

  test("the OpenAPI description lists the API's paths", async () => {
    const res = await ctx.call("GET", "/api/docs/json");
    expect(res.status).toBe(200);
    expect(res.json.info.title).toBe("Cairn REST API");
    expect(Object.keys(res.json.paths)).toContain("/api/records");
    expect(Object.keys(res.json.paths).some((p) => p.startsWith("/api/docs"))).toBe(false);
  });
});
