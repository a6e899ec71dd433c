// Administration → Vocabularies in a real browser: an administrator opens the screen from the
// navigation, browses and searches the licences, adds one, retires it through the confirmation
// step, then uploads a small ROR dump and follows its import to its result (a progress bar named
// after the job, the totals); axe, markup and width at desktop and phone size on each screen. A
// person who is not an administrator gets the 404 page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminNav, checkScreen, heading, openScreen } from "../helpers/admin-pages";
import { signIn, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";
import { rorOrgs, writeRorDump } from "../helpers/ror-dump";

let app: BrowserApp;
let work: string;
beforeAll(async () => {
  app = await startBrowserApp();
  work = mkdtempSync(join(tmpdir(), "cairn-ror-browser-"));
});
afterAll(async () => {
  await app.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("administration: vocabularies", () => {
  test("a person who is not an administrator gets the 404 page", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password");
    const response = await page.goto("/administration/vocabularies");
    expect(response?.status()).toBe(404);
    await expect(heading(page)).resolves.toBe("Not found");
    await person.close();
  });

  test("browse the licences, add one, retire it; upload a ROR dump and see its import's progress and result", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration/users");
    await openScreen(page, "Vocabularies", "/administration/vocabularies");
    await expect(heading(page)).resolves.toBe("Vocabularies");
    await expect(adminNav(page).getByRole("link", { name: "Vocabularies" }).getAttribute("aria-current")).resolves.toBe("page");
    await checkScreen(page);

    // Browse and search.
    await page.getByRole("link", { name: "licenses", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/administration/vocabularies/licenses");
    await expect(heading(page)).resolves.toBe("Vocabulary: licenses");
    await page.getByLabel("Search").fill("cc-by-4.0");
    await page.getByRole("button", { name: "Search entries" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === "cc-by-4.0");
    await expect(page.getByRole("row", { name: /cc-by-4\.0/ }).count()).resolves.toBeGreaterThan(0);
    await checkScreen(page);

    // Add one.
    await page.getByRole("link", { name: "Add an entry" }).click();
    await expect(heading(page)).resolves.toBe("Add to licenses");
    await checkScreen(page);
    await page.getByLabel("Id").fill("wombat-1.0");
    await page.getByLabel("Title (English)").fill("Wombat Licence 1.0");
    await page.getByLabel("URL").fill("https://example.org/wombat");
    await submitForm(page, page.getByRole("button", { name: "Add" }));
    await expect(page.getByRole("status").textContent()).resolves.toBe("The entry was added.");

    // Retire it, through the confirmation step.
    await page.getByLabel("Search").fill("wombat");
    await page.getByRole("button", { name: "Search entries" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === "wombat");
    await page.getByRole("link", { name: "Retire Wombat Licence 1.0" }).click();
    await expect(page.getByRole("heading", { name: "Retire Wombat Licence 1.0 (wombat-1.0)?" }).count()).resolves.toBe(1);
    await checkScreen(page);
    await submitForm(page, page.getByRole("button", { name: "Retire" }));
    await expect(page.getByRole("status").textContent()).resolves.toBe("The entry was retired: new deposits no longer find it.");
    await expect(
      page
        .getByRole("table", { name: "Retired entries, newest first" })
        .getByRole("row", { name: /wombat-1\.0/ })
        .count(),
    ).resolves.toBe(1);
    expect((await (await page.request.get("/api/vocabularies/licenses?suggest=wombat")).json()).hits.total).toBe(0);
    await checkScreen(page);

    // Upload a ROR dump; its import runs as a job.
    await openScreen(page, "Vocabularies", "/administration/vocabularies");
    await page.getByLabel("Vocabulary", { exact: true }).selectOption("affiliations");
    await page.getByLabel("Dump file").setInputFiles(writeRorDump(work, "v9-ror-data_schema_v2.json", rorOrgs(4, "Bilby College")));
    await page.getByRole("button", { name: "Upload and import" }).click();
    await page.waitForURL((url) => url.searchParams.get("done") === "queued");
    await expect(page.getByRole("status").first().textContent()).resolves.toBe("The import was queued: refresh the page to follow its progress.");
    const jobId = (await app.services.vocabularyImports.listImports({ kind: "system" }))[0]!.id;
    await expect(page.getByRole("row", { name: new RegExp(`^${jobId} affiliations v9-ror-data_schema_v2\\.json`) }).count()).resolves.toBe(1);

    await app.services.worker.drain();
    await page.reload();
    const row = page.getByRole("row", { name: new RegExp(`^${jobId} `) });
    const bar = row.getByRole("progressbar", { name: `Progress of job ${jobId} (vocabulary-import)` });
    await expect(bar.getAttribute("value")).resolves.toBe(await bar.getAttribute("max"));
    await expect(row.getByRole("cell").last().textContent()).resolves.toBe("4 created, 0 updated, 0 unchanged, 0 skipped");
    await checkScreen(page);
    expect((await (await page.request.get("/api/affiliations?q=bilby")).json()).hits.total).toBe(4);
    await person.close();
  });
});
