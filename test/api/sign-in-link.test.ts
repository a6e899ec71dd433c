// The one-time sign-in link (GET /login/once): the first administrator's session once, never after
// the expiry on the injected clock, never with a wrong or replaced token, never spent by a HEAD.
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SESSION_COOKIE } from "../../src/core/http";
import { issueSignInLink, SIGN_IN_LINK_FILE, SIGN_IN_LINK_MS } from "../../src/sessions/sign-in-link";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sessionOf = (res: { headers: Headers }) => new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(res.headers.get("set-cookie") ?? "")?.[1];
const withCookie = (secret: string) => ({ headers: { cookie: `${SESSION_COOKIE}=${secret}` } });

describe("GET /login/once", () => {
  test("signs the browser in as the first administrator once; the second use is refused", async () => {
    const { token } = issueSignInLink(t.dataDir, t.clock);
    expect(existsSync(join(t.dataDir, SIGN_IN_LINK_FILE))).toBe(true);
    const first = await t.call("GET", `/login/once?token=${token}`);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/");
    const secret = sessionOf(first)!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.headers.get("set-cookie")).toContain("HttpOnly");
    // An administrator-only answer: every account with its e-mail address.
    const users = await t.call("GET", "/api/users", withCookie(secret));
    expect(users.status).toBe(200);
    expect(users.json.hits.hits.map((u: any) => u.email).sort()).toEqual(["admin@example.org", "alice@example.org", "bob@example.org"]);
    expect((await t.services.sessions.resolve(secret))?.actor).toMatchObject({ userId: t.users.admin.user.id, isAdmin: true });
    // Spent: the file is gone and the same link gets the error page, no cookie.
    expect(existsSync(join(t.dataDir, SIGN_IN_LINK_FILE))).toBe(false);
    const again = await t.call("GET", `/login/once?token=${token}`);
    expect(again.status).toBe(410);
    expect(again.headers.get("content-type")).toContain("text/html");
    expect(again.text).toContain("This sign-in link no longer works");
    expect(again.text).not.toContain(token);
    expect(sessionOf(again)).toBeUndefined();
  });

  test("a HEAD (a link previewer, a mail scanner) neither signs in nor spends the link; the GET after it signs in", async () => {
    const { token } = issueSignInLink(t.dataDir, t.clock);
    const head = await t.call("HEAD", `/login/once?token=${token}`);
    expect({ status: head.status, type: head.headers.get("content-type"), cache: head.headers.get("cache-control"), cookie: sessionOf(head), body: head.text }).toEqual({
      status: 200,
      type: "text/html; charset=utf-8",
      cache: "no-store",
      cookie: undefined,
      body: "",
    });
    expect(existsSync(join(t.dataDir, SIGN_IN_LINK_FILE))).toBe(true);
    expect((await t.call("HEAD", "/login/once?token=wrong")).status).toBe(410);
    const get = await t.call("GET", `/login/once?token=${token}`);
    expect(get.status).toBe(303);
    expect(sessionOf(get)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Spent by the GET: a HEAD now says so.
    expect((await t.call("HEAD", `/login/once?token=${token}`)).status).toBe(410);
  });

  test("spent by another server process between this one's read and its delete: refused (410), not an error, no session", async () => {
    const { token } = issueSignInLink(t.dataDir, t.clock);
    const unlink = fs.unlinkSync;
    const other = spyOn(fs, "unlinkSync").mockImplementation((path) => {
      unlink(path); // the other process's delete, just before this one's
      unlink(path);
    });
    try {
      const res = await t.call("GET", `/login/once?token=${token}`);
      expect({ status: res.status, cookie: sessionOf(res) }).toEqual({ status: 410, cookie: undefined });
    } finally {
      other.mockRestore();
    }
  });

  test("a wrong token is refused and leaves the waiting link usable", async () => {
    const { token } = issueSignInLink(t.dataDir, t.clock);
    for (const query of ["?token=wrong", "", `?token=${token.slice(1)}`]) {
      const res = await t.call("GET", `/login/once${query}`);
      expect({ query, status: res.status, cookie: sessionOf(res) }).toEqual({ query, status: 410, cookie: undefined });
    }
    expect(sessionOf(await t.call("GET", `/login/once?token=${token}`))).toBeDefined();
  });

  test("a newer link replaces the earlier one", async () => {
    const older = issueSignInLink(t.dataDir, t.clock).token;
    const newer = issueSignInLink(t.dataDir, t.clock).token;
    expect((await t.call("GET", `/login/once?token=${older}`)).status).toBe(410);
    expect((await t.call("GET", `/login/once?token=${newer}`)).status).toBe(303);
  });

  test("expires after an hour on the clock", async () => {
    const { token, expiresAt } = issueSignInLink(t.dataDir, t.clock);
    expect(expiresAt).toBe(t.clock.now() + SIGN_IN_LINK_MS);
    t.clock.advance(SIGN_IN_LINK_MS);
    const res = await t.call("GET", `/login/once?token=${token}`);
    expect(res.status).toBe(410);
    expect(sessionOf(res)).toBeUndefined();
  });
});
