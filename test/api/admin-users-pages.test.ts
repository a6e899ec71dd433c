// Administration → Users over HTTP: a 404 for everyone but administrators on every page and form;
// the list (newest first, state badges, the five state filters, search, paging, bad input as 400);
// a user's page (facts, linked identities, tokens); every action with its effect and its audit entry
// (via web, from the client's address), the destructive ones after a confirmation step; the CSRF
// refusals; the service's refusals (self-block, activate on a blocked account) as 400 pages; revoking
// a token.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { insertIdentity } from "../../src/accounts/oidc-store";
import { systemActor, type Actor } from "../../src/core/actor";
import { pageSession } from "../helpers/accounts";
import { createTestApp, type TestApp } from "../helpers/app";
import { raw } from "../helpers/sign-in";

const NOT_FOUND = "The requested URL was not found on the server.";
const ADDRESS = "203.0.113.9";

let app: TestApp;
let admin: { cookie: string; csrf: string };
let alice: { cookie: string; csrf: string };
/** Accounts made for the list, oldest first: plain, blocked, deactivated, unconfirmed, second administrator. */
let set: { plain: number; blocked: number; deactivated: number; unconfirmed: number; boss: number };

const session = (login: string) => pageSession(app, login);
const get = (path: string, who?: { cookie: string }) => raw(app, "GET", path, { cookie: who?.cookie });
const post = (path: string, who: { cookie: string; csrf: string } | null, csrf = who?.csrf) =>
  raw(app, "POST", path, { cookie: who?.cookie, form: csrf === undefined ? {} : { csrf }, address: ADDRESS });

const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
const notice = (html: string) => /role="status">([^<]*)</.exec(html)?.[1];
const rowIds = (html: string) => [...html.matchAll(/<tr data-user-id="(\d+)">/g)].map((m) => Number(m[1]));
const rowText = (html: string, attribute: string, id: number) => {
  const row = new RegExp(`<tr ${attribute}="${id}">(.*?)</tr>`).exec(html)?.[1];
  return row === undefined ? undefined : [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
};
/** The facts list of a user's page, term -> value. */
const factsOf = (html: string) => Object.fromEntries([...html.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1], m[2]]));
const auditEntries = async (action: string) => (await app.services.audit.search(systemActor, { action })).entries;
const account = (id: number) => app.services.users.findUserById(id);
const ids = async (query: string) => rowIds((await get(`/administration/users${query}`, admin)).text);

beforeAll(async () => {
  app = await createTestApp();
  admin = await session("admin");
  alice = await session("alice");
  const make = async (name: string, confirmed = true) => {
    app.clock.advance(60_000);
    return (await app.services.users.registerUser({ email: `${name}@example.org`, fullName: `Wombat ${name}`, confirmed })).id;
  };
  const plain = await make("wombat-plain");
  const blocked = await make("wombat-blocked");
  const deactivated = await make("wombat-deactivated");
  const unconfirmed = await make("wombat-unconfirmed", false);
  const boss = await make("wombat-boss");
  const cli = { via: "cli" as const };
  await app.services.userAdmin.block(systemActor, blocked, cli);
  await app.services.userAdmin.deactivate(systemActor, deactivated, cli);
  await app.services.userAdmin.promote(systemActor, boss, cli);
  set = { plain, blocked, deactivated, unconfirmed, boss };
});
afterAll(async () => {
  await app.close();
});

describe("the users' screen is a 404 for everyone but administrators", () => {
  test("every page: the ordinary 404 for a guest, a signed-in person and a person's token; the page for an administrator", async () => {
    const token = (await app.services.tokens.createToken(systemActor, { userId: set.plain, name: "script" })).token;
    const pages = [
      "/administration/users",
      "/administration/users?state=blocked",
      `/administration/users/${set.plain}`,
      `/administration/users/${set.plain}/block`,
      `/administration/users/${set.plain}/deactivate`,
      `/administration/users/${set.boss}/demote`,
      `/administration/users/${set.plain}/tokens/${token.id}/revoke`,
    ];
    for (const path of pages) {
      for (const [who, res] of [
        ["guest", await get(path)],
        ["alice", await get(path, alice)],
        ["alice's token", await raw(app, "GET", path, { headers: { authorization: `Bearer ${app.users.alice.token}` } })],
      ] as const) {
        expect({ path, who, status: res.status, h1: h1(res.text), says: res.text.includes(NOT_FOUND) }).toEqual({ path, who, status: 404, h1: "Not found", says: true });
      }
      expect({ path, status: (await get(path, admin)).status }).toEqual({ path, status: 200 });
    }
    await app.services.tokens.revokeToken(systemActor, token.id);
  });

  test("every form: a 404 for a guest and for a signed-in person with a valid CSRF token, with no effect", async () => {
    const token = (await app.services.tokens.createToken(systemActor, { userId: set.plain, name: "kept" })).token;
    const before = (await app.services.audit.search(systemActor, {})).total;
    const forms = [
      ...["block", "restore", "deactivate", "activate", "approve", "promote", "demote"].map((a) => `/administration/users/${set.plain}/${a}`),
      `/administration/users/${set.plain}/tokens/${token.id}/revoke`,
    ];
    for (const path of forms) {
      for (const [who, res] of [
        ["guest", await post(path, null, "")],
        ["alice", await post(path, alice)],
      ] as const) {
        expect({ path, who, status: res.status, h1: h1(res.text), says: res.text.includes(NOT_FOUND) }).toEqual({ path, who, status: 404, h1: "Not found", says: true });
      }
    }
    const plain = (await account(set.plain))!;
    expect({ blocked: plain.blockedAt, active: plain.active, verified: plain.verifiedAt, admin: plain.isAdmin }).toEqual({
      blocked: null,
      active: true,
      verified: null,
      admin: false,
    });
    expect((await app.services.tokens.listTokens(systemActor, set.plain)).find((t) => t.id === token.id)?.revokedAt).toBeNull();
    expect((await app.services.audit.search(systemActor, {})).total).toBe(before);
    await app.services.tokens.revokeToken(systemActor, token.id);
  });

  test("the service's list refuses a person who is not an administrator (403), also for the new filters", async () => {
    const person: Actor = { kind: "user", userId: app.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    const error = await app.services.userAdmin.searchAllUsers(person, { is_admin: "true" }).catch((e: { status?: number }) => e);
    expect((error as { status?: number }).status).toBe(403);
  });
});

describe("the list", () => {
  test("newest first, each row the e-mail, name, state badges and created; the navigation has Users first", async () => {
    const res = await get("/administration/users?q=wombat", admin);
    expect(res.status).toBe(200);
    expect(h1(res.text)).toBe("Users");
    expect(rowIds(res.text)).toEqual([set.boss, set.unconfirmed, set.deactivated, set.blocked, set.plain]);
    expect(rowText(res.text, "data-user-id", set.boss)).toEqual(["wombat-boss@example.org", "Wombat wombat-boss", "administrator", "2026-11-22 12:05 UTC"]);
    expect(rowText(res.text, "data-user-id", set.blocked)?.[2]).toBe("blocked");
    expect(rowText(res.text, "data-user-id", set.deactivated)?.[2]).toBe("deactivated");
    expect(rowText(res.text, "data-user-id", set.unconfirmed)?.[2]).toBe("unconfirmed");
    expect(rowText(res.text, "data-user-id", set.plain)?.slice(0, 3)).toEqual(["wombat-plain@example.org", "Wombat wombat-plain", "—"]);
    expect(res.text).toContain(`<a href="/administration/users/${set.plain}">wombat-plain@example.org</a>`);
    // Users is the first screen of the navigation, marked as the current one here.
    expect(/<nav class="tabs" aria-label="Administration"><a href="([^"]+)" aria-current="page">Users<\/a>/.exec(res.text)?.[1]).toBe("/administration/users");
  });

  test("each state filter, alone and with words", async () => {
    expect(await ids("?q=wombat&state=active")).toEqual([set.boss, set.unconfirmed, set.plain]);
    expect(await ids("?q=wombat&state=blocked")).toEqual([set.blocked]);
    expect(await ids("?q=wombat&state=deactivated")).toEqual([set.deactivated]);
    expect(await ids("?q=wombat&state=unconfirmed")).toEqual([set.unconfirmed]);
    expect(await ids("?state=administrators")).toEqual([set.boss, app.users.admin.user.id]);
    expect(await ids("?q=plain")).toEqual([set.plain]);
    expect(await ids("?q=nobody-like-this")).toEqual([]);
    const page = await get("/administration/users?q=wombat&state=blocked", admin);
    expect(page.text).toContain('<option value="blocked" selected>Blocked</option>');
    expect(page.text).toContain('value="wombat"');
  });

  test("paged, the pager keeping the search and the filter", async () => {
    const first = await get("/administration/users?q=wombat&state=active&size=2", admin);
    expect(rowIds(first.text)).toEqual([set.boss, set.unconfirmed]);
    expect(first.text).toContain("Page 1 of 2 (3 in all)");
    expect(first.text).toContain('href="/administration/users?q=wombat&amp;state=active&amp;page=2"');
    const second = await get("/administration/users?q=wombat&state=active&size=2&page=2", admin);
    expect(rowIds(second.text)).toEqual([set.plain]);
    expect(second.text).toContain("Page 2 of 2 (3 in all)");
  });

  test("bad input is a 400 page naming the parameter, never a 500", async () => {
    for (const [query, says] of [
      ["?state=spammers", "state: Must be one of: active, blocked, deactivated, unconfirmed, administrators."],
      ["?page=0", "page: Must be a whole number of 1 or more."],
      ["?size=5000", "size: Must be a whole number from 1 to 100."],
    ] as const) {
      const res = await get(`/administration/users${query}`, admin);
      expect({ query, status: res.status, says: res.text.includes(says) }).toEqual({ query, status: 400, says: true });
    }
    for (const path of ["/administration/users/0", "/administration/users/abc", "/administration/users/999999", `/administration/users/${set.plain}/explode`]) {
      expect({ path, status: (await get(path, admin)).status }).toEqual({ path, status: 404 });
    }
  });
});

describe("a user's page and actions", () => {
  test("the account's facts, linked identities and tokens (read-only facts, no secret)", async () => {
    await app.services.users.updateProfile(systemActor, set.plain, { affiliations: "Wombat Institute", orcid: "0000-0002-1825-0097" });
    await insertIdentity(app.services.deps.db, {
      provider: "github",
      subject: "wombat-42",
      userId: set.plain,
      email: "w@github.example",
      created: app.clock.now(),
      lastSignIn: app.clock.now(),
    });
    const { token } = await app.services.tokens.createToken(systemActor, { userId: set.plain, name: "harvester" });
    const res = await get(`/administration/users/${set.plain}`, admin);
    expect(res.status).toBe(200);
    expect(h1(res.text)).toBe("User wombat-plain@example.org");
    expect(factsOf(res.text)).toEqual({
      "E-mail": "wombat-plain@example.org",
      Username: "—",
      Name: "Wombat wombat-plain",
      Affiliation: "Wombat Institute",
      ORCID: "0000-0002-1825-0097",
      Created: "2026-11-22 12:01 UTC",
      Confirmed: "2026-11-22 12:01 UTC",
      Blocked: "no",
      Verified: "no",
      Active: "yes",
      Administrator: "no",
    });
    const identity = /<tr><th scope="row">[^<]*<\/th><td>wombat-42<\/td><td>w@github.example<\/td>/.test(res.text);
    expect(identity).toBe(true);
    expect(rowText(res.text, "data-token-id", token.id)).toEqual(["harvester", "2026-11-22 12:05 UTC", "never", "Revoke"]);
    expect(res.text).not.toContain(token.secretHash);
    // The actions that apply now: block and deactivate (confirmed: links), approve and promote (forms).
    expect(res.text).toContain(`<a class="button" href="/administration/users/${set.plain}/block">Block</a>`);
    expect(res.text).toContain(`<a class="button" href="/administration/users/${set.plain}/deactivate">Deactivate</a>`);
    expect(res.text).toContain(`<form method="post" action="/administration/users/${set.plain}/approve"><input type="hidden" name="csrf" value="${admin.csrf}"/>`);
    expect(res.text).toContain(`<form method="post" action="/administration/users/${set.plain}/promote">`);
    expect(res.text).not.toContain(`/administration/users/${set.plain}/restore`);
  });

  test("block: a confirmation step, refused without the session's CSRF token, then blocked (sessions ended), shown and audited via web", async () => {
    const bob = await session("bob");
    expect((await get("/account/settings/profile", bob)).status).toBe(200);
    const id = app.users.bob.user.id;
    const confirm = await get(`/administration/users/${id}/block`, admin);
    expect(confirm.text).toContain("Block bob@example.org?");
    expect(confirm.text).toContain(`<form method="post" action="/administration/users/${id}/block"><input type="hidden" name="csrf" value="${admin.csrf}"/>`);
    for (const csrf of ["", "forged", alice.csrf]) {
      const refused = await post(`/administration/users/${id}/block`, admin, csrf);
      expect({ csrf, status: refused.status, h1: h1(refused.text) }).toEqual({ csrf, status: 403, h1: "Not allowed" });
    }
    expect((await account(id))!.blockedAt).toBeNull();
    expect(await auditEntries("user.block")).toHaveLength(1); // the one made by the CLI in beforeAll

    const done = await post(`/administration/users/${id}/block`, admin);
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `/administration/users/${id}?done=block` });
    const page = await get(`/administration/users/${id}?done=block`, admin);
    expect(notice(page.text)).toBe("The account was blocked.");
    expect(factsOf(page.text).Blocked).toBe("2026-11-22 12:05 UTC");
    expect((await account(id))!.active).toBe(false);
    // Bob's session no longer works.
    const after = await get("/account/settings/profile", bob);
    expect(after.status).toBe(401);
    expect((await auditEntries("user.block"))[0]).toEqual(
      expect.objectContaining({
        actorLabel: "admin@example.org",
        targetType: "user",
        targetId: String(id),
        via: "web",
        address: ADDRESS,
        details: { email: "bob@example.org", closed_requests: 0 },
      }),
    );

    // Activate is refused on a blocked account: the service's message as a 400 page.
    const activate = await post(`/administration/users/${id}/activate`, admin);
    expect({ status: activate.status, says: activate.text.includes("The account is blocked: restore it to let it sign in again.") }).toEqual({ status: 400, says: true });

    const restore = await post(`/administration/users/${id}/restore`, admin);
    expect(restore.headers.get("location")).toBe(`/administration/users/${id}?done=restore`);
    const restored = (await account(id))!;
    expect({ blocked: restored.blockedAt, active: restored.active }).toEqual({ blocked: null, active: true });
    expect((await auditEntries("user.restore"))[0]).toEqual(expect.objectContaining({ targetId: String(id), via: "web", address: ADDRESS }));
  });

  test("each other action: its effect, its notice and its audit entry via web; each refused without CSRF", async () => {
    const id = set.plain;
    const steps: [string, (row: NonNullable<Awaited<ReturnType<typeof account>>>) => unknown, unknown, string][] = [
      ["deactivate", (r) => r.active, false, "The account was deactivated."],
      ["activate", (r) => r.active, true, "The account was activated."],
      ["approve", (r) => r.verifiedAt, app.clock.now(), "The account was approved: its held uploads are published and its publications skip moderation."],
      ["promote", (r) => r.isAdmin, true, "The account is an administrator now."],
      ["demote", (r) => r.isAdmin, false, "The account is no longer an administrator."],
    ];
    for (const [action, read, expected, says] of steps) {
      const before = read((await account(id))!);
      expect({ action, status: (await post(`/administration/users/${id}/${action}`, admin, "")).status }).toEqual({ action, status: 403 });
      expect({ action, unchanged: read((await account(id))!) }).toEqual({ action, unchanged: before });
      const done = await post(`/administration/users/${id}/${action}`, admin);
      expect({ action, location: done.headers.get("location") }).toEqual({ action, location: `/administration/users/${id}?done=${action}` });
      expect({ action, now: read((await account(id))!) }).toEqual({ action, now: expected });
      expect({ action, notice: notice((await get(`/administration/users/${id}?done=${action}`, admin)).text) }).toEqual({ action, notice: says });
      expect((await auditEntries(`user.${action}`))[0]).toEqual(
        expect.objectContaining({
          actorLabel: "admin@example.org",
          targetType: "user",
          targetId: String(id),
          via: "web",
          address: ADDRESS,
          details: { email: "wombat-plain@example.org" },
        }),
      );
    }
    expect(rowText((await get("/administration/users?q=wombat-plain", admin)).text, "data-user-id", id)?.[2]).toBe("verified");
    // The confirmation steps of the destructive ones.
    expect((await get(`/administration/users/${id}/deactivate`, admin)).text).toContain("Deactivate wombat-plain@example.org?");
    expect((await get(`/administration/users/${set.boss}/demote`, admin)).text).toContain("Take the administrator role from wombat-boss@example.org?");
  });

  test("an administrator cannot block, deactivate or demote themself: the service's message as a 400 page, nothing changed", async () => {
    const self = app.users.admin.user.id;
    for (const action of ["block", "deactivate", "demote"]) {
      const res = await post(`/administration/users/${self}/${action}`, admin);
      expect({ action, status: res.status, says: res.text.includes(`You cannot ${action} your own account: ask another administrator.`) }).toEqual({
        action,
        status: 400,
        says: true,
      });
    }
    const row = (await account(self))!;
    expect({ blocked: row.blockedAt, active: row.active, admin: row.isAdmin }).toEqual({ blocked: null, active: true, admin: true });
    expect((await get("/administration/users", admin)).status).toBe(200);
  });

  test("revoke a token: a confirmation step, refused without CSRF, then revoked and audited; not twice", async () => {
    const { token } = await app.services.tokens.createToken(systemActor, { userId: set.deactivated, name: "old script" });
    const path = `/administration/users/${set.deactivated}/tokens/${token.id}/revoke`;
    expect((await get(path, admin)).text).toContain(`Revoke the token “old script” of wombat-deactivated@example.org?`);
    expect((await post(path, admin, "forged")).status).toBe(403);
    expect((await app.services.tokens.listTokens(systemActor, set.deactivated)).find((t) => t.id === token.id)?.revokedAt).toBeNull();
    // Another user's path to the token does not reach it.
    expect((await post(`/administration/users/${set.plain}/tokens/${token.id}/revoke`, admin)).status).toBe(404);
    const done = await post(path, admin);
    expect(done.headers.get("location")).toBe(`/administration/users/${set.deactivated}?done=revoked`);
    expect((await app.services.tokens.listTokens(systemActor, set.deactivated)).find((t) => t.id === token.id)?.revokedAt).toBe(app.clock.now());
    expect(notice((await get(`/administration/users/${set.deactivated}?done=revoked`, admin)).text)).toBe("The token was revoked.");
    expect(await auditEntries("token.revoke")).toEqual([
      expect.objectContaining({ targetType: "token", targetId: String(token.id), via: "web", address: ADDRESS, details: { user: String(set.deactivated), name: "old script" } }),
    ]);
    expect((await post(path, admin)).status).toBe(409);
  });
});
