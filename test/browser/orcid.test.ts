// Signing in with ORCID in a real browser (issue 31 item 8): a provider of `type = "orcid"` played
// by oidc-provider (its own login and consent pages, on 127.0.0.1), which gives an ORCID iD and a
// name but no e-mail address: the "Sign in with ORCID" button, the provider's pages, Cairn's e-mail
// step ("Welcome, …"), "Check your mail", the mailed link (through a real SMTP server) opened in the
// same browser and its button pressed: signed in, the ORCID iD on the profile. The same link opened
// in another browser is refused, saying where to open it. An untrusted OpenID Connect provider's
// first sign-in: "Check your mail" with no form, its mailed link opened in the same browser signs
// in. Every Cairn page of these flows (and /oauth/link's "sign in to link" page) checked with axe,
// html-validate and its width, at a desktop's and a phone's width.
//
// Clock: oidc-provider stamps its tokens with the system's time, so Cairn's ManualClock is set to it
// once at the start (as test/api/oidc.test.ts does); nothing here waits for time to pass.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page, Response } from "playwright-core";
import { systemActor } from "../../src/core/actor";
import { htmlErrors, seriousAxeViolations, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";
import { linkIn, startSmtp, type ReceivedMessage, type TestSmtp } from "../helpers/smtp";

const SECRET = "cairn-client-secret";
const WIDTHS = { desktop: 1280, phone: 375 } as const;
const OTHER_BROWSER = "Open this link in the browser you signed in from with your provider (the link works only there), or sign in with your provider again.";

let app: BrowserApp;
let op: TestOidcProvider;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startBrowserApp(async (base) => {
    op = await startOidcProvider([{ client_id: "cairn", client_secret: SECRET, redirect_uris: ["orcid", "uni"].map((name) => `${base}/oauth/authorized/${name}`) }]);
    return {
      ...smtp.config,
      OIDC_PROVIDERS: [
        // ORCID's part: a subject that is an ORCID iD, a name, no e-mail address.
        { name: "orcid", title: "ORCID", type: "orcid", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, scopes: ["openid", "profile"] },
        // Not trusted for e-mail addresses: a new one is proved by a mailed link first.
        { name: "uni", title: "University account", issuer: op.issuer, client_id: "cairn", client_secret: SECRET },
      ],
    };
  });
  // oidc-provider stamps its tokens with the system's time: Cairn's clock starts there.
  app.clock.set(Date.now());
  op.people.set("0000-0002-1825-0097", { name: "Josiah Carberry" });
  op.people.set("0000-0001-5109-3700", { name: "Maria Example" });
  op.people.set("carl-sub", { email: "carl@uni.example", email_verified: true, name: "Carl Untrusted" });
  op.people.set("dina-sub", { email: "dina@uni.example", email_verified: true, name: "Dina Untrusted" });
  op.people.set("gil-sub", { email: "gil@example.org", email_verified: true, name: "Gil at the university" });
  await app.services.users.createUser(systemActor, { email: "gil@example.org", username: "gil", password: "gil-password" });
});
afterAll(async () => {
  await app?.stop();
  await op?.close();
  await smtp?.stop();
});

/** No serious axe violations, valid markup (the page as the server sent it), nothing wider than the screen. */
async function checkPage(page: Page, html: string, width: number) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await htmlErrors(html)).toEqual([]);
  expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(width);
}

const browserAt = (width: number): Promise<BrowserContext> => app.browser.newContext({ baseURL: app.base, viewport: { width, height: 800 } });
const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();
const sessionOf = async (person: BrowserContext) => (await person.cookies()).find((c) => c.name === "cairn_session")?.value;
const userOfSession = async (person: BrowserContext) => {
  const secret = await sessionOf(person);
  return secret ? ((await app.services.sessions.resolve(secret))?.actor.userId ?? null) : null;
};

/** The messages delivered to `address` so far, after the outbox has been sent over SMTP. */
async function mailTo(address: string): Promise<ReceivedMessage[]> {
  await app.services.mail.deliverPending();
  return smtp.to(address);
}

/**
 * From /login (checked), the provider's button, its own login and consent pages as `login`, back to
 * Cairn: the page the browser lands on (a GET whose path is `landing`), with the HTML it was served.
 */
async function throughProvider(page: Page, width: number, button: string, login: string, landing: string): Promise<Response> {
  const loginPage = (await page.goto("/login?next=%2Fme%2Fuploads"))!;
  expect(loginPage.status()).toBe(200);
  await checkPage(page, await loginPage.text(), width);
  await page.getByRole("link", { name: button }).click();
  await page.waitForURL((url) => url.origin === op.issuer && url.pathname.startsWith("/interaction/"));
  await page.getByRole("textbox", { name: "Enter any login" }).fill(login);
  await page.getByPlaceholder("and password").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  const landed = page.waitForResponse((r) => r.request().method() === "GET" && r.request().resourceType() === "document" && new URL(r.url()).pathname === landing, {
    timeout: 15_000,
  });
  await page.getByRole("button", { name: "Continue" }).click();
  const response = await landed.catch((error: Error) => {
    throw new Error(`back from the provider, the browser did not land on ${landing} (it is at ${page.url()}): ${error.message}`);
  });
  await page.waitForLoadState("load");
  expect(new URL(page.url()).pathname).toBe(landing);
  return response;
}

/** Opens the mailed link (its page checked) and presses its button: the button's answer. */
async function useLink(page: Page, width: number, link: string, email: string): Promise<Response> {
  const opened = (await page.goto(link))!;
  expect(opened.status()).toBe(200);
  await expect(heading(page)).resolves.toBe("Finish signing in");
  await expect(page.getByText(`Confirm ${email} as your e-mail address and sign in.`).isVisible()).resolves.toBe(true);
  await checkPage(page, await opened.text(), width);
  return submitForm(page, page.getByRole("button", { name: "Confirm and sign in" }));
}

describe("ORCID in Chromium: the provider's pages, the e-mail step, the mailed link", () => {
  for (const [label, width, orcid, name, email] of [
    ["desktop", WIDTHS.desktop, "0000-0002-1825-0097", "Josiah Carberry", "josiah@uni.example"],
    ["phone", WIDTHS.phone, "0000-0001-5109-3700", "Maria Example", "maria@uni.example"],
  ] as const) {
    test(`${label}: the button, ORCID's login, the address asked and mailed, the link refused in another browser and signing in in this one, the iD on the profile`, async () => {
      const person = await browserAt(width);
      const other = await browserAt(width);
      try {
        const page = await person.newPage();
        // The e-mail step: ORCID gave a name and an iD, no address.
        const step = await throughProvider(page, width, "Sign in with ORCID", orcid, "/oauth/signup/orcid");
        expect(step.status()).toBe(200);
        await expect(heading(page)).resolves.toBe("Your e-mail address");
        await expect(page.getByText(`Welcome, ${name}.`, { exact: false }).isVisible()).resolves.toBe(true);
        await checkPage(page, await step.text(), width);
        expect(await sessionOf(person)).toBeUndefined();

        // A bad address: the field says why, and nothing is sent.
        await page.getByLabel("E-mail address").fill("not-an-address@example");
        const refused = await submitForm(page, page.getByRole("button", { name: "Send the link" }));
        expect(refused.status()).toBe(400);
        await expect(page.getByLabel("E-mail address").getAttribute("aria-invalid")).resolves.toBe("true");
        await checkPage(page, await refused.text(), width);

        await page.getByLabel("E-mail address").fill(email);
        const sent = await submitForm(page, page.getByRole("button", { name: "Send the link" }));
        expect(sent.status()).toBe(200);
        await expect(heading(page)).resolves.toBe("Check your mail");
        await expect(page.getByRole("status").textContent()).resolves.toBe(`To finish signing in, open the link we sent to ${email}.`);
        await checkPage(page, await sent.text(), width);
        expect(await app.services.users.findUserByEmail(systemActor, email)).toBeNull();

        const mail = await mailTo(email);
        expect(mail.map((m) => m.subject)).toEqual(["Cairn: confirm your e-mail address"]);
        const link = linkIn(mail[0]!, app.base, "/oauth/confirm");

        // The mailbox's owner opening the link in another browser: refused there, saying where to open it; nothing made.
        const elsewhere = await other.newPage();
        const refusedThere = await useLink(elsewhere, width, link, email);
        expect(refusedThere.status()).toBe(403);
        await expect(heading(elsewhere)).resolves.toBe("Not allowed");
        await expect(elsewhere.getByText(OTHER_BROWSER, { exact: true }).isVisible()).resolves.toBe(true);
        await checkPage(elsewhere, await refusedThere.text(), width);
        expect(await sessionOf(other)).toBeUndefined();
        expect(await app.services.users.findUserByEmail(systemActor, email)).toBeNull();

        // In the browser that signed in with ORCID: the account, signed in at next.
        const done = await useLink(page, width, link, email);
        expect(done.status()).toBe(303);
        await page.waitForURL(`${app.base}/me/uploads`);
        await expect(page.getByRole("button", { name: `Sign out (${name})` }).isVisible()).resolves.toBe(true);
        const account = (await app.services.users.findUserByEmail(systemActor, email))!;
        expect(account).toMatchObject({ email, fullName: name, orcid, passwordHash: null, confirmedAt: app.clock.now() });
        expect(await userOfSession(person)).toBe(account.id);
        expect(await userOfSession(other)).toBeNull();

        const profile = (await page.goto("/account/settings/profile"))!;
        expect(profile.status()).toBe(200);
        await expect(page.getByLabel("ORCID iD").inputValue()).resolves.toBe(orcid);
        await expect(page.getByLabel("E-mail address").inputValue()).resolves.toBe(email);
        await checkPage(page, await profile.text(), width);

        // The link worked once: opened again, in the other browser, it is gone.
        const again = (await elsewhere.goto(link))!;
        expect(again.status()).toBe(410);
        await checkPage(elsewhere, await again.text(), width);
      } finally {
        await person.close();
        await other.close();
      }
    }, 60_000);
  }
});

describe("an untrusted OpenID Connect provider's first sign-in in Chromium", () => {
  for (const [label, width, sub, name, email] of [
    ["desktop", WIDTHS.desktop, "carl-sub", "Carl Untrusted", "carl@uni.example"],
    ["phone", WIDTHS.phone, "dina-sub", "Dina Untrusted", "dina@uni.example"],
  ] as const) {
    test(`${label}: 'Check your mail' with no form, the mailed link opened in this browser signs in at next`, async () => {
      const person = await browserAt(width);
      try {
        const page = await person.newPage();
        const back = await throughProvider(page, width, "Sign in with University account", sub, "/oauth/authorized/uni");
        expect(back.status()).toBe(200);
        await expect(heading(page)).resolves.toBe("Check your mail");
        await expect(page.getByRole("status").textContent()).resolves.toBe(`To finish signing in, open (in this browser) the link we sent to ${email}.`);
        await expect(page.getByRole("main").locator("form").count()).resolves.toBe(0);
        await expect(page.getByRole("textbox").count()).resolves.toBe(0);
        await checkPage(page, await back.text(), width);
        expect(await sessionOf(person)).toBeUndefined();
        expect(await app.services.users.findUserByEmail(systemActor, email)).toBeNull();

        const mail = await mailTo(email);
        expect(mail.map((m) => m.subject)).toEqual(["Cairn: confirm your e-mail address"]);
        const done = await useLink(page, width, linkIn(mail[0]!, app.base, "/oauth/confirm"), email);
        expect(done.status()).toBe(303);
        await page.waitForURL(`${app.base}/me/uploads`);
        await expect(page.getByRole("button", { name: `Sign out (${name})` }).isVisible()).resolves.toBe(true);
        const account = (await app.services.users.findUserByEmail(systemActor, email))!;
        expect(account).toMatchObject({ email, fullName: name, passwordHash: null, confirmedAt: app.clock.now() });
        expect(await userOfSession(person)).toBe(account.id);
      } finally {
        await person.close();
      }
    }, 60_000);
  }

  for (const [label, width] of [
    ["desktop", WIDTHS.desktop],
    ["phone", WIDTHS.phone],
  ] as const) {
    test(`${label}: an address that is an existing account's: /oauth/link asks to sign in to it (page checked), nothing signed in yet`, async () => {
      const person = await browserAt(width);
      try {
        const page = await person.newPage();
        const link = await throughProvider(page, width, "Sign in with University account", "gil-sub", "/oauth/link");
        expect(link.status()).toBe(200);
        await expect(heading(page)).resolves.toBe("An account with this address exists");
        await expect(page.getByLabel("E-mail address or username").inputValue()).resolves.toBe("gil@example.org");
        await expect(page.getByRole("button", { name: "Sign in and link" }).isVisible()).resolves.toBe(true);
        await checkPage(page, await link.text(), width);
        expect(await sessionOf(person)).toBeUndefined();
      } finally {
        await person.close();
      }
    }, 60_000);
  }
});
