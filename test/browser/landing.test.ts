// The landing page as a person sees it, in a real Chromium at a desktop's and a phone's width: views
// and downloads, the DOI badge and copying its Markdown, a CSV file's first 1,000 rows as a table, a
// long file name that wraps without making the page scroll sideways; an unknown link followed from
// a page ends on the HTML 404 page in the layout; a broken query on /search says it could not be
// read. Every page passes axe (no serious or critical violation) and html-validate at both widths.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { htmlErrors, seriousAxeViolations, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { createDraft, publishableDraft, publishDraft } from "../helpers/records";

let app: BrowserApp;
let recordId = "";

const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];
const DOI = "10.5555/cairn.landing-2026";
const LONG_NAME = "glacier_mass_balance_measurements_of_the_svalbard_archipelago-2020-2024.final_version.txt";
const CSV = `station,remark,value\n${'A-1,"calm, clear\nsecond line",3\n'}${Array.from({ length: 2499 }, (_, i) => `S-${i + 2},ok,${i}\n`).join("")}`;
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";

beforeAll(async () => {
  app = await startBrowserApp();
  const metadata = {
    ...publishableDraft().metadata,
    title: "Svalbard glacier mass balance",
    description: '<p>Older notes are at <a href="/notes/svalbard-2019">the old notes page</a>.</p>',
  };
  const draft = await createDraft(app, publishableDraft({ files: { enabled: true }, metadata, pids: { doi: { identifier: DOI, provider: "external" } } }), {
    files: [
      ["stations.csv", CSV],
      [LONG_NAME, "notes"],
    ],
  });
  recordId = (await publishDraft(app, draft.id)).id;
  await app.call("GET", `/api/records/${recordId}`, { headers: { "user-agent": FIREFOX } });
  await app.services.stats.recordDownload({
    recordId,
    parentId: draft.parent.id,
    fileKey: "stations.csv",
    bytes: 10,
    actor: { kind: "anonymous" },
    visitor: { address: null, userAgent: FIREFOX },
  });
  await app.services.stats.aggregate();
}, 60_000);
afterAll(() => app.stop());

/** axe and html-validate at both widths, and nothing wider than a phone's screen. */
async function checkBothWidths(page: Page) {
  expect(await htmlErrors(await (await page.request.get(page.url(), { headers: { accept: "text/html" } })).text())).toEqual([]);
  const walked = page.viewportSize()!;
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect((await page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")) as boolean).toBe(true);
  }
  // Back to the width the person walks at.
  await page.setViewportSize(walked);
}

describe("the landing page", () => {
  test("views and downloads, the DOI badge and its Markdown copied, the CSV as a table", async () => {
    const person = await app.newPerson();
    await person.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.base });
    const page = await person.newPage();
    await page.goto(`/records/${recordId}`);

    const stats = page.getByRole("region", { name: "Statistics" });
    expect(
      await stats
        .getByRole("row", { name: /^Views/ })
        .locator("td")
        .allTextContents(),
    ).toEqual(["1", "1"]);
    expect(
      await stats
        .getByRole("row", { name: /^Downloads/ })
        .locator("td")
        .allTextContents(),
    ).toEqual(["1", "1"]);

    const badge = page.getByRole("img", { name: `DOI: ${DOI}` });
    await badge.scrollIntoViewIfNeeded();
    expect(await badge.evaluate((img: any) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.getByText("Show this badge elsewhere").click();
    await page.getByRole("button", { name: "Copy Markdown" }).click();
    await page.getByText("Markdown copied to the clipboard.").waitFor({ state: "attached" });
    const markdown = `[![DOI](${app.base}/badge/DOI/${DOI}.svg)](https://handle.stage.datacite.org/${DOI})`;
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(markdown);
    expect(await page.getByLabel("HTML").inputValue()).toBe(`<a href="https://handle.stage.datacite.org/${DOI}"><img src="${app.base}/badge/DOI/${DOI}.svg" alt="DOI"></a>`);

    const table = page.getByRole("region", { name: "Table preview of stations.csv" }).getByRole("table");
    expect(await table.getByRole("columnheader").allTextContents()).toEqual(["station", "remark", "value"]);
    expect(await table.locator("tbody tr").count()).toBe(1000);
    expect(await table.locator("tbody tr").first().locator("td").allTextContents()).toEqual(["A-1", "calm, clear\nsecond line", "3"]);
    expect(await page.getByText(/^Showing the first 1,000 rows of [\d,]+ bytes/).isVisible()).toBe(true);
    await checkBothWidths(page);
    await person.close();
  });

  test("a long file name wraps at its separators on a phone, the page never wider than the screen", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await page.setViewportSize(WIDTHS[1]!);
    await page.goto(`/records/${recordId}`);
    const link = page.getByRole("link", { name: LONG_NAME, exact: true });
    const box = (await link.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // More than one line, and each line ends at a separator.
    const lines = (await link.evaluate((a: any) => {
      const range = a.ownerDocument.createRange();
      const ends: string[] = [];
      const text = a.textContent as string;
      let top = -1;
      for (let i = 0; i < text.length; i++) {
        const node = a.ownerDocument.createTreeWalker(a, 4);
        let offset = i;
        let current = node.nextNode();
        while (current && offset >= current.textContent.length) {
          offset -= current.textContent.length;
          current = node.nextNode();
        }
        range.setStart(current, offset);
        range.setEnd(current, offset + 1);
        const y = Math.round(range.getBoundingClientRect().top);
        if (top !== -1 && y > top + 2) ends.push(text[i - 1]!);
        top = y;
      }
      return ends;
    })) as string[];
    expect(lines.length).toBeGreaterThan(0);
    for (const end of lines) expect("_-.").toContain(end);
    expect((await page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")) as boolean).toBe(true);
    await person.close();
  });
});

/** The walks of "no dead ends" at a desktop's and a phone's width. */
const WALKS = [
  ["desktop", WIDTHS[0]!],
  ["phone", WIDTHS[1]!],
] as const;

describe("no dead ends", () => {
  for (const [name, size] of WALKS)
    test(`an unknown link followed from a page opens the 404 page in the layout (${name})`, async () => {
      const person = await app.newPerson();
      const page = await person.newPage();
      await page.setViewportSize(size);
      await page.goto(`/records/${recordId}`);
      const [response] = await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: "the old notes page" }).click()]);
      expect(response!.status()).toBe(404);
      expect(new URL(page.url()).pathname).toBe("/notes/svalbard-2019");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Not found");
      // A way on from the 404 that a person can see: on a phone, behind the header's Menu button.
      if (size.width < 768) await page.getByRole("button", { name: "Menu" }).click();
      expect(await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Search" }).count()).toBe(1);
      await expect(page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Search" }).isVisible()).resolves.toBe(true);
      expect(await page.locator("body").textContent()).not.toContain('"status"');
      await checkBothWidths(page);
      await person.close();
    }, 120_000);

  for (const [name, size] of WALKS)
    test(`a broken query on /search says it could not be read, and which words it searched (${name})`, async () => {
      const person = await app.newPerson();
      const page = await person.newPage();
      await page.setViewportSize(size);
      await page.goto("/search");
      await page.getByRole("searchbox", { name: "Search records" }).fill('svalbard "glacier');
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get("q") === 'svalbard "glacier');
      const notice = page.getByText("Your query could not be read as a query");
      expect(await notice.textContent()).toBe(
        "Your query could not be read as a query (a quotation mark is not closed); showing results for the words svalbard glacier. How to write a query",
      );
      expect(await page.getByRole("link", { name: "Svalbard glacier mass balance" }).count()).toBe(1);
      // Seen where a person reads it, at this width too: the notice and the record found.
      expect(await notice.isVisible()).toBe(true);
      expect(await page.getByRole("link", { name: "Svalbard glacier mass balance" }).isVisible()).toBe(true);
      await checkBothWidths(page);
      await person.close();
    }, 120_000);
});
