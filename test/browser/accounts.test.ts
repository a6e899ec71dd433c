// People's own accounts in a real browser, with the mail going through a real SMTP server: signing
// up and confirming the address from the mailed link, a forgotten password reset by mail, the
// profile (ORCID iD checked, a new e-mail address confirmed from itself) prefilling a new upload's
// first creator, changing the password signing out the other browsers, and the pages'
// accessibility and markup at a desktop's and a phone's width.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { systemActor } from "../../src/core/actor";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";
import { linkIn, startSmtp, type ReceivedMessage, type TestSmtp } from "../helpers/smtp";

let app: BrowserApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  app = await startBrowserApp({ ACCOUNTS_REGISTERABLE: true, ...smtp.config });
  for (const name of ["dora", "erin", "fay"]) await app.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
});
afterAll(async () => {
  await app.stop();
  await smtp.stop();
});

const WIDTHS = { desktop: 1280, phone: 375 } as const;
const browserAt = (width: number): Promise<BrowserContext> => app.browser.newContext({ baseURL: app.base, viewport: { width, height: 800 } });

/** The messages delivered to `address` so far, after the outbox has been sent over SMTP. */
async function mailTo(address: string): Promise<ReceivedMessage[]> {
  await app.services.mail.deliverPending();
  return smtp.to(address);
}

/** What a screen reader reads after a field's name: the texts of its aria-describedby elements. */
async function descriptionOf(page: Page, field: Locator): Promise<string> {
  const ids = ((await field.getAttribute("aria-describedby")) ?? "").split(/\s+/).filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.map((t) => (t ?? "").trim()).join(" | ");
}

/** No serious axe violations, valid markup, and nothing wider than the screen. */
async function checkPage(page: Page, html: string, width: number) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await htmlErrors(html)).toEqual([]);
  expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(width);
}

const status = (page: Page) => page.getByRole("status").textContent();
const alert = (page: Page) => page.getByRole("alert").textContent();
const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();

describe("accounts", () => {
  test("sign-up: its fields' messages, 'Check your mail', no sign-in before the mailed link's button confirms the address, a new link replacing the old", async () => {
    const person = await browserAt(WIDTHS.phone);
    const page = await person.newPage();
    await page.goto("/login");
    await page.getByRole("link", { name: "Sign up" }).click();
    await page.waitForURL((url) => url.pathname === "/signup");
    await expect(heading(page)).resolves.toBe("Sign up");

    // A bad address and a short password: each field says why, tied to its input.
    // An address the browser lets through (type=email) but the server does not: no dot in its domain.
    await page.getByLabel("E-mail address", { exact: true }).fill("carol@example");
    await page.getByLabel("Password", { exact: true }).fill("short");
    const refused = await submitForm(page, page.getByRole("button", { name: "Sign up" }));
    expect(refused.status()).toBe(400);
    await expect(alert(page)).resolves.toBe("Nothing was sent: see the messages below.");
    const email = page.getByLabel("E-mail address", { exact: true });
    await expect(email.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(descriptionOf(page, email)).resolves.toBe("Not a valid e-mail address.");
    const password = page.getByLabel("Password", { exact: true });
    await expect(password.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(descriptionOf(page, password)).resolves.toBe("At least 8 characters. | A password has at least 8 characters.");
    await expect(page.getByLabel("Full name").getAttribute("aria-invalid")).resolves.toBeNull();
    await checkPage(page, await refused.text(), WIDTHS.phone);
    expect(await mailTo("carol@example")).toEqual([]);

    await email.fill("carol@example.net");
    await page.getByLabel("Full name").fill("Carol Hughes");
    await password.fill("carol-password-1");
    const sent = await submitForm(page, page.getByRole("button", { name: "Sign up" }));
    expect(sent.status()).toBe(200);
    await expect(heading(page)).resolves.toBe("Check your mail");
    await expect(status(page)).resolves.toBe("To finish signing up, open the link we sent to carol@example.net.");
    await checkPage(page, await sent.text(), WIDTHS.phone);
    const first = await mailTo("carol@example.net");
    expect(first.map((m) => m.subject)).toEqual(["Cairn: confirm your e-mail address"]);
    const firstLink = linkIn(first[0]!, app.base, "/account/confirm?token=");

    // Not yet confirmed: the password is right, yet the login page asks for the link first.
    await page.goto("/login");
    await page.getByLabel("E-mail address or username").fill("carol@example.net");
    await page.getByLabel("Password").fill("carol-password-1");
    const early = await submitForm(page, page.getByRole("button", { name: "Sign in" }));
    expect(early.status()).toBe(403);
    await expect(alert(page)).resolves.toContain("Confirm your e-mail address first");
    await page.getByRole("alert").getByRole("link", { name: "Send me a new confirmation link" }).click();
    await page.waitForURL((url) => url.pathname === "/account/confirm/resend");
    await page.getByLabel("E-mail address of your account").fill("carol@example.net");
    await submitForm(page, page.getByRole("button", { name: "Send the link" }));
    await expect(status(page)).resolves.toBe("If an account waits for confirmation at this address, a new link is on its way to carol@example.net.");
    const second = await mailTo("carol@example.net");
    expect(second).toHaveLength(2);
    const secondLink = linkIn(second[1]!, app.base, "/account/confirm?token=");
    expect(secondLink).not.toBe(firstLink);

    // The older link was replaced by the new one.
    await page.goto(firstLink);
    const replaced = await submitForm(page, page.getByRole("button", { name: "Confirm my e-mail address" }));
    expect(replaced.status()).toBe(410);
    await expect(page.getByText("This link no longer works").count()).resolves.toBe(1);

    // Opening the link does nothing by itself (mail scanners fetch links): its button confirms.
    await page.goto(secondLink);
    await expect(heading(page)).resolves.toBe("Confirm your e-mail address");
    await submitForm(page, page.getByRole("button", { name: "Confirm my e-mail address" }));
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/login?done=confirmed");
    await expect(status(page)).resolves.toBe("Your e-mail address is confirmed: you can sign in now.");
    await page.getByLabel("E-mail address or username").fill("carol@example.net");
    await page.getByLabel("Password").fill("carol-password-1");
    await submitForm(page, page.getByRole("button", { name: "Sign in" }));
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.getByRole("button", { name: "Sign out (Carol Hughes)" }).count()).resolves.toBe(1);
    // A used link stays used.
    await page.goto(secondLink);
    const again = await submitForm(page, page.getByRole("button", { name: "Confirm my e-mail address" }));
    expect(again.status()).toBe(410);
    await person.close();
  }, 60_000);

  test("a forgotten password: the same answer for any address, the mailed link sets a new one, which ends the other sessions; the old password is refused", async () => {
    const elsewhere = await browserAt(WIDTHS.phone);
    const elsewherePage = await elsewhere.newPage();
    await signIn(elsewherePage, "bob", "bob-password");

    const person = await browserAt(WIDTHS.desktop);
    const page = await person.newPage();
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.waitForURL((url) => url.pathname === "/lost-password");
    await expect(heading(page)).resolves.toBe("Forgot your password?");
    await page.getByLabel("E-mail address").fill("nobody@example.org");
    await submitForm(page, page.getByRole("button", { name: "Send me a link" }));
    await expect(status(page)).resolves.toBe("If there is an account with this address, a link to set a new password is on its way to nobody@example.org.");
    expect(await mailTo("nobody@example.org")).toEqual([]);

    await page.goto("/lost-password");
    await page.getByLabel("E-mail address").fill("bob@example.org");
    await submitForm(page, page.getByRole("button", { name: "Send me a link" }));
    await expect(status(page)).resolves.toBe("If there is an account with this address, a link to set a new password is on its way to bob@example.org.");
    const mails = await mailTo("bob@example.org");
    expect(mails.map((m) => m.subject)).toEqual(["Cairn: set a new password"]);
    const link = linkIn(mails[0]!, app.base, "/lost-password/reset?token=");

    await page.goto(link);
    await expect(heading(page)).resolves.toBe("Set a new password");
    const field = page.getByLabel("New password");
    await field.fill("short");
    const tooShort = await submitForm(page, page.getByRole("button", { name: "Set the password" }));
    expect(tooShort.status()).toBe(400);
    await expect(field.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(descriptionOf(page, field)).resolves.toBe("At least 8 characters. | A password has at least 8 characters.");
    // The refused password did not use the link up.
    await field.fill("bob-new-password");
    await submitForm(page, page.getByRole("button", { name: "Set the password" }));
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/login?done=password-set");
    await expect(status(page)).resolves.toBe("Your new password is set, and every other session of your account has ended: sign in with it.");

    // One use.
    const used = await page.goto(link);
    expect(used?.status()).toBe(410);
    await expect(page.getByText("This link no longer works").count()).resolves.toBe(1);

    // The browser signed in before is signed out.
    const after = await elsewherePage.goto("/account/settings/profile");
    expect(after?.status()).toBe(401);
    await expect(elsewherePage.getByRole("banner").getByRole("link", { name: "Sign in" }).count()).resolves.toBe(1);

    await page.goto("/login");
    await page.getByLabel("E-mail address or username").fill("bob");
    await page.getByLabel("Password").fill("bob-password");
    await submitForm(page, page.getByRole("button", { name: "Sign in" }));
    await expect(alert(page)).resolves.toContain("do not match an active account");
    await signIn(page, "bob", "bob-new-password");
    await expect(page.getByRole("button", { name: /Sign out/ }).count()).resolves.toBe(1);
    await person.close();
    await elsewhere.close();
  }, 60_000);

  test("the profile: an ORCID iD with a wrong checksum is refused beside its field, a right one saves, and a new upload's first creator is the person", async () => {
    const person = await browserAt(WIDTHS.desktop);
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password");
    await page.getByRole("banner").getByRole("link", { name: "Settings" }).click();
    await page.waitForURL((url) => url.pathname === "/account/settings/profile");
    await expect(heading(page)).resolves.toBe("Profile");
    const nav = page.getByRole("navigation", { name: "Account settings" });
    await expect(nav.getByRole("link", { name: "Profile" }).getAttribute("aria-current")).resolves.toBe("page");
    await expect(nav.getByRole("link", { name: "Password" }).getAttribute("aria-current")).resolves.toBeNull();

    await page.getByLabel("Full name").fill("Alice Liddell");
    await page.getByLabel("Affiliation").fill("University of Oxford");
    const orcid = page.getByLabel("ORCID iD");
    await orcid.fill("0000-0002-1825-0098");
    const refused = await submitForm(page, page.getByRole("button", { name: "Save the profile" }));
    expect(refused.status()).toBe(400);
    await expect(alert(page)).resolves.toBe("Nothing was sent: see the messages below.");
    await expect(orcid.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(descriptionOf(page, orcid)).resolves.toBe(
      "For example 0000-0002-1825-0097; it fills in the first creator of your new uploads. | Not a valid ORCID iD (e.g. 0000-0002-1825-0097): its last character is a checksum.",
    );
    // What was typed stays, so it can be corrected.
    await expect(orcid.inputValue()).resolves.toBe("0000-0002-1825-0098");
    await expect(page.getByLabel("Full name").inputValue()).resolves.toBe("Alice Liddell");
    await checkPage(page, await refused.text(), WIDTHS.desktop);
    await page.goto("/account/settings/profile");
    await expect(page.getByLabel("Full name").inputValue()).resolves.toBe("");

    await page.getByLabel("Full name").fill("Alice Liddell");
    await page.getByLabel("Affiliation").fill("University of Oxford");
    await orcid.fill("0000-0002-1825-0097");
    await submitForm(page, page.getByRole("button", { name: "Save the profile" }));
    expect(new URL(page.url()).search).toBe("?saved=1");
    await expect(status(page)).resolves.toBe("Your profile is saved.");
    await expect(orcid.getAttribute("aria-invalid")).resolves.toBeNull();
    await expect(orcid.inputValue()).resolves.toBe("0000-0002-1825-0097");
    await expect(page.getByLabel("Affiliation").inputValue()).resolves.toBe("University of Oxford");
    await expect(page.getByRole("button", { name: "Sign out (Alice Liddell)" }).count()).resolves.toBe(1);

    // A new upload starts with the person as its first creator.
    await page.getByRole("banner").getByRole("link", { name: "New upload" }).click();
    await page.waitForURL((url) => url.pathname === "/uploads/new");
    const creator = page.getByRole("group", { name: "Creator 1" });
    await expect(creator.getByLabel("Family name").inputValue()).resolves.toBe("Liddell");
    await expect(creator.getByLabel("Given name").inputValue()).resolves.toBe("Alice");
    await expect(creator.getByLabel("ORCID (a person) or ROR id (an organisation)").inputValue()).resolves.toBe("0000-0002-1825-0097");
    await expect(creator.getByRole("button", { name: "Remove University of Oxford" }).count()).resolves.toBe(1);
    await person.close();
  }, 60_000);

  test("the profile's affiliation: typing suggests institutions from the affiliations directory, and one picked is saved", async () => {
    await app.services.vocabularies.create(
      systemActor,
      "affiliations",
      {
        id: "052gg0110",
        name: "University of Oxford",
        identifiers: [{ scheme: "ror", identifier: "052gg0110" }],
      },
      { via: "cli", address: null },
    );
    await app.services.vocabularies.create(
      systemActor,
      "affiliations",
      {
        id: "013meh722",
        name: "University of Cambridge",
        identifiers: [{ scheme: "ror", identifier: "013meh722" }],
      },
      { via: "cli", address: null },
    );
    const person = await browserAt(WIDTHS.phone);
    const page = await person.newPage();
    await signIn(page, "fay", "fay-password");
    await page.goto("/account/settings/profile");
    const affiliation = page.getByLabel("Affiliation");
    await expect(descriptionOf(page, affiliation)).resolves.toBe("Type a few letters to pick your institution from the directory, or write its name.");
    await affiliation.pressSequentially("univ");
    // The browser's suggestion list (the input's datalist) fills from the directory.
    const options = page.locator("#affiliation-suggestions option");
    const suggestions = async () => Promise.all((await options.all()).map((o) => o.getAttribute("value")));
    const option = (name: string) => page.locator(`#affiliation-suggestions option[value="${name}"]`);
    await option("University of Cambridge").waitFor({ state: "attached" });
    await option("University of Oxford").waitFor({ state: "attached" });
    expect((await suggestions()).sort()).toEqual(["University of Cambridge", "University of Oxford"]);
    await affiliation.fill("");
    await affiliation.pressSequentially("oxf");
    await option("University of Cambridge").waitFor({ state: "detached" });
    expect(await suggestions()).toEqual(["University of Oxford"]);
    await affiliation.fill("University of Oxford");
    await submitForm(page, page.getByRole("button", { name: "Save the profile" }));
    await expect(status(page)).resolves.toBe("Your profile is saved.");
    await expect(affiliation.inputValue()).resolves.toBe("University of Oxford");
    await person.close();
  }, 60_000);

  test("a new e-mail address: the profile says where the link went, the address stays until the link's button is pressed, then the new one signs in", async () => {
    const person = await browserAt(WIDTHS.desktop);
    const page = await person.newPage();
    await signIn(page, "fay", "fay-password", "/account/settings/profile");
    await page.getByLabel("Full name").fill("Fay Morgan");
    await page.getByLabel("E-mail address", { exact: true }).fill("fay@uni.example");
    const asked = await submitForm(page, page.getByRole("button", { name: "Save the profile" }));
    expect(asked.status()).toBe(200);
    await expect(status(page)).resolves.toBe(
      "Your profile is saved. To change your e-mail address, open the link we sent to fay@uni.example: until then it stays fay@example.org.",
    );
    await expect(page.getByLabel("E-mail address", { exact: true }).inputValue()).resolves.toBe("fay@example.org");
    expect(await htmlErrors(await asked.text())).toEqual([]);
    expect((await mailTo("fay@example.org")).map((m) => m.subject)).toEqual(["Cairn: a new e-mail address was asked for"]);
    const toNew = await mailTo("fay@uni.example");
    expect(toNew.map((m) => m.subject)).toEqual(["Cairn: confirm your new e-mail address"]);

    const link = linkIn(toNew[0]!, app.base, "/account/confirm-email-change?token=");
    await page.goto(link);
    await expect(heading(page)).resolves.toBe("Confirm your new e-mail address");
    await submitForm(page, page.getByRole("button", { name: "Use this e-mail address" }));
    await expect(heading(page)).resolves.toBe("E-mail address changed");
    await expect(status(page)).resolves.toBe("Your account's e-mail address is now fay@uni.example.");
    await page.goto("/account/settings/profile");
    await expect(page.getByLabel("E-mail address", { exact: true }).inputValue()).resolves.toBe("fay@uni.example");
    // One use.
    await page.goto(link);
    expect((await submitForm(page, page.getByRole("button", { name: "Use this e-mail address" }))).status()).toBe(410);

    // The new address signs in; the old one no longer does.
    const fresh = await browserAt(WIDTHS.phone);
    const freshPage = await fresh.newPage();
    await freshPage.goto("/login");
    await freshPage.getByLabel("E-mail address or username").fill("fay@example.org");
    await freshPage.getByLabel("Password").fill("fay-password");
    await submitForm(freshPage, freshPage.getByRole("button", { name: "Sign in" }));
    await expect(alert(freshPage)).resolves.toContain("do not match an active account");
    await signIn(freshPage, "fay@uni.example", "fay-password");
    await expect(freshPage.getByRole("button", { name: "Sign out (Fay Morgan)" }).count()).resolves.toBe(1);
    await fresh.close();
    await person.close();
  }, 60_000);

  test("the password: a wrong current one is refused beside its field; a change signs out the other browsers", async () => {
    const elsewhere = await browserAt(WIDTHS.desktop);
    const elsewherePage = await elsewhere.newPage();
    await signIn(elsewherePage, "dora", "dora-password");

    const person = await browserAt(WIDTHS.phone);
    const page = await person.newPage();
    await signIn(page, "dora", "dora-password");
    // On a phone the header's links are behind its Menu button.
    await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
    await page.getByRole("banner").getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Password" }).click();
    await page.waitForURL((url) => url.pathname === "/account/settings/password");
    await expect(heading(page)).resolves.toBe("Password");

    const current = page.getByLabel("Current password");
    await current.fill("not-dora-password");
    await page.getByLabel("New password").fill("dora-new-password");
    const refused = await submitForm(page, page.getByRole("button", { name: "Change the password" }));
    expect(refused.status()).toBe(400);
    await expect(current.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(descriptionOf(page, current)).resolves.toBe("This is not the account's current password.");
    await checkPage(page, await refused.text(), WIDTHS.phone);
    // The other browser is still signed in after a refused change.
    expect((await elsewherePage.goto("/account/settings/password"))?.status()).toBe(200);

    await current.fill("dora-password");
    await page.getByLabel("New password").fill("dora-new-password");
    await submitForm(page, page.getByRole("button", { name: "Change the password" }));
    expect(new URL(page.url()).search).toBe("?changed=1");
    await expect(status(page)).resolves.toBe("Your password is changed; every other browser signed in to your account is signed out.");
    // This browser stays signed in.
    await expect(page.getByRole("button", { name: /Sign out/ }).count()).resolves.toBe(1);

    await elsewherePage.goto("/");
    await expect(elsewherePage.getByRole("banner").getByRole("link", { name: "Sign in" }).count()).resolves.toBe(1);
    await expect(elsewherePage.getByRole("button", { name: /Sign out/ }).count()).resolves.toBe(0);
    await signIn(elsewherePage, "dora", "dora-new-password");
    await expect(elsewherePage.getByRole("button", { name: /Sign out/ }).count()).resolves.toBe(1);
    await elsewhere.close();
    await person.close();
  }, 60_000);

  for (const [name, width] of Object.entries(WIDTHS)) {
    test(`the account pages have no serious accessibility violations, valid markup and fit the screen (${name}, ${width} px)`, async () => {
      // A live reset link for the reset page (asked for by the service: no form's mail count).
      await app.services.accounts.requestPasswordReset("erin@example.org", null);
      const resetLink = linkIn((await mailTo("erin@example.org")).at(-1)!, app.base, "/lost-password/reset?token=");

      const guest = await browserAt(width);
      const guestPage = await guest.newPage();
      for (const [path, title] of [
        ["/signup", "Sign up"],
        ["/lost-password", "Forgot your password?"],
        [resetLink.slice(app.base.length), "Set a new password"],
        ["/account/confirm?token=not-a-token", "Confirm your e-mail address"],
        ["/account/confirm/resend", "A new confirmation link"],
        ["/login", "Sign in"],
      ] as const) {
        const response = await guestPage.goto(path);
        expect(response?.status()).toBe(200);
        await expect(heading(guestPage)).resolves.toBe(title);
        await checkPage(guestPage, await response!.text(), width);
      }
      await guest.close();

      const person = await browserAt(width);
      const page = await person.newPage();
      await signIn(page, "erin", "erin-password");
      for (const [path, title] of [
        ["/account/settings/profile", "Profile"],
        ["/account/settings/password", "Password"],
      ] as const) {
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        await expect(heading(page)).resolves.toBe(title);
        await checkPage(page, await response!.text(), width);
      }
      await person.close();
    }, 60_000);
  }
});
