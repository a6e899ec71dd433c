// The search page in a real browser: records published through the REST API are found by a typed
// query, narrowed by a facet (with its count), sorted and paged; the URL holds the whole state, so
// reloading it shows the same search; the syntax help is one click away; a query the service
// refuses shows its message. Every page: valid markup, no serious accessibility violations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { htmlErrors, seriousAxeViolations, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { MINIMAL_METADATA, publishableDraft, publishRecord } from "../helpers/records";

let app: BrowserApp;

const PHOTO = "Moored buoy photographs";
const CSV = "Buoy temperatures, North Sea";
/** Twelve more datasets about buoys, so that a search for buoy has two pages of ten. */
const SERIES = Array.from({ length: 12 }, (_, i) => `Buoy series ${String(i + 1).padStart(2, "0")}`);

const draft = (title: string, extra: Record<string, unknown> = {}, files = false) =>
  publishableDraft({ ...(files ? { files: { enabled: true } } : {}), metadata: { ...MINIMAL_METADATA, publisher: "Cairn test repository", title, ...extra } });

beforeAll(async () => {
  app = await startBrowserApp();
  // One minute apart, so newest and oldest order them for certain.
  const publish = async (body: unknown, files: [string, string][] = []) => {
    app.clock.advance(60_000);
    return publishRecord(app, body, { files });
  };
  await publish(
    draft(
      CSV,
      {
        description: "<p>Hourly <strong>water</strong> temperatures &amp; salinity from <em>two</em> buoys.</p>",
        languages: [{ id: "eng" }],
        creators: [
          { person_or_org: { type: "personal", given_name: "Ada", family_name: "Lovelace" } },
          { person_or_org: { type: "personal", given_name: "Grace", family_name: "Hopper" } },
        ],
      },
      true,
    ),
    [["temperatures.csv", "station,temp\nB1,7.5\n"]],
  );
  for (const title of SERIES) await publish(draft(title));
  await publish(draft(PHOTO, { resource_type: { id: "image-photo" }, publication_date: "2021-06-01" }));
  await publish(draft("Tide gauge readings, unrelated"));
});
afterAll(() => app.stop());

/** The page as it is now: no serious accessibility violations, its served HTML valid, nothing wider than the screen. */
async function checkPage(page: Page) {
  expect({ url: page.url(), violations: await seriousAxeViolations(page) }).toEqual({ url: page.url(), violations: [] });
  const served = await (await page.request.get(page.url())).text();
  expect({ url: page.url(), errors: await htmlErrors(served) }).toEqual({ url: page.url(), errors: [] });
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
}

const titles = (page: Page) => page.locator("article.result h3").allTextContents();
const countText = (page: Page) => page.locator(".results-head .count").textContent();

describe("search", () => {
  test("a typed query, a facet with its count, a sort and a page, all in a URL that reloads to the same search", async () => {
    const person = await app.browser.newContext({ baseURL: app.base, viewport: { width: 375, height: 740 } });
    const page = await person.newPage();
    await page.goto("/search");
    await checkPage(page);
    expect(await countText(page)).toBe("15 records");

    await page.getByLabel("Search records").fill("buoy");
    await page.getByLabel("Search records").press("Enter");
    await page.waitForURL((url) => url.searchParams.get("q") === "buoy");
    expect(await countText(page)).toBe("14 records");
    await checkPage(page);

    // The facets count the matches: 13 datasets, 1 image (with its photo subtype), one CSV file, English once.
    // On a phone they fold behind the Filters button (issue 33), and stay open once opened.
    await page.getByRole("button", { name: "Filters" }).click();
    const image = page.getByRole("checkbox", { name: "Image (1)", exact: true });
    expect(await page.getByRole("checkbox", { name: "Dataset (13)" }).count()).toBe(1);
    expect(await page.getByRole("checkbox", { name: "Photo (1)" }).count()).toBe(1);
    expect(await page.getByRole("checkbox", { name: "CSV (1)" }).count()).toBe(1);
    expect(await page.getByRole("checkbox", { name: "English (1)" }).count()).toBe(1);
    await image.check();
    await page.waitForURL((url) => url.searchParams.get("resource_type") === "image");
    expect(await countText(page)).toBe("1 record");
    expect(await titles(page)).toEqual([PHOTO]);
    const card = page.locator("article.result").first();
    expect(await card.textContent()).toContain("Published 2021-06-01");
    expect(await card.textContent()).toContain("Photo");
    expect(await card.locator(".badge").textContent()).toBe("Metadata-only");
    expect(await card.getByRole("link", { name: PHOTO }).getAttribute("href")).toMatch(/^\/records\/[a-z0-9]{5}-[a-z0-9]{5}$/);
    // Focus comes back to the ticked box after the page reloads (the script), so keyboard users keep their place.
    expect(await page.evaluate("document.activeElement && document.activeElement.value")).toBe("image");
    await checkPage(page);

    // Unticked, then the CSV card: its creators and a snippet of the description as plain text.
    await page.getByRole("checkbox", { name: /^Image/ }).uncheck();
    await page.waitForURL((url) => !url.searchParams.has("resource_type"));
    await page.getByRole("checkbox", { name: "CSV (1)" }).check();
    await page.waitForURL((url) => url.searchParams.get("file_type") === "csv");
    const csv = page.locator("article.result").first();
    expect(await csv.locator(".creators").textContent()).toBe("Lovelace, Ada; Hopper, Grace");
    expect(await csv.locator(".snippet").textContent()).toBe("Hourly water temperatures & salinity from two buoys.");
    expect(await csv.locator(".badge").textContent()).toBe("Open");
    await page.getByRole("checkbox", { name: /^CSV/ }).uncheck();
    await page.waitForURL((url) => !url.searchParams.has("file_type"));

    // Sorts: best match is offered with a query; oldest first puts the first published record on top.
    const sorts = await page.getByLabel("Sort by").locator("option").allTextContents();
    expect(sorts).toEqual(["Best match", "Newest", "Oldest", "Recently updated", "Least recently updated", "Version", "Most viewed", "Most downloaded"]);
    await page.getByLabel("Sort by").selectOption("oldest");
    await page.waitForURL((url) => url.searchParams.get("sort") === "oldest");
    expect(await titles(page)).toEqual([CSV, ...SERIES.slice(0, 9)]);
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
    await page.waitForURL((url) => url.searchParams.get("page") === "2");
    expect(await titles(page)).toEqual([...SERIES.slice(9), PHOTO]);
    expect(await page.getByRole("link", { name: "Page 2, current page" }).getAttribute("aria-current")).toBe("page");
    await checkPage(page);

    // The bookmark: another browser opening the URL sees the same search.
    const bookmark = page.url();
    expect(new URL(bookmark).search).toBe("?q=buoy&sort=oldest&size=10&page=2");
    const other = await app.newPerson();
    const again = await other.newPage();
    await again.goto(bookmark);
    expect(await again.getByLabel("Search records").inputValue()).toBe("buoy");
    expect(await again.getByLabel("Sort by").inputValue()).toBe("oldest");
    expect(await titles(again)).toEqual([...SERIES.slice(9), PHOTO]);
    expect(await countText(again)).toBe("14 records");
    // A facet in the URL comes back ticked.
    await again.goto(`/search?q=buoy&resource_type=image`);
    expect(await again.getByRole("checkbox", { name: /^Image/ }).isChecked()).toBe(true);
    expect(await titles(again)).toEqual([PHOTO]);
    await other.close();
    await person.close();
  });

  test("without the script, the Apply buttons run the search", async () => {
    const person = await app.browser.newContext({ baseURL: app.base, javaScriptEnabled: false });
    const page = await person.newPage();
    await page.goto("/search?q=buoy");
    await page.getByRole("checkbox", { name: "Image (1)" }).check();
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL((url) => url.searchParams.get("resource_type") === "image");
    expect(await titles(page)).toEqual([PHOTO]);
    await page.getByLabel("Per page").selectOption("20");
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("size") === "20");
    expect(await page.getByRole("checkbox", { name: /^Image/ }).isChecked()).toBe(true);
    await person.close();
  });

  test("the query syntax help is one click away, and on its own page", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await page.goto("/search");
    const example = page.getByText("publication_date:[2020 TO 2022]", { exact: true });
    expect(await example.isVisible()).toBe(false);
    await page.getByText("Search syntax help").click();
    expect(await example.isVisible()).toBe(true);
    await checkPage(page);
    // The examples work: the range finds the photo of 2021.
    await page.goto(`/search?q=${encodeURIComponent("publication_date:[2020 TO 2022]")}`);
    expect(await titles(page)).toEqual([PHOTO]);
    await page.goto(`/search?q=${encodeURIComponent('creators.name:"Hopper, Grace"')}`);
    expect(await titles(page)).toEqual([CSV]);
    await page.goto("/search/help");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("How to search");
    await checkPage(page);
    await person.close();
  });

  test("a query the service refuses shows its message on the search page, with the form to fix it", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    // More distinct clauses than the search allows (max_clause_count).
    const tooMany = Array.from({ length: 1100 }, (_, i) => `w${i}`).join(" ");
    await page.goto("/search");
    await page.getByLabel("Search records").fill(tooMany);
    await page.getByLabel("Search records").press("Enter");
    await page.waitForURL((url) => url.searchParams.has("q"));
    expect(await page.getByRole("alert").textContent()).toContain("at most 1024 are allowed");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Search records");
    expect(await page.getByLabel("Search records").inputValue()).toBe(tooMany);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // An unknown sort in a hand-made URL: a 400 page that names the offered sorts.
    const response = await page.goto("/search?q=buoy&sort=loudest");
    expect(response?.status()).toBe(400);
    expect(await page.getByRole("alert").textContent()).toContain("Must be one of: bestmatch, newest");
    expect(await htmlErrors(await response!.text())).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await person.close();
  });

  test("the front page: the site name, a search box that leads here, recent records", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await page.goto("/");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Cairn");
    expect(await page.locator("#recent ~ article.result h3").first().textContent()).toBe("Tide gauge readings, unrelated");
    await checkPage(page);
    await page.getByLabel("Search records").fill("photographs");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "photographs");
    expect(await titles(page)).toEqual([PHOTO]);
    await person.close();
  });
});
