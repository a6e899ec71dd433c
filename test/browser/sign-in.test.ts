// Signing in and out in a real browser: the login form, the session cookie's flags, the lock after
// repeated failures, and the pages' accessibility and markup.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
});
afterAll(() => app.stop());

describe("sign-in", () => {
  test("the login form signs in, shows the account in the header, and signs out", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await page.goto("/");
    expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(1);
    await signIn(page, "alice@example.org", "alice-password");
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.getByRole("button", { name: /Sign out/ }).textContent()).toContain("Sign out");
    const cookies = await person.cookies();
    const session = cookies.find((c) => c.name === "cairn_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" });
    // The REST API takes the cookie: the user's own records listing answers for alice.
    const api = await page.request.get("/api/user/records");
    expect(api.status()).toBe(200);
    await page.getByRole("button", { name: /Sign out/ }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(1);
    expect((await page.request.get("/api/user/records")).status()).toBe(401);
    await person.close();
  });

  test("a wrong password says so without telling whether the account exists; five failures lock the account", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    for (let i = 0; i < 5; i++) {
      await page.goto("/login");
      await page.getByLabel("E-mail address or username").fill("bob");
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      expect(await page.getByRole("alert").textContent()).toContain("do not match an active account");
    }
    await page.goto("/login");
    await page.getByLabel("E-mail address or username").fill("bob");
    await page.getByLabel("Password").fill("bob-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("locked until");
    // The lock ends with time (the injected clock).
    app.clock.advance(16 * 60_000);
    await signIn(page, "bob", "bob-password");
    expect(await page.getByRole("button", { name: /Sign out/ }).count()).toBe(1);
    await person.close();
  });

  test("the login and front pages have no serious accessibility violations and valid markup", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    for (const path of ["/login", "/"]) {
      const response = await page.goto(path);
      expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await htmlErrors(await response!.text())).toEqual([]);
    }
    await person.close();
  });
});
