// Administrators managing accounts (issue 32, users): GET /api/users/all with its filters and paging,
// POST /api/users/{id}/block|restore|approve|activate|deactivate and the promote/demote service
// methods, each by an administrator with its effect and its audit entry checked, and refused for
// everyone else (403 with a non-administrator's token, 401 anonymous). A blocked user: their token
// answers 403 on reads and writes that need it, their session cookie stops working, the password
// form and an OpenID Connect sign-in (an independent provider on 127.0.0.1) are refused, and the
// requests they opened are closed; restore brings them back.
//
// Clock: oidc-provider stamps its tokens with the system's time and Cairn judges them by its own
// clock, so the ManualClock is set once to Date.now() at the start (as in oidc.test.ts); the tests
// then read times from the ManualClock only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor, type Actor } from "../../src/core/actor";
import { withClientAddress } from "../../src/core/client-address";
import { formatIsoTime } from "../../src/core/time";
import { BASE_URL, createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { COMMUNITY_BODY } from "../helpers/communities";
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";
import { publishableDraft } from "../helpers/records";
import { cookieValue, postLogin, raw } from "../helpers/sign-in";

const SECRET = "cairn-client-secret";
const BLOCKED = "This account is blocked by an administrator: it cannot sign in or use its tokens.";
let t: TestApp;
let op: TestOidcProvider;
let admin: Actor;

beforeAll(async () => {
  op = await startOidcProvider([{ client_id: "cairn", client_secret: SECRET, redirect_uris: [`${BASE_URL}/oauth/authorized/campus`] }]);
  t = await createTestApp({ OIDC_PROVIDERS: [{ name: "campus", title: "Campus account", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, trust_email: true }] });
  t.clock.set(Date.now());
  admin = { kind: "user", userId: t.users.admin.user.id, isAdmin: true, groupIds: [], scopes: [], tokenId: null };
});
afterAll(async () => {
  await t.close();
  await op.close();
});

let made = 0;
/** A fresh account with a password and a token (each test its own, so that none depends on another's changes). */
async function person(fullName = "Test Person") {
  const name = `person${++made}`;
  const user = await t.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password`, fullName });
  const { secret } = await t.services.tokens.createToken(systemActor, { userId: user.id, name: "token" });
  return { id: user.id, name, email: user.email, password: `${name}-password`, token: secret };
}

/** POST /api/users/{id}/{action} as the administrator from `address` (as the server's socket would report it). */
async function adminAction(id: number | string, action: string, address = "203.0.113.7") {
  const request = new Request(`${BASE_URL}/api/users/${id}/${action}`, { method: "POST", headers: { authorization: `Bearer ${t.users.admin.token}` } });
  const response = await t.app.handle(withClientAddress(request, address));
  return { status: response.status, json: (await response.json()) as any };
}

/** The newest audit entry. */
const lastEntry = async () => (await t.services.audit.search(systemActor, { size: 1 })).entries[0];

/** The status of a password sign-in: 200 with a session, else the refusal's status and message. */
const passwordSignIn = (login: string, password: string) =>
  t.services.sessions.signIn(login, password).then(
    () => ({ status: 200, message: "" }),
    (e: { status: number; message: string }) => ({ status: e.status, message: e.message }),
  );

/** A session cookie from the login form. */
async function sessionOf(login: string, password: string) {
  const res = await postLogin(t, login, password);
  expect(res.status).toBe(303);
  return `cairn_session=${res.session}`;
}

/** The whole OpenID Connect sign-in as `sub` at the provider: Cairn's answer and the session cookie it set (if any). */
async function oidcSignIn(sub: string) {
  const started = await raw(t, "GET", "/oauth/login/campus");
  expect(started.status).toBe(302);
  const browser = cookieValue(started.cookies, "cairn_oauth")!;
  const back = await signInAtProvider(started.headers.get("location")!, sub, `${BASE_URL}/oauth/authorized/campus`);
  const res = await raw(t, "GET", back.pathname + back.search, { cookie: `cairn_oauth=${browser}` });
  return { status: res.status, text: res.text, session: cookieValue(res.cookies, "cairn_session") };
}

const ACTIONS = ["block", "restore", "approve", "activate", "deactivate"];

describe("refused for everyone but administrators", () => {
  test.each(ACTIONS)("POST /api/users/{id}/%s: 401 anonymous, 403 with a non-administrator's token (the account unchanged), 404 for an unknown id", async (action) => {
    const target = await person();
    const before = (await t.services.users.findUserById(target.id))!;
    const anonymous = await t.call("POST", `/api/users/${target.id}/${action}`);
    expect({ status: anonymous.status, body: anonymous.json }).toEqual({ status: 401, body: expect.objectContaining({ status: 401 }) });
    const alice = await t.call("POST", `/api/users/${target.id}/${action}`, { as: "alice" });
    expect({ status: alice.status, body: alice.json }).toEqual({ status: 403, body: { status: 403, message: "Permission denied." } });
    expect(await t.services.users.findUserById(target.id)).toEqual(before);
    expect((await t.call("POST", `/api/users/99999/${action}`, { as: "admin" })).json).toEqual({ status: 404, message: "No user with id '99999'." });
  });

  test("GET /api/users/all: 401 anonymous, 403 with a non-administrator's token", async () => {
    expect((await t.call("GET", "/api/users/all")).status).toBe(401);
    expect((await t.call("GET", "/api/users/all", { as: "alice" })).json).toEqual({ status: 403, message: "Permission denied." });
  });

  test("promote and demote (service methods for the CLI and the pages): 403 for a non-administrator, 401 anonymous", async () => {
    const target = await person();
    const alice: Actor = { kind: "user", userId: t.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    for (const action of ["promote", "demote"] as const) {
      await expect(t.services.userAdmin[action](alice, target.id, { via: "web" })).rejects.toMatchObject({ status: 403 });
      await expect(t.services.userAdmin[action]({ kind: "anonymous" }, target.id, { via: "web" })).rejects.toMatchObject({ status: 401 });
    }
    expect((await t.services.users.findUserById(target.id))!.isAdmin).toBe(false);
  });
});

describe("block and restore", () => {
  test("block: blocked_at set, inactive; token 403 on reads and writes, the session cookie ended, password and OIDC sign-in refused; the audit entry", async () => {
    const bob = await person("Bob Blocked");
    op.people.set(`${bob.name}-sub`, { email: bob.email, email_verified: true, name: "Bob at the campus" });
    expect((await oidcSignIn(`${bob.name}-sub`)).status).toBe(303); // linked, and it signs in
    const cookie = await sessionOf(bob.name, bob.password);
    expect((await raw(t, "GET", "/api/user/records", { cookie })).status).toBe(200);

    t.clock.advance(5000);
    const blockedAt = t.clock.now();
    const res = await adminAction(bob.id, "block");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: String(bob.id),
      email: bob.email,
      active: false,
      blocked_at: formatIsoTime(blockedAt),
      verified_at: null,
      is_admin: false,
      confirmed: true,
    });

    const read = await t.call("GET", "/api/user/records", { token: bob.token });
    expect({ status: read.status, body: read.json }).toEqual({ status: 403, body: { status: 403, message: BLOCKED } });
    const write = await t.call("POST", "/api/records", { token: bob.token, body: publishableDraft() });
    expect({ status: write.status, body: write.json }).toEqual({ status: 403, body: { status: 403, message: BLOCKED } });
    // The cookie signed in before the block no longer does: every session of the account ended.
    expect((await raw(t, "GET", "/api/user/records", { cookie })).status).toBe(401);
    expect(await t.services.deps.db.statements.all("SELECT 1 FROM sessions WHERE user_id = ?", [bob.id])).toEqual([]);
    // The right password: 403 saying why; a wrong one: the usual 400 (a guesser learns nothing).
    expect(await passwordSignIn(bob.name, bob.password)).toEqual({ status: 403, message: BLOCKED });
    expect((await passwordSignIn(bob.name, "not-the-password")).status).toBe(400);
    const form = await postLogin(t, bob.email, bob.password);
    expect({ status: form.status, session: form.session, said: form.text.includes(BLOCKED) }).toEqual({ status: 403, session: undefined, said: true });
    const external = await oidcSignIn(`${bob.name}-sub`);
    expect({ status: external.status, session: external.session, said: external.text.includes(BLOCKED) }).toEqual({ status: 403, session: undefined, said: true });

    expect(await lastEntry()).toMatchObject({
      at: blockedAt,
      actorId: t.users.admin.user.id,
      actorLabel: "admin@example.org",
      action: "user.block",
      targetType: "user",
      targetId: String(bob.id),
      details: { email: bob.email, closed_requests: 0 },
      address: "203.0.113.7",
      via: "api",
    });
  });

  test("restore: active again, blocked_at cleared; the token, the password and the OIDC sign-in work again; the audit entry", async () => {
    const carl = await person();
    op.people.set(`${carl.name}-sub`, { email: carl.email, email_verified: true, name: "Carl" });
    expect((await oidcSignIn(`${carl.name}-sub`)).status).toBe(303);
    expect((await adminAction(carl.id, "block")).status).toBe(200);
    const res = await adminAction(carl.id, "restore", "198.51.100.2");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: String(carl.id), active: true, blocked_at: null });
    expect((await t.call("GET", "/api/user/records", { token: carl.token })).status).toBe(200);
    expect(await passwordSignIn(carl.name, carl.password)).toEqual({ status: 200, message: "" });
    const external = await oidcSignIn(`${carl.name}-sub`);
    expect(external.status).toBe(303);
    expect(external.session).toBeString();
    expect(await lastEntry()).toMatchObject({ actorId: t.users.admin.user.id, action: "user.restore", targetId: String(carl.id), address: "198.51.100.2", via: "api" });
  });

  test("block closes the requests the user opened: a submitted review is cancelled, a draft review deleted; others' requests stay", async () => {
    const dan = await person();
    const community = await t.call("POST", "/api/communities", { as: "admin", body: COMMUNITY_BODY("block-requests") });
    expectStatus(community, 201);
    const review = async (token: string, submit: boolean) => {
      const draft = await t.call("POST", "/api/records", { token, body: publishableDraft() });
      expectStatus(draft, 201);
      const put = await t.call("PUT", `/api/records/${draft.json.id}/draft/review`, { token, body: { receiver: { community: community.json.id }, type: "community-submission" } });
      expectStatus(put, 200);
      if (!submit) return put.json.id as string;
      const sent = await t.call("POST", `/api/records/${draft.json.id}/draft/actions/submit-review`, { token, body: { payload: { content: "<p>Please</p>", format: "html" } } });
      expectStatus(sent, 202);
      return sent.json.id as string;
    };
    const submitted = await review(dan.token, true);
    const drafted = await review(dan.token, false);
    const alices = await review(t.users.alice.token, true);
    const res = await adminAction(dan.id, "block");
    expect(res.status).toBe(200);
    expect((await t.services.requests.findRequest(submitted))?.status).toBe("cancelled");
    expect(await t.services.requests.findRequest(drafted)).toBeNull();
    expect((await t.services.requests.findRequest(alices))?.status).toBe("submitted");
    expect((await lastEntry())?.details).toEqual({ email: dan.email, closed_requests: 2 });
  });

  test("an administrator cannot block, deactivate or demote themself (400); the account unchanged, no audit entry", async () => {
    // A second administrator, so that the refusal is the self one, not the last administrator's (admin-users-delete.test.ts).
    const other = await t.services.users.createUser(systemActor, { email: "other-admin@example.org", admin: true });
    const before = await lastEntry();
    for (const action of ["block", "deactivate"]) {
      const res = await adminAction(t.users.admin.user.id, action);
      expect({ status: res.status, body: res.json }).toEqual({ status: 400, body: { status: 400, message: `You cannot ${action} your own account: ask another administrator.` } });
    }
    await expect(t.services.userAdmin.demote(admin, t.users.admin.user.id, { via: "web" })).rejects.toMatchObject({
      status: 400,
      message: "You cannot demote your own account: ask another administrator.",
    });
    const me = (await t.services.users.findUserById(t.users.admin.user.id))!;
    expect({ active: me.active, blockedAt: me.blockedAt, isAdmin: me.isAdmin }).toEqual({ active: true, blockedAt: null, isAdmin: true });
    expect(await lastEntry()).toEqual(before);
    await t.services.userAdmin.deactivate(systemActor, other.id, { via: "cli" });
  });
});

describe("deactivate, activate, approve, promote, demote", () => {
  test("deactivate: inactive, sessions ended, sign-in refused, the token refused; activate brings the account back", async () => {
    const eve = await person();
    const cookie = await sessionOf(eve.name, eve.password);
    const res = await adminAction(eve.id, "deactivate");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ active: false, blocked_at: null });
    expect((await t.services.deps.db.statements.all("SELECT 1 FROM sessions WHERE user_id = ?", [eve.id])).length).toBe(0);
    expect((await raw(t, "GET", "/api/user/records", { cookie })).status).toBe(401);
    expect((await passwordSignIn(eve.name, eve.password)).status).toBe(400);
    expect((await t.call("GET", "/api/user/records", { token: eve.token })).status).toBe(401);
    expect(await lastEntry()).toMatchObject({ action: "user.deactivate", targetId: String(eve.id), via: "api" });

    const back = await adminAction(eve.id, "activate");
    expect(back.json).toMatchObject({ active: true });
    expect(await passwordSignIn(eve.name, eve.password)).toEqual({ status: 200, message: "" });
    expect((await t.call("GET", "/api/user/records", { token: eve.token })).status).toBe(200);
    expect(await lastEntry()).toMatchObject({ action: "user.activate", targetId: String(eve.id), via: "api" });
  });

  test("activate does not lift a block (400: restore it)", async () => {
    const fay = await person();
    await adminAction(fay.id, "block");
    const res = await adminAction(fay.id, "activate");
    expect(res.json).toEqual({ status: 400, message: "The account is blocked: restore it to let it sign in again." });
    expect((await t.services.users.findUserById(fay.id))!.active).toBe(false);
  });

  test("approve sets verified_at (kept on a second approval)", async () => {
    const gus = await person();
    const at = t.clock.now();
    const res = await adminAction(gus.id, "approve");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ verified_at: formatIsoTime(at), active: true });
    t.clock.advance(60_000);
    expect((await adminAction(gus.id, "approve")).json.verified_at).toBe(formatIsoTime(at));
    expect(await lastEntry()).toMatchObject({ action: "user.approve", targetId: String(gus.id), via: "api" });
  });

  test("promote and demote set is_admin (the next request has the role or not), with audit entries", async () => {
    const hal = await person();
    expect((await t.call("GET", "/api/users/all", { token: hal.token })).status).toBe(403);
    expect((await t.services.userAdmin.promote(admin, hal.id, { via: "web", address: "192.0.2.1" })).is_admin).toBe(true);
    expect(await lastEntry()).toMatchObject({ actorId: t.users.admin.user.id, action: "user.promote", targetId: String(hal.id), via: "web", address: "192.0.2.1" });
    expect((await t.call("GET", "/api/users/all", { token: hal.token })).status).toBe(200);
    expect((await t.services.userAdmin.demote(admin, hal.id, { via: "web" })).is_admin).toBe(false);
    expect(await lastEntry()).toMatchObject({ action: "user.demote", targetId: String(hal.id), via: "web" });
    expect((await t.call("GET", "/api/users/all", { token: hal.token })).status).toBe(403);
  });
});

describe("GET /api/users/all", () => {
  /** Ids of the hits of GET /api/users/all?{query} as the administrator. */
  async function ids(query: string) {
    const res = await t.call("GET", `/api/users/all?${query}`, { as: "admin" });
    expectStatus(res, 200);
    return (res.json.hits.hits as { id: string }[]).map((h) => Number(h.id));
  }
  let set: { plain: number; inactive: number; blocked: number; verified: number; unconfirmed: number };
  let registered: number;

  beforeAll(async () => {
    const plain = await person("Quokka Plain");
    const inactive = await person("Quokka Inactive");
    const blocked = await person("Quokka Blocked");
    const verified = await person("Quokka Verified");
    await adminAction(inactive.id, "deactivate");
    await adminAction(blocked.id, "block");
    await adminAction(verified.id, "approve");
    t.clock.advance(1000);
    registered = t.clock.now();
    const unconfirmed = await t.services.users.registerUser({ email: "quokka-new@example.org", fullName: "Quokka Unconfirmed", confirmed: false });
    set = { plain: plain.id, inactive: inactive.id, blocked: blocked.id, verified: verified.id, unconfirmed: unconfirmed.id };
  });

  test("every account, newest first, with the account fields an administrator sees", async () => {
    const res = await t.call("GET", "/api/users/all?q=quokka", { as: "admin" });
    expectStatus(res, 200);
    expect(res.json.hits.total).toBe(5);
    expect(res.json.hits.hits.map((h: { id: string }) => Number(h.id))).toEqual([set.unconfirmed, set.verified, set.blocked, set.inactive, set.plain]);
    expect(res.json.hits.hits[0]).toEqual({
      id: String(set.unconfirmed),
      username: null,
      email: "quokka-new@example.org",
      profile: { full_name: "Quokka Unconfirmed", affiliations: "" },
      is_current_user: false,
      active: true,
      confirmed: false,
      created: formatIsoTime(registered),
      updated: formatIsoTime(registered),
      revision_id: 1,
      preferences: { visibility: t.config.ACCOUNTS_DEFAULT_USER_VISIBILITY, email_visibility: "restricted" },
      is_admin: false,
      blocked_at: null,
      verified_at: null,
      links: { self: `${BASE_URL}/api/users/${set.unconfirmed}`, avatar: `${BASE_URL}/api/users/${set.unconfirmed}/avatar.svg` },
    });
    expect(res.json.sortBy).toBe("newest");
  });

  test.each([
    ["is_active=true", ["unconfirmed", "verified", "plain"]],
    ["is_active=false", ["blocked", "inactive"]],
    ["is_blocked=true", ["blocked"]],
    ["is_blocked=false", ["unconfirmed", "verified", "inactive", "plain"]],
    ["is_verified=true", ["verified"]],
    ["is_verified=FALSE&is_active=true", ["unconfirmed", "plain"]],
  ] as const)("%s", async (filter, expected) => {
    expect(await ids(`q=quokka&${filter}`)).toEqual(expected.map((k) => set[k]));
  });

  test("q matches the e-mail, the username and the name", async () => {
    const plain = (await t.services.users.findUserById(set.plain))!;
    expect(await ids(`q=${plain.email}`)).toEqual([set.plain]);
    expect(await ids(`q=${plain.username}`)).toEqual([set.plain]);
    expect(await ids("q=quokka%20verified")).toEqual([set.verified]);
  });

  test("paging: size, page and the links carrying the filters", async () => {
    const res = await t.call("GET", "/api/users/all?q=quokka&is_blocked=false&size=2&page=2", { as: "admin" });
    expectStatus(res, 200);
    expect(res.json.hits.hits.map((h: { id: string }) => Number(h.id))).toEqual([set.inactive, set.plain]);
    expect(res.json.hits.total).toBe(4);
    const link = (page: number) => `${BASE_URL}/api/users/all?q=quokka&is_blocked=false&sort=newest&page=${page}&size=2`;
    expect(res.json.links).toEqual({ self: link(2), prev: link(1) });
    expect(await ids("q=quokka&sort=oldest&size=1")).toEqual([set.plain]);
  });

  test.each([
    ["is_active=yes", "is_active", "Must be true or false."],
    ["is_blocked=1", "is_blocked", "Must be true or false."],
    ["is_verified=maybe", "is_verified", "Must be true or false."],
    ["sort=age", "sort", "Must be one of: newest, oldest, username, email."],
  ])("400 for %s in the spec's error shape", async (query, field, message) => {
    const res = await t.call("GET", `/api/users/all?${query}`, { as: "admin" });
    expect({ status: res.status, body: res.json }).toEqual({
      status: 400,
      body: { status: 400, message: "Invalid querystring parameters.", errors: [{ field, messages: [message] }] },
    });
  });

  test("400 for a bad page size", async () => {
    const res = await t.call("GET", "/api/users/all?size=0", { as: "admin" });
    expect(res.json).toEqual({ status: 400, message: "Invalid pagination parameters.", errors: [{ field: "size", messages: ["Must be a whole number from 1 to 100."] }] });
  });
});
