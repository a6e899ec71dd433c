// The users directory: search (signed-in only, 10 hits at most), profiles cut to what the caller
// may see, e-mail visibility, restricted and inactive accounts, generated avatars.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { ConfigError, loadConfig } from "../../src/config";
import { systemActor } from "../../src/core/actor";
import { renderAvatar } from "../../src/core/avatar";
import { usersTable } from "../../src/db/tables";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";
import { exactlyDenied, scenarios } from "../helpers/scenarios";

let ctx: TestApp;
const app = () => ctx;
let daveToken = "";

// Ids are given in creation order: admin 1, alice 2, bob 3 (from the helper), then these.
const CAROL = 4; // public profile and public e-mail at another domain
const DAVE = 5; // restricted profile
const ERIN = 6; // deactivated
const FRANK = 7; // no username, no name
const MEMBERS = Array.from({ length: 12 }, (_, i) => 8 + i); // member01..member12 at lab.example.com

beforeAll(async () => {
  ctx = await createTestApp();
  const create = (input: Parameters<typeof ctx.services.users.createUser>[1]) => ctx.services.users.createUser(systemActor, input);
  await create({ email: "carol@physics.example.net", username: "carol", fullName: "Carol Ångström", emailVisibility: "public" });
  await ctx.services.deps.db.update(usersTable).set({ affiliations: "CERN" }).where(eq(usersTable.id, CAROL)).run();
  const dave = await create({ email: "dave@example.org", username: "dave", fullName: "Dave Hidden", visibility: "restricted" });
  daveToken = (await ctx.services.tokens.createToken(systemActor, { userId: dave.id, name: "dave" })).secret;
  await create({ email: "erin@example.org", username: "erin", fullName: "Erin Gone" });
  // No service deactivates accounts yet; the fixture sets the flag directly.
  await ctx.services.deps.db.update(usersTable).set({ active: false }).where(eq(usersTable.id, ERIN)).run();
  await create({ email: "frank@example.org" });
  for (let i = 1; i <= 12; i++) {
    const n = String(i).padStart(2, "0");
    await create({ email: `member${n}@lab.example.com`, username: `member${n}`, fullName: `Lab Member ${n}` });
  }
});
afterAll(() => ctx.close());

const hitIds = (body: any) => body.hits.hits.map((h: { id: string }) => Number(h.id));
const hitsAre =
  (...ids: number[]) =>
  (body: any) =>
    expect(hitIds(body)).toEqual(ids);
const hasNo =
  (...keys: string[]) =>
  (body: any) => {
    for (const key of keys) expect(Object.keys(body)).not.toContain(key);
  };
const ACCOUNT_FIELDS = ["active", "confirmed", "created", "updated", "revision_id", "preferences"];
/** Everyone alice may see, by username (frank has none, so comes last). */
const VISIBLE_TO_ALICE = [1, 2, 3, CAROL, ...MEMBERS, FRANK];

describe("search needs a signed-in caller", () => {
  scenarios(app, [
    { name: "anonymous", method: "GET", url: "/api/users", status: 401, json: { status: 401 }, responseHeaders: { "www-authenticate": /^Bearer / } },
    { name: "anonymous with q", method: "GET", url: "/api/users?q=alice", status: 401 },
    { name: "an invalid token", method: "GET", url: "/api/users", token: "nope", status: 401 },
    { name: "a user", method: "GET", url: "/api/users", as: "bob", status: 200 },
  ]);
});

describe("search envelope, visibility and the 10-hit cap", () => {
  scenarios(app, [
    {
      name: "a user sees active public profiles and themself, 10 at most",
      method: "GET",
      url: "/api/users",
      as: "alice",
      status: 200,
      json: { hits: { total: VISIBLE_TO_ALICE.length }, sortBy: "username", links: { self: `${BASE_URL}/api/users?sort=username` } },
      check: (body) => {
        hitsAre(...VISIBLE_TO_ALICE.slice(0, 10))(body);
        expect(Object.keys(body.links)).toEqual(["self"]);
      },
    },
    { name: "an administrator sees everyone", method: "GET", url: "/api/users", as: "admin", status: 200, json: { hits: { total: 19 } } },
    { name: "page and size do not page", method: "GET", url: "/api/users?page=2&size=50", as: "alice", status: 200, check: hitsAre(...VISIBLE_TO_ALICE.slice(0, 10)) },
    {
      name: "12 matches, 10 hits",
      method: "GET",
      url: "/api/users?q=lab%20member",
      as: "alice",
      status: 200,
      json: { hits: { total: 12 } },
      check: hitsAre(...MEMBERS.slice(0, 10)),
    },
    { name: "q in links.self", method: "GET", url: "/api/users?q=carol", as: "alice", status: 200, json: { links: { self: `${BASE_URL}/api/users?q=carol&sort=username` } } },
    { name: "a restricted profile is not found by others", method: "GET", url: "/api/users?q=dave", as: "alice", status: 200, json: { hits: { hits: [], total: 0 } } },
    { name: "nor by its full name", method: "GET", url: "/api/users?q=hidden", as: "bob", status: 200, check: hitsAre() },
    { name: "an administrator finds it", method: "GET", url: "/api/users?q=dave", as: "admin", status: 200, check: hitsAre(DAVE) },
    { name: "an inactive user is not found", method: "GET", url: "/api/users?q=erin", as: "alice", status: 200, check: hitsAre() },
    { name: "an administrator finds an inactive user", method: "GET", url: "/api/users?q=erin", as: "admin", status: 200, check: hitsAre(ERIN) },
  ]);

  test("a restricted user finds themself, and the public profiles", async () => {
    const self = await ctx.call("GET", "/api/users?q=dave", { token: daveToken });
    expect(hitIds(self.json)).toEqual([DAVE]);
    expect(self.json.hits.hits[0]).toMatchObject({ is_current_user: true, email: "dave@example.org", preferences: { visibility: "restricted" } });
    const all = await ctx.call("GET", "/api/users?q=example.org", { token: daveToken });
    expect(hitIds(all.json)).toEqual([1, 2, 3, DAVE, FRANK]);
  });
});

describe("q matching", () => {
  scenarios(app, [
    { name: "username", method: "GET", url: "/api/users?q=alice", as: "bob", status: 200, check: hitsAre(2) },
    { name: "username prefix", method: "GET", url: "/api/users?q=ali", as: "bob", status: 200, check: hitsAre(2) },
    { name: "case-insensitive", method: "GET", url: "/api/users?q=ALICE", as: "bob", status: 200, check: hitsAre(2) },
    { name: "not inside a word", method: "GET", url: "/api/users?q=lice", as: "bob", status: 200, check: hitsAre() },
    { name: "full name, non-ASCII", method: "GET", url: "/api/users?q=%C3%A5ngstr", as: "bob", status: 200, check: hitsAre(CAROL) },
    { name: "full name, non-ASCII upper case", method: "GET", url: "/api/users?q=%C3%85NGSTR%C3%96M", as: "bob", status: 200, check: hitsAre(CAROL) },
    { name: "words are AND-ed", method: "GET", url: "/api/users?q=carol%20%C3%A5ng", as: "bob", status: 200, check: hitsAre(CAROL) },
    { name: "words are AND-ed, no match", method: "GET", url: "/api/users?q=carol%20alice", as: "bob", status: 200, check: hitsAre() },
    { name: "affiliation", method: "GET", url: "/api/users?q=cern", as: "bob", status: 200, check: hitsAre(CAROL) },
    { name: "a number word", method: "GET", url: "/api/users?q=member%201", as: "bob", status: 200, check: hitsAre(...MEMBERS.slice(9)) },
    { name: "e-mail domain", method: "GET", url: "/api/users?q=example.org", as: "alice", status: 200, check: hitsAre(1, 2, 3, FRANK) },
    { name: "e-mail domain prefix", method: "GET", url: "/api/users?q=physics.ex", as: "alice", status: 200, check: hitsAre(CAROL) },
    { name: "another domain", method: "GET", url: "/api/users?q=lab.example.com", as: "alice", status: 200, json: { hits: { total: 12 } } },
    { name: "a hidden e-mail is not searchable", method: "GET", url: "/api/users?q=alice%40example.org", as: "bob", status: 200, check: hitsAre() },
    { name: "nor its local part", method: "GET", url: "/api/users?q=frank", as: "alice", status: 200, check: hitsAre() },
    { name: "a public e-mail is", method: "GET", url: "/api/users?q=carol%40physics.example.net", as: "bob", status: 200, check: hitsAre(CAROL) },
    { name: "an administrator searches whole e-mails", method: "GET", url: "/api/users?q=alice%40example.org", as: "admin", status: 200, check: hitsAre(2) },
    { name: "an administrator searches local parts", method: "GET", url: "/api/users?q=frank", as: "admin", status: 200, check: hitsAre(FRANK) },
  ]);
});

describe("odd characters in q are words, never syntax or errors", () => {
  const ok = (name: string, q: string, expected: number[] | "all") => ({
    name,
    method: "GET",
    url: `/api/users?q=${encodeURIComponent(q)}`,
    as: "alice" as const,
    status: 200,
    check: (body: any) => (expected === "all" ? expect(body.hits.total).toBe(VISIBLE_TO_ALICE.length) : hitsAre(...expected)(body)),
  });
  scenarios(app, [
    ok("a lone quote", '"', "all"),
    ok("a lone star", "*", "all"),
    ok("a lone parenthesis", "(", "all"),
    ok("a lone colon", ":", "all"),
    ok("a lone at sign", "@", "all"),
    ok("quoted", '"alice"', [2]),
    ok("trailing star", "alic*", [2]),
    ok("a field prefix", "username:alice", [2]),
    ok("a leading at sign", "@example.org", [1, 2, 3, FRANK]),
    ok("LIKE wildcards are literal", "a%e", []),
    ok("an underscore is literal", "a_ice", []),
    ok("a star inside a word is not a wildcard", "a*e", []),
    ok("brackets", "al[i]ce", []),
    ok("a single quote", "o'brien", []),
    ok("a backslash", "\\alice", [2]),
    ok("SQL-looking text", "' OR 1=1 --", []),
    ok("a very long query", "y".repeat(5000), []),
  ]);
});

describe("reading a user", () => {
  scenarios(app, [
    {
      name: "anonymous, a public profile",
      method: "GET",
      url: "/api/users/2",
      status: 200,
      check: (body) =>
        expect(body).toEqual({
          id: "2",
          username: "alice",
          profile: { full_name: "", affiliations: "" },
          is_current_user: false,
          links: { self: `${BASE_URL}/api/users/2`, avatar: `${BASE_URL}/api/users/2/avatar.svg` },
        }),
    },
    {
      name: "themself: e-mail, account state and preferences",
      method: "GET",
      url: "/api/users/2",
      as: "alice",
      status: 200,
      check: (body) =>
        expect(body).toEqual({
          id: "2",
          username: "alice",
          email: "alice@example.org",
          profile: { full_name: "", affiliations: "" },
          is_current_user: true,
          active: true,
          confirmed: true,
          created: "2026-11-22T12:00:00.000000+00:00",
          updated: "2026-11-22T12:00:00.000000+00:00",
          revision_id: 1,
          preferences: { visibility: "public", email_visibility: "restricted" },
          links: { self: `${BASE_URL}/api/users/2`, avatar: `${BASE_URL}/api/users/2/avatar.svg` },
        }),
    },
    {
      name: "another user: no e-mail, no account state",
      method: "GET",
      url: "/api/users/3",
      as: "alice",
      status: 200,
      json: { id: "3", is_current_user: false },
      check: hasNo("email", ...ACCOUNT_FIELDS),
    },
    {
      name: "an administrator sees e-mail and account state",
      method: "GET",
      url: "/api/users/3",
      as: "admin",
      status: 200,
      json: { email: "bob@example.org", active: true, is_current_user: false, preferences: { visibility: "public" } },
    },
    {
      name: "a public e-mail, signed in",
      method: "GET",
      url: "/api/users/4",
      as: "bob",
      status: 200,
      json: { email: "carol@physics.example.net", profile: { full_name: "Carol Ångström", affiliations: "CERN" } },
      check: hasNo(...ACCOUNT_FIELDS),
    },
    { name: "a public e-mail, anonymous", method: "GET", url: "/api/users/4", status: 200, json: { email: "carol@physics.example.net" } },
    { name: "no username", method: "GET", url: "/api/users/7", as: "alice", status: 200, json: { id: "7", username: null }, check: hasNo("email") },
    { name: "a restricted profile, anonymous", method: "GET", url: "/api/users/5", status: 403, check: exactlyDenied },
    { name: "a restricted profile, another user", method: "GET", url: "/api/users/5", as: "alice", status: 403, check: exactlyDenied },
    {
      name: "a restricted profile, an administrator",
      method: "GET",
      url: "/api/users/5",
      as: "admin",
      status: 200,
      json: { email: "dave@example.org", preferences: { visibility: "restricted" } },
    },
    { name: "an inactive user", method: "GET", url: "/api/users/6", as: "bob", status: 403, check: exactlyDenied },
    { name: "an inactive user, an administrator", method: "GET", url: "/api/users/6", as: "admin", status: 200, json: { active: false } },
    { name: "a missing user", method: "GET", url: "/api/users/999", as: "alice", status: 403, check: exactlyDenied },
    { name: "a missing user, an administrator", method: "GET", url: "/api/users/999", as: "admin", status: 403, check: exactlyDenied },
    { name: "not a number", method: "GET", url: "/api/users/alice", as: "alice", status: 403, check: exactlyDenied },
    { name: "a huge number", method: "GET", url: "/api/users/99999999999999999999", as: "admin", status: 403, check: exactlyDenied },
    { name: "odd characters", method: "GET", url: "/api/users/%22%2A%28%3A", status: 403, check: exactlyDenied },
    { name: "an invalid token", method: "GET", url: "/api/users/2", token: "nope", status: 401 },
  ]);

  test("a restricted user reads themself in full", async () => {
    const res = await ctx.call("GET", `/api/users/${DAVE}`, { token: daveToken });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: String(DAVE),
      email: "dave@example.org",
      is_current_user: true,
      preferences: { visibility: "restricted", email_visibility: "restricted" },
    });
  });

  test("search hits have the same cut as reads", async () => {
    const res = await ctx.call("GET", "/api/users?q=example.org", { as: "alice" });
    const [admin, alice, bob] = res.json.hits.hits;
    expect(alice).toMatchObject({ email: "alice@example.org", is_current_user: true, active: true });
    for (const other of [admin, bob]) {
      expect(other.is_current_user).toBe(false);
      hasNo("email", ...ACCOUNT_FIELDS)(other);
    }
  });
});

describe("user avatars", () => {
  const svgHeaders = {
    "content-type": "image/svg+xml; charset=utf-8",
    "content-disposition": "inline; filename=avatar.svg",
    etag: /^"[0-9a-f]{32}"$/,
    "cache-control": "private, max-age=3600",
  };
  const shows = (label: string) => (_b: unknown, text: string) => expect(text).toContain(`>${label}</text>`);
  scenarios(app, [
    { name: "anonymous, initials of the full name", method: "GET", url: "/api/users/4/avatar.svg", status: 200, responseHeaders: svgHeaders, check: shows("CÅ") },
    { name: "the username's initial", method: "GET", url: "/api/users/2/avatar.svg", as: "bob", status: 200, responseHeaders: svgHeaders, check: shows("A") },
    { name: "the e-mail's initial", method: "GET", url: "/api/users/7/avatar.svg", as: "bob", status: 200, check: shows("F") },
    { name: "a restricted profile", method: "GET", url: "/api/users/5/avatar.svg", as: "alice", status: 403, check: exactlyDenied },
    { name: "a restricted profile, an administrator", method: "GET", url: "/api/users/5/avatar.svg", as: "admin", status: 200, check: shows("DH") },
    { name: "a restricted profile with If-None-Match *", method: "GET", url: "/api/users/5/avatar.svg", headers: { "if-none-match": "*" }, status: 403 },
    { name: "an inactive user", method: "GET", url: "/api/users/6/avatar.svg", status: 403 },
    { name: "a missing user", method: "GET", url: "/api/users/999/avatar.svg", status: 403, check: exactlyDenied },
    { name: "not a number", method: "GET", url: "/api/users/x/avatar.svg", status: 403 },
    { name: "HEAD", method: "HEAD", url: "/api/users/2/avatar.svg", status: 200, responseHeaders: svgHeaders, check: (_b, text) => expect(text).toBe("") },
  ]);

  test("If-None-Match with the ETag: 304 without a body", async () => {
    const first = await ctx.call("GET", "/api/users/4/avatar.svg");
    const etag = first.headers.get("etag")!;
    expect(first.text).toBe(renderAvatar("4", "CÅ").svg);
    expect(etag).toBe(renderAvatar("4", "CÅ").etag);
    const again = await ctx.call("GET", "/api/users/4/avatar.svg", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("private, max-age=3600");
    expect((await ctx.call("GET", "/api/users/2/avatar.svg", { headers: { "if-none-match": etag } })).status).toBe(200);
  });
});

describe("creating users", () => {
  test("visibility is checked", async () => {
    const bad = ctx.services.users.createUser(systemActor, { email: "x@example.org", visibility: "secret", emailVisibility: "everyone" });
    await expect(bad).rejects.toMatchObject({ status: 400, errors: [{ field: "visibility" }, { field: "emailVisibility" }] });
  });

  test("an e-mail differing from a registered one in nothing is refused, non-ASCII letters included", async () => {
    await ctx.services.users.createUser(systemActor, { email: "Ömer@example.org" });
    await expect(ctx.services.users.createUser(systemActor, { email: "Ömer@example.org" })).rejects.toMatchObject({ status: 400, errors: [{ field: "email" }] });
    await expect(ctx.services.users.createUser(systemActor, { email: "ÖMER@EXAMPLE.ORG" })).rejects.toMatchObject({ status: 400 });
  });
});

describe("ACCOUNTS_DEFAULT_USER_VISIBILITY", () => {
  let restricted: TestApp;
  beforeAll(async () => {
    restricted = await createTestApp({ ACCOUNTS_DEFAULT_USER_VISIBILITY: "restricted" });
  });
  afterAll(() => restricted.close());

  test("restricted: new accounts are hidden from each other, not from administrators", async () => {
    expect((await restricted.call("GET", "/api/users/3", { as: "alice" })).status).toBe(403);
    expect(hitIds((await restricted.call("GET", "/api/users", { as: "alice" })).json)).toEqual([2]);
    expect(hitIds((await restricted.call("GET", "/api/users", { as: "admin" })).json)).toEqual([1, 2, 3]);
    expect((await restricted.call("GET", "/api/users/3", { as: "admin" })).json.preferences).toEqual({ visibility: "restricted", email_visibility: "restricted" });
  });

  test("an explicit visibility wins over the default", async () => {
    const user = await restricted.services.users.createUser(systemActor, { email: "open@example.org", visibility: "public" });
    expect((await restricted.call("GET", `/api/users/${user.id}`, { as: "alice" })).status).toBe(200);
  });

  test("the default is public; other values are refused", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cairn-config-"));
    try {
      expect(loadConfig({ flags: { DATA_DIR: dataDir }, env: {} }).ACCOUNTS_DEFAULT_USER_VISIBILITY).toBe("public");
      expect(loadConfig({ flags: { DATA_DIR: dataDir }, env: { CAIRN_ACCOUNTS_DEFAULT_USER_VISIBILITY: "restricted" } }).ACCOUNTS_DEFAULT_USER_VISIBILITY).toBe("restricted");
      expect(() => loadConfig({ flags: { DATA_DIR: dataDir }, env: { CAIRN_ACCOUNTS_DEFAULT_USER_VISIBILITY: "everyone" } })).toThrow(ConfigError);
      expect(() => loadConfig({ flags: { DATA_DIR: dataDir }, env: { CAIRN_ACCOUNTS_DEFAULT_USER_VISIBILITY: "everyone" } })).toThrow(
        "ACCOUNTS_DEFAULT_USER_VISIBILITY must be public or restricted",
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
