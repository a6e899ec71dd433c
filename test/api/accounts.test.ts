// Local accounts made by people themselves, through the HTTP forms with mail delivered to a real
// SMTP server on 127.0.0.1: sign-up closed by default and open by configuration, the one-use
// confirmation link (24 h), allowed e-mail domains, answers that never tell who has an account,
// the mail throttle per address and per client, the guest forms' CSRF check, and deactivated
// accounts. (Password reset and change, profile, e-mail change: accounts-settings.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";
import { accountOf, alertOf, fieldError, guestForm, lastLink, mailTo, openLink, postGuestForm, sessionCookie, signedIn, tokenOf, useLink } from "../helpers/accounts";
import { cookieValue, loginForm, postLogin, raw } from "../helpers/sign-in";
import { startSmtp, type TestSmtp } from "../helpers/smtp";

const HOUR = 3_600_000;
const GONE = "This link no longer works: it was used already, it expired, or a newer one replaced it.";
const GENERIC_REFUSAL = "The e-mail address (or username) and password do not match an active account.";

let smtp: TestSmtp;
let open: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  open = await createTestApp({ ACCOUNTS_REGISTERABLE: true, ...smtp.config });
});
afterAll(async () => {
  await open.close();
  await smtp.stop();
});

const signUp = (app: TestApp, email: string, password = "a-good-password", fullName = "") => postGuestForm(app, "/signup", { email, password, full_name: fullName });

/** Rows queued in the outbox for `to` (whether or not delivered). */
const outboxTo = async (app: TestApp, to: string) => (await app.services.mail.listMail(systemActor, { limit: 1000 })).filter((m) => m.recipient.toLowerCase() === to.toLowerCase());

describe("sign-up closed (the default)", () => {
  let closed: TestApp;
  beforeAll(async () => (closed = await createTestApp()));
  afterAll(() => closed.close());

  test("GET and POST /signup answer 404; nothing is stored", async () => {
    const page = await raw(closed, "GET", "/signup");
    expect(page.status).toBe(404);
    expect(page.text).toContain("Sign-up is closed");
    const login = await loginForm(closed);
    const post = await raw(closed, "POST", "/signup", {
      cookie: `cairn_login_csrf=${login.cookie}`,
      form: { csrf: login.field, email: "new@example.net", password: "a-good-password" },
    });
    expect(post.status).toBe(404);
    expect(await accountOf(closed, "new@example.net")).toBeNull();
  });

  test("the login page offers no sign-up link; an open one does", async () => {
    const closedPage = await loginForm(closed);
    expect(closedPage.html).not.toContain('href="/signup"');
    expect(closedPage.html).toContain("Accounts are made by the repository");
    expect((await loginForm(open)).html).toContain('<a href="/signup">Sign up</a>');
  });
});

describe("sign-up and the e-mail confirmation", () => {
  const carol = "carol@example.net";
  let link = "";

  test("sign-up makes an unconfirmed account and mails a confirmation link", async () => {
    const res = await signUp(open, carol, "carol-password", "Carol Jones");
    expect(res.status).toBe(200);
    expect(res.text).toContain("Check your mail");
    expect(res.text).toContain(`<strong>${carol}</strong>`);
    expect(cookieValue(res.cookies, "cairn_login_csrf")).toBe("");
    expect(await accountOf(open, carol)).toMatchObject({ email: carol, fullName: "Carol Jones", confirmedAt: null, active: true, isAdmin: false });
    const mails = await mailTo(open, smtp, carol);
    expect(mails.map((m) => m.subject)).toEqual(["Cairn: confirm your e-mail address"]);
    link = await lastLink(open, smtp, carol, "/account/confirm?token=");
    expect(tokenOf(link)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("signing in before confirming: 403 saying so, with a link for a new mail; a wrong password is the generic 400", async () => {
    const early = await postLogin(open, carol, "carol-password");
    expect(early.status).toBe(403);
    expect(alertOf(early.text)).toContain("Confirm your e-mail address first");
    expect(early.text).toContain('href="/account/confirm/resend"');
    expect(early.session).toBeUndefined();
    const wrong = await postLogin(open, carol, "not-carols-password");
    expect({ status: wrong.status, alert: alertOf(wrong.text), session: wrong.session }).toEqual({ status: 400, alert: GENERIC_REFUSAL, session: undefined });
    expect(wrong.text).not.toContain("Confirm your e-mail");
  });

  test("opening the link shows a button and confirms nothing yet", async () => {
    const opened = await openLink(open, link);
    expect(opened.page.status).toBe(200);
    expect(opened.page.text).toContain("Confirm my e-mail address");
    expect({ action: opened.action, token: opened.token }).toEqual({ action: "/account/confirm", token: tokenOf(link) });
    expect((await accountOf(open, carol))!.confirmedAt).toBeNull();
  });

  test("the button confirms: 303 to /login?done=confirmed, which says so, and signing in works", async () => {
    const res = await useLink(open, link);
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: "/login?done=confirmed" });
    expect((await accountOf(open, carol))!.confirmedAt).toBe(open.clock.now());
    expect((await raw(open, "GET", "/login?done=confirmed")).text).toContain("Your e-mail address is confirmed: you can sign in now.");
    expect(await signedIn(open, await sessionCookie(open, carol, "carol-password"))).toBe(true);
  });

  test("the same link a second time: 410", async () => {
    const again = await useLink(open, link);
    expect(again.status).toBe(410);
    expect(again.text).toContain(GONE);
  });

  test("a link past its 24 hours: 410 and still unconfirmed; a new one asked for at /account/confirm/resend works", async () => {
    const dave = "dave@example.net";
    expect((await signUp(open, dave, "dave-password")).status).toBe(200);
    const old = await lastLink(open, smtp, dave, "/account/confirm?token=");
    open.clock.advance(24 * HOUR + 1);
    const late = await useLink(open, old);
    expect(late.status).toBe(410);
    expect(late.text).toContain(GONE);
    expect((await accountOf(open, dave))!.confirmedAt).toBeNull();
    expect((await postLogin(open, dave, "dave-password")).status).toBe(403);

    const resend = await postGuestForm(open, "/account/confirm/resend", { email: dave });
    expect(resend.status).toBe(200);
    expect(resend.text).toContain("Check your mail");
    expect((await mailTo(open, smtp, dave)).length).toBe(2);
    const fresh = await lastLink(open, smtp, dave, "/account/confirm?token=");
    expect(fresh).not.toBe(old);
    expect((await useLink(open, fresh)).headers.get("location")).toBe("/login?done=confirmed");
    expect((await postLogin(open, dave, "dave-password")).status).toBe(303);
  });

  test("a link a minute before its 24 hours end still works", async () => {
    const erin = "erin@example.net";
    await signUp(open, erin);
    const link = await lastLink(open, smtp, erin, "/account/confirm?token=");
    open.clock.advance(24 * HOUR - 60_000);
    expect((await useLink(open, link)).status).toBe(303);
  });

  test("with ACCOUNTS_CONFIRM_EMAIL false the account signs in at once: 303 to /login?done=signed-up, no mail", async () => {
    const app = await createTestApp({ ACCOUNTS_REGISTERABLE: true, ACCOUNTS_CONFIRM_EMAIL: false, ...smtp.config });
    try {
      const res = await signUp(app, "fay@example.net", "fay-password", "Fay");
      expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: "/login?done=signed-up" });
      expect((await accountOf(app, "fay@example.net"))!.confirmedAt).toBe(app.clock.now());
      expect((await raw(app, "GET", "/login?done=signed-up")).text).toContain("Your account is ready: sign in.");
      expect(await signedIn(app, await sessionCookie(app, "fay@example.net", "fay-password"))).toBe(true);
      expect(await mailTo(app, smtp, "fay@example.net")).toEqual([]);
    } finally {
      await app.close();
    }
  });

  test("a short password or a bad address: 400 with the field messages, nothing stored", async () => {
    const res = await signUp(open, "gus@example.net", "short");
    expect(res.status).toBe(400);
    expect(fieldError(res.text, "password")).toBe("A password has at least 8 characters.");
    const bad = await signUp(open, "not-an-address", "a-good-password");
    expect(fieldError(bad.text, "email")).toBe("Not a valid e-mail address.");
    expect(await accountOf(open, "gus@example.net")).toBeNull();
    expect(await outboxTo(open, "gus@example.net")).toEqual([]);
  });
});

describe("ACCOUNTS_REGISTER_ALLOWED_DOMAINS", () => {
  let uni: TestApp;
  beforeAll(async () => (uni = await createTestApp({ ACCOUNTS_REGISTERABLE: true, ACCOUNTS_REGISTER_ALLOWED_DOMAINS: ["uni.example"], ...smtp.config })));
  afterAll(() => uni.close());

  test("the sign-up page names the domains", async () => {
    expect((await guestForm(uni, "/signup")).html).toContain("Addresses at uni.example.");
  });

  test.each(["x@other.example", "x@evil-uni.example", "x@uni.example.evil.net", "x@notuni.example"])("%s: 400 with the field message, nothing stored, no mail", async (email) => {
    const res = await signUp(uni, email);
    expect(res.status).toBe(400);
    expect(fieldError(res.text, "email")).toBe("Sign-up is open to addresses at uni.example only.");
    expect(await accountOf(uni, email)).toBeNull();
    expect(await outboxTo(uni, email)).toEqual([]);
    expect(await mailTo(uni, smtp, email)).toEqual([]);
  });

  test.each(["y@uni.example", "z@dept.uni.example", "W@Lab.Dept.UNI.Example"])("%s: accepted, its confirmation mailed", async (email) => {
    const res = await signUp(uni, email);
    expect(res.status).toBe(200);
    expect((await accountOf(uni, email))!.email).toBe(email);
    expect((await mailTo(uni, smtp, email)).map((m) => m.subject)).toEqual(["Cairn: confirm your e-mail address"]);
  });
});

describe("no account enumeration", () => {
  /** A page with the address typed taken out. */
  const without = (text: string, email: string) => text.replaceAll(email, "…");

  test("sign-up with an address that has an account answers as a new one would, and mails its owner a note", async () => {
    const known = await signUp(open, "alice@example.org", "another-password", "Mallory");
    const unknown = await signUp(open, "henry@example.net", "another-password", "Mallory");
    expect(known.status).toBe(200);
    expect({ status: known.status, text: without(known.text, "alice@example.org"), cookies: known.cookies }).toEqual({
      status: unknown.status,
      text: without(unknown.text, "henry@example.net"),
      cookies: unknown.cookies,
    });
    // Alice's account is untouched: her password, her name, one account.
    const alice = (await accountOf(open, "alice@example.org"))!;
    expect({ id: alice.id, fullName: alice.fullName }).toEqual({ id: open.users.alice.user.id, fullName: "" });
    expect((await postLogin(open, "alice@example.org", "alice-password")).status).toBe(303);
    expect((await postLogin(open, "alice@example.org", "another-password")).status).toBe(400);
    const note = (await mailTo(open, smtp, "alice@example.org")).at(-1)!;
    expect(note.subject).toBe("Cairn: someone tried to sign up with your address");
    expect(note.text).toContain("http://127.0.0.1:5000/lost-password");
    expect(note.text).not.toContain("token=");
    expect((await mailTo(open, smtp, "henry@example.net")).map((m) => m.subject)).toEqual(["Cairn: confirm your e-mail address"]);
  });

  test("/lost-password answers the same page for an account and an unknown address; only the account gets mail", async () => {
    const known = await postGuestForm(open, "/lost-password", { email: "bob@example.org" });
    const unknown = await postGuestForm(open, "/lost-password", { email: "nobody@example.net" });
    expect(known.status).toBe(200);
    expect(known.text).toContain("If there is an account with this address");
    expect({ status: known.status, text: without(known.text, "bob@example.org") }).toEqual({ status: unknown.status, text: without(unknown.text, "nobody@example.net") });
    expect((await mailTo(open, smtp, "bob@example.org")).map((m) => m.subject)).toEqual(["Cairn: set a new password"]);
    expect(await outboxTo(open, "nobody@example.net")).toEqual([]);
    expect(await mailTo(open, smtp, "nobody@example.net")).toEqual([]);
  });

  test("/account/confirm/resend answers alike for a confirmed account, an unknown address and one waiting; only the waiting one gets mail", async () => {
    await signUp(open, "iris@example.net");
    const answers = await Promise.all(
      ["admin@example.org", "nobody2@example.net", "iris@example.net"].map(async (email) => {
        const res = await postGuestForm(open, "/account/confirm/resend", { email });
        return { status: res.status, text: without(res.text, email) };
      }),
    );
    expect(answers[1]).toEqual(answers[0]!);
    expect(answers[2]).toEqual(answers[0]!);
    expect(await outboxTo(open, "admin@example.org")).toEqual([]);
    expect(await outboxTo(open, "nobody2@example.net")).toEqual([]);
    expect((await mailTo(open, smtp, "iris@example.net")).length).toBe(2);
  });
});

describe("the mail throttle", () => {
  test("the 4th request for the same address (sign-up, resend, lost-password, any letter case): 429 with Retry-After, no mail; after the wait it goes", async () => {
    const jack = "jack@example.net";
    expect((await signUp(open, jack)).status).toBe(200);
    expect((await postGuestForm(open, "/account/confirm/resend", { email: jack })).status).toBe(200);
    expect((await postGuestForm(open, "/lost-password", { email: jack })).status).toBe(200);
    expect((await mailTo(open, smtp, jack)).length).toBe(3);

    for (const [page, email] of [
      ["/lost-password", "JACK@Example.net"],
      ["/account/confirm/resend", jack],
      ["/signup", jack],
    ]) {
      const res = page === "/signup" ? await signUp(open, email!) : await postGuestForm(open, page!, { email: email! });
      expect({ page, status: res.status, retryAfter: res.headers.get("retry-after") }).toEqual({ page, status: 429, retryAfter: "300" });
      expect(alertOf(res.text)).toBe("Too many requests for account mail for this e-mail address: try again in 5 minutes.");
    }
    expect(await outboxTo(open, jack)).toHaveLength(3);
    expect((await mailTo(open, smtp, jack)).length).toBe(3);

    open.clock.advance(5 * 60_000);
    expect((await postGuestForm(open, "/lost-password", { email: jack })).status).toBe(200);
    expect((await mailTo(open, smtp, jack)).map((m) => m.subject)).toEqual([
      "Cairn: confirm your e-mail address",
      "Cairn: confirm your e-mail address",
      "Cairn: set a new password",
      "Cairn: set a new password",
    ]);
  });

  test("ten requests from one client address, for ten addresses: the 11th waits", async () => {
    const from = "203.0.113.7";
    const ask = async (email: string) => {
      const form = await guestForm(open, "/lost-password");
      return raw(open, "POST", "/lost-password", { cookie: form.cookie, form: { csrf: form.csrf, email }, address: from });
    };
    for (let i = 0; i < 10; i++) expect((await ask(`client${i}@example.net`)).status).toBe(200);
    const refused = await ask("client10@example.net");
    expect({ status: refused.status, retryAfter: refused.headers.get("retry-after") }).toEqual({ status: 429, retryAfter: "60" });
    expect(alertOf(refused.text)).toContain("from this network address");
    // Another client is not held up.
    const form = await guestForm(open, "/lost-password");
    expect((await raw(open, "POST", "/lost-password", { cookie: form.cookie, form: { csrf: form.csrf, email: "client10@example.net" }, address: "198.51.100.9" })).status).toBe(
      200,
    );
  });
});

describe("the guest forms' CSRF check", () => {
  test("sign-up without the cookie, or with a field that is not the cookie's: 403, nothing stored, no mail", async () => {
    const form = await guestForm(open, "/signup");
    const fields = { email: "kate@example.net", password: "a-good-password", full_name: "" };
    const noCookie = await raw(open, "POST", "/signup", { form: { csrf: form.csrf, ...fields } });
    const forged = await raw(open, "POST", "/signup", { cookie: form.cookie, form: { csrf: "forged", ...fields } });
    const noField = await raw(open, "POST", "/signup", { cookie: form.cookie, form: fields });
    for (const res of [noCookie, forged, noField]) {
      expect(res.status).toBe(403);
      expect(alertOf(res.text)).toBe("The form has expired: please send it again.");
    }
    expect(await accountOf(open, "kate@example.net")).toBeNull();
    expect(await outboxTo(open, "kate@example.net")).toEqual([]);
  });

  test("lost-password without the cookie: 403, no mail", async () => {
    const form = await guestForm(open, "/lost-password");
    const res = await raw(open, "POST", "/lost-password", { form: { csrf: form.csrf, email: "admin@example.org" } });
    expect(res.status).toBe(403);
    expect(await outboxTo(open, "admin@example.org")).toEqual([]);
  });

  test("resend without the cookie: 403, no mail", async () => {
    await signUp(open, "liam@example.net");
    const form = await guestForm(open, "/account/confirm/resend");
    const res = await raw(open, "POST", "/account/confirm/resend", { form: { csrf: form.csrf, email: "liam@example.net" } });
    expect(res.status).toBe(403);
    expect(await outboxTo(open, "liam@example.net")).toHaveLength(1);
  });

  test("the confirmation button without the cookie: 403, still unconfirmed, the link still usable", async () => {
    const link = await lastLink(open, smtp, "liam@example.net", "/account/confirm?token=");
    const opened = await openLink(open, link);
    const res = await raw(open, "POST", "/account/confirm", { form: { csrf: opened.csrf!, token: opened.token! } });
    expect(res.status).toBe(403);
    expect((await accountOf(open, "liam@example.net"))!.confirmedAt).toBeNull();
    expect((await useLink(open, link)).status).toBe(303);
    expect((await accountOf(open, "liam@example.net"))!.confirmedAt).not.toBeNull();
  });
});

describe("a deactivated account", () => {
  // No service deactivates an account yet (the administration pages will): the test writes the
  // column through the database port.
  const deactivate = (app: TestApp, id: number) => app.services.deps.db.statements.run("UPDATE users SET active = 0 WHERE id = ?", [id]);

  test("cannot sign in, loses its sessions, gets no reset or confirmation mail, and an earlier reset link sets nothing", async () => {
    const user = await open.services.users.createUser(systemActor, { email: "mia@example.org", password: "mia-password" });
    const session = await sessionCookie(open, "mia@example.org", "mia-password");
    expect((await postGuestForm(open, "/lost-password", { email: "mia@example.org" })).status).toBe(200);
    const earlier = await lastLink(open, smtp, "mia@example.org", "/lost-password/reset?token=");
    await deactivate(open, user.id);

    const login = await postLogin(open, "mia@example.org", "mia-password");
    expect({ status: login.status, alert: alertOf(login.text), session: login.session }).toEqual({ status: 400, alert: GENERIC_REFUSAL, session: undefined });
    expect(await signedIn(open, session)).toBe(false);

    const lost = await postGuestForm(open, "/lost-password", { email: "mia@example.org" });
    expect(lost.status).toBe(200);
    expect(lost.text).toContain("If there is an account with this address");
    expect((await postGuestForm(open, "/account/confirm/resend", { email: "mia@example.org" })).status).toBe(200);
    expect(await outboxTo(open, "mia@example.org")).toHaveLength(1);

    const reset = await useLink(open, earlier, { password: "mia-new-password" });
    expect(reset.status).toBe(400);
    expect(reset.text).toContain("This account cannot sign in.");
    const row = (await accountOf(open, "mia@example.org"))!;
    expect(await Bun.password.verify("mia-password", row.passwordHash!)).toBe(true);
    expect((await postLogin(open, "mia@example.org", "mia-new-password")).status).toBe(400);
  });
});
