// Signing in through an OpenID Connect provider (issue 31 item 2), against `oidc-provider` run on
// 127.0.0.1 by the test: the flow from /oauth/login/{name} through the provider's own login page
// back to /oauth/authorized/{name}; accounts made, reused and linked (only with trust_email; an
// untrusted provider's new address proved by a mailed link first, an existing account's address
// sent to sign in to it: linked-accounts.test.ts); and every refusal (bad, replayed, expired or
// foreign state; an ID token for another audience, expired, badly signed or with another nonce; a
// deactivated account) a 4xx page with no session.
//
// Clock: oidc-provider stamps its tokens with the system's time and Cairn judges them by its own
// clock, so the app's ManualClock is set once to Date.now() at the start; tests then move only the
// ManualClock (never sleep) to make an ID token or a pending sign-in expire.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig, ConfigError } from "../../src/config";
import { systemActor } from "../../src/core/actor";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";
import { cookieValue, raw } from "../helpers/sign-in";
import { linkIn, startSmtp, type TestSmtp } from "../helpers/smtp";

let op: TestOidcProvider;
let t: TestApp;
let smtp: TestSmtp;
const SECRET = "cairn-client-secret";

/** The providers, all played by the one oidc-provider. */
const providers = () => [
  { name: "uni", title: "University account", issuer: op.issuer, client_id: "cairn", client_secret: SECRET },
  { name: "trusted", title: "Trusted campus", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, trust_email: true },
  // ORCID's part played by the same provider: a subject that is an ORCID iD, a name, no e-mail.
  { name: "orcid", title: "ORCID", type: "orcid", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, scopes: ["openid", "profile"] },
];

beforeAll(async () => {
  smtp = await startSmtp();
  op = await startOidcProvider([
    {
      client_id: "cairn",
      client_secret: SECRET,
      redirect_uris: ["uni", "trusted", "orcid"].map((name) => `${BASE_URL}/oauth/authorized/${name}`),
    },
  ]);
  t = await createTestApp({ ...smtp.config, OIDC_PROVIDERS: providers() });
  t.clock.set(Date.now());
  op.people.set("ada-sub", { email: "ada@uni.example", email_verified: true, name: "Ada Lovelace" });
  op.people.set("bea-sub", { email: "bea@uni.example", email_verified: false, name: "Bea Unverified" });
  op.people.set("alice-sub", { email: "alice@example.org", email_verified: true, name: "Alice at the provider" });
  op.people.set("alice-unverified-sub", { email: "alice@example.org", email_verified: false, name: "Not Alice" });
  op.people.set("carl-sub", { email: "carl@uni.example", email_verified: true, name: "Carl" });
});
afterAll(async () => {
  await t.close();
  await op.close();
  await smtp.stop();
});

/** Delivers the outbox to the test SMTP server; the messages it received for `to`. */
async function mailTo(to: string) {
  await t.services.mail.deliverPending();
  return smtp.to(to);
}

/** GET /oauth/login/{provider}: the redirect to the provider and the browser-binding cookie. */
async function begin(provider: string, next?: string) {
  const res = await raw(t, "GET", `/oauth/login/${provider}${next === undefined ? "" : `?next=${encodeURIComponent(next)}`}`);
  expect(res.status).toBe(302);
  return { authorizationUrl: new URL(res.headers.get("location")!), browser: cookieValue(res.cookies, "cairn_oauth")! };
}

/** Begins, signs in at the provider as `login`: the URL the provider sends the browser back to. */
async function atProvider(provider: string, login: string, next?: string) {
  const started = await begin(provider, next);
  const back = await signInAtProvider(started.authorizationUrl.href, login, `${BASE_URL}/oauth/authorized/${provider}`);
  return { ...started, back };
}

/** The browser comes back to Cairn (with its binding cookie unless `browser` is null). */
async function callback(back: URL, browser: string | null) {
  const res = await raw(t, "GET", back.pathname + back.search, browser === null ? {} : { cookie: `cairn_oauth=${browser}` });
  return { ...res, session: cookieValue(res.cookies, "cairn_session") };
}

/** The whole sign-in; the answer of the callback. */
async function signIn(provider: string, login: string, next?: string) {
  const { back, browser } = await atProvider(provider, login, next);
  return callback(back, browser);
}

/** Opens the mailed link's page and presses its button, in the browser holding `ticket` (the sign-in's cookie; null: another browser). */
async function useLink(link: string, ticket: string | null) {
  const url = new URL(link);
  const page = await raw(t, "GET", url.pathname + url.search);
  expect(page.status).toBe(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
  const res = await raw(t, "POST", "/oauth/confirm", {
    cookie: `cairn_login_csrf=${cookieValue(page.cookies, "cairn_login_csrf")}${ticket ? `; cairn_oauth_signup=${ticket}` : ""}`,
    form: { csrf, token: url.searchParams.get("token")! },
  });
  return { ...res, session: cookieValue(res.cookies, "cairn_session") };
}

const userOfSession = async (secret: string | undefined) => (secret ? ((await t.services.sessions.resolve(secret))?.actor.userId ?? null) : null);
const userByEmail = (email: string) => t.services.users.findUserByEmail(systemActor, email);

describe("the sign-in flow", () => {
  test("/login shows a button per provider with its title, keeping next", async () => {
    const res = await raw(t, "GET", "/login?next=/me/uploads");
    expect(res.status).toBe(200);
    expect(res.text).toContain('<a class="button" href="/oauth/login/uni?next=%2Fme%2Fuploads">Sign in with University account</a>');
    expect(res.text).toContain('<a class="button" href="/oauth/login/trusted?next=%2Fme%2Fuploads">Sign in with Trusted campus</a>');
  });

  test("the redirect to the provider: code flow, PKCE S256, state, nonce, the registered redirect URI; a cookie binds the browser", async () => {
    const { authorizationUrl, browser } = await begin("uni");
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${op.issuer}/auth`);
    const q = authorizationUrl.searchParams;
    expect(Object.fromEntries([...q].filter(([k]) => !["state", "nonce", "code_challenge"].includes(k)))).toEqual({
      client_id: "cairn",
      redirect_uri: `${BASE_URL}/oauth/authorized/uni`,
      response_type: "code",
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    expect(q.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(browser).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("an unknown provider is a 404 page", async () => {
    const res = await raw(t, "GET", "/oauth/login/nope");
    expect(res.status).toBe(404);
    expect(res.text).toContain("There is no sign-in provider");
  });

  test("a first sign-in (trusted provider, verified e-mail) makes a confirmed account and signs it in at next", async () => {
    const res = await signIn("trusted", "ada-sub", "/me/uploads?page=2");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/me/uploads?page=2");
    const ada = await userByEmail("ada@uni.example");
    expect(ada).toMatchObject({ email: "ada@uni.example", fullName: "Ada Lovelace", passwordHash: null, active: true, isAdmin: false });
    expect(ada!.confirmedAt).toBe(t.clock.now());
    expect(await userOfSession(res.session)).toBe(ada!.id);
    expect(res.cookies).toContain("cairn_oauth=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    // The sign-in history names the provider (the session is opened in one place for every way in).
    expect((await t.services.sessions.listSignIns(systemActor, ada!.id)).map((s) => [s.method, s.at])).toEqual([["trusted", t.clock.now()]]);
  });

  test("a second sign-in reuses the account, with a new session; the browser's old session ends", async () => {
    const ada = (await userByEmail("ada@uni.example"))!;
    const first = await signIn("trusted", "ada-sub");
    const { back, browser } = await atProvider("trusted", "ada-sub");
    const second = await raw(t, "GET", back.pathname + back.search, { cookie: `cairn_oauth=${browser}; cairn_session=${first.session}` });
    expect(second.status).toBe(303);
    const secret = cookieValue(second.cookies, "cairn_session");
    expect(secret).not.toBe(first.session);
    expect(await userOfSession(secret)).toBe(ada.id);
    expect(await userOfSession(first.session)).toBeNull();
    expect((await t.services.users.listUsers(systemActor)).filter((u) => u.email === "ada@uni.example")).toHaveLength(1);
  });

  test("next= pointing at another site is ignored: the person lands on /", async () => {
    for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      const res = await signIn("trusted", "ada-sub", next);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/");
    }
  });

  test("an untrusted provider's new person: nothing is made; the link mailed at once ('check your mail', no form), opened in this browser, makes the account", async () => {
    const res = await signIn("uni", "carl-sub", "/me/uploads");
    expect(res.status).toBe(200);
    expect(res.text).toContain("<h1>Check your mail</h1>");
    expect(res.text).toContain("<strong>carl@uni.example</strong>");
    expect(res.text).not.toContain("<form");
    expect(res.session).toBeUndefined();
    expect(res.cookies).toContain("cairn_oauth=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    const ticket = cookieValue(res.cookies, "cairn_oauth_signup")!;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await userByEmail("carl@uni.example")).toBeNull();
    const mail = await mailTo("carl@uni.example");
    expect(mail.map((m) => m.subject)).toEqual(["Cairn: confirm your e-mail address"]);
    expect(mail[0]!.text).toContain("signed in to Cairn with University account (which gave this e-mail address)");
    const link = linkIn(mail[0]!, BASE_URL, "/oauth/confirm");
    // The mailbox's owner opening it in another browser makes nothing.
    const elsewhere = await useLink(link, null);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.session).toBeUndefined();
    expect(await userByEmail("carl@uni.example")).toBeNull();
    const done = await useLink(link, ticket);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/me/uploads");
    const carl = (await userByEmail("carl@uni.example"))!;
    expect(carl).toMatchObject({ fullName: "Carl", passwordHash: null, confirmedAt: t.clock.now() });
    expect(await userOfSession(done.session)).toBe(carl.id);
    const again = await signIn("uni", "carl-sub");
    expect(again.status).toBe(303);
    expect(await userOfSession(again.session)).toBe(carl.id);
  });
});

/** The callback sent the browser to sign in to the account of the provider's address: no session, a pending-link cookie. */
function expectPendingLink(res: Awaited<ReturnType<typeof signIn>>) {
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/oauth/link");
  expect(cookieValue(res.cookies, "cairn_oauth_link")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(res.session).toBeUndefined();
}

describe("an existing local account with the same e-mail", () => {
  test("is not linked by a provider without trust_email: the person is asked to sign in to it with its password (no identity, no session)", async () => {
    expectPendingLink(await signIn("uni", "alice-sub"));
    // Still not linked: the same person is asked again.
    expectPendingLink(await signIn("uni", "alice-sub"));
  });

  test("is not linked by a trusted provider that does not say the address is verified", async () => {
    expectPendingLink(await signIn("trusted", "alice-unverified-sub"));
  });

  test("is linked by a trusted provider with a verified address: the person signs in as that account", async () => {
    const res = await signIn("trusted", "alice-sub");
    expect(res.status).toBe(303);
    expect(await userOfSession(res.session)).toBe(t.users.alice.user.id);
    expect((await userByEmail("alice@example.org"))!.fullName).toBe("");
  });

  test("an unconfirmed local account is never linked, even by a trusted provider (it may be a squatter's, who knows its password)", async () => {
    const eve = await t.services.users.registerUser({ email: "eve@uni.example", password: "squatter-password", confirmed: false });
    op.people.set("eve-sub", { email: "eve@uni.example", email_verified: true, name: "Eve" });
    expectPendingLink(await signIn("trusted", "eve-sub"));
    expect((await t.services.users.findUserById(eve.id))!.confirmedAt).toBeNull();
  });

  test("a deactivated account cannot sign in this way", async () => {
    const dora = await t.services.users.createUser(systemActor, { email: "dora@uni.example", username: "dora" });
    op.people.set("dora-sub", { email: "dora@uni.example", email_verified: true, name: "Dora" });
    expect((await signIn("trusted", "dora-sub")).status).toBe(303);
    await t.services.deps.db.statements.run("UPDATE users SET active = 0 WHERE id = ?", [dora.id]);
    const res = await signIn("trusted", "dora-sub");
    expect(res.status).toBe(403);
    expect(res.text).toContain("This account is deactivated");
    expect(res.session).toBeUndefined();
  });
});

describe("refused callbacks: a 4xx page and no session", () => {
  test("an unknown, missing or other provider's state", async () => {
    const { back, browser } = await atProvider("trusted", "ada-sub");
    const tokenRequests = op.state.tokenRequests;
    const forged = new URL(back);
    forged.searchParams.set("state", "x".repeat(43));
    const missing = new URL(back);
    missing.searchParams.delete("state");
    const otherProvider = new URL(back.href.replace("/oauth/authorized/trusted", "/oauth/authorized/uni"));
    for (const url of [forged, missing, otherProvider]) {
      const res = await callback(url, browser);
      expect(res.status).toBe(400);
      expect(res.text).toContain("This sign-in is unknown, was finished already or took too long");
      expect(res.session).toBeUndefined();
    }
    expect(op.state.tokenRequests).toBe(tokenRequests);
    // The genuine callback still works: none of the above spent it.
    expect((await callback(back, browser)).status).toBe(303);
  });

  test("a callback without the cookie of the browser that started it (login CSRF), which also spends it", async () => {
    for (const cookie of [null, "y".repeat(43)]) {
      const { back, browser } = await atProvider("trusted", "ada-sub");
      const tokenRequests = op.state.tokenRequests;
      const res = await callback(back, cookie);
      expect(res.status).toBe(400);
      expect(res.text).toContain("This sign-in was started in another browser");
      expect(res.session).toBeUndefined();
      expect(op.state.tokenRequests).toBe(tokenRequests);
      // An attacker's sign-in pushed into a victim's browser is gone: the right browser cannot finish it either.
      expect((await callback(back, browser)).status).toBe(400);
    }
  });

  test("a malformed cookie is no cookie: 400, never a 500", async () => {
    const { back } = await atProvider("trusted", "ada-sub");
    const res = await raw(t, "GET", back.pathname + back.search, { cookie: "cairn_oauth=%E0%A4%A; cairn_session=%E0" });
    expect(res.status).toBe(400);
    expect(res.text).toContain("This sign-in was started in another browser");
  });

  test("a replayed callback (the same code and state again) never reaches the provider", async () => {
    const { back, browser } = await atProvider("trusted", "ada-sub");
    expect((await callback(back, browser)).status).toBe(303);
    const tokenRequests = op.state.tokenRequests;
    const again = await callback(back, browser);
    expect(again.status).toBe(400);
    expect(again.text).toContain("This sign-in is unknown, was finished already or took too long");
    expect(again.session).toBeUndefined();
    expect(op.state.tokenRequests).toBe(tokenRequests);
  });

  test("a code replayed into another pending sign-in is refused by the provider (PKCE, one-use code)", async () => {
    const used = await atProvider("trusted", "ada-sub");
    expect((await callback(used.back, used.browser)).status).toBe(303);
    const fresh = await begin("trusted");
    const replay = new URL(used.back);
    replay.searchParams.set("state", fresh.authorizationUrl.searchParams.get("state")!);
    const res = await callback(replay, fresh.browser);
    expect(res.status).toBe(400);
    expect(res.text).toContain("did not sign you in: it answered invalid_grant");
    expect(res.session).toBeUndefined();
  });

  test("a pending sign-in older than ten minutes", async () => {
    const { back, browser } = await atProvider("trusted", "ada-sub");
    t.clock.advance(10 * 60_000 + 1);
    const res = await callback(back, browser);
    t.clock.set(Date.now());
    expect(res.status).toBe(400);
    expect(res.text).toContain("took too long");
    expect(res.session).toBeUndefined();
  });

  test("the provider's own refusal (error=access_denied) is a 400 page", async () => {
    const { authorizationUrl, browser } = await begin("trusted");
    const back = new URL(`${BASE_URL}/oauth/authorized/trusted`);
    back.searchParams.set("error", "access_denied");
    back.searchParams.set("state", authorizationUrl.searchParams.get("state")!);
    back.searchParams.set("iss", op.issuer);
    const res = await callback(back, browser);
    expect(res.status).toBe(400);
    expect(res.text).toContain("did not sign you in: it answered access_denied");
    expect(res.session).toBeUndefined();
  });

  const tampered: [string, (idToken: string) => string | Promise<string>, string][] = [
    ["an ID token for another client (aud)", (tok) => op.resign(tok, (c) => (c.aud = "another-client")), "aud"],
    ["an ID token with one byte of its signature changed", (tok) => op.breakSignature(tok), "signature"],
    ["an ID token with another nonce", (tok) => op.resign(tok, (c) => (c.nonce = "someone-elses-nonce")), "nonce"],
    ["an ID token from another issuer", (tok) => op.resign(tok, (c) => (c.iss = "http://127.0.0.1:1")), "iss"],
  ];
  for (const [name, tamper, word] of tampered) {
    test(name, async () => {
      const { back, browser } = await atProvider("trusted", "ada-sub");
      op.state.tamper = tamper;
      try {
        const res = await callback(back, browser);
        expect(res.status).toBe(400);
        expect(res.text).toContain("did not sign you in: its answer did not pass the checks");
        expect(res.text).toContain(word);
        expect(res.session).toBeUndefined();
      } finally {
        op.state.tamper = null;
      }
    });
  }

  test("an expired ID token (issued for a minute, judged five minutes later by Cairn's clock)", async () => {
    op.state.idTokenTtl = 60;
    try {
      const { back, browser } = await atProvider("trusted", "ada-sub");
      t.clock.advance(5 * 60_000);
      const res = await callback(back, browser);
      expect(res.status).toBe(400);
      expect(res.text).toContain("exp");
      expect(res.session).toBeUndefined();
    } finally {
      op.state.idTokenTtl = 3600;
      t.clock.set(Date.now());
    }
  });
});

describe("OIDC_PROVIDERS configuration", () => {
  const load = (providers: unknown) => () => loadConfig({ flags: { DATA_DIR: "/tmp/cairn-oidc-config", HTTP: true, OIDC_PROVIDERS: providers }, env: {} });
  const good = { name: "uni", issuer: "https://login.uni.example/realms/staff", client_id: "cairn", client_secret: "s" };

  test("a TOML-like array and an environment JSON string are read alike, with defaults", () => {
    const expected = [
      {
        name: "uni",
        title: "uni",
        issuer: "https://login.uni.example/realms/staff",
        clientId: "cairn",
        clientSecret: "s",
        scopes: ["openid", "email", "profile"],
        claims: { email: "email", name: "name", affiliation: "affiliation", groups: "groups" },
        trustEmail: false,
        syncGroups: false,
        type: "oidc" as const,
      },
    ];
    expect(load([good])().OIDC_PROVIDERS).toEqual(expected);
    const fromEnv = loadConfig({ flags: { DATA_DIR: "/tmp/cairn-oidc-config", HTTP: true }, env: { CAIRN_OIDC_PROVIDERS: JSON.stringify([good]) } });
    expect(fromEnv.OIDC_PROVIDERS).toEqual(expected);
  });

  const bad: [string, unknown, string][] = [
    ["a missing issuer", [{ ...good, issuer: undefined }], "OIDC_PROVIDERS from the command line: provider 'uni': issuer is required"],
    ["a missing client_id", [{ ...good, client_id: undefined }], "provider 'uni': client_id is required"],
    ["a missing name", [{ ...good, name: undefined }], "provider 1: name is required"],
    ["a name that is not [a-z0-9-]", [{ ...good, name: "Uni_1" }], "provider 'Uni_1': name must be 1-40 of a-z, 0-9 and -"],
    ["a duplicate name", [good, { ...good }], "provider 'uni': name is used by another provider"],
    ["an http issuer elsewhere than loopback", [{ ...good, issuer: "http://login.uni.example" }], "issuer must use https://"],
    ["an unknown type", [{ ...good, type: "saml" }], "type must be oidc or orcid"],
    ["scopes without openid", [{ ...good, scopes: ["email"] }], "scopes must include openid"],
    ["an unknown field", [{ ...good, secret: "x" }], "secret is not a known field"],
    ["not an array", { name: "uni" }, "expected an array of tables"],
  ];
  for (const [name, value, message] of bad) {
    test(`${name} stops the start with a ConfigError naming it`, () => {
      expect(load(value)).toThrow(ConfigError);
      expect(load(value)).toThrow(message);
    });
  }

  test("the error never shows the client secret", () => {
    expect(load([{ ...good, client_secret: "top-secret-value", issuer: "ftp://x" }])).not.toThrow("top-secret-value");
  });
});

describe("ORCID (type orcid): no e-mail from the provider, so the person gives one and proves it", () => {
  const ORCID = "0000-0002-1825-0097";
  const JOSIAH = "josiah@uni.example";
  let ticket = "";

  /** GET /oauth/signup/orcid with the ticket cookie: the form's guest CSRF pair. */
  async function emailForm(cookie: string) {
    const res = await raw(t, "GET", "/oauth/signup/orcid", { cookie: `cairn_oauth_signup=${cookie}` });
    return { ...res, csrf: /name="csrf" value="([^"]+)"/.exec(res.text)?.[1] ?? "", csrfCookie: cookieValue(res.cookies, "cairn_login_csrf") ?? "" };
  }
  const postEmail = (cookie: string, form: { csrf: string; csrfCookie: string }, email: string) =>
    raw(t, "POST", "/oauth/signup/orcid", { cookie: `cairn_oauth_signup=${cookie}; cairn_login_csrf=${form.csrfCookie}`, form: { csrf: form.csrf, email } });

  test("the first sign-in asks for an address: no account, no session yet", async () => {
    op.people.set(ORCID, { name: "Josiah Carberry" });
    const res = await signIn("orcid", ORCID, "/me/uploads");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/oauth/signup/orcid");
    expect(res.session).toBeUndefined();
    ticket = cookieValue(res.cookies, "cairn_oauth_signup")!;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const form = await emailForm(ticket);
    expect(form.status).toBe(200);
    expect(form.text).toContain("Welcome, Josiah Carberry.");
    expect((await emailForm("z".repeat(43))).status).toBe(400);
  });

  test("the address gets a one-use link; only the link makes the account, confirmed, with the ORCID iD, and signs it in", async () => {
    const form = await emailForm(ticket);
    const sent = await postEmail(ticket, form, JOSIAH);
    expect(sent.status).toBe(200);
    expect(sent.text).toContain(JOSIAH);
    expect(await userByEmail(JOSIAH)).toBeNull();
    // The ticket gave its one address: it gives no other.
    expect((await postEmail(ticket, form, "other@uni.example")).status).toBe(400);
    const mail = await mailTo(JOSIAH);
    expect(mail).toHaveLength(1);
    const link = linkIn(mail[0]!, BASE_URL, "/oauth/confirm");
    // Opened anywhere but the browser that signed in with ORCID (the mailbox's owner clicking it,
    // say), it does nothing: a 403, no account, and the link still works where it should.
    const elsewhere = await useLink(link, null);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.session).toBeUndefined();
    expect(await userByEmail(JOSIAH)).toBeNull();
    expect((await useLink(link, "y".repeat(43))).status).toBe(403);
    const done = await useLink(link, ticket);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/me/uploads");
    const josiah = (await userByEmail(JOSIAH))!;
    expect(josiah).toMatchObject({ email: JOSIAH, fullName: "Josiah Carberry", orcid: ORCID, passwordHash: null });
    expect(josiah.confirmedAt).toBe(t.clock.now());
    expect(await userOfSession(done.session)).toBe(josiah.id);
    // The link works once.
    const url = new URL(link);
    expect((await raw(t, "GET", url.pathname + url.search)).status).toBe(410);
  });

  test("the next ORCID sign-in goes straight in", async () => {
    const res = await signIn("orcid", ORCID);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    expect(await userOfSession(res.session)).toBe((await userByEmail(JOSIAH))!.id);
  });

  test("an address that has a confirmed account links the ORCID identity to it once the link proves the mailbox", async () => {
    const orcid = "0000-0001-5109-3700";
    op.people.set(orcid, { name: "Bob at ORCID" });
    const first = await signIn("orcid", orcid);
    const cookie = cookieValue(first.cookies, "cairn_oauth_signup")!;
    expect((await postEmail(cookie, await emailForm(cookie), "bob@example.org")).status).toBe(200);
    const link = linkIn((await mailTo("bob@example.org")).at(-1)!, BASE_URL, "/oauth/confirm");
    // Bob opening the mail in his own browser must not link a stranger's ORCID to his account.
    expect((await useLink(link, null)).status).toBe(403);
    expect(await userOfSession((await signIn("orcid", orcid)).session)).toBeNull();
    const done = await useLink(link, cookie);
    expect(done.status).toBe(303);
    expect(await userOfSession(done.session)).toBe(t.users.bob.user.id);
    expect(await userOfSession((await signIn("orcid", orcid)).session)).toBe(t.users.bob.user.id);
  });
});

describe("ACCOUNTS_REGISTER_ALLOWED_DOMAINS: a provider's new account, like a sign-up, only for the institution's addresses", () => {
  let open: TestApp;
  beforeAll(async () => {
    open = t;
    t = await createTestApp({ ...smtp.config, ACCOUNTS_REGISTER_ALLOWED_DOMAINS: ["uni.example"], OIDC_PROVIDERS: providers() });
    t.clock.set(Date.now());
    op.people.set("outsider-sub", { email: "outsider@elsewhere.example", email_verified: true, name: "Out Sider" });
    op.people.set("dora-sub", { email: "dora@dept.uni.example", email_verified: true, name: "Dora" });
  });
  afterAll(async () => {
    await t.close();
    t = open;
  });

  test("a trusted provider's address outside the domains: 403 naming them, no account; one at a subdomain: the account", async () => {
    const refused = await signIn("trusted", "outsider-sub");
    expect(refused.status).toBe(403);
    expect(refused.text).toContain(
      "Trusted campus signed you in as outsider@elsewhere.example, but no account can be made for it here: Sign-up is open to addresses at uni.example only.",
    );
    expect(refused.session).toBeUndefined();
    expect(await userByEmail("outsider@elsewhere.example")).toBeNull();
    const made = await signIn("trusted", "dora-sub");
    expect(made.status).toBe(303);
    expect(await userOfSession(made.session)).toBe((await userByEmail("dora@dept.uni.example"))!.id);
  });

  test("an existing account outside the domains is still linked (nothing new is made)", async () => {
    expect((await signIn("trusted", "alice-sub")).status).toBe(303);
    expect(await userOfSession((await signIn("trusted", "alice-sub")).session)).toBe(t.users.alice.user.id);
  });

  test("ORCID: an address outside the domains is refused once its mailed link is used, and nothing is made", async () => {
    const orcid = "0000-0003-1419-2405";
    op.people.set(orcid, { name: "Out at ORCID" });
    const first = await signIn("orcid", orcid);
    const ticket = cookieValue(first.cookies, "cairn_oauth_signup")!;
    const form = await raw(t, "GET", "/oauth/signup/orcid", { cookie: `cairn_oauth_signup=${ticket}` });
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)![1]!;
    const sent = await raw(t, "POST", "/oauth/signup/orcid", {
      cookie: `cairn_oauth_signup=${ticket}; cairn_login_csrf=${cookieValue(form.cookies, "cairn_login_csrf")}`,
      form: { csrf, email: "orcid-person@elsewhere.example" },
    });
    expect(sent.status).toBe(200);
    const done = await useLink(linkIn((await mailTo("orcid-person@elsewhere.example")).at(-1)!, BASE_URL, "/oauth/confirm"), ticket);
    expect(done.status).toBe(403);
    expect(done.text).toContain("No account can be made here for orcid-person@elsewhere.example: Sign-up is open to addresses at uni.example only.");
    expect(done.session).toBeUndefined();
    expect(await userByEmail("orcid-person@elsewhere.example")).toBeNull();
  });
});
