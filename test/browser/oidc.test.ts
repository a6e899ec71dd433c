// Signing in through an OpenID Connect provider in a real browser (issue 31 item 8): Cairn's
// /login with only the providers' buttons (ACCOUNTS_LOCAL_LOGIN_ENABLED off), the button, the
// provider's own login and consent pages (oidc-provider's, on 127.0.0.1), and back to Cairn signed
// in at the page asked for, at a desktop's and a phone's width; Cairn's pages checked with axe.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { htmlErrors, seriousAxeViolations, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";

let app: BrowserApp;
let op: TestOidcProvider;
const SECRET = "cairn-client-secret";

beforeAll(async () => {
  app = await startBrowserApp(async (base) => {
    op = await startOidcProvider([{ client_id: "cairn", client_secret: SECRET, redirect_uris: ["uni", "lab"].map((name) => `${base}/oauth/authorized/${name}`) }]);
    return {
      ACCOUNTS_LOCAL_LOGIN_ENABLED: false,
      OIDC_PROVIDERS: [
        { name: "uni", title: "University account", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, trust_email: true },
        { name: "lab", title: "Lab directory", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, trust_email: true },
      ],
    };
  });
  // oidc-provider stamps its tokens with the system's time: Cairn's clock starts there.
  app.clock.set(Date.now());
  op.people.set("ada-sub", { email: "ada@uni.example", email_verified: true, name: "Ada Lovelace" });
  op.people.set("ben-sub", { email: "ben@uni.example", email_verified: true, name: "Ben Okafor" });
});
afterAll(async () => {
  await app.stop();
  await op.close();
});

const WIDTHS = { desktop: 1280, phone: 375 } as const;

/** No serious axe violations and nothing wider than the screen (and, given the served HTML, valid markup). */
async function checkPage(page: Page, width: number, html?: string) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  if (html !== undefined) expect(await htmlErrors(html)).toEqual([]);
  expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(width);
}

describe("signing in through the provider", () => {
  for (const [label, width, login, name] of [
    ["desktop", WIDTHS.desktop, "ada-sub", "Ada Lovelace"],
    ["phone", WIDTHS.phone, "ben-sub", "Ben Okafor"],
  ] as const) {
    test(`${label}: the button, the provider's login page, back to Cairn signed in at next`, async () => {
      const person = await app.browser.newContext({ baseURL: app.base, viewport: { width, height: 800 } });
      try {
        const page = await person.newPage();
        const loginPage = await page.goto("/login?next=/me/uploads");
        expect(loginPage!.status()).toBe(200);
        await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Sign in");
        // Local sign-in is off: the providers' buttons only.
        await expect(page.getByRole("link", { name: "Sign in with University account" }).isVisible()).resolves.toBe(true);
        await expect(page.getByRole("link", { name: "Sign in with Lab directory" }).isVisible()).resolves.toBe(true);
        await expect(page.getByLabel("Password").count()).resolves.toBe(0);
        await expect(page.getByRole("link", { name: "Forgot your password?" }).count()).resolves.toBe(0);
        await checkPage(page, width, await loginPage!.text());

        await page.getByRole("link", { name: "Sign in with University account" }).click();
        // The provider's own login page (oidc-provider's), on its own origin.
        await page.waitForURL((url) => url.origin === op.issuer && url.pathname.startsWith("/interaction/"));
        await page.getByRole("textbox", { name: "Enter any login" }).fill(login);
        await page.getByPlaceholder("and password").fill("any password");
        await page.getByRole("button", { name: "Sign-in" }).click();
        // Its consent page, then back to Cairn.
        await page.getByRole("button", { name: "Continue" }).click();
        await page.waitForURL(`${app.base}/me/uploads`);

        await expect(page.getByRole("button", { name: `Sign out (${name})` }).isVisible()).resolves.toBe(true);
        await checkPage(page, width);
        const account = await app.services.users.findUserByEmail({ kind: "system" }, login === "ada-sub" ? "ada@uni.example" : "ben@uni.example");
        expect(account).toMatchObject({ fullName: name });
        expect(account!.confirmedAt).not.toBeNull();
      } finally {
        await person.close();
      }
    });
  }
});
