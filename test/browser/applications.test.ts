// Account settings → applications in a real browser: a personal access token created (shown once,
// and working against the REST API), listed with its use, revoked; the page's refusals, its
// accessibility and its markup.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";
import { publishableDraft } from "../helpers/records";

const PATH = "/account/settings/applications";
let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
});
afterAll(() => app.stop());

/** The session's CSRF token, as the page hands it to scripts. */
const csrfOf = (page: Page) => page.locator('meta[name="csrf-token"]').getAttribute("content");

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

describe("applications", () => {
  test("a guest gets the sign-in page's link and comes back to the applications after signing in", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    const response = await page.goto(PATH);
    expect(response?.status()).toBe(401);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Sign in needed");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("E-mail address or username").fill("alice");
    await page.getByLabel("Password").fill("alice-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname === PATH);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Applications");
    // The token the test fixture made for alice.
    await expect(page.getByRole("rowheader", { name: "alice-token" }).count()).resolves.toBe(1);
    await person.close();
  });

  test("a token is created with a name, scopes and an expiry, shown once, works against the REST API, and is revoked", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", PATH);
    const empty = await page.goto(PATH);
    expect(await htmlErrors(await empty!.text())).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel("Name").fill("Laptop sync");
    await page.getByRole("checkbox", { name: /user:email/ }).check();
    await page.getByLabel("Expires").selectOption({ label: "In 30 days" });
    await submitForm(page, page.getByRole("button", { name: "Create token" }));
    await expect(page.getByRole("heading", { name: "Token “Laptop sync” created" }).count()).resolves.toBe(1);
    await expect(page.getByText("it is shown only this once").count()).resolves.toBe(1);
    const secret = await page.getByLabel("Your new personal access token").inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // The copy button is the script's (hidden without it).
    await expect(page.getByRole("button", { name: "Copy to clipboard" }).isVisible()).resolves.toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    const row = page.getByRole("row", { name: /Laptop sync/ });
    await expect(row.getByRole("cell").nth(0).textContent()).resolves.toBe("user:email");
    await expect(row.getByRole("cell").nth(1).textContent()).resolves.toBe("2026-11-22 12:00 UTC");
    await expect(row.getByRole("cell").nth(2).textContent()).resolves.toBe("Never");
    await expect(row.getByRole("cell").nth(3).textContent()).resolves.toBe("2026-12-22 12:00 UTC");

    // The token is the caller: the same request with a token that does not exist is refused even
    // though the browser sends its session cookie along, and a write needs no CSRF token.
    const mine = await page.request.get("/api/user/records", bearer(secret));
    expect(mine.status()).toBe(200);
    expect((await page.request.get("/api/user/records", bearer("not-a-token"))).status()).toBe(401);
    const draft = await page.request.post("/api/records", { ...bearer(secret), data: publishableDraft() });
    expect(draft.status()).toBe(201);
    expect((await app.call("GET", `/api/records/${(await draft.json()).id}/draft`, { as: "alice" })).status).toBe(200);

    // Shown once: the page again lists the token, never its secret, and now says when it was used.
    app.clock.advance(60_000);
    await page.goto(PATH);
    expect(await page.content()).not.toContain(secret);
    await expect(
      page
        .getByRole("row", { name: /Laptop sync/ })
        .getByRole("cell")
        .nth(2)
        .textContent(),
    ).resolves.toBe("2026-11-22 12:00 UTC");

    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Revoke Laptop sync" }).click();
    await page.waitForURL((url) => url.searchParams.get("revoked") === "1");
    await expect(page.getByRole("status").filter({ hasText: "The token was revoked." }).count()).resolves.toBe(1);
    await expect(
      page
        .getByRole("row", { name: /Laptop sync/ })
        .getByRole("cell")
        .nth(4)
        .textContent(),
    ).resolves.toBe("Revoked 2026-11-22 12:01 UTC");
    await expect(page.getByRole("button", { name: "Revoke Laptop sync" }).count()).resolves.toBe(0);
    expect((await page.request.get("/api/user/records", bearer(secret))).status()).toBe(401);
    await person.close();
  }, 60_000);

  test("a revocation the person cancels in the confirmation keeps the token", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "bob", "bob-password", PATH);
    await page.getByLabel("Name").fill("CI");
    await submitForm(page, page.getByRole("button", { name: "Create token" }));
    const secret = await page.getByLabel("Your new personal access token").inputValue();
    page.once("dialog", (dialog) => dialog.dismiss());
    await page.getByRole("button", { name: "Revoke CI" }).click();
    await expect(page.getByRole("button", { name: "Revoke CI" }).count()).resolves.toBe(1);
    expect((await page.request.get("/api/user/records", bearer(secret))).status()).toBe(200);
    await person.close();
  });

  test("a name the service refuses shows its message beside the field, and the form keeps what was chosen", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", PATH);
    await page.getByLabel("Name").fill("   ");
    await page.getByRole("checkbox", { name: /user:email/ }).check();
    const response = await submitForm(page, page.getByRole("button", { name: "Create token" }));
    expect(response.url()).toBe(`${app.base}${PATH}/tokens`);
    expect(response.status()).toBe(400);
    await expect(page.getByRole("alert").textContent()).resolves.toContain("The token was not created");
    await expect(page.locator("#token-name-error").textContent()).resolves.toBe("A token name has 1 to 100 characters.");
    await expect(page.getByLabel("Name").getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(page.getByRole("checkbox", { name: /user:email/ }).isChecked()).resolves.toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await htmlErrors(await response.text())).toEqual([]);
    await person.close();
  });

  test("forms without the session's CSRF token, and another person's token, are refused", async () => {
    const alice = await app.newPerson();
    const alicePage = await alice.newPage();
    await signIn(alicePage, "alice", "alice-password", PATH);
    await alicePage.getByLabel("Name").fill("Kept");
    await submitForm(alicePage, alicePage.getByRole("button", { name: "Create token" }));
    const secret = await alicePage.getByLabel("Your new personal access token").inputValue();
    const action = await alicePage.getByRole("row", { name: /Kept/ }).locator("form").getAttribute("action");
    expect(action).toMatch(new RegExp(`^${PATH}/tokens/\\d+/revoke$`));

    const noCsrf = await alicePage.request.post(`${PATH}/tokens`, { form: { name: "forged" } });
    expect(noCsrf.status()).toBe(403);
    expect(await noCsrf.text()).toContain("The form has expired or did not come from this site");
    expect((await alicePage.request.post(action!, { form: { csrf: "forged" } })).status()).toBe(403);

    const bob = await app.newPerson();
    const bobPage = await bob.newPage();
    await signIn(bobPage, "bob", "bob-password", PATH);
    const csrf = (await csrfOf(bobPage))!;
    const denied = await bobPage.request.post(action!, { form: { csrf }, maxRedirects: 0 });
    expect(denied.status()).toBe(403);
    expect(await htmlErrors(await denied.text())).toEqual([]);
    const unknown = await bobPage.request.post(`${PATH}/tokens/999999/revoke`, { form: { csrf }, maxRedirects: 0 });
    expect(unknown.status()).toBe(404);
    // A guest (no session) is asked to sign in.
    expect((await app.call("POST", `${PATH}/tokens/1/revoke`)).status).toBe(401);

    expect((await alicePage.request.get("/api/user/records", bearer(secret))).status()).toBe(200);
    await alicePage.goto(PATH);
    await expect(alicePage.getByRole("row", { name: /forged/ }).count()).resolves.toBe(0);
    await alice.close();
    await bob.close();
  });

  test("the page after creating a token has valid markup", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", PATH);
    const csrf = (await csrfOf(page))!;
    const created = await page.request.post(`${PATH}/tokens`, { form: { csrf, name: "Markup <check> & co", scopes: "user:email", expires: "365" } });
    expect(created.status()).toBe(201);
    const html = await created.text();
    expect(html).toContain("Markup &lt;check> &amp; co");
    expect(await htmlErrors(html)).toEqual([]);
    const unknownScope = await page.request.post(`${PATH}/tokens`, { form: { csrf, name: "x", scopes: "admin:all" } });
    expect(unknownScope.status()).toBe(400);
    expect(await unknownScope.text()).toContain("Unknown scope(s): admin:all");
    await person.close();
  });
});
