// LDAP / Active Directory password sign-in in a real browser (issue 31 item 8), against Debian's
// OpenLDAP server (test/helpers/slapd.ts) on 127.0.0.1: a person types their directory username and
// password into /login's form and lands signed in, the account made from the directory entry; a
// wrong password gives the form's one refusal beside the kept login; with local passwords off
// (ACCOUNTS_LOCAL_LOGIN_ENABLED false) /login keeps the form for the directory, without the password
// links, and a directory person signs in through it. Each Cairn page checked with axe, html-validate
// and its width, at a desktop's and a phone's width. Skipped (saying why) only without slapd.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page, Response } from "playwright-core";
import { systemActor } from "../../src/core/actor";
import type { ConfigKey } from "../../src/config";
import { htmlErrors, seriousAxeViolations, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";
import { PEOPLE, SERVICE_DN, SERVICE_PASSWORD, slapdMissing, startSlapd, type TestSlapd } from "../helpers/slapd";

const GENERIC_REFUSAL = "The e-mail address (or username) and password do not match an active account.";
const WIDTHS = { desktop: 1280, phone: 375 } as const;

const missing = slapdMissing();
if (missing) console.warn(missing);

let slapd: TestSlapd;
const settings = (extra: Partial<Record<ConfigKey, unknown>> = {}): Partial<Record<ConfigKey, unknown>> => ({
  LDAP_URL: slapd.url,
  LDAP_BIND_DN: SERVICE_DN,
  LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
  LDAP_SEARCH_BASE: PEOPLE,
  ...extra,
});

/** No serious axe violations, valid markup (the page as the server sent it), nothing wider than the screen. */
async function checkPage(page: Page, html: string, width: number) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await htmlErrors(html)).toEqual([]);
  expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(width);
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();
const sessionCookie = async (person: BrowserContext) => (await person.cookies()).find((c) => c.name === "cairn_session")?.value;

/** The directory's sign_in_identities rows of `app`. */
const identities = (app: BrowserApp) =>
  app.services.deps.db.statements.all<{ subject: string; user_id: number; email: string }>(
    "SELECT subject, user_id, email FROM sign_in_identities WHERE provider = 'ldap' ORDER BY user_id",
  );

/** Opens /login?next=/me/uploads (checked at `width`), types `login` and `password` into its form and sends it: the form's answer. */
async function typeIntoLogin(page: Page, width: number, login: string, password: string): Promise<Response> {
  const form = (await page.goto("/login?next=%2Fme%2Fuploads"))!;
  expect(form.status()).toBe(200);
  await expect(heading(page)).resolves.toBe("Sign in");
  await checkPage(page, await form.text(), width);
  await page.getByLabel("E-mail address or username").fill(login);
  await page.getByLabel("Password").fill(password);
  return submitForm(page, page.getByRole("button", { name: "Sign in" }));
}

describe.skipIf(missing !== null)("LDAP sign-in in Chromium, against slapd", () => {
  let app: BrowserApp;
  const dns: Record<string, string> = {};
  beforeAll(async () => {
    slapd = await startSlapd();
    dns.ada = slapd.addPerson({ uid: "ada", password: "ada-directory-pw", cn: "A. Lovelace", sn: "Lovelace", mail: "ada@uni.example", displayName: "Ada Lovelace" });
    dns.ben = slapd.addPerson({ uid: "ben", password: "ben-directory-pw", cn: "Ben Franklin", sn: "Franklin", mail: "ben@uni.example" });
    dns.cleo = slapd.addPerson({ uid: "cleo", password: "cleo-directory-pw", cn: "Cleo Directory", sn: "Directory", mail: "cleo@uni.example" });
    dns.dev = slapd.addPerson({ uid: "dev", password: "dev-directory-pw", cn: "Dev Directory", sn: "Directory", mail: "dev@uni.example" });
    app = await startBrowserApp(settings());
  });
  afterAll(async () => {
    await app?.stop();
    await slapd?.close();
  });

  for (const [label, width, uid, password, email, name] of [
    ["desktop", WIDTHS.desktop, "ada", "ada-directory-pw", "ada@uni.example", "Ada Lovelace"],
    ["phone", WIDTHS.phone, "ben", "ben-directory-pw", "ben@uni.example", "Ben Franklin"],
  ] as const) {
    test(`${label}: the directory username and password typed into /login: signed in at next, the account made from the entry`, async () => {
      const person = await app.browser.newContext({ baseURL: app.base, viewport: { width, height: 800 } });
      try {
        const page = await person.newPage();
        expect(await app.services.users.findUserByEmail(systemActor, email)).toBeNull();
        const answer = await typeIntoLogin(page, width, uid, password);
        expect(answer.status()).toBe(303);
        await page.waitForURL(`${app.base}/me/uploads`);
        await expect(page.getByRole("button", { name: `Sign out (${name})` }).isVisible()).resolves.toBe(true);
        await checkPage(page, await (await page.request.get(page.url())).text(), width);

        // The account: the entry's address and name, confirmed, no password of its own; the session its.
        const account = (await app.services.users.findUserByEmail(systemActor, email))!;
        expect(account).toMatchObject({ email, fullName: name, passwordHash: null, active: true, isAdmin: false, confirmedAt: app.clock.now() });
        expect((await app.services.sessions.resolve((await sessionCookie(person))!))!.actor.userId).toBe(account.id);
        expect((await identities(app)).filter((i) => i.user_id === account.id)).toEqual([{ subject: slapd.entryUuid(dns[uid]!), user_id: account.id, email }]);
      } finally {
        await person.close();
      }
    }, 60_000);

    test(`${label}: a wrong directory password: the one refusal in an alert, the login kept, no session, no account`, async () => {
      const person = await app.browser.newContext({ baseURL: app.base, viewport: { width, height: 800 } });
      try {
        const page = await person.newPage();
        const who = label === "desktop" ? "cleo" : "dev";
        const answer = await typeIntoLogin(page, width, who, "not-the-directory-password");
        expect(answer.status()).toBe(400);
        expect(new URL(page.url()).pathname).toBe("/login");
        await expect(heading(page)).resolves.toBe("Sign in");
        await expect(page.getByRole("alert").textContent()).resolves.toBe(GENERIC_REFUSAL);
        await expect(page.getByLabel("E-mail address or username").inputValue()).resolves.toBe(who);
        await expect(page.getByLabel("Password").inputValue()).resolves.toBe("");
        await checkPage(page, await answer.text(), width);
        expect(await sessionCookie(person)).toBeUndefined();
        expect(await app.services.users.findUserByEmail(systemActor, `${who}@uni.example`)).toBeNull();

        // The same form, now with the right password, signs in.
        await page.getByLabel("Password").fill(`${who}-directory-pw`);
        const right = await submitForm(page, page.getByRole("button", { name: "Sign in" }));
        expect(right.status()).toBe(303);
        await page.waitForURL(`${app.base}/me/uploads`);
        await expect(page.getByRole("button", { name: `Sign out (${who === "cleo" ? "Cleo Directory" : "Dev Directory"})` }).isVisible()).resolves.toBe(true);
      } finally {
        await person.close();
      }
    }, 60_000);
  }

  describe("local passwords off (ACCOUNTS_LOCAL_LOGIN_ENABLED false), the directory on", () => {
    let off: BrowserApp;
    beforeAll(async () => {
      slapd.addPerson({ uid: "eve", password: "eve-directory-pw", cn: "Eve Example", sn: "Example", mail: "eve@uni.example", displayName: "Eve Example" });
      slapd.addPerson({ uid: "fin", password: "fin-directory-pw", cn: "Fin Example", sn: "Example", mail: "fin@uni.example", displayName: "Fin Example" });
      off = await startBrowserApp(settings({ ACCOUNTS_LOCAL_LOGIN_ENABLED: false, ACCOUNTS_REGISTERABLE: true, LDAP_TITLE: "University directory" }));
    });
    afterAll(async () => {
      await off?.stop();
    });

    for (const [label, width, uid, name] of [
      ["desktop", WIDTHS.desktop, "eve", "Eve Example"],
      ["phone", WIDTHS.phone, "fin", "Fin Example"],
    ] as const) {
      test(`${label}: /login shows the form for the directory without the password links, and a directory person signs in through it`, async () => {
        const person = await off.browser.newContext({ baseURL: off.base, viewport: { width, height: 800 } });
        try {
          const page = await person.newPage();
          const login = (await page.goto("/login?next=/me/uploads"))!;
          expect(login.status()).toBe(200);
          await expect(heading(page)).resolves.toBe("Sign in");
          await expect(page.getByText("Sign in with the username and password of your university directory.", { exact: true }).isVisible()).resolves.toBe(true);
          await expect(page.getByLabel("E-mail address or username").isVisible()).resolves.toBe(true);
          await expect(page.getByRole("link", { name: "Forgot your password?" }).count()).resolves.toBe(0);
          await expect(page.getByRole("link", { name: "Sign up" }).count()).resolves.toBe(0);
          await checkPage(page, await login.text(), width);

          await page.getByLabel("E-mail address or username").fill(uid);
          await page.getByLabel("Password").fill(`${uid}-directory-pw`);
          const answer = await submitForm(page, page.getByRole("button", { name: "Sign in" }));
          expect(answer.status()).toBe(303);
          await page.waitForURL(`${off.base}/me/uploads`);
          await expect(page.getByRole("button", { name: `Sign out (${name})` }).isVisible()).resolves.toBe(true);
          await checkPage(page, await (await page.request.get(page.url())).text(), width);
          const account = (await off.services.users.findUserByEmail(systemActor, `${uid}@uni.example`))!;
          expect(account).toMatchObject({ fullName: name, passwordHash: null });
          expect((await off.services.sessions.resolve((await sessionCookie(person))!))!.actor.userId).toBe(account.id);
        } finally {
          await person.close();
        }
      }, 60_000);
    }
  });
});
