// Keeping a local account, through the HTTP forms with mail delivered to a real SMTP server on
// 127.0.0.1: the lost-password reset link (one use, an hour, ends every session), the password
// change (keeps this session, ends the others), the profile (ORCID checksum, visibility, only
// one's own), the e-mail change confirmed from the new address, and the profile as the deposit
// form's first creator. (Sign-up and its confirmation: accounts.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";
import {
  accountOf,
  guestForm,
  alertOf,
  fieldError,
  lastLink,
  mailTo,
  noticeOf,
  openLink,
  postGuestForm,
  sessionCookie,
  sessionCsrf,
  signedIn,
  tokenOf,
  useLink,
} from "../helpers/accounts";
import { postLogin, raw } from "../helpers/sign-in";
import { startSmtp, type TestSmtp } from "../helpers/smtp";

const MINUTE = 60_000;
const GONE = "This link no longer works: it was used already, it expired, or a newer one replaced it.";
const PROFILE = "/account/settings/profile";
const PASSWORD = "/account/settings/password";

let smtp: TestSmtp;
let app: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  app = await createTestApp({ ACCOUNTS_REGISTERABLE: true, ...smtp.config });
});
afterAll(async () => {
  await app.close();
  await smtp.stop();
});

/** A confirmed account `<name>@example.org` with the password `<name>-password`. */
const newUser = (name: string) => app.services.users.createUser(systemActor, { email: `${name}@example.org`, password: `${name}-password` });

/** Asks /lost-password for a link and answers it. */
async function resetLink(email: string) {
  const res = await postGuestForm(app, "/lost-password", { email });
  expect(res.status).toBe(200);
  return lastLink(app, smtp, email, "/lost-password/reset?token=");
}

const passwordIs = async (email: string, password: string) => Bun.password.verify(password, (await accountOf(app, email))!.passwordHash!);

describe("a password reset by mail", () => {
  test("its page, then the new password: every earlier session ends, the old password stops working, the new one signs in", async () => {
    await newUser("nina");
    const first = await sessionCookie(app, "nina@example.org", "nina-password");
    const second = await sessionCookie(app, "nina@example.org", "nina-password");
    const link = await resetLink("nina@example.org");
    expect((await mailTo(app, smtp, "nina@example.org")).map((m) => m.subject)).toEqual(["Cairn: set a new password"]);

    const opened = await openLink(app, link);
    expect(opened.page.status).toBe(200);
    expect(opened.page.text).toContain("Set a new password");
    expect(opened.action).toBe("/lost-password/reset");
    // Opening the page uses nothing up: the sessions are still there.
    expect(await signedIn(app, first)).toBe(true);

    const res = await raw(app, "POST", opened.action!, { cookie: opened.cookie, form: { csrf: opened.csrf!, token: opened.token!, password: "nina-new-password" } });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: "/login?done=password-set" });
    for (const cookie of [first, second]) {
      expect(await signedIn(app, cookie)).toBe(false);
      const page = await raw(app, "GET", PROFILE, { cookie });
      expect(page.status).toBe(401);
      expect(page.text).toContain("Sign in needed");
    }
    expect((await postLogin(app, "nina@example.org", "nina-password")).status).toBe(400);
    expect(await signedIn(app, await sessionCookie(app, "nina@example.org", "nina-new-password"))).toBe(true);
    expect((await raw(app, "GET", "/login?done=password-set")).text).toContain("Your new password is set");
  });

  /** Posts the reset form for `link`'s token with a guest form pair of its own (as a second tab would). */
  async function postReset(link: string, password: string) {
    const form = await guestForm(app, "/lost-password");
    return raw(app, "POST", "/lost-password/reset", { cookie: form.cookie, form: { csrf: form.csrf, token: tokenOf(link), password } });
  }

  test("the link works once: its page and its form answer 410 afterwards", async () => {
    await newUser("omar");
    const link = await resetLink("omar@example.org");
    expect((await useLink(app, link, { password: "omar-new-password" })).status).toBe(303);
    const page = await openLink(app, link);
    expect(page.page.status).toBe(410);
    expect(page.page.text).toContain(GONE);
    const reused = await postReset(link, "omar-third-password");
    expect(reused.status).toBe(410);
    expect(reused.text).toContain(GONE);
    expect(await passwordIs("omar@example.org", "omar-new-password")).toBe(true);
  });

  test("the link lasts an hour: after 61 minutes 410 and the password unchanged; at 59 minutes it works", async () => {
    await newUser("pia");
    const late = await resetLink("pia@example.org");
    app.clock.advance(61 * MINUTE);
    expect((await openLink(app, late)).page.status).toBe(410);
    expect((await postReset(late, "pia-new-password")).status).toBe(410);
    expect(await passwordIs("pia@example.org", "pia-password")).toBe(true);

    const timely = await resetLink("pia@example.org");
    app.clock.advance(59 * MINUTE);
    expect((await useLink(app, timely, { password: "pia-new-password" })).status).toBe(303);
    expect(await passwordIs("pia@example.org", "pia-new-password")).toBe(true);
  });

  test("a short password: 400 with the field message, and the link still works", async () => {
    await newUser("quin");
    const link = await resetLink("quin@example.org");
    const short = await useLink(app, link, { password: "short" });
    expect(short.status).toBe(400);
    expect(fieldError(short.text, "password")).toBe("A password has at least 8 characters.");
    // The form comes back with the token, ready for a longer password.
    expect(short.text).toContain(`name="token" value="${tokenOf(link)}"`);
    expect(await passwordIs("quin@example.org", "quin-password")).toBe(true);
    expect((await useLink(app, link, { password: "quin-new-password" })).status).toBe(303);
  });

  test("a newer link replaces the older one: the older answers 410", async () => {
    await newUser("rosa");
    const older = await resetLink("rosa@example.org");
    const newer = await resetLink("rosa@example.org");
    expect(newer).not.toBe(older);
    expect((await openLink(app, older)).page.status).toBe(410);
    expect((await postReset(older, "rosa-new-password")).status).toBe(410);
    expect((await useLink(app, newer, { password: "rosa-new-password" })).status).toBe(303);
  });

  test("a reset confirms an address that was not confirmed (the link reached it)", async () => {
    expect((await postGuestForm(app, "/signup", { email: "sam@example.net", password: "sam-password", full_name: "" })).status).toBe(200);
    expect((await postLogin(app, "sam@example.net", "sam-password")).status).toBe(403);
    const link = await resetLink("sam@example.net");
    expect((await useLink(app, link, { password: "sam-new-password" })).status).toBe(303);
    expect((await accountOf(app, "sam@example.net"))!.confirmedAt).toBe(app.clock.now());
    expect((await postLogin(app, "sam@example.net", "sam-new-password")).status).toBe(303);
  });

  test("the reset form without the guest CSRF cookie: 403, the password unchanged, the link still usable", async () => {
    await newUser("tess");
    const link = await resetLink("tess@example.org");
    const opened = await openLink(app, link);
    const res = await raw(app, "POST", "/lost-password/reset", { form: { csrf: opened.csrf!, token: opened.token!, password: "tess-new-password" } });
    expect(res.status).toBe(403);
    expect(alertOf(res.text)).toBe("The form has expired: please send it again.");
    expect(await passwordIs("tess@example.org", "tess-password")).toBe(true);
    expect((await useLink(app, link, { password: "tess-new-password" })).status).toBe(303);
  });
});

describe("changing the password", () => {
  let here = "";
  let elsewhere = "";
  let csrf = "";
  beforeAll(async () => {
    await newUser("uma");
    here = await sessionCookie(app, "uma@example.org", "uma-password");
    elsewhere = await sessionCookie(app, "uma@example.org", "uma-password");
    csrf = await sessionCsrf(app, here, PASSWORD);
  });
  const change = (form: Record<string, string>, cookie = here) => raw(app, "POST", PASSWORD, { cookie, form });

  test("a guest gets the sign-in page (401)", async () => {
    const res = await raw(app, "GET", PASSWORD);
    expect(res.status).toBe(401);
    expect(res.text).toContain(`href="/login?next=${encodeURIComponent(PASSWORD)}"`);
  });

  test("a wrong current password: 400 with the field message; nothing changes", async () => {
    const res = await change({ csrf, current_password: "not-umas-password", password: "uma-new-password" });
    expect(res.status).toBe(400);
    expect(fieldError(res.text, "current_password")).toContain("not the account");
    expect(await passwordIs("uma@example.org", "uma-password")).toBe(true);
    expect([await signedIn(app, here), await signedIn(app, elsewhere)]).toEqual([true, true]);
  });

  test("a short new password: 400 with the field message", async () => {
    const res = await change({ csrf, current_password: "uma-password", password: "short" });
    expect(res.status).toBe(400);
    expect(fieldError(res.text, "password")).toBe("A password has at least 8 characters.");
    expect(await passwordIs("uma@example.org", "uma-password")).toBe(true);
  });

  test("without the session's CSRF token, or with another session's: 403, nothing changes", async () => {
    const otherCsrf = await sessionCsrf(app, elsewhere, PASSWORD);
    const forms: Record<string, string>[] = [{}, { csrf: "forged" }, { csrf: otherCsrf }];
    for (const form of forms) {
      const res = await change({ ...form, current_password: "uma-password", password: "uma-new-password" });
      expect(res.status).toBe(403);
    }
    expect(await passwordIs("uma@example.org", "uma-password")).toBe(true);
    expect([await signedIn(app, here), await signedIn(app, elsewhere)]).toEqual([true, true]);
  });

  test("success: 303, this session stays signed in, the other ends; the old password stops working", async () => {
    const res = await change({ csrf, current_password: "uma-password", password: "uma-new-password" });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `${PASSWORD}?changed=1` });
    expect(await signedIn(app, here)).toBe(true);
    expect(await signedIn(app, elsewhere)).toBe(false);
    const page = await raw(app, "GET", `${PASSWORD}?changed=1`, { cookie: here });
    expect(noticeOf(page.text)).toBe("Your password is changed; every other browser signed in to your account is signed out.");
    expect((await postLogin(app, "uma@example.org", "uma-password")).status).toBe(400);
    expect((await postLogin(app, "uma@example.org", "uma-new-password")).status).toBe(303);
  });
});

describe("the profile", () => {
  let vera = "";
  let veraId = 0;
  let csrf = "";
  beforeAll(async () => {
    veraId = (await newUser("vera")).id;
    vera = await sessionCookie(app, "vera@example.org", "vera-password");
    csrf = await sessionCsrf(app, vera, PROFILE);
  });
  const fields = (over: Record<string, string> = {}) => ({
    csrf,
    email: "vera@example.org",
    full_name: "Vera Lind",
    affiliations: "University of Examples",
    orcid: "",
    visibility: "public",
    ...over,
  });
  const save = (over: Record<string, string> = {}, cookie = vera) => raw(app, "POST", PROFILE, { cookie, form: fields(over) });
  const stored = async () => {
    const row = (await app.services.users.findUserById(veraId))!;
    return { email: row.email, fullName: row.fullName, affiliations: row.affiliations, orcid: row.orcid, visibility: row.visibility };
  };

  test("/account/settings leads to the profile", async () => {
    const res = await raw(app, "GET", "/account/settings", { cookie: vera });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: PROFILE });
  });

  test("name, affiliation, ORCID iD (normalised) and visibility are stored and shown", async () => {
    const res = await save({ orcid: "0000-0002-1825-0097", visibility: "restricted" });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `${PROFILE}?saved=1` });
    expect(await stored()).toEqual({
      email: "vera@example.org",
      fullName: "Vera Lind",
      affiliations: "University of Examples",
      orcid: "0000-0002-1825-0097",
      visibility: "restricted",
    });
    const page = await raw(app, "GET", `${PROFILE}?saved=1`, { cookie: vera });
    expect(noticeOf(page.text)).toBe("Your profile is saved.");
    expect(page.text).toContain('value="0000-0002-1825-0097"');
    expect(page.text).toContain('value="University of Examples"');
    expect(page.text).toMatch(/value="restricted" checked/);
  });

  test.each([
    ["https://orcid.org/0000-0002-1694-233x", "0000-0002-1694-233X"],
    ["0000000218250097", "0000-0002-1825-0097"],
    ["", null],
  ])("ORCID %p is stored as %p", async (orcid, expected) => {
    expect((await save({ orcid })).status).toBe(303);
    expect((await stored()).orcid).toBe(expected);
  });

  test.each([["0000-0002-1825-0098"], ["0000-0001-2281-955X"], ["https://orcid.org/not-an-id"]])("ORCID %p: 400 with the field message, nothing saved", async (orcid) => {
    await save({ orcid: "0000-0002-1825-0097", visibility: "public" });
    const res = await save({ orcid, full_name: "Changed Name", visibility: "restricted" });
    expect(res.status).toBe(400);
    expect(fieldError(res.text, "orcid")).toContain("Not a valid ORCID iD");
    expect(await stored()).toMatchObject({ fullName: "Vera Lind", orcid: "0000-0002-1825-0097", visibility: "public" });
  });

  test("the affiliation: free text while the affiliations directory is empty; with entries, a list the page fills from the directory as one types", async () => {
    const before = await raw(app, "GET", PROFILE, { cookie: vera });
    expect(before.text).not.toContain("<datalist");
    expect(before.text).not.toContain("profile.");
    await app.services.vocabularies.create(
      systemActor,
      "affiliations",
      {
        id: "01ggx4157",
        name: "CERN",
        acronym: "CERN",
        identifiers: [{ scheme: "ror", identifier: "01ggx4157" }],
      },
      { via: "cli", address: null },
    );
    const after = await raw(app, "GET", PROFILE, { cookie: vera });
    const input = /<input[^>]*id="field-affiliations"[^>]*>/.exec(after.text)?.[0] ?? "";
    expect(input).toContain('list="affiliation-suggestions"');
    expect(after.text).toContain('<datalist id="affiliation-suggestions" data-suggest="/api/affiliations"></datalist>');
    expect(after.text).toMatch(/<script src="\/static\/profile\.[0-9a-f]{16}\.js"/);
    // What the page's script asks for: the directory's suggestions by name.
    const hits = await raw(app, "GET", "/api/affiliations?suggest=cer&size=8");
    expect(JSON.parse(hits.text).hits.hits.map((h: { name: string }) => h.name)).toEqual(["CERN"]);
    // Any text is still taken (the directory suggests, it does not restrict).
    expect((await save({ affiliations: "Institute Not In The Directory" })).status).toBe(303);
    expect((await stored()).affiliations).toBe("Institute Not In The Directory");
  });

  test("a visibility that is neither public nor restricted: 400", async () => {
    const res = await save({ visibility: "secret" });
    expect(res.status).toBe(400);
    expect(res.text).toContain("Must be one of: public, restricted.");
    expect((await stored()).visibility).toBe("public");
  });

  test("without the session's CSRF token: 403, nothing saved; a guest: 401", async () => {
    const forged = await save({ csrf: "forged", full_name: "Forged" });
    expect(forged.status).toBe(403);
    const guest = await raw(app, "POST", PROFILE, { form: fields({ full_name: "Guest" }) });
    expect(guest.status).toBe(401);
    expect((await stored()).fullName).toBe("Vera Lind");
  });

  test("another person sees and changes only their own settings", async () => {
    const bob = await sessionCookie(app, "bob", "bob-password");
    const page = await raw(app, "GET", `${PROFILE}?id=${veraId}&user=${veraId}`, { cookie: bob });
    expect(page.text).toContain('value="bob@example.org"');
    expect(page.text).not.toContain("vera@example.org");
    expect(page.text).not.toContain("University of Examples");
    const bobCsrf = await sessionCsrf(app, bob, PROFILE);
    // Even with Vera's address in the form: Bob's own profile, and an e-mail change asked for Bob (refused: the address is taken).
    const res = await raw(app, "POST", PROFILE, { cookie: bob, form: { ...fields({ csrf: bobCsrf, full_name: "Bob B" }), email: "vera@example.org" } });
    expect(res.status).toBe(400);
    expect(fieldError(res.text, "email")).toBe("This e-mail address is already registered.");
    expect((await stored()).fullName).toBe("Vera Lind");
    expect((await app.services.users.findUserById(app.users.bob.user.id))!.email).toBe("bob@example.org");
    // The services refuse another person's account outright.
    const secret = bob.slice("cairn_session=".length);
    const bobActor = (await app.services.sessions.resolve(secret))!.actor;
    await expect(app.services.users.readAccount(bobActor, veraId)).rejects.toMatchObject({ status: 403 });
    await expect(app.services.users.updateProfile(bobActor, veraId, { fullName: "Taken over" })).rejects.toMatchObject({ status: 403 });
    expect((await stored()).fullName).toBe("Vera Lind");
  });
});

describe("changing the e-mail address", () => {
  let walt = "";
  let waltId = 0;
  let csrf = "";
  beforeAll(async () => {
    waltId = (await newUser("walt")).id;
    walt = await sessionCookie(app, "walt@example.org", "walt-password");
    csrf = await sessionCsrf(app, walt, PROFILE);
  });
  const ask = (email: string) => raw(app, "POST", PROFILE, { cookie: walt, form: { csrf, email, full_name: "Walt", affiliations: "", orcid: "", visibility: "public" } });
  const emailNow = async () => (await app.services.users.findUserById(waltId))!.email;

  test("to an address another account has: 400 with the field message, no mail", async () => {
    for (const email of ["alice@example.org", "ALICE@Example.org"]) {
      const res = await ask(email);
      expect(res.status).toBe(400);
      expect(fieldError(res.text, "email")).toBe("This e-mail address is already registered.");
      // The other fields were saved before the address was refused: the page says so.
      expect(noticeOf(res.text)).toBe("The rest of your profile is saved; your e-mail address stays walt@example.org.");
    }
    expect(await emailNow()).toBe("walt@example.org");
    expect(await mailTo(app, smtp, "walt@example.org")).toEqual([]);
    expect(await mailTo(app, smtp, "alice@example.org")).toEqual([]);
  });

  test("a link goes to the new address and a notice to the old; the address changes only once the link is used", async () => {
    const res = await ask("walter@new.example");
    expect(res.status).toBe(200);
    expect(noticeOf(res.text)).toContain("open the link we sent to walter@new.example: until then it stays walt@example.org.");
    expect(await emailNow()).toBe("walt@example.org");
    const notice = await mailTo(app, smtp, "walt@example.org");
    expect(notice.map((m) => m.subject)).toEqual(["Cairn: a new e-mail address was asked for"]);
    expect(notice[0]!.text).toContain("walter@new.example");
    expect(notice[0]!.text).not.toContain("token=");
    expect((await mailTo(app, smtp, "walter@new.example")).map((m) => m.subject)).toEqual(["Cairn: confirm your new e-mail address"]);
    const link = await lastLink(app, smtp, "walter@new.example", "/account/confirm-email-change?token=");
    // Not yet: the new address does not sign in.
    expect((await postLogin(app, "walter@new.example", "walt-password")).status).toBe(400);

    const opened = await openLink(app, link);
    expect(opened.page.text).toContain("Use this e-mail address");
    expect(await emailNow()).toBe("walt@example.org");
    const done = await useLink(app, link);
    expect(done.status).toBe(200);
    expect(noticeOf(done.text)).toContain("e-mail address is now walter@new.example.");
    expect(await emailNow()).toBe("walter@new.example");
    expect((await postLogin(app, "walter@new.example", "walt-password")).status).toBe(303);
    expect((await postLogin(app, "walt@example.org", "walt-password")).status).toBe(400);
    expect((await useLink(app, link)).status).toBe(410);
  });
});

describe("the throttles of the settings forms", () => {
  test("a 4th e-mail change to the same new address in a row: 429 with Retry-After, no 4th link", async () => {
    await newUser("zoe");
    const cookie = await sessionCookie(app, "zoe@example.org", "zoe-password");
    const csrf = await sessionCsrf(app, cookie, PROFILE);
    const ask = () => raw(app, "POST", PROFILE, { cookie, form: { csrf, email: "zoe@new.example", full_name: "", affiliations: "", orcid: "", visibility: "public" } });
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect({ status: refused.status, retryAfter: refused.headers.get("retry-after") }).toEqual({ status: 429, retryAfter: "300" });
    expect(alertOf(refused.text)).toBe("Too many requests for account mail for this e-mail address: try again in 5 minutes.");
    expect(await mailTo(app, smtp, "zoe@new.example")).toHaveLength(3);
  });

  test("wrong current passwords count as failed sign-ins: the 6th waits (429 with Retry-After), then the right one works", async () => {
    await newUser("yann");
    const cookie = await sessionCookie(app, "yann@example.org", "yann-password");
    const csrf = await sessionCsrf(app, cookie, PASSWORD);
    const change = (current: string) => raw(app, "POST", PASSWORD, { cookie, form: { csrf, current_password: current, password: "yann-new-password" } });
    for (let i = 0; i < 5; i++) expect((await change("wrong-password")).status).toBe(400);
    const refused = await change("yann-password");
    expect({ status: refused.status, retryAfter: refused.headers.get("retry-after") }).toEqual({ status: 429, retryAfter: "60" });
    expect(await passwordIs("yann@example.org", "yann-password")).toBe(true);
    app.clock.advance(MINUTE);
    expect((await change("yann-password")).status).toBe(303);
  });
});

describe("the deposit form's first creator", () => {
  const depositData = async (cookie: string) => {
    const res = await raw(app, "GET", "/uploads/new", { cookie });
    expect(res.status).toBe(200);
    const json = /<script type="application\/json" id="deposit-data">([\s\S]*?)<\/script>/.exec(res.text)?.[1];
    expect(json).toBeString();
    return JSON.parse(json!);
  };

  test("the profile's name (Family, Given), ORCID iD and affiliation", async () => {
    await newUser("xena");
    const cookie = await sessionCookie(app, "xena@example.org", "xena-password");
    const csrf = await sessionCsrf(app, cookie, PROFILE);
    const saved = await raw(app, "POST", PROFILE, {
      cookie,
      form: {
        csrf,
        email: "xena@example.org",
        full_name: "Doe, Jane",
        affiliations: "University of Examples",
        orcid: "https://orcid.org/0000-0002-1825-0097",
        visibility: "public",
      },
    });
    expect(saved.status).toBe(303);
    expect((await depositData(cookie)).firstCreator).toEqual({
      person_or_org: { type: "personal", family_name: "Doe", given_name: "Jane", identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] },
      affiliations: [{ name: "University of Examples" }],
    });
  });

  test("an empty profile: a personal creator with nothing filled in", async () => {
    await newUser("yuri");
    const cookie = await sessionCookie(app, "yuri@example.org", "yuri-password");
    expect((await depositData(cookie)).firstCreator).toEqual({ person_or_org: { type: "personal" } });
  });
});
