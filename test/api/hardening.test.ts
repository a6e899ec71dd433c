// Hardening of the HTTP layer, in-process: dot segments, JSON bodies that are not objects, long
// URLs, rate limits per user or client address, security and CORS headers. (Over a real socket:
// test/cli/hardening.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withClientAddress } from "../../src/core/client-address";
import { MAX_JSON_DEPTH } from "../../src/core/body";
import { createRateLimiter, parseRateLimits } from "../../src/core/rate-limit";
import { ManualClock } from "../../src/core/time";
import { BASE_URL, createTestApp, type TestApp, type Who } from "../helpers/app";
import { scenarios } from "../helpers/scenarios";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const json = { "content-type": "application/json" };

/** Sends through app.handle as a client at `address` (what the server's socket would report). */
async function from(app: TestApp, address: string | null, method: string, path: string, options: { as?: Exclude<Who, "anonymous">; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.as) headers.authorization = `Bearer ${app.users[options.as].token}`;
  const request = new Request(BASE_URL + path, { method, headers });
  const res = await app.app.handle(address === null ? request : withClientAddress(request, address));
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text.startsWith("{") ? JSON.parse(text) : undefined };
}

describe("dot segments", () => {
  test("the URL parser resolves them before any route sees the path (why the raw segments are checked)", () => {
    expect(new Request(`${BASE_URL}/api/records/abcde-12345/draft/files/%2e%2e`).url).toBe(`${BASE_URL}/api/records/abcde-12345/draft/`);
  });

  test("a '..' segment the server matched on the raw target is refused before routing; the draft stays", async () => {
    const draft = await t.call("POST", "/api/records", { as: "alice", body: {} });
    // What Bun.serve hands over for DELETE .../files/%2e%2e: the resolved URL, and the raw segments as route parameters.
    const request = Object.assign(
      new Request(`${BASE_URL}/api/records/${draft.json.id}/draft/files/%2e%2e`, { method: "DELETE", headers: { authorization: `Bearer ${t.users.alice.token}` } }),
      {
        params: { s0: "api", s1: "records", s2: draft.json.id, s3: "draft", s4: "files", s5: ".." },
      },
    );
    const res = await t.app.handle(request);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ status: 400, message: expect.stringContaining("'.' or '..' segment") });
    expect((await t.call("GET", `/api/records/${draft.json.id}/draft`, { as: "alice" })).status).toBe(200);
  });
});

describe("JSON bodies must be objects", () => {
  const notObject = (kind: string, what = "a JSON object") => ({
    status: 400,
    message: "A validation error occurred.",
    errors: [{ field: "", messages: [`The request body must be ${what}, not ${kind}.`] }],
  });
  const deep = "[".repeat(200_000) + "]".repeat(200_000);
  scenarios(
    () => t,
    [
      { name: "a number", method: "POST", url: "/api/records", as: "alice", rawBody: "1", headers: json, status: 400, check: (b) => expect(b).toEqual(notObject("a number")) },
      { name: "a string", method: "POST", url: "/api/records", as: "alice", rawBody: '"str"', headers: json, status: 400, check: (b) => expect(b).toEqual(notObject("a string")) },
      { name: "null", method: "POST", url: "/api/records", as: "alice", rawBody: "null", headers: json, status: 400, check: (b) => expect(b).toEqual(notObject("null")) },
      { name: "true", method: "POST", url: "/api/records", as: "alice", rawBody: "true", headers: json, status: 400, check: (b) => expect(b).toEqual(notObject("a boolean")) },
      { name: "a list", method: "POST", url: "/api/records", as: "alice", rawBody: "[]", headers: json, status: 400, check: (b) => expect(b).toEqual(notObject("a list")) },
      {
        name: "a 200,000-deep list",
        method: "POST",
        url: "/api/records",
        as: "alice",
        rawBody: deep,
        headers: json,
        status: 400,
        check: (b) => expect(b).toEqual({ status: 400, message: `The JSON body nests lists and objects deeper than ${MAX_JSON_DEPTH} levels.` }),
      },
      {
        name: "a 200,000-deep list inside an object",
        method: "POST",
        url: "/api/records",
        as: "alice",
        rawBody: `{"metadata": {"title": ${deep}}}`,
        headers: json,
        status: 400,
        json: { status: 400, message: expect.stringContaining("deeper than") },
      },
      { name: "brackets inside strings do not count", method: "POST", url: "/api/records", as: "alice", body: { metadata: { title: "[[[[".repeat(100) } }, status: 201 },
      {
        name: "an empty body is still an empty draft (clients send it)",
        method: "POST",
        url: "/api/records",
        as: "alice",
        rawBody: "",
        headers: json,
        status: 201,
        json: { is_published: false },
      },
      { name: "an object", method: "POST", url: "/api/records", as: "alice", body: {}, status: 201 },
    ],
  );

  test("a draft PUT takes no list either; starting uploads takes a list (or one object), nothing else", async () => {
    const draft = await t.call("POST", "/api/records", { as: "alice", body: { files: { enabled: true } } });
    const put = await t.call("PUT", `/api/records/${draft.json.id}/draft`, { as: "alice", rawBody: "[]", headers: json });
    expect(put.json).toEqual(notObject("a list"));
    const files = `/api/records/${draft.json.id}/draft/files`;
    expect((await t.call("POST", files, { as: "alice", rawBody: "1", headers: json })).json).toEqual(notObject("a number", "a JSON object or a list"));
    const listed = await t.call("POST", files, { as: "alice", body: [{ key: "a.csv" }] });
    expect(listed.status).toBe(201);
    expect(listed.json.entries.map((e: any) => e.key)).toEqual(["a.csv"]);
    expect((await t.call("POST", files, { as: "alice", body: { key: "b.csv" } })).status).toBe(201);
  });
});

describe("long URLs", () => {
  test("a URL over 16 KiB is a 431 in the error shape", async () => {
    const res = await t.call("GET", `/api/users?q=${"x".repeat(17_000)}`, { as: "alice" });
    expect(res.status).toBe(431);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.json).toEqual({ status: 431, message: "The request URL is longer than the limit of 16384 bytes; send long queries in fewer or shorter parameters." });
  });
});

describe("security headers", () => {
  test("API responses, errors included, forbid sniffing and running anything; no HSTS over plain HTTP", async () => {
    const alice = await t.call("GET", `/api/users/${t.users.alice.user.id}`, { as: "alice" });
    const missing = await t.call("GET", "/api/nothing-here");
    for (const res of [alice, missing]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
    expect(missing.json).toEqual({ status: 404, message: "The requested URL was not found on the server." });
  });

  test("a request that arrived over HTTPS gets HSTS", async () => {
    const res = await t.app.handle(new Request(`https://127.0.0.1:5000/api/users/${t.users.alice.user.id}`, { headers: { authorization: `Bearer ${t.users.alice.token}` } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31556926; includeSubDomains");
  });

  test("the docs page has its own policy: scripts and styles from this server only", async () => {
    const res = await t.call("GET", "/api/docs");
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.text).not.toContain("<script>");
  });
});

describe("CORS", () => {
  test("any origin may read responses, and the headers scripts need are exposed", async () => {
    const res = await t.call("GET", `/api/users/${t.users.alice.user.id}`, { as: "alice", headers: { origin: "https://app.example.org" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("ETag, Link, Location");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
  });

  test("a preflight is answered 204 with the path's methods and the headers asked for, not 405", async () => {
    const res = await t.call("OPTIONS", "/api/records", {
      headers: { origin: "https://app.example.org", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(Object.fromEntries([...res.headers].filter(([k]) => k.startsWith("access-control-") || k === "allow"))).toEqual({
      allow: "GET, HEAD, POST, OPTIONS",
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, HEAD, POST, OPTIONS",
      "access-control-allow-headers": "authorization, content-type",
      "access-control-max-age": "600",
      "access-control-expose-headers": expect.stringContaining("ETag"),
    });
  });

  test("OPTIONS without a preflight says what is allowed; on an unknown path it is a 404", async () => {
    const plain = await t.call("OPTIONS", `/api/records/abcde-12345/draft`);
    expect(plain.status).toBe(204);
    expect(plain.headers.get("allow")).toBe("DELETE, GET, HEAD, POST, PUT, OPTIONS");
    expect(plain.headers.get("access-control-allow-methods")).toBeNull();
    const unknown = await t.call("OPTIONS", "/api/nothing-here", { headers: { origin: "https://app.example.org", "access-control-request-method": "GET" } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ status: 404 });
  });

  test("with CORS_ORIGINS listed, only those origins are let in, and caches keep them apart", async () => {
    const app = await createTestApp({ CORS_ORIGINS: ["https://app.example.org"] });
    try {
      const path = `/api/users/${app.users.alice.user.id}`;
      const listed = await app.call("GET", path, { as: "alice", headers: { origin: "https://app.example.org" } });
      expect(listed.headers.get("access-control-allow-origin")).toBe("https://app.example.org");
      expect(listed.headers.get("vary")).toBe("Origin");
      const other = await app.call("GET", path, { as: "alice", headers: { origin: "https://evil.example.net" } });
      expect(other.status).toBe(200);
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      expect(other.headers.get("vary")).toBe("Origin");
      const preflight = await app.call("OPTIONS", path, { headers: { origin: "https://evil.example.net", "access-control-request-method": "GET" } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-methods")).toBeNull();
    } finally {
      await app.close();
    }
  });

  test("with a https BASE_URL (TLS ends at a proxy), HSTS is sent", async () => {
    const app = await createTestApp({ BASE_URL: "https://data.example.org", APP_ALLOWED_HOSTS: ["127.0.0.1"] });
    try {
      const res = await app.call("GET", `/api/users/${app.users.alice.user.id}`, { as: "alice" });
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31556926; includeSubDomains");
    } finally {
      await app.close();
    }
  });
});

describe("rate limits", () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({ RATELIMIT_GUEST_USER: "3 per minute", RATELIMIT_AUTHENTICATED_USER: "100 per hour;4 per minute" });
    // Windows are whole minutes of the clock: start at one, so the counts below are predictable.
    r.clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
  });
  afterAll(() => r.close());
  const user = () => `/api/users/${r.users.alice.user.id}`;
  const resetAt = Date.UTC(2026, 10, 22, 12, 1, 0) / 1000;

  test("a guest address gets its limit, then a 429 in the error shape with Retry-After, until the window ends", async () => {
    for (const remaining of [2, 1, 0]) {
      const ok = await from(r, "203.0.113.5", "GET", user());
      expect(ok.status).toBe(200);
      expect([ok.headers.get("x-ratelimit-limit"), ok.headers.get("x-ratelimit-remaining"), ok.headers.get("x-ratelimit-reset")]).toEqual([
        "3",
        String(remaining),
        String(resetAt),
      ]);
    }
    r.clock.advance(20_000);
    const refused = await from(r, "203.0.113.5", "GET", user());
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/json");
    expect(refused.json).toEqual({ status: 429, message: "Too many requests: the limit for this client address is 3 per 1 minute. Retry after 40 seconds." });
    expect(refused.headers.get("retry-after")).toBe("40");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
    // Another address has its own count; OAI-PMH counts the same way.
    expect((await from(r, "203.0.113.6", "GET", "/oai2d?verb=Identify")).headers.get("x-ratelimit-remaining")).toBe("2");
    r.clock.advance(40_000);
    const again = await from(r, "203.0.113.5", "GET", user());
    expect(again.status).toBe(200);
    expect(again.headers.get("x-ratelimit-remaining")).toBe("2");
  });

  test("with a token the limit is the user's, wherever the requests come from; the tightest limit is reported", async () => {
    r.clock.set(Date.UTC(2026, 10, 22, 13, 0, 0));
    const seen = [];
    for (const address of ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4", "198.51.100.5"]) {
      const res = await from(r, address, "GET", user(), { as: "alice" });
      seen.push([res.status, res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining")]);
    }
    expect(seen).toEqual([
      [200, "4", "3"],
      [200, "4", "2"],
      [200, "4", "1"],
      [200, "4", "0"],
      [429, "4", "0"],
    ]);
    expect((await from(r, "198.51.100.1", "GET", user(), { as: "bob" })).status).toBe(200);
  });

  test("the loopback address and in-process calls run free; so do OPTIONS and /ping", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await from(r, "127.0.0.1", "GET", user());
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
      expect((await from(r, "::1", "GET", user())).status).toBe(200);
      expect((await from(r, null, "GET", user())).status).toBe(200);
      expect((await from(r, "203.0.113.99", "OPTIONS", user())).status).toBe(204);
      expect((await from(r, "203.0.113.99", "GET", "/ping")).status).toBe(200);
    }
    expect((await from(r, "203.0.113.99", "GET", user())).headers.get("x-ratelimit-remaining")).toBe("2");
  });

  test("behind trusted proxies the client is the address they forwarded; a client's own X-Forwarded-For counts for nothing", async () => {
    const p = await createTestApp({ RATELIMIT_GUEST_USER: "2 per minute", APP_TRUSTED_PROXIES: ["127.0.0.1", "10.0.0.0/8"] });
    try {
      p.clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
      const path = `/api/users/${p.users.alice.user.id}`;
      const via = (peer: string, forwarded: string) => from(p, peer, "GET", path, { headers: { "x-forwarded-for": forwarded } });
      // Through the local proxy and a second one inside 10/8: the client is 192.0.2.7, whatever it claims further left.
      expect((await via("127.0.0.1", "6.6.6.6, 192.0.2.7, 10.1.2.3")).headers.get("x-ratelimit-remaining")).toBe("1");
      expect((await via("127.0.0.1", "192.0.2.7")).headers.get("x-ratelimit-remaining")).toBe("0");
      expect((await via("127.0.0.1", "192.0.2.7")).status).toBe(429);
      // A proxy is trusted, so the loopback address itself is limited too.
      expect((await from(p, "127.0.0.1", "GET", path)).headers.get("x-ratelimit-remaining")).toBe("1");
      // A client reaching the server directly cannot pick its address.
      const direct = await via("203.0.113.50", "192.0.2.8");
      expect(direct.headers.get("x-ratelimit-remaining")).toBe("1");
      expect((await via("203.0.113.50", "192.0.2.9")).headers.get("x-ratelimit-remaining")).toBe("0");
    } finally {
      await p.close();
    }
  });

  test("RATELIMIT_ENABLED = false turns them off", async () => {
    const off = await createTestApp({ RATELIMIT_ENABLED: false, RATELIMIT_GUEST_USER: "1 per minute" });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await from(off, "203.0.113.5", "GET", `/api/users/${off.users.alice.user.id}`);
        expect(res.status).toBe(200);
        expect(res.headers.get("x-ratelimit-limit")).toBeNull();
      }
    } finally {
      await off.close();
    }
  });

  test("limits are read in Flask-Limiter's notation; a bad one names the key", async () => {
    expect(parseRateLimits("25000 per hour;1000 per minute")).toEqual([
      { count: 25000, periodMs: 3_600_000, text: "25000 per 1 hour" },
      { count: 1000, periodMs: 60_000, text: "1000 per 1 minute" },
    ]);
    expect(parseRateLimits("10/second, 100 per 5 minutes")).toEqual([
      { count: 10, periodMs: 1000, text: "10 per 1 second" },
      { count: 100, periodMs: 300_000, text: "100 per 5 minutes" },
    ]);
    await expect(createTestApp({ RATELIMIT_GUEST_USER: "lots" })).rejects.toThrow(`RATELIMIT_GUEST_USER: 'lots' is not a rate limit such as "1000 per minute"`);
    await expect(createTestApp({ APP_TRUSTED_PROXIES: ["10.0.0.0/33"] })).rejects.toThrow("APP_TRUSTED_PROXIES: '10.0.0.0/33' has a bad prefix length");
    await expect(createTestApp({ CORS_ORIGINS: ["app.example.org"] })).rejects.toThrow("CORS_ORIGINS: 'app.example.org' is not an origin");
  });

  test("memory stays bounded: expired counters go first, then the stalest", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const limiter = createRateLimiter(clock, 100);
    const limits = parseRateLimits("5 per minute");
    for (let i = 0; i < 1000; i++) limiter.take(`a:${i}`, limits);
    expect(limiter.size()).toBeLessThanOrEqual(100);
    clock.advance(61_000);
    limiter.take("a:new", limits);
    expect(limiter.size()).toBe(1);
  });
});
