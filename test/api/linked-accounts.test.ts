// Linked accounts (issue 31 items 1, 2 and 7), against `oidc-provider` on 127.0.0.1 and a real SMTP
// server: the settings page listing an account's identities; linking one more while signed in (a
// POST with the session's CSRF token; the pending sign-in bound to the browser and to the user who
// started it; refused for an identity another account has, a callback in another browser, a session
// changed meanwhile); unlinking (never the last way in, never another account's); and an existing
// account of the provider's address linked only once the person signs in to it with its password
// in the same browser. The same for a SAML IdP (samlify on 127.0.0.1, test/helpers/saml-idp.ts):
// Link → the IdP → the ACS → the one-use code brought back by the browser that started it, linked
// only to the person still signed in there; unlinked like any identity.
//
// Clock: as in oidc.test.ts, the ManualClock is set to Date.now() once (the provider stamps its
// tokens with the system's time); tests then move only the ManualClock.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sourceTitle } from "../../src/accounts/sources";
import type { Config } from "../../src/config";
import { systemActor, type Actor } from "../../src/core/actor";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";
import { startSamlIdp, type TestSamlIdp } from "../helpers/saml-idp";
import { cookieValue, raw } from "../helpers/sign-in";
import { startSmtp, type TestSmtp } from "../helpers/smtp";

const PATH = "/account/settings/linked-accounts";
const SECRET = "cairn-client-secret";
let op: TestOidcProvider;
let t: TestApp;
let smtp: TestSmtp;
let idp: TestSamlIdp;

beforeAll(async () => {
  smtp = await startSmtp();
  // The IdP's assertion times follow the app's ManualClock.
  idp = await startSamlIdp({ now: () => t.clock.now() } as unknown as Parameters<typeof startSamlIdp>[0]);
  op = await startOidcProvider([{ client_id: "cairn", client_secret: SECRET, redirect_uris: ["uni", "trusted"].map((name) => `${BASE_URL}/oauth/authorized/${name}`) }]);
  t = await createTestApp({
    ...smtp.config,
    OIDC_PROVIDERS: [
      { name: "uni", title: "University account", issuer: op.issuer, client_id: "cairn", client_secret: SECRET },
      { name: "trusted", title: "Trusted campus", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, trust_email: true },
    ],
    SAML_IDPS: [{ name: "shib", title: "Campus SSO", metadata_file: idp.metadataFile }],
  });
  idp.useSpMetadata("shib", (await raw(t, "GET", "/saml/metadata/shib")).text);
  t.clock.set(Date.now());
  for (const name of ["lena", "mia", "olga", "pia", "rita", "sam"]) {
    await t.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
  }
  op.people.set("nell-sub", { email: "nell@uni.example", email_verified: true, name: "Nell" });
  op.people.set("nell-uni-sub", { email: "nell@uni.example", email_verified: true, name: "Nell at uni" });
  op.people.set("lena-work-sub", { email: "lena.work@uni.example", email_verified: true, name: "Lena at work" });
  op.people.set("mallory-sub", { email: "mallory@uni.example", email_verified: true, name: "Mallory" });
  op.people.set("olga-sub", { email: "olga@example.org", email_verified: true, name: "Olga at the provider" });
  op.people.set("pia-sub", { email: "pia@example.org", email_verified: false, name: "Pia at the provider" });
});
afterAll(async () => {
  await t.close();
  await op.close();
  await smtp.stop();
  await idp.close();
});

const userByEmail = async (email: string) => (await t.services.users.findUserByEmail(systemActor, email))!;
const userOfSession = async (secret: string | undefined) => (secret ? ((await t.services.sessions.resolve(secret))?.actor.userId ?? null) : null);
const actorOf = (userId: number, isAdmin = false): Actor => ({ kind: "user", userId, isAdmin, groupIds: [], scopes: [], tokenId: null });
const identitiesOf = async (userId: number) => (await t.services.linkedAccounts.listLinkedAccounts(systemActor, userId)).identities.map((i) => `${i.provider}/${i.subject}`);
const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";

/** Signs in with a password: the session cookie. */
async function passwordSession(login: string, password: string): Promise<string> {
  const page = await raw(t, "GET", "/login");
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
  const res = await raw(t, "POST", "/login", { cookie: `cairn_login_csrf=${cookieValue(page.cookies, "cairn_login_csrf")}`, form: { csrf, login, password, next: "/" } });
  expect(res.status).toBe(303);
  return `cairn_session=${cookieValue(res.cookies, "cairn_session")}`;
}

/** The session's CSRF token, from the linked-accounts page's forms (the sign-out form at least). */
async function csrfOf(session: string): Promise<string> {
  const res = await raw(t, "GET", PATH, { cookie: session });
  expect(res.status).toBe(200);
  return /name="csrf" value="([^"]+)"/.exec(res.text)![1]!;
}

/** A whole provider sign-in (no session): the callback's answer and the session it set. */
async function providerSignIn(provider: string, login: string) {
  const start = await raw(t, "GET", `/oauth/login/${provider}`);
  const browser = cookieValue(start.cookies, "cairn_oauth")!;
  const back = await signInAtProvider(start.headers.get("location")!, login, `${BASE_URL}/oauth/authorized/${provider}`);
  const res = await raw(t, "GET", back.pathname + back.search, { cookie: `cairn_oauth=${browser}` });
  return { ...res, session: cookieValue(res.cookies, "cairn_session") };
}

/** "Link" pressed on the settings page by the person of `session`: the provider's authorization URL and the browser-binding cookie. */
async function startLink(session: string, provider: string) {
  const res = await raw(t, "GET", `${PATH}/link/${provider}?csrf=${encodeURIComponent(await csrfOf(session))}`, { cookie: session });
  expect(res.status).toBe(302);
  expect(res.headers.get("location")!.startsWith(`${op.issuer}/auth?`)).toBe(true);
  return { authorizationUrl: res.headers.get("location")!, browser: cookieValue(res.cookies, "cairn_oauth")! };
}

/** Starts a link, signs in at the provider as `login`: the callback URL. */
async function linkAtProvider(session: string, provider: string, login: string) {
  const started = await startLink(session, provider);
  const back = await signInAtProvider(started.authorizationUrl, login, `${BASE_URL}/oauth/authorized/${provider}`);
  return { ...started, back };
}

const callback = (back: URL, cookie: string) => raw(t, "GET", back.pathname + back.search, { cookie });

/** POST unlink from the page of `session`. */
async function unlink(session: string, provider: string, subject: string) {
  return raw(t, "POST", `${PATH}/unlink`, { cookie: session, form: { csrf: await csrfOf(session), provider, subject } });
}

describe("the names of sign-in sources (one function)", () => {
  test("an OIDC provider's title, a SAML IdP's (saml:{name}), the directory (ldap); a source no longer configured keeps its name", () => {
    const config = { ...t.services.deps.config, SAML_IDPS: [{ name: "shib", title: "Campus single sign-on" }] } as unknown as Config;
    expect(["uni", "saml:shib", "ldap", "gone", "saml:gone"].map((key) => sourceTitle(config, key))).toEqual([
      "University account",
      "Campus single sign-on",
      "Directory (LDAP)",
      "gone",
      "gone",
    ]);
  });
});

describe("the linked-accounts page", () => {
  test("a guest is sent to sign in (the page and its forms)", async () => {
    const page = await raw(t, "GET", PATH);
    expect({ status: page.status, location: page.headers.get("location") }).toEqual({ status: 303, location: "/login?next=%2Faccount%2Fsettings%2Flinked-accounts" });
    const posted = await raw(t, "POST", `${PATH}/unlink`, { form: { provider: "uni", subject: "x" } });
    expect(posted.status).toBe(303);
    const link = await raw(t, "GET", `${PATH}/link/uni?csrf=x`);
    expect({ status: link.status, location: link.headers.get("location"), cookie: cookieValue(link.cookies, "cairn_oauth") }).toEqual({
      status: 303,
      location: "/login?next=%2Faccount%2Fsettings%2Flinked-accounts",
      cookie: undefined,
    });
  });

  test("lists the account's identities (title, address given, linked on, last sign-in, Unlink) and a Link button per provider not linked", async () => {
    const created = t.clock.now();
    const first = await providerSignIn("trusted", "nell-sub");
    expect(first.status).toBe(303);
    t.clock.advance(3 * 60_000);
    const second = await providerSignIn("trusted", "nell-sub");
    const res = await raw(t, "GET", PATH, { cookie: `cairn_session=${second.session}` });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<a href="/account/settings/linked-accounts" aria-current="page">Linked accounts</a>');
    const row = /<tbody>(.*)<\/tbody>/s.exec(res.text)![1]!;
    expect(row).toContain(`<th scope="row">Trusted campus</th><td>nell@uni.example</td><td>${when(created)}</td><td>${when(t.clock.now())}</td>`);
    expect(row).toContain('<input type="hidden" name="provider" value="trusted"/><input type="hidden" name="subject" value="nell-sub"/>');
    expect(row).toContain('aria-label="Unlink Trusted campus"');
    expect(res.text).toMatch(/<a class="button secondary" href="\/account\/settings\/linked-accounts\/link\/uni\?csrf=[A-Za-z0-9_-]{20,}">Link University account<\/a>/);
    expect(res.text).toMatch(/<a class="button secondary" href="\/account\/settings\/linked-accounts\/link\/saml%3Ashib\?csrf=[A-Za-z0-9_-]{20,}">Link Campus SSO<\/a>/);
    expect(res.text).not.toContain("Link Trusted campus");
    expect(res.text).toContain("Your account has no password");
  });

  test("the service: the owner and administrators see an account's identities; anyone else 403, a guest 401", async () => {
    const nell = await userByEmail("nell@uni.example");
    const bob = t.users.bob.user.id;
    const own = await t.services.linkedAccounts.listLinkedAccounts(actorOf(nell.id), nell.id);
    expect(own.identities.map((i) => [i.provider, i.subject, i.title, i.email])).toEqual([["trusted", "nell-sub", "Trusted campus", "nell@uni.example"]]);
    expect(own.linkable).toEqual([
      { key: "uni", title: "University account" },
      { key: "saml:shib", title: "Campus SSO" },
    ]);
    expect(own.hasPassword).toBe(false);
    expect((await t.services.linkedAccounts.listLinkedAccounts(actorOf(t.users.admin.user.id, true), nell.id)).identities).toHaveLength(1);
    await expect(t.services.linkedAccounts.listLinkedAccounts(actorOf(bob), nell.id)).rejects.toMatchObject({ status: 403 });
    await expect(t.services.linkedAccounts.listLinkedAccounts({ kind: "anonymous" }, nell.id)).rejects.toMatchObject({ status: 401 });
  });
});

describe("linking one more while signed in", () => {
  test("Link → the provider → back: the identity is linked to the signed-in account (same session), then signs it in", async () => {
    const lena = await userByEmail("lena@example.org");
    const session = await passwordSession("lena", "lena-password");
    const { back, browser } = await linkAtProvider(session, "uni", "lena-work-sub");
    const res = await callback(back, `${session}; cairn_oauth=${browser}`);
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `${PATH}?linked=uni` });
    expect(cookieValue(res.cookies, "cairn_session")).toBeUndefined();
    expect(res.cookies).toContain("cairn_oauth=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(await identitiesOf(lena.id)).toEqual(["uni/lena-work-sub"]);
    const page = await raw(t, "GET", `${PATH}?linked=uni`, { cookie: session });
    expect(page.text).toContain('<p class="notice ok" role="status">Your University account is now linked: you can sign in with it.</p>');
    expect(page.text).toContain("lena.work@uni.example");
    expect(await userOfSession((await providerSignIn("uni", "lena-work-sub")).session)).toBe(lena.id);
  });

  test("an identity linked to another account already: 409, not moved", async () => {
    const lena = await userByEmail("lena@example.org");
    const session = await passwordSession("mia", "mia-password");
    const { back, browser } = await linkAtProvider(session, "uni", "lena-work-sub");
    const res = await callback(back, `${session}; cairn_oauth=${browser}`);
    expect(res.status).toBe(409);
    expect(res.text).toContain("This University account identity is linked to another account already.");
    expect(await identitiesOf((await userByEmail("mia@example.org")).id)).toEqual([]);
    expect(await identitiesOf(lena.id)).toEqual(["uni/lena-work-sub"]);
  });

  test("Link needs the session's CSRF token: another site cannot start linking its identity to the person signed in here", async () => {
    const session = await passwordSession("mia", "mia-password");
    for (const query of ["", "?csrf=", "?csrf=forged-token"]) {
      const res = await raw(t, "GET", `${PATH}/link/uni${query}`, { cookie: session });
      expect(res.status).toBe(403);
      expect(res.headers.get("location")).toBeNull();
      expect(cookieValue(res.cookies, "cairn_oauth")).toBeUndefined();
    }
  });

  test("a link's callback pushed into another browser (signed in as someone else) is refused and links nothing", async () => {
    const mallory = await passwordSession("mia", "mia-password");
    const victim = await passwordSession("lena", "lena-password");
    const { back, browser } = await linkAtProvider(mallory, "uni", "mallory-sub");
    const tokenRequests = op.state.tokenRequests;
    const res = await callback(back, victim);
    expect(res.status).toBe(400);
    expect(res.text).toContain("This sign-in was started in another browser");
    expect(op.state.tokenRequests).toBe(tokenRequests);
    // Spent: the browser that started it cannot finish it either.
    expect((await callback(back, `${mallory}; cairn_oauth=${browser}`)).status).toBe(400);
    expect(await identitiesOf((await userByEmail("lena@example.org")).id)).toEqual(["uni/lena-work-sub"]);
    expect(await identitiesOf((await userByEmail("mia@example.org")).id)).toEqual([]);
  });

  test("the session changed between Link and the return (someone else signed in, or signed out): 403, nothing linked, the provider never asked", async () => {
    const mia = await userByEmail("mia@example.org");
    const lena = await userByEmail("lena@example.org");
    for (const now of [() => passwordSession("lena", "lena-password"), async () => ""]) {
      const session = await passwordSession("mia", "mia-password");
      const { back, browser } = await linkAtProvider(session, "uni", "mallory-sub");
      const tokenRequests = op.state.tokenRequests;
      const other = await now();
      const res = await callback(back, `${other ? `${other}; ` : ""}cairn_oauth=${browser}`);
      expect(res.status).toBe(403);
      expect(res.text).toContain("You are no longer signed in as the person who started linking University account");
      expect(op.state.tokenRequests).toBe(tokenRequests);
    }
    expect(await identitiesOf(mia.id)).toEqual([]);
    expect(await identitiesOf(lena.id)).toEqual(["uni/lena-work-sub"]);
  });
});

describe("unlinking", () => {
  test("with a password: the identity is gone and no longer signs the account in", async () => {
    const lena = await userByEmail("lena@example.org");
    const session = await passwordSession("lena", "lena-password");
    const res = await unlink(session, "uni", "lena-work-sub");
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `${PATH}?unlinked=uni` });
    expect(await identitiesOf(lena.id)).toEqual([]);
    expect((await raw(t, "GET", `${PATH}?unlinked=uni`, { cookie: session })).text).toContain("University account is unlinked: it no longer signs you in.");
    const again = await providerSignIn("uni", "lena-work-sub");
    expect(again.session).toBeUndefined();
  });

  test("the last way in (no password, one identity) is refused with the reason; with a second identity either may go, the last one not", async () => {
    const nell = await userByEmail("nell@uni.example");
    const session = `cairn_session=${(await providerSignIn("trusted", "nell-sub")).session}`;
    const refused = await unlink(session, "trusted", "nell-sub");
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(
      "Trusted campus is the only way to sign in to this account (it has no password): link another account or set a password (Forgot your password? on the sign-in page) before unlinking it.",
    );
    expect(await identitiesOf(nell.id)).toEqual(["trusted/nell-sub"]);
    const { back, browser } = await linkAtProvider(session, "uni", "nell-uni-sub");
    expect((await callback(back, `${session}; cairn_oauth=${browser}`)).status).toBe(303);
    expect((await unlink(session, "trusted", "nell-sub")).status).toBe(303);
    expect(await identitiesOf(nell.id)).toEqual(["uni/nell-uni-sub"]);
    expect((await unlink(session, "uni", "nell-uni-sub")).status).toBe(409);
    expect(await identitiesOf(nell.id)).toEqual(["uni/nell-uni-sub"]);
  });

  test("another account's identity: 404 from one's own page, 403 from the service; an administrator passes (and still meets the last-way-in rule)", async () => {
    const nell = await userByEmail("nell@uni.example");
    const mia = await passwordSession("mia", "mia-password");
    const res = await unlink(mia, "uni", "nell-uni-sub");
    expect(res.status).toBe(404);
    expect(res.text).toContain("This account has no such linked account.");
    const miaId = (await userByEmail("mia@example.org")).id;
    await expect(t.services.linkedAccounts.unlinkIdentity(actorOf(miaId), nell.id, "uni", "nell-uni-sub")).rejects.toMatchObject({ status: 403 });
    await expect(t.services.linkedAccounts.unlinkIdentity(actorOf(t.users.admin.user.id, true), nell.id, "uni", "nell-uni-sub")).rejects.toMatchObject({ status: 409 });
    expect(await identitiesOf(nell.id)).toEqual(["uni/nell-uni-sub"]);
  });

  test("Unlink needs the session's CSRF token", async () => {
    const nell = await userByEmail("nell@uni.example");
    const session = `cairn_session=${(await providerSignIn("uni", "nell-uni-sub")).session}`;
    const res = await raw(t, "POST", `${PATH}/unlink`, { cookie: session, form: { provider: "uni", subject: "nell-uni-sub", csrf: "forged" } });
    expect(res.status).toBe(403);
    expect(await identitiesOf(nell.id)).toEqual(["uni/nell-uni-sub"]);
  });
});

describe("an existing account of the provider's address: sign in to it once to link", () => {
  /** The provider sign-in that ends on the pending-link page: its ticket cookie. */
  async function pendingLink(provider: string, login: string) {
    const res = await providerSignIn(provider, login);
    expect({ status: res.status, location: res.headers.get("location"), session: res.session }).toEqual({ status: 303, location: "/oauth/link", session: undefined });
    return cookieValue(res.cookies, "cairn_oauth_link")!;
  }

  /** The pending-link page's password form, posted in a browser with `cookie` (the ticket's, or none). */
  async function signInToLink(cookie: string, login: string, password: string) {
    const page = await raw(t, "GET", "/login");
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const guest = `cairn_login_csrf=${cookieValue(page.cookies, "cairn_login_csrf")}`;
    const res = await raw(t, "POST", "/login", { cookie: cookie ? `${guest}; ${cookie}` : guest, form: { csrf, login, password, next: PATH } });
    return { ...res, session: cookieValue(res.cookies, "cairn_session") };
  }

  test("the page asks for the password; signing in to that account in this browser links the identity, once", async () => {
    const olga = await userByEmail("olga@example.org");
    const ticket = await pendingLink("uni", "olga-sub");
    expect(await identitiesOf(olga.id)).toEqual([]);
    const page = await raw(t, "GET", "/oauth/link", { cookie: `cairn_oauth_link=${ticket}` });
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h1>An account with this address exists</h1>");
    expect(page.text).toContain("sign in to it with its password to link your University account.");
    expect(page.text).toContain('<form class="card" method="post" action="/login">');
    expect(page.text).toContain('name="login" type="text" autocomplete="username" required value="olga@example.org"');
    // The pending link is no e-mail step: it cannot be given another address.
    expect((await raw(t, "GET", "/oauth/signup/uni", { cookie: `cairn_oauth_signup=${ticket}` })).status).toBe(400);
    const res = await signInToLink(`cairn_oauth_link=${ticket}`, "olga@example.org", "olga-password");
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `${PATH}?linked=uni` });
    expect(res.cookies).toContain("cairn_oauth_link=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(await userOfSession(res.session)).toBe(olga.id);
    expect(await identitiesOf(olga.id)).toEqual(["uni/olga-sub"]);
    const notice = await raw(t, "GET", `${PATH}?linked=uni`, { cookie: `cairn_session=${res.session}` });
    expect(notice.text).toContain("Your University account is now linked: you can sign in with it.");
    expect(await userOfSession((await providerSignIn("uni", "olga-sub")).session)).toBe(olga.id);
    // One use: the ticket is spent.
    expect((await raw(t, "GET", "/oauth/link", { cookie: `cairn_oauth_link=${ticket}` })).status).toBe(400);
  });

  test("signed in from another browser (without the ticket), nothing is linked; the ticket expires in half an hour", async () => {
    const pia = await userByEmail("pia@example.org");
    const ticket = await pendingLink("trusted", "pia-sub");
    const elsewhere = await signInToLink("", "pia", "pia-password");
    expect({ status: elsewhere.status, location: elsewhere.headers.get("location") }).toEqual({ status: 303, location: PATH });
    expect(await identitiesOf(pia.id)).toEqual([]);
    t.clock.advance(30 * 60_000 + 1);
    try {
      expect((await raw(t, "GET", "/oauth/link", { cookie: `cairn_oauth_link=${ticket}` })).status).toBe(400);
      const late = await signInToLink(`cairn_oauth_link=${ticket}`, "pia", "pia-password");
      expect({ status: late.status, location: late.headers.get("location") }).toEqual({ status: 303, location: PATH });
      expect(await identitiesOf(pia.id)).toEqual([]);
    } finally {
      t.clock.set(Date.now());
    }
  });

  test("another account's password in that browser links nothing (the pending link is dropped, with a notice)", async () => {
    const pia = await userByEmail("pia@example.org");
    const mia = await userByEmail("mia@example.org");
    const ticket = await pendingLink("trusted", "pia-sub");
    const res = await signInToLink(`cairn_oauth_link=${ticket}`, "mia", "mia-password");
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `${PATH}?not-linked=trusted&why=other-address` });
    expect(res.cookies).toContain("cairn_oauth_link=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(await userOfSession(res.session)).toBe(mia.id);
    const page = await raw(t, "GET", `${PATH}?not-linked=trusted&why=other-address`, { cookie: `cairn_session=${res.session}` });
    expect(page.text).toContain(
      '<p class="notice error" role="alert">Your Trusted campus was not linked: you signed in to an account with another e-mail address than the one it gave.</p>',
    );
    expect(await identitiesOf(mia.id)).toEqual([]);
    // Dropped for good: Pia's own password afterwards (same browser, same ticket) links nothing either.
    expect((await signInToLink(`cairn_oauth_link=${ticket}`, "pia", "pia-password")).headers.get("location")).toBe(PATH);
    expect(await identitiesOf(pia.id)).toEqual([]);
  });

  test("an identity linked meanwhile to another account is not moved by the password sign-in (dropped, with a notice)", async () => {
    const pia = await userByEmail("pia@example.org");
    const mia = await userByEmail("mia@example.org");
    const ticket = await pendingLink("trusted", "pia-sub");
    const miaSession = await passwordSession("mia", "mia-password");
    const { back, browser } = await linkAtProvider(miaSession, "trusted", "pia-sub");
    expect((await callback(back, `${miaSession}; cairn_oauth=${browser}`)).status).toBe(303);
    const res = await signInToLink(`cairn_oauth_link=${ticket}`, "pia", "pia-password");
    expect(res.headers.get("location")).toBe(`${PATH}?not-linked=trusted&why=linked-elsewhere`);
    const page = await raw(t, "GET", res.headers.get("location")!, { cookie: `cairn_session=${res.session}` });
    expect(page.text).toContain("Your Trusted campus was not linked: it is linked to another account already.");
    expect(await identitiesOf(pia.id)).toEqual([]);
    expect(await identitiesOf(mia.id)).toEqual(["trusted/pia-sub"]);
  });

  test("a notice is named only for a configured source, never text from the URL", async () => {
    const session = await passwordSession("mia", "mia-password");
    const page = await raw(t, "GET", `${PATH}?linked=${encodeURIComponent("<b>Evil</b>")}&not-linked=nope`, { cookie: session });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Evil");
    expect(page.text).not.toContain("nope");
    expect(page.text).not.toContain('role="status"');
  });
});

describe("a SAML IdP: linking one more while signed in, and unlinking it", () => {
  const EPPN = "urn:oid:1.3.6.1.4.1.5923.1.1.1.6";
  const MAIL = "urn:oid:0.9.2342.19200300.100.1.3";
  /** A person at the IdP: eduPersonPrincipalName `{id}@uni.example` (the subject), mail `{id}.sso@uni.example`. */
  const samlPerson = (id: string) => ({ nameId: `${id}-persistent-id`, attributes: { [EPPN]: [`${id}@uni.example`], [MAIL]: [`${id}.sso@uni.example`] } });

  /** "Link Campus SSO" pressed on the settings page of `session`: the AuthnRequest samlify read and the browser-binding cookie. */
  async function startSamlLink(session: string) {
    const res = await raw(t, "GET", `${PATH}/link/saml%3Ashib?csrf=${encodeURIComponent(await csrfOf(session))}`, { cookie: session });
    expect(res.status).toBe(302);
    const url = res.headers.get("location")!;
    expect(url.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    return { request: await idp.parseRequest(url, "shib"), browser: cookieValue(res.cookies, "cairn_saml")! };
  }

  /** The IdP's page posts its response to the ACS (cross-site: no cookies): the way back with the one-use code. */
  async function acs(requestId: string, who: ReturnType<typeof samlPerson>) {
    const res = await raw(t, "POST", "/saml/authorized/shib", { form: { SAMLResponse: await idp.respond(requestId, who, {}, "shib") } });
    expect(res.status).toBe(303);
    return res.headers.get("location")!;
  }

  /** Link started by `session`, the IdP signing in `who`: the code's URL and the browser cookie. */
  async function linkAtIdp(session: string, who: ReturnType<typeof samlPerson>) {
    const { request, browser } = await startSamlLink(session);
    return { back: await acs(request.id, who), browser };
  }

  /** A plain SAML sign-in (no session) as `who`: the answer and the session it set. */
  async function samlSignIn(who: ReturnType<typeof samlPerson>) {
    const start = await raw(t, "GET", "/saml/login/shib");
    const { id } = await idp.parseRequest(start.headers.get("location")!, "shib");
    const res = await raw(t, "GET", await acs(id, who), { cookie: `cairn_saml=${cookieValue(start.cookies, "cairn_saml")}` });
    return { ...res, session: cookieValue(res.cookies, "cairn_session") };
  }

  test("the page's Link → the IdP → the ACS → back: linked to the signed-in account, the session unchanged; the identity then signs it in", async () => {
    const rita = await userByEmail("rita@example.org");
    const session = await passwordSession("rita", "rita-password");
    const { back, browser } = await linkAtIdp(session, samlPerson("rita"));
    expect(back.startsWith("/saml/authorized/shib?code=")).toBe(true);
    const res = await raw(t, "GET", back, { cookie: `${session}; cairn_saml=${browser}` });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `${PATH}?linked=saml%3Ashib` });
    expect(cookieValue(res.cookies, "cairn_session")).toBeUndefined();
    expect(res.cookies).toContain("cairn_saml=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(await userOfSession(session.slice("cairn_session=".length))).toBe(rita.id);
    expect(await identitiesOf(rita.id)).toEqual(["saml:shib/rita@uni.example"]);
    const page = await raw(t, "GET", res.headers.get("location")!, { cookie: session });
    expect(page.text).toContain('<p class="notice ok" role="status">Your Campus SSO is now linked: you can sign in with it.</p>');
    expect(page.text).toContain('<th scope="row">Campus SSO</th><td>rita.sso@uni.example</td>');
    expect(page.text).not.toContain("Link Campus SSO");
    const signedIn = await samlSignIn(samlPerson("rita"));
    expect(signedIn.status).toBe(303);
    expect(await userOfSession(signedIn.session)).toBe(rita.id);
  });

  test("an identity linked to another account already: 409, not moved", async () => {
    const session = await passwordSession("sam", "sam-password");
    const { back, browser } = await linkAtIdp(session, samlPerson("rita"));
    const res = await raw(t, "GET", back, { cookie: `${session}; cairn_saml=${browser}` });
    expect(res.status).toBe(409);
    expect(res.text).toContain("This Campus SSO identity is linked to another account already.");
    expect(await identitiesOf((await userByEmail("sam@example.org")).id)).toEqual([]);
    expect(await identitiesOf((await userByEmail("rita@example.org")).id)).toEqual(["saml:shib/rita@uni.example"]);
  });

  test("Link needs the session's CSRF token: no request is made, no cookie set", async () => {
    const session = await passwordSession("sam", "sam-password");
    for (const query of ["", "?csrf=", "?csrf=forged-token"]) {
      const res = await raw(t, "GET", `${PATH}/link/saml%3Ashib${query}`, { cookie: session });
      expect(res.status).toBe(403);
      expect(res.headers.get("location")).toBeNull();
      expect(cookieValue(res.cookies, "cairn_saml")).toBeUndefined();
    }
  });

  test("signed out, or someone else signed in, at the return: 403, nothing linked, nobody signed in", async () => {
    const sam = await userByEmail("sam@example.org");
    const lena = await userByEmail("lena@example.org");
    const before = await identitiesOf(lena.id);
    for (const now of [() => passwordSession("lena", "lena-password"), async () => ""]) {
      const session = await passwordSession("sam", "sam-password");
      const { back, browser } = await linkAtIdp(session, samlPerson("sam"));
      const other = await now();
      const res = await raw(t, "GET", back, { cookie: `${other ? `${other}; ` : ""}cairn_saml=${browser}` });
      expect(res.status).toBe(403);
      expect(res.text).toContain("You are no longer signed in as the person who started linking Campus SSO");
      expect(cookieValue(res.cookies, "cairn_session")).toBeUndefined();
      // The request is spent: signing in again as the one who started it does not finish it.
      expect((await raw(t, "GET", back, { cookie: `${session}; cairn_saml=${browser}` })).status).toBe(400);
    }
    expect(await identitiesOf(sam.id)).toEqual([]);
    expect(await identitiesOf(lena.id)).toEqual(before);
  });

  test("the code brought back in another browser (signed in as someone else, with or without a SAML cookie of its own): refused, nothing linked", async () => {
    const sam = await userByEmail("sam@example.org");
    const lena = await userByEmail("lena@example.org");
    const before = await identitiesOf(lena.id);
    const mallory = await passwordSession("sam", "sam-password");
    const victim = await passwordSession("lena", "lena-password");
    const { back, browser } = await linkAtIdp(mallory, samlPerson("mallory"));
    const victimsOwn = (await startSamlLink(victim)).browser;
    for (const cookie of [victim, `${victim}; cairn_saml=${victimsOwn}`]) {
      const res = await raw(t, "GET", back, { cookie });
      expect(res.status).toBe(400);
      expect(res.text).toContain("This sign-in was started in another browser");
    }
    expect(await identitiesOf(lena.id)).toEqual(before);
    expect(await identitiesOf(sam.id)).toEqual([]);
    // The browser that started it still can (the other browser could not spend it).
    expect((await raw(t, "GET", back, { cookie: `${mallory}; cairn_saml=${browser}` })).status).toBe(303);
    expect(await identitiesOf(sam.id)).toEqual(["saml:shib/mallory@uni.example"]);
  });

  test("unlinking a SAML identity: done with a password (it no longer signs in there); the last way in is refused", async () => {
    const rita = await userByEmail("rita@example.org");
    const session = await passwordSession("rita", "rita-password");
    const res = await unlink(session, "saml:shib", "rita@uni.example");
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `${PATH}?unlinked=saml%3Ashib` });
    expect(await identitiesOf(rita.id)).toEqual([]);
    expect((await raw(t, "GET", res.headers.get("location")!, { cookie: session })).text).toContain("Campus SSO is unlinked: it no longer signs you in.");
    expect(await userOfSession((await samlSignIn(samlPerson("rita"))).session)).not.toBe(rita.id);
    // An account made by a SAML sign-in has no password: its one identity cannot go.
    const made = await samlSignIn(samlPerson("quinn"));
    const quinn = await userByEmail("quinn.sso@uni.example");
    expect(await userOfSession(made.session)).toBe(quinn.id);
    const refused = await unlink(`cairn_session=${made.session}`, "saml:shib", "quinn@uni.example");
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("Campus SSO is the only way to sign in to this account (it has no password)");
    expect(await identitiesOf(quinn.id)).toEqual(["saml:shib/quinn@uni.example"]);
  });
});
