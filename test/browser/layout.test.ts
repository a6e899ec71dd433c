// The frame of every page in a real browser: the brand from THEME_* settings (logo, primary colour,
// front-page introduction, footer links) and the favicon; on a phone the header's Menu opened and
// walked with the keyboard, the search's Filters folded behind a button, tables reflowed; the login
// page in words; and the main pages at desktop and phone widths with axe and html-validate.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { MINIMAL_METADATA, publishableDraft, publishRecord } from "../helpers/records";

// What the callbacks run in the page use (the project's TypeScript has no DOM library).
declare const document: {
  activeElement: { textContent: string | null; value?: string; closest(selector: string): unknown } | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
};
declare function getComputedStyle(element: unknown, pseudo?: string): { display: string; content: string; backgroundColor: string; color: string };
interface PageElement {
  outerHTML: string;
  getClientRects(): { length: number };
}

const SITE = "Tide Archive";
const PRIMARY = "#7a1f5c";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let app: BrowserApp;
let recordId: string;
const folder = mkdtempSync(join(tmpdir(), "cairn-layout-"));

beforeAll(async () => {
  const logo = join(folder, "logo.svg");
  writeFileSync(logo, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40" width="120" height="40"><rect width="120" height="40" fill="#ffffff"/></svg>');
  app = await startBrowserApp({
    THEME_SITENAME: SITE,
    THEME_LOGO: logo,
    THEME_PRIMARY_COLOR: PRIMARY,
    THEME_FRONTPAGE_INTRO: "<p>Welcome to the <strong>tide archive</strong>.</p><script>document.title = 'taken over'</script>",
    THEME_FOOTER_LINKS: JSON.stringify([
      { title: "Privacy", url: "/privacy" },
      { title: "Institute", url: "https://example.org/institute" },
    ]),
  });
  const record = await publishRecord(
    app,
    publishableDraft({ metadata: { ...MINIMAL_METADATA, title: "Tide gauge readings at Harwich", resource_type: { id: "dataset" }, publisher: "Cairn test repository" } }),
  );
  recordId = String(record.id);
  await publishRecord(
    app,
    publishableDraft({ metadata: { ...MINIMAL_METADATA, title: "Harbour photographs", resource_type: { id: "image-photo" }, publisher: "Cairn test repository" } }),
  );
});
afterAll(async () => {
  await app.stop();
  rmSync(folder, { recursive: true, force: true });
});

const person = (size: { width: number; height: number }): Promise<BrowserContext> => app.browser.newContext({ baseURL: app.base, viewport: size });

/** The page as it is now: no serious axe violations, its served markup valid, nothing wider than the window. */
async function checkPage(page: Page) {
  expect({ url: page.url(), violations: await seriousAxeViolations(page) }).toEqual({ url: page.url(), violations: [] });
  const served = await (await page.request.get(page.url())).text();
  expect({ url: page.url(), errors: await htmlErrors(served) }).toEqual({ url: page.url(), errors: [] });
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
  // Nothing marked hidden is drawn (and so reachable by the keyboard), whatever display a class gives it.
  const drawnHidden = await page.evaluate(() =>
    Array.from(document.querySelectorAll("[hidden]"))
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  expect({ url: page.url(), drawnHidden }).toEqual({ url: page.url(), drawnHidden: [] });
}

const siteNav = (page: Page) => page.getByRole("navigation", { name: "Site", exact: true });
const focusedText = (page: Page) => page.evaluate(() => (document.activeElement?.textContent ?? "").trim());

describe("look and brand", () => {
  test("the favicon, the logo with the site name as its text, the primary colour on buttons, the introduction without its script, the footer links", async () => {
    const context = await person(DESKTOP);
    const page = await context.newPage();
    await page.goto("/");

    const icon = await page.locator('link[rel="icon"]').getAttribute("href");
    expect(icon).toMatch(/^\/static\/favicon\.[0-9a-f]{16}\.svg$/);
    const iconResponse = await page.request.get(icon!);
    expect([iconResponse.status(), iconResponse.headers()["content-type"], iconResponse.headers()["cache-control"]]).toEqual([
      200,
      "image/svg+xml",
      "public, max-age=31536000, immutable",
    ]);
    const ico = await page.request.get("/favicon.ico");
    expect([ico.status(), ico.headers()["content-type"]]).toEqual([200, "image/svg+xml"]);
    expect(await ico.text()).toBe(await iconResponse.text());

    const themeCss = await page.locator('link[rel="stylesheet"][href^="/static/theme."]').getAttribute("href");
    expect(themeCss).toMatch(/^\/static\/theme\.[0-9a-f]{16}\.css$/);
    expect(await (await page.request.get(themeCss!)).text()).toContain(`--primary: ${PRIMARY};`);

    const logo = page.getByRole("banner").getByRole("img", { name: SITE });
    const logoSrc = await logo.getAttribute("src");
    expect(logoSrc).toMatch(/^\/static\/logo\.[0-9a-f]{16}\.svg$/);
    expect(await logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(120);
    const logoResponse = await page.request.get(logoSrc!);
    expect([logoResponse.status(), logoResponse.headers()["content-type"]]).toEqual([200, "image/svg+xml"]);
    await expect(page.getByRole("banner").getByRole("link", { name: SITE }).getAttribute("href")).resolves.toBe("/");

    const search = page.getByRole("button", { name: "Search", exact: true });
    expect(await search.evaluate((b) => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color])).toEqual(["rgb(122, 31, 92)", "rgb(255, 255, 255)"]);

    await expect(page.locator(".intro").textContent()).resolves.toBe("Welcome to the tide archive.");
    await expect(page.locator(".intro strong").textContent()).resolves.toBe("tide archive");
    await expect(page.locator("main script").count()).resolves.toBe(0);
    expect(await page.title()).toBe(`Home | ${SITE}`);

    const footer = page.getByRole("contentinfo").getByRole("navigation", { name: "About this site" });
    await expect(footer.getByRole("link", { name: "Privacy" }).getAttribute("href")).resolves.toBe("/privacy");
    await expect(footer.getByRole("link", { name: "Institute" }).getAttribute("href")).resolves.toBe("https://example.org/institute");
    await context.close();
  });

  test("the login page is words: no markdown backticks, signed out or after a failed sign-in", async () => {
    const context = await person(DESKTOP);
    const page = await context.newPage();
    await page.goto("/login");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Sign in");
    expect(await main.textContent()).not.toContain("`");
    await page.getByLabel("E-mail address or username").fill("alice");
    await page.getByLabel("Password").fill("not her password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").waitFor();
    await expect(page.getByRole("alert").textContent()).resolves.toBe("The e-mail address (or username) and password do not match an active account.");
    expect(await main.textContent()).not.toContain("`");
    await context.close();
  });
});

describe("phones and keyboards", () => {
  test("at 390 px the signed-in header is one line with a Menu button; the keyboard opens it, reaches Search and Sign out, and Escape folds it away", async () => {
    const context = await person(PHONE);
    const page = await context.newPage();
    await signIn(page, "alice", "alice-password", "/");
    const menu = page.getByRole("button", { name: "Menu" });
    await expect(menu.getAttribute("aria-expanded")).resolves.toBe("false");
    await expect(siteNav(page).isVisible()).resolves.toBe(false);
    // The brand and the button share the one line of the header.
    const brandBox = (await page.getByRole("banner").getByRole("link", { name: SITE }).boundingBox())!;
    const menuBox = (await menu.boundingBox())!;
    expect(Math.abs(brandBox.y + brandBox.height / 2 - (menuBox.y + menuBox.height / 2))).toBeLessThan(8);
    expect((await page.getByRole("banner").boundingBox())!.height).toBeLessThan(80);
    await checkPage(page);

    // Skip link, brand, Menu: the folded links are not in the way.
    for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
    expect(await focusedText(page)).toBe("Menu");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("#site-menu")))).toBe(false);
    await page.keyboard.press("Shift+Tab");
    expect(await focusedText(page)).toBe("Menu");

    await page.keyboard.press("Enter");
    await expect(menu.getAttribute("aria-expanded")).resolves.toBe("true");
    await page.keyboard.press("Tab");
    expect(await focusedText(page)).toBe("Search");
    const reached: string[] = ["Search"];
    for (let i = 0; i < 10 && !reached.at(-1)!.startsWith("Sign out"); i++) {
      await page.keyboard.press("Tab");
      reached.push(await focusedText(page));
    }
    expect(reached).toEqual(["Search", "Communities", "New upload", "My dashboard", "Settings", "Sign out (alice)"]);
    await checkPage(page);

    await page.keyboard.press("Escape");
    await expect(menu.getAttribute("aria-expanded")).resolves.toBe("false");
    expect(await focusedText(page)).toBe("Menu");
    await expect(siteNav(page).isVisible()).resolves.toBe(false);

    // The account stays in view with the menu folded: sign out with the keyboard, then Sign in shows there.
    await expect(page.getByRole("banner").getByRole("button", { name: "Sign out (alice)" }).isVisible()).resolves.toBe(true);
    await page.getByRole("banner").getByRole("button", { name: "Sign out (alice)" }).focus();
    await page.keyboard.press("Enter");
    // Signing out lands on the front page again, where the page already was: wait for its header to change.
    await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" }).isVisible()).resolves.toBe(true);
    await expect(
      page
        .getByRole("banner")
        .getByRole("button", { name: /^Sign out/ })
        .count(),
    ).resolves.toBe(0);
    await context.close();
  });

  test("at 1280 px the whole navigation shows and there is no Menu button", async () => {
    const context = await person(DESKTOP);
    const page = await context.newPage();
    await signIn(page, "alice", "alice-password", "/");
    await expect(page.getByRole("button", { name: "Menu" }).isVisible()).resolves.toBe(false);
    await expect(siteNav(page).getByRole("link", { name: "My dashboard" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("banner").getByRole("button", { name: "Sign out (alice)" }).isVisible()).resolves.toBe(true);
    await context.close();
  });

  test("the search's filters: behind a Filters button at 390 px (results first), beside the results at 1280 px", async () => {
    const context = await person(PHONE);
    const page = await context.newPage();
    await page.goto("/search?q=harwich");
    const filters = page.getByRole("button", { name: "Filters" });
    const facets = page.getByRole("complementary", { name: "Filters" });
    await expect(filters.getAttribute("aria-expanded")).resolves.toBe("false");
    await expect(facets.isVisible()).resolves.toBe(false);
    await expect(page.locator("article.result h3").allTextContents()).resolves.toEqual(["Tide gauge readings at Harwich"]);
    await checkPage(page);
    await filters.click();
    await expect(filters.getAttribute("aria-expanded")).resolves.toBe("true");
    await expect(facets.getByRole("group", { name: "Resource types" }).isVisible()).resolves.toBe(true);
    await checkPage(page);
    // Ticking a filter reloads the page: the filters stay open and the focus comes back to the box.
    await facets.getByRole("checkbox", { name: "Dataset (1)" }).check();
    await page.waitForURL((url) => url.searchParams.get("resource_type") === "dataset");
    await expect(filters.getAttribute("aria-expanded")).resolves.toBe("true");
    expect(await page.evaluate(() => document.activeElement?.value)).toBe("dataset");
    await filters.click();
    await expect(facets.isVisible()).resolves.toBe(false);

    await page.setViewportSize(DESKTOP);
    await expect(filters.isVisible()).resolves.toBe(false);
    await expect(facets.getByRole("group", { name: "Resource types" }).isVisible()).resolves.toBe(true);
    await checkPage(page);
    await context.close();
  });

  test("tables reflow at 390 px: one card per row, each cell labelled with its column", async () => {
    const context = await person(PHONE);
    const page = await context.newPage();
    await signIn(page, "alice", "alice-password", "/me/uploads");
    const cell = page.locator("table.reflow tbody td").nth(1);
    await expect(cell.getAttribute("data-label")).resolves.toBe("Status");
    expect(await cell.evaluate((td) => getComputedStyle(td).display)).toBe("block");
    expect(await cell.evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"Status: "');
    await checkPage(page);
    await page.setViewportSize(DESKTOP);
    expect(await cell.evaluate((td) => getComputedStyle(td).display)).toBe("table-cell");
    await context.close();
  });

  test("the front page, search, login, a record and the dashboard pass axe and html-validate at 1280 and 390 px", async () => {
    const anonymous = await person(DESKTOP);
    const signedIn = await person(DESKTOP);
    const visitor = await anonymous.newPage();
    const alice = await signedIn.newPage();
    await signIn(alice, "alice", "alice-password", "/me/uploads");
    const visits: [Page, string][] = [
      [visitor, "/"],
      [visitor, "/search"],
      [visitor, "/login"],
      [visitor, `/records/${recordId}`],
      [alice, "/"],
      [alice, "/me/uploads"],
      [alice, `/records/${recordId}`],
    ];
    for (const [page, path] of visits) {
      const response = await page.goto(path);
      expect({ path, status: response?.status() }).toEqual({ path, status: 200 });
      for (const size of [DESKTOP, PHONE]) {
        await page.setViewportSize(size);
        await checkPage(page);
      }
      await page.setViewportSize(DESKTOP);
    }
    await anonymous.close();
    await signedIn.close();
  });
});
