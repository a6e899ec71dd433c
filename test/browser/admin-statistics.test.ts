// Administration → Statistics in a real browser (axe, markup and width at desktop and phone size):
// an administrator reaches it by the navigation, sees the four charts drawn (images named by their
// titles) with their numbers a click away, switches to months, and follows a most-viewed record's
// link; and the Jobs screen shows a job's progress as a bar named after the job.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { DAY_MS } from "../../src/core/time";
import { adminNav, checkScreen, heading, openScreen } from "../helpers/admin-pages";
import { signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { MINIMAL_METADATA, publishableDraft, publishRecord } from "../helpers/records";

let app: BrowserApp;
let record = "";
beforeAll(async () => {
  app = await startBrowserApp();
  const published = await publishRecord(app, publishableDraft({ files: { enabled: true }, metadata: { ...MINIMAL_METADATA, title: "Tide gauges of the North Sea" } }), {
    files: [["tides.csv", "t".repeat(2048)]],
  });
  record = published.id;
  for (const agent of ["Firefox/120", "Chrome/120", "Safari/17"]) await app.call("GET", `/api/records/${record}`, { headers: { "user-agent": agent } });
  app.clock.advance(3 * DAY_MS);
  await app.call("GET", `/api/records/${record}`, { headers: { "user-agent": "Firefox/121" } });
  await app.services.stats.aggregate();
});
afterAll(() => app.stop());

describe("administration: statistics", () => {
  test("the charts render with their names and numbers; months; a most viewed record's link", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration");
    await openScreen(page, "Statistics", "/administration/statistics");
    await expect(heading(page)).resolves.toBe("Statistics");
    await expect(adminNav(page).getByRole("link", { name: "Statistics" }).getAttribute("aria-current")).resolves.toBe("page");

    const span = "2026-10-27 to 2026-11-25";
    for (const title of ["Views", "Downloads", "New records", "Storage used"]) {
      const chart = page.getByRole("img", { name: `${title}, ${span}` });
      await expect(chart.isVisible()).resolves.toBe(true);
      const box = (await chart.boundingBox())!;
      expect(box.width).toBeGreaterThan(200);
      expect(box.height).toBeGreaterThan(60);
    }
    // The numbers behind a chart, one click away.
    await page.getByText(`The numbers of “Views, ${span}”`).click();
    const views = page.getByRole("table", { name: `Views, ${span}` });
    await expect(views.getByRole("row", { name: "11-22 3" }).isVisible()).resolves.toBe(true);
    await expect(views.getByRole("row", { name: "11-24 0" }).isVisible()).resolves.toBe(true);
    await expect(views.getByRole("row", { name: "11-25 1" }).isVisible()).resolves.toBe(true);
    await checkScreen(page);

    await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Last 12 months, by month" }).click();
    await page.waitForURL((url) => url.search === "?period=months");
    const year = "2025-12-01 to 2026-11-25";
    await expect(page.getByRole("img", { name: `Storage used, ${year}` }).isVisible()).resolves.toBe(true);
    await page.getByText(`The numbers of “Storage used, ${year}”`).click();
    await expect(
      page
        .getByRole("table", { name: `Storage used, ${year}` })
        .getByRole("row", { name: "2026-11 2.0 KiB" })
        .isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByRole("link", { name: `Download the report of ${year}` }).getAttribute("href")).resolves.toBe("/administration/statistics/report?period=months");
    await checkScreen(page);

    await page.getByRole("table", { name: "Most viewed records" }).getByRole("link", { name: "Tide gauges of the North Sea" }).click();
    await page.waitForURL((url) => url.pathname === `/records/${record}`);
    await person.close();
  });
});

describe("administration: a job's progress", () => {
  test("the Jobs screen shows a bar named after the job, with its numbers", async () => {
    app.services.jobs.registry.define({
      name: "test-import",
      description: "Imports a few rows.",
      run: (_payload, ctx) => ctx.progress({ done: 40, total: 160, message: "rows imported" }),
    });
    const job = await app.services.jobs.runNow(systemActor, "test-import");
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration");
    await openScreen(page, "Jobs", "/administration/jobs");
    const bar = page.getByRole("progressbar", { name: `Progress of job ${job.id} (test-import)` });
    await expect(bar.isVisible()).resolves.toBe(true);
    await expect(bar.getAttribute("value")).resolves.toBe("40");
    await expect(bar.getAttribute("max")).resolves.toBe("160");
    const row = page.getByRole("row", { name: new RegExp(`^${job.id} test-import`) });
    await expect(row.getByText("40 of 160 (25%): rows imported").isVisible()).resolves.toBe(true);
    await checkScreen(page);
    await person.close();
  });
});
