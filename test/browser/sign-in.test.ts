// Signing in and out in a real browser: the login form, the session cookie's flags, the wait after
// repeated failures, `next` never leading off the site, and the pages' accessibility and markup.
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

  test("a wrong password says so without telling whether the account exists; after five failures the name must wait", async () => {
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
    expect(await page.getByRole("alert").textContent()).toBe("Too many failed sign-ins with this e-mail address or username: try again in 60 seconds.");
    // The wait ends with time (the injected clock).
    app.clock.advance(60_000);
    await signIn(page, "bob", "bob-password");
    expect(await page.getByRole("button", { name: /Sign out/ }).count()).toBe(1);
    await person.close();
  });

  test("next=/<tab>/evil.example/ (a browser drops the tab: //evil.example/) ends on this site", async () => {
    const person = await app.newPerson();
    // Were the browser sent there, it would land on this page instead of a name look-up.
    await person.route("http://evil.example/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>evil</title>" }));
    const page = await person.newPage();
    await page.goto(`/login?next=%2F%09%2Fevil.example%2F`);
    await page.getByLabel("E-mail address or username").fill("alice");
    await page.getByLabel("Password").fill("alice-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    expect(new URL(page.url()).origin).toBe(app.base);
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
