// Account settings → linked accounts in a real browser, at a desktop's and a phone's width: signed in
// with a password, "Link" goes through the provider's own login and consent pages (oidc-provider's,
// on 127.0.0.1) and back to the page with the account listed, then "Unlink" removes it; an account
// whose only way in is its provider is refused the unlink, saying why. A SAML IdP (samlify on
// `localhost`, another site, posting its response to the ACS cross-site) is linked the same way.
// Pages checked with axe and html-validate.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { systemActor } from "../../src/core/actor";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";
import { startSamlIdp, type TestSamlIdp } from "../helpers/saml-idp";

const PATH = "/account/settings/linked-accounts";
const SECRET = "cairn-client-secret";
let app: BrowserApp;
let op: TestOidcProvider;
let idp: TestSamlIdp;

beforeAll(async () => {
  app = await startBrowserApp(async (base) => {
    op = await startOidcProvider([{ client_id: "cairn", client_secret: SECRET, redirect_uris: ["uni", "lab"].map((name) => `${base}/oauth/authorized/${name}`) }]);
    idp = await startSamlIdp({ now: () => app.clock.now() } as Parameters<typeof startSamlIdp>[0], "localhost");
    return {
      SAML_IDPS: [{ name: "shib", title: "Campus SSO", metadata_file: idp.metadataFile }],
      OIDC_PROVIDERS: [
        { name: "uni", title: "University account", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, trust_email: true },
        { name: "lab", title: "Lab directory", issuer: op.issuer, client_id: "cairn", client_secret: SECRET },
      ],
    };
  });
  app.clock.set(Date.now());
  idp.useSpMetadata("shib", await (await fetch(`${app.base}/saml/metadata/shib`)).text());
  for (const name of ["dora", "erin", "hana"]) {
    await app.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
    op.people.set(`${name}-uni-sub`, { email: `${name}.uni@uni.example`, email_verified: true, name: `${name} at the university` });
  }
  op.people.set("gil-lab-sub", { email: "gil@example.org", email_verified: true, name: "Gil at the lab" });
  await app.services.users.createUser(systemActor, { email: "gil@example.org", username: "gil", password: "gil-password" });
  op.people.set("fay-sub", { email: "fay@uni.example", email_verified: true, name: "Fay Provider-Only" });
});
afterAll(async () => {
  await app.stop();
  await op.close();
  await idp.close();
});

const WIDTHS = { desktop: 1280, phone: 375 } as const;

/** No serious axe violations, valid markup (the page as served now), nothing wider than the screen. */
async function checkPage(page: Page, width: number) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await htmlErrors(await (await page.request.get(page.url())).text())).toEqual([]);
  expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(width);
}

/** The provider's own login and consent pages, as `login`; back on Cairn at `landing`. */
async function atProvider(page: Page, login: string, landing: (url: URL) => boolean) {
  await page.waitForURL((url) => url.origin === op.issuer && url.pathname.startsWith("/interaction/"));
  await page.getByRole("textbox", { name: "Enter any login" }).fill(login);
  await page.getByPlaceholder("and password").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(landing);
}

const status = (page: Page) => page.getByRole("status").textContent();

describe("linked accounts", () => {
  for (const [label, width, name] of [
    ["desktop", WIDTHS.desktop, "dora"],
    ["phone", WIDTHS.phone, "erin"],
  ] as const) {
    test(`${label}: Link through the provider, listed, then Unlink`, async () => {
      const person = await app.browser.newContext({ baseURL: app.base, viewport: { width, height: 800 } });
      try {
        const page = await person.newPage();
        await signIn(page, name, `${name}-password`, PATH);
        await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Linked accounts");
        await expect(page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Linked accounts" }).getAttribute("aria-current")).resolves.toBe("page");
        await expect(page.getByText("No other account is linked to yours").count()).resolves.toBe(1);
        await checkPage(page, width);

        await page.getByRole("link", { name: "Link University account" }).click();
        await atProvider(page, `${name}-uni-sub`, (url) => url.pathname === PATH && url.search === "?linked=uni");
        await expect(status(page)).resolves.toBe("Your University account is now linked: you can sign in with it.");
        const table = page.getByRole("table", { name: "Accounts linked to yours" });
        await expect(table.getByRole("rowheader").allTextContents()).resolves.toEqual(["University account"]);
        await expect(table.getByRole("cell", { name: `${name}.uni@uni.example` }).count()).resolves.toBe(1);
        await expect(page.getByRole("link", { name: "Link University account" }).count()).resolves.toBe(0);
        await expect(page.getByRole("link", { name: "Link Lab directory" }).isVisible()).resolves.toBe(true);
        await checkPage(page, width);

        const unlinked = await submitForm(page, page.getByRole("button", { name: "Unlink University account" }));
        expect(unlinked.status()).toBe(303);
        await expect(status(page)).resolves.toBe("University account is unlinked: it no longer signs you in.");
        await expect(page.getByRole("table").count()).resolves.toBe(0);
        const account = (await app.services.users.findUserByEmail(systemActor, `${name}@example.org`))!;
        expect((await app.services.linkedAccounts.listLinkedAccounts(systemActor, account.id)).identities).toEqual([]);
      } finally {
        await person.close();
      }
    });
  }

  test("an account with no password cannot unlink its only way in: the page says why", async () => {
    const person = await app.browser.newContext({ baseURL: app.base, viewport: { width: WIDTHS.phone, height: 800 } });
    try {
      const page = await person.newPage();
      await page.goto(`/oauth/login/uni?next=${encodeURIComponent(PATH)}`);
      await atProvider(page, "fay-sub", (url) => url.pathname === PATH);
      await expect(page.getByText("Your account has no password: keep at least one linked.").count()).resolves.toBe(1);
      const refused = await submitForm(page, page.getByRole("button", { name: "Unlink University account" }));
      expect(refused.status()).toBe(409);
      await expect(page.getByRole("alert").textContent()).resolves.toContain("University account is the only way to sign in to this account (it has no password)");
      await expect(page.getByRole("table", { name: "Accounts linked to yours" }).getByRole("rowheader").allTextContents()).resolves.toEqual(["University account"]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await htmlErrors(await refused.text())).toEqual([]);
      expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(WIDTHS.phone);
    } finally {
      await person.close();
    }
  });

  test("an untrusted provider's address is an existing account's: its password, signed in on the page it leads to, links it", async () => {
    const person = await app.browser.newContext({ baseURL: app.base, viewport: { width: WIDTHS.phone, height: 800 } });
    try {
      const page = await person.newPage();
      await page.goto("/login");
      await page.getByRole("link", { name: "Sign in with Lab directory" }).click();
      await atProvider(page, "gil-lab-sub", (url) => url.pathname === "/oauth/link");
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("An account with this address exists");
      await expect(page.getByLabel("E-mail address or username").inputValue()).resolves.toBe("gil@example.org");
      await checkPage(page, WIDTHS.phone);
      // checkPage fetched the page again, which gave the form a new token: the browser shows that one.
      await page.reload();
      await page.getByLabel("Password").fill("gil-password");
      await submitForm(page, page.getByRole("button", { name: "Sign in and link" }));
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(`${PATH}?linked=lab`);
      await expect(status(page)).resolves.toBe("Your Lab directory is now linked: you can sign in with it.");
      await expect(page.getByRole("table", { name: "Accounts linked to yours" }).getByRole("rowheader").allTextContents()).resolves.toEqual(["Lab directory"]);
      await checkPage(page, WIDTHS.phone);
    } finally {
      await person.close();
    }
  });

  test("a SAML IdP: Link goes to the IdP, whose page posts to the ACS cross-site, and back to the page with it listed; still signed in as before", async () => {
    idp.loginAs(
      { nameId: "hana-persistent", attributes: { "urn:oid:1.3.6.1.4.1.5923.1.1.1.6": ["hana@uni.example"], "urn:oid:0.9.2342.19200300.100.1.3": ["hana.sso@uni.example"] } },
      "shib",
    );
    const person = await app.browser.newContext({ baseURL: app.base, viewport: { width: WIDTHS.desktop, height: 800 } });
    try {
      const page = await person.newPage();
      await signIn(page, "hana", "hana-password", PATH);
      const before = (await person.cookies()).find((c) => c.name === "cairn_session")!.value;
      await page.getByRole("link", { name: "Link Campus SSO" }).click();
      await page.waitForURL((url) => url.pathname === PATH && url.search === "?linked=saml%3Ashib", { timeout: 15_000 });
      await expect(status(page)).resolves.toBe("Your Campus SSO is now linked: you can sign in with it.");
      const table = page.getByRole("table", { name: "Accounts linked to yours" });
      await expect(table.getByRole("rowheader").allTextContents()).resolves.toEqual(["Campus SSO"]);
      await expect(table.getByRole("cell", { name: "hana.sso@uni.example" }).count()).resolves.toBe(1);
      await expect(page.getByRole("link", { name: "Link Campus SSO" }).count()).resolves.toBe(0);
      const cookies = await person.cookies();
      expect(cookies.find((c) => c.name === "cairn_session")!.value).toBe(before);
      expect(cookies.find((c) => c.name === "cairn_saml")).toBeUndefined();
      const hana = (await app.services.users.findUserByEmail(systemActor, "hana@example.org"))!;
      expect((await app.services.linkedAccounts.listLinkedAccounts(systemActor, hana.id)).identities.map((i) => `${i.provider}/${i.subject}`)).toEqual([
        "saml:shib/hana@uni.example",
      ]);
      await checkPage(page, WIDTHS.desktop);
    } finally {
      await person.close();
    }
  });
});
