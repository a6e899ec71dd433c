// Browser sessions over HTTP (no browser): the login form and its CSRF cookie, the session cookie's
// flags, the REST API signed in by the cookie (writes need X-CSRF-Token, bearer tokens do not),
// signing out, idle and absolute expiry, and `next` redirects. (Slowed guessing and the races of
// signing in: sign-in-guessing.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { publishableDraft } from "../helpers/records";
import { cookieValue, loginForm, postLogin, raw, type Raw } from "../helpers/sign-in";

const DAY = 86_400_000;
let ctx: TestApp;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function signIn(app: TestApp, login: string, password: string) {
  const res = await postLogin(app, login, password);
  expect(res.status).toBe(303);
  return `cairn_session=${res.session}`;
}

/** The session's CSRF token, as a page hands it to scripts (`<meta name="csrf-token">`). */
async function csrfOf(app: TestApp, cookie: string) {
  const res = await raw(app, "GET", "/", { cookie });
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(res.text)?.[1];
  expect(token).toBeString();
  return token!;
}

describe("the login form", () => {
  test("GET /login sets a CSRF cookie of its own (HttpOnly, SameSite=Lax, Path=/) matching the form's field", async () => {
    const res = await raw(ctx, "GET", "/login");
    const line = res.cookies.find((c) => c.startsWith("cairn_login_csrf="))!;
    expect(line).toMatch(/; Path=\/(;|$)/);
    expect(line).toContain("; HttpOnly");
    expect(line).toContain("; SameSite=Lax");
    expect(line).not.toContain("Secure");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  test("a right password signs in: 303 to next, the session cookie set and the form's cookie cleared", async () => {
    const res = await postLogin(ctx, "alice@example.org", "alice-password", "/search?q=sea");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/search?q=sea");
    expect(res.session).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const line = res.cookies.find((c) => c.startsWith("cairn_session="))!;
    expect(line).toContain("; Path=/");
    expect(line).toContain("; HttpOnly");
    expect(line).toContain("; SameSite=Lax");
    expect(line).not.toContain("Secure");
    expect(cookieValue(res.cookies, "cairn_login_csrf")).toBe("");
  });

  test("the username signs in too, case-insensitively", async () => {
    expect((await postLogin(ctx, "ALICE", "alice-password")).status).toBe(303);
  });

  const refusals: [name: string, form: (f: { cookie: string; field: string }) => Raw, status: number, fragment: string][] = [
    ["no CSRF cookie", (f) => ({ form: { csrf: f.field, login: "alice", password: "alice-password" } }), 403, "The form has expired"],
    [
      "a CSRF field that is not the cookie's",
      (f) => ({ cookie: `cairn_login_csrf=${f.cookie}`, form: { csrf: "forged", login: "alice", password: "alice-password" } }),
      403,
      "The form has expired",
    ],
    ["no CSRF field", (f) => ({ cookie: `cairn_login_csrf=${f.cookie}`, form: { login: "alice", password: "alice-password" } }), 403, "The form has expired"],
    [
      "a wrong password",
      (f) => ({ cookie: `cairn_login_csrf=${f.cookie}`, form: { csrf: f.field, login: "alice", password: "wrong-password" } }),
      400,
      "do not match an active account",
    ],
    [
      "an unknown account (the same message)",
      (f) => ({ cookie: `cairn_login_csrf=${f.cookie}`, form: { csrf: f.field, login: "nobody", password: "whatever1" } }),
      400,
      "do not match an active account",
    ],
    ["an empty login", (f) => ({ cookie: `cairn_login_csrf=${f.cookie}`, form: { csrf: f.field, login: "", password: "x" } }), 400, "do not match an active account"],
  ];
  test.each(refusals)("%s: no session, the form again", async (_name, build, status, fragment) => {
    const form = await loginForm(ctx);
    const res = await raw(ctx, "POST", "/login", build(form));
    expect(res.status).toBe(status);
    expect(res.text).toContain(fragment);
    expect(cookieValue(res.cookies, "cairn_session")).toBeUndefined();
    // A fresh form token for the next attempt.
    expect(cookieValue(res.cookies, "cairn_login_csrf")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  test("Secure on the cookies only when BASE_URL is https", async () => {
    const https = await createTestApp({ BASE_URL: "https://127.0.0.1:5000" });
    try {
      const form = await raw(https, "GET", "/login");
      expect(form.cookies.find((c) => c.startsWith("cairn_login_csrf="))).toContain("; Secure");
      const res = await postLogin(https, "alice", "alice-password");
      expect(res.status).toBe(303);
      expect(res.cookies.find((c) => c.startsWith("cairn_session="))).toContain("; Secure");
    } finally {
      await https.close();
    }
  });
});

describe("next: only this site's paths are followed", () => {
  const sessionRows = async () => (await ctx.services.deps.db.statements.get<{ n: number }>("SELECT count(*) AS n FROM sessions"))!.n;
  const cases: [next: string, location: string][] = [
    ["/me/uploads", "/me/uploads"],
    ["/records/abcde-12345?preview=1", "/records/abcde-12345?preview=1"],
    ["//evil.example", "/"],
    ["//evil.example/path", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example/", "/"],
    ["javascript:alert(1)", "/"],
    ["", "/"],
    // Browsers drop tabs and line breaks from URLs: `/<tab>/host` is `//host` to them.
    ["/\t/evil.example/", "/"],
    ["/\n/evil.example", "/"],
    ["/\r\n/evil.example", "/"],
    ["/\u0085/evil.example", "/"],
    ["\t//evil.example", "/"],
    ["/\\/evil.example", "/"],
    // Dot segments that would resolve to `//host`.
    ["/.//evil.example", "/"],
    ["/a/..//evil.example", "/"],
    ["http:/evil.example", "/"],
    // Escapes stay escapes, a path of this site.
    ["/%09/evil.example", "/%09/evil.example"],
    ["/%2F/evil.example", "/%2F/evil.example"],
    // Not Latin-1 (a header value cannot carry it): percent-encoded UTF-8.
    ["/é", "/%C3%A9"],
    ["/search?q=海", "/search?q=%E6%B5%B7"],
    ["/records/x#\u2028", "/records/x#%E2%80%A8"],
  ];
  test.each(cases)("next=%p -> Location %p, the session with its cookie", async (next, location) => {
    const before = await sessionRows();
    const res = await postLogin(ctx, "alice", "alice-password", next);
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location });
    // Never a session row without the cookie that stands for it.
    expect(res.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessionRows()).toBe(before + 1);
  });

  let signedIn = "";
  test.each(cases)("GET /login?next=%p when signed in -> Location %p", async (next, location) => {
    const cookie = (signedIn ||= await signIn(ctx, "alice", "alice-password"));
    const res = await raw(ctx, "GET", `/login?next=${encodeURIComponent(next)}`, { cookie });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location });
  });

  test("the login form carries only a local next", async () => {
    expect((await loginForm(ctx, "?next=%2F%2Fevil.example")).html).toContain('name="next" value="/"');
    expect((await loginForm(ctx, "?next=%2Fme%2Frequests")).html).toContain('name="next" value="/me/requests"');
  });

  test("GET /login when already signed in goes straight to next (and still not elsewhere)", async () => {
    const cookie = await signIn(ctx, "alice", "alice-password");
    const res = await raw(ctx, "GET", "/login?next=%2F%2Fevil.example", { cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
  });
});

describe("the REST API with the session cookie", () => {
  let cookie = "";
  let csrf = "";
  let otherCsrf = "";
  beforeAll(async () => {
    cookie = await signIn(ctx, "alice", "alice-password");
    csrf = await csrfOf(ctx, cookie);
    otherCsrf = await csrfOf(ctx, await signIn(ctx, "bob", "bob-password"));
  });

  test("reads work: the user's own records", async () => {
    const res = await raw(ctx, "GET", "/api/user/records", { cookie });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).hits).toBeDefined();
  });

  const writes: [name: string, status: number, headers: () => Record<string, string>, fragment: string][] = [
    ["without X-CSRF-Token", 403, () => ({}), "must send the session's CSRF token in the X-CSRF-Token header"],
    ["with a wrong X-CSRF-Token", 403, () => ({ "x-csrf-token": "forged" }), "X-CSRF-Token"],
    ["with another session's X-CSRF-Token", 403, () => ({ "x-csrf-token": otherCsrf }), "X-CSRF-Token"],
    ["with the session's X-CSRF-Token", 201, () => ({ "x-csrf-token": csrf }), '"is_draft":true'],
  ];
  test.each(writes)("POST /api/records %s -> %d", async (_name, status, headers, fragment) => {
    const res = await raw(ctx, "POST", "/api/records", { cookie, json: publishableDraft(), headers: headers() });
    expect(res.status).toBe(status);
    expect(res.text).toContain(fragment);
  });

  test("the draft made through the cookie belongs to the session's user", async () => {
    const res = await raw(ctx, "POST", "/api/records", { cookie, json: publishableDraft(), headers: { "x-csrf-token": csrf } });
    const id = JSON.parse(res.text).id;
    expect((await ctx.call("GET", `/api/records/${id}/draft`, { as: "alice" })).status).toBe(200);
    expect((await ctx.call("GET", `/api/records/${id}/draft`, { as: "bob" })).status).toBe(403);
  });

  test("a bearer token is not subject to CSRF, with or without a session cookie beside it", async () => {
    const alone = await ctx.call("POST", "/api/records", { as: "bob", body: publishableDraft() });
    expect(alone.status).toBe(201);
    const both = await raw(ctx, "POST", "/api/records", { cookie, json: publishableDraft(), headers: { authorization: `Bearer ${ctx.users.bob.token}` } });
    expect(both.status).toBe(201);
    // The token decides who is calling, not the cookie.
    expect((await ctx.call("GET", `/api/records/${JSON.parse(both.text).id}/draft`, { as: "bob" })).status).toBe(200);
  });

  test("a page form without the session's CSRF token is refused (sign-out)", async () => {
    const res = await raw(ctx, "POST", "/logout", { cookie, form: {} });
    expect(res.status).toBe(403);
    expect((await raw(ctx, "GET", "/api/user/records", { cookie })).status).toBe(200);
  });
});

describe("signing out and sessions ending", () => {
  test("POST /logout ends the session: the cookie cleared, and the old cookie no longer works", async () => {
    const cookie = await signIn(ctx, "alice", "alice-password");
    const csrf = await csrfOf(ctx, cookie);
    const res = await raw(ctx, "POST", "/logout", { cookie, form: { csrf } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    expect(res.cookies.find((c) => c.startsWith("cairn_session="))).toContain("Max-Age=0");
    const api = await raw(ctx, "GET", "/api/user/records", { cookie });
    expect(api.status).toBe(401);
    const page = await raw(ctx, "GET", "/", { cookie });
    expect(page.text).toContain(">Sign in</a>");
    expect(page.text).not.toContain("csrf-token");
  });

  test("an unknown session cookie is anonymous, not an error", async () => {
    expect((await raw(ctx, "GET", "/api/records", { cookie: "cairn_session=not-a-session" })).status).toBe(200);
    expect((await raw(ctx, "GET", "/api/user/records", { cookie: "cairn_session=not-a-session" })).status).toBe(401);
    expect((await raw(ctx, "GET", "/", { cookie: "cairn_session=not-a-session" })).text).toContain(">Sign in</a>");
  });

  test("a week unused ends a session; use within the week keeps it alive", async () => {
    const kept = await signIn(ctx, "alice", "alice-password");
    const idle = await signIn(ctx, "alice", "alice-password");
    ctx.clock.advance(6 * DAY);
    expect((await raw(ctx, "GET", "/api/user/records", { cookie: kept })).status).toBe(200);
    ctx.clock.advance(DAY + 1);
    expect((await raw(ctx, "GET", "/api/user/records", { cookie: idle })).status).toBe(401);
    expect((await raw(ctx, "GET", "/api/user/records", { cookie: kept })).status).toBe(200);
  });

  test("a month after sign-in a session ends however much it is used", async () => {
    const cookie = await signIn(ctx, "alice", "alice-password");
    for (let day = 6; day < 30; day += 6) {
      ctx.clock.advance(6 * DAY);
      expect((await raw(ctx, "GET", "/api/user/records", { cookie })).status).toBe(200);
    }
    ctx.clock.advance(6 * DAY);
    expect((await raw(ctx, "GET", "/api/user/records", { cookie })).status).toBe(401);
  });

  test("the daily clean-up deletes ended sessions only", async () => {
    const cookie = await signIn(ctx, "alice", "alice-password");
    expect(await ctx.services.sessions.deleteExpired()).toBeGreaterThan(0);
    expect((await raw(ctx, "GET", "/api/user/records", { cookie })).status).toBe(200);
  });
});
