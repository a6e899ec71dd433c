// The sign-in switches (issue 31 item 6): ACCOUNTS_LOCAL_LOGIN_ENABLED off leaves only the
// providers' buttons on /login, /login?local=1 still shows the password form and only
// administrators get through it (the sessions service refuses anyone else, as a wrong password);
// OAUTHCLIENT_AUTO_REDIRECT_TO_EXTERNAL_LOGIN sends /login straight to the only provider, carrying
// a local next= only. The providers are never contacted here: /login only lists them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";
import { alertOf, cookieValue, loginForm, raw, submitLogin } from "../helpers/sign-in";

const GENERIC_REFUSAL = "The e-mail address (or username) and password do not match an active account.";
const uni = { name: "uni", title: "University account", issuer: "https://login.uni.example", client_id: "cairn", client_secret: "s" };
const lab = { name: "lab", title: "Lab directory", issuer: "https://sso.lab.example", client_id: "cairn", client_secret: "s" };

const PASSWORD_FIELD = 'name="password"';

/** Local login off, two providers, auto-redirect asked for (but there are two), sign-up open. */
let two: TestApp;
/** Local login off, one provider, auto-redirect on. */
let one: TestApp;
/** Local login on, one provider, auto-redirect on: the password form is a way in, so no redirect. */
let localOn: TestApp;
/** Local login off, one provider, auto-redirect off. */
let noAuto: TestApp;

beforeAll(async () => {
  two = await createTestApp({ ACCOUNTS_LOCAL_LOGIN_ENABLED: false, OAUTHCLIENT_AUTO_REDIRECT_TO_EXTERNAL_LOGIN: true, ACCOUNTS_REGISTERABLE: true, OIDC_PROVIDERS: [uni, lab] });
  one = await createTestApp({ ACCOUNTS_LOCAL_LOGIN_ENABLED: false, OAUTHCLIENT_AUTO_REDIRECT_TO_EXTERNAL_LOGIN: true, OIDC_PROVIDERS: [uni] });
  localOn = await createTestApp({ OAUTHCLIENT_AUTO_REDIRECT_TO_EXTERNAL_LOGIN: true, ACCOUNTS_REGISTERABLE: true, OIDC_PROVIDERS: [uni] });
  noAuto = await createTestApp({ ACCOUNTS_LOCAL_LOGIN_ENABLED: false, OIDC_PROVIDERS: [uni] });
});
afterAll(async () => {
  for (const app of [two, one, localOn, noAuto]) await app.close();
});

describe("ACCOUNTS_LOCAL_LOGIN_ENABLED", () => {
  test("the defaults: local login on, no auto-redirect", () => {
    expect(localOn.config.ACCOUNTS_LOCAL_LOGIN_ENABLED).toBe(true);
    expect(noAuto.config.OAUTHCLIENT_AUTO_REDIRECT_TO_EXTERNAL_LOGIN).toBe(false);
  });

  test("off: /login shows every provider's button with its title and next, no password form, no password links", async () => {
    const res = await raw(two, "GET", "/login?next=/me/uploads");
    expect(res.status).toBe(200);
    expect(res.text).toContain('<a class="button" href="/oauth/login/uni?next=%2Fme%2Fuploads">Sign in with University account</a>');
    expect(res.text).toContain('<a class="button" href="/oauth/login/lab?next=%2Fme%2Fuploads">Sign in with Lab directory</a>');
    expect(res.text).not.toContain(PASSWORD_FIELD);
    expect(res.text).not.toContain('action="/login"');
    // Sign-up is open, but a new password account could not sign in: no link; nor to a password reset.
    expect(res.text).not.toContain('href="/signup"');
    expect(res.text).not.toContain('href="/lost-password"');
  });

  test("off: sign-up is closed even with ACCOUNTS_REGISTERABLE (a new password account could never sign in)", async () => {
    expect(two.config.ACCOUNTS_REGISTERABLE).toBe(true);
    const page = await raw(two, "GET", "/signup");
    expect(page.status).toBe(404);
    expect(page.text).toContain("Sign-up is closed");
    await expect(two.services.accounts.signUp({ email: "new@example.org", password: "new-password-1", fullName: "New" }, null)).rejects.toMatchObject({ status: 404 });
    expect(await two.services.users.findUserByEmail(systemActor, "new@example.org")).toBeNull();
    expect((await raw(localOn, "GET", "/signup")).status).toBe(200);
  });

  test("on: the form, the buttons and the links", async () => {
    const { html } = await loginForm(localOn);
    expect(html).toContain(PASSWORD_FIELD);
    expect(html).toContain('<a class="button" href="/oauth/login/uni">Sign in with University account</a>');
    expect(html).toContain('<a href="/lost-password">Forgot your password?</a>');
    expect(html).toContain('<a href="/signup">Sign up</a>');
  });

  test("off, ?local=1: the password form, said to be for administrators, without the password links", async () => {
    const form = await loginForm(two, "?local=1&next=/me/uploads");
    expect(form.html).toContain(PASSWORD_FIELD);
    expect(form.html).toContain('<input type="hidden" name="next" value="/me/uploads"/>');
    expect(form.html).toContain("Password sign-in is for the repository's administrators only.");
    expect(form.html).not.toContain('href="/signup"');
    expect(form.html).not.toContain('href="/lost-password"');
  });

  test("off, through ?local=1: a non-administrator's right password is refused as a wrong one; no session", async () => {
    const right = await submitLogin(two, await loginForm(two, "?local=1"), "alice", "alice-password");
    const wrong = await submitLogin(two, await loginForm(two, "?local=1"), "bob", "not-bobs-password");
    expect(right.status).toBe(400);
    expect(right.session).toBeUndefined();
    expect(alertOf(right.text)).toBe(GENERIC_REFUSAL);
    expect(alertOf(wrong.text)).toBe(alertOf(right.text));
    expect(wrong.status).toBe(right.status);
    // The page sent back keeps the form (the person came through it), still without the links.
    expect(right.text).toContain(PASSWORD_FIELD);
    expect(right.text).not.toContain('href="/lost-password"');
  });

  test("off: the sessions service itself refuses a non-administrator's password (not only the page)", async () => {
    const refused = await two.services.sessions.signIn("bob", "bob-password").then(
      () => null,
      (e: { status: number; message: string }) => ({ status: e.status, message: e.message }),
    );
    expect(refused).toEqual({ status: 400, message: GENERIC_REFUSAL });
  });

  test("off, through ?local=1: an administrator signs in and goes to next", async () => {
    const res = await submitLogin(two, await loginForm(two, "?local=1"), "admin", "admin-password", "/administration");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/administration");
    const session = await two.services.sessions.resolve(res.session!);
    expect(session?.actor.userId).toBe(two.users.admin.user.id);
    expect(session?.actor.isAdmin).toBe(true);
  });

  test("on: a non-administrator signs in with the password", async () => {
    const res = await submitLogin(localOn, await loginForm(localOn), "alice", "alice-password");
    expect(res.status).toBe(303);
    expect((await localOn.services.sessions.resolve(res.session!))?.actor.userId).toBe(localOn.users.alice.user.id);
  });
});

describe("OAUTHCLIENT_AUTO_REDIRECT_TO_EXTERNAL_LOGIN", () => {
  test("one provider, local login off: /login answers 303 to the provider's sign-in, with no page and no CSRF cookie", async () => {
    const res = await raw(one, "GET", "/login");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/oauth/login/uni");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(cookieValue(res.cookies, "cairn_login_csrf")).toBeUndefined();
  });

  test("next= is carried to the provider's sign-in when it is a path of this site", async () => {
    const res = await raw(one, "GET", `/login?next=${encodeURIComponent("/records/abc?tab=files")}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/oauth/login/uni?next=${encodeURIComponent("/records/abc?tab=files")}`);
  });

  test.each([["https://evil.example/x"], ["//evil.example/x"], ["/\\evil.example"], ["javascript:alert(1)"]])("next=%s is dropped (only local paths)", async (next) => {
    const res = await raw(one, "GET", `/login?next=${encodeURIComponent(next)}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/oauth/login/uni");
  });

  test("?local=1 shows the password form instead", async () => {
    const form = await loginForm(one, "?local=1");
    expect(form.html).toContain(PASSWORD_FIELD);
    expect(form.html).toContain('<a class="button" href="/oauth/login/uni">Sign in with University account</a>');
  });

  test("not with two providers, nor with local login on, nor when the switch is off", async () => {
    for (const app of [two, localOn, noAuto]) {
      const res = await raw(app, "GET", "/login");
      expect(res.status).toBe(200);
      expect(res.text).toContain('<a class="button" href="/oauth/login/uni">Sign in with University account</a>');
    }
  });

  test("a signed-in person is sent to next, not to the provider", async () => {
    const res = await raw(one, "GET", "/login?next=/me/uploads", { headers: { authorization: `Bearer ${one.users.alice.token}` } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/me/uploads");
  });
});
