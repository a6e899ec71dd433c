// Depositing in a real browser: the form with a creator look-up, a lenient save's errors beside
// their fields, two files (one dropped, one chosen) with their progress, publishing; a large file
// through multipart with one part lost on the network and resent; editing and a new version.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { systemActor } from "../../src/core/actor";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { publishableDraft, publishRecord } from "../helpers/records";

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
  const v = app.services.vocabularies;
  const CLI = { via: "cli", address: null } as const;
  await v.create(
    systemActor,
    "affiliations",
    { id: "03yrm5c26", name: "California Digital Library", acronym: "CDL", identifiers: [{ scheme: "ror", identifier: "03yrm5c26" }] },
    CLI,
  );
  await v.create(
    systemActor,
    "names",
    {
      id: "0000-0002-1825-0097",
      given_name: "Ada",
      family_name: "Lovelace",
      identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }],
      affiliations: [{ id: "03yrm5c26" }],
    },
    CLI,
  );
  await v.create(
    systemActor,
    "funders",
    { id: "00k4n6c32", name: "European Commission", acronym: "EC", country: "BE", identifiers: [{ scheme: "ror", identifier: "00k4n6c32" }] },
    CLI,
  );
  await v.create(systemActor, "awards", { number: "101000001", title: { en: "Ocean observations" }, acronym: "OCEAN", funder: { id: "00k4n6c32" } }, CLI);
});
afterAll(() => app.stop());

/** The page is clean: valid markup as served, and no serious accessibility violations as it stands now. */
async function checkPage(page: Page, html: string) {
  expect(await htmlErrors(html)).toEqual([]);
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
}

async function open(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  return response!.text();
}

/** Types into a look-up and picks the suggestion whose text matches. */
async function pick(page: Page, label: string | RegExp, typed: string, suggestion: RegExp) {
  await page.getByLabel(label, { exact: true }).first().fill(typed);
  await page.getByRole("button", { name: suggestion }).first().click();
}

const idOf = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;

async function fillRequired(page: Page, title: string) {
  await page.getByLabel("Resource type (required)").selectOption("dataset");
  await page.getByLabel("Title (required)").fill(title);
  await page.getByLabel("Given name").first().fill("Grace");
  await page.getByLabel("Family name").first().fill("Hopper");
}

async function waitUploaded(page: Page, key: string) {
  const row = page.locator(`li.file[data-key="${key}"]`);
  await row.getByText(/Uploaded/).waitFor({ timeout: 20_000 });
  expect(await row.locator("progress").getAttribute("value")).toBe("100");
  expect(await row.locator(".pct").textContent()).toBe("100%");
}

describe("deposit", () => {
  test("fill the form with look-ups, see a save's errors beside the fields, upload two files and publish (on a phone's screen)", async () => {
    const person = await app.browser.newContext({ baseURL: app.base, viewport: { width: 375, height: 740 } });
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", "/uploads/new");
    const html = await open(page, "/uploads/new");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("New upload");
    await checkPage(page, html);
    // DOIs are off without DATACITE_PREFIX: no button to reserve one.
    await expect(page.getByRole("button", { name: "Reserve a DOI" }).count()).resolves.toBe(0);
    // Nothing exists until the first save.
    expect((await app.call("GET", "/api/user/records", { as: "alice" })).json.hits.total).toBe(0);

    await page.getByLabel("Resource type (required)").selectOption("dataset");
    await pick(page, "Look up a name", "Lovel", /Lovelace, Ada/);
    await expect(page.getByLabel("Family name").first().inputValue()).resolves.toBe("Lovelace");
    await expect(page.getByLabel("ORCID (a person) or ROR id (an organisation)").first().inputValue()).resolves.toBe("0000-0002-1825-0097");
    await expect(page.locator(".chip-list").first().textContent()).resolves.toContain("California Digital Library");
    await page.getByRole("button", { name: "Save draft" }).click();
    // The lenient save keeps the draft and names the missing title beside its field.
    const titleError = page.locator('[data-field="metadata.title"] > .field-error');
    await titleError.waitFor();
    await expect(titleError.textContent()).resolves.toContain("Missing data for required field");
    await expect(page.getByLabel("Title (required)").getAttribute("aria-invalid")).resolves.toBe("true");
    await page.waitForURL(/\/uploads\/[a-z0-9]{5}-[a-z0-9]{5}$/);
    const id = idOf(page);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel("Title (required)").fill("Tide gauges of the North Sea");
    await page.getByLabel("Description").fill("Hourly sea levels.\n\nFrom six stations.");
    await pick(page, "Licence", "cc-by-4", /cc-by-4\.0/);
    await page.getByLabel("Keywords").fill("tides, sea level");
    await page.getByRole("button", { name: "Add funding" }).click();
    await pick(page, "Funder", "Europ", /European Commission/);
    await pick(page, "Award title", "Ocean", /101000001/);

    // One file dropped on the drop zone (a real drop event), one chosen with the file input.
    const dropped = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(["station,level\\nA,1.2\\n"], "levels.csv", { type: "text/csv" }));
      return transfer;
    })()`);
    await page.dispatchEvent("#dropzone", "drop", { dataTransfer: dropped });
    await page.locator("#file-input").setInputFiles({ name: "readme.txt", mimeType: "text/plain", buffer: Buffer.from("About the tide gauges.\n") });
    await waitUploaded(page, "levels.csv");
    await waitUploaded(page, "readme.txt");
    await checkPage(page, html);

    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
    await page.waitForURL((url) => url.pathname === `/records/${id}`);
    const record = (await app.call("GET", `/api/records/${id}`)).json;
    expect(record.metadata).toMatchObject({
      title: "Tide gauges of the North Sea",
      resource_type: { id: "dataset" },
      rights: [{ id: "cc-by-4.0" }],
      subjects: [{ subject: "tides" }, { subject: "sea level" }],
      funding: [{ funder: { id: "00k4n6c32" }, award: { id: "00k4n6c32::101000001" } }],
    });
    expect(record.metadata.description).toContain("From six stations.");
    expect(record.metadata.creators[0]).toMatchObject({
      person_or_org: { name: "Lovelace, Ada", identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] },
      affiliations: [{ id: "03yrm5c26", name: "California Digital Library" }],
    });
    expect(Object.keys(record.files.entries).sort()).toEqual(["levels.csv", "readme.txt"]);
    await person.close();
  });

  test("a large file goes in parts; a part lost on the network is sent again and the upload completes", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", "/uploads/new");
    await fillRequired(page, "Radar sweeps");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/uploads\/[a-z0-9]{5}-[a-z0-9]{5}$/);
    const id = idOf(page);

    let aborted = 0;
    const parts: string[] = [];
    await page.route(/\/draft\/files\/sweeps\.bin\/content\/\d+$/, async (route) => {
      const part = route.request().url().split("/").pop()!;
      parts.push(part);
      if (part === "2" && aborted === 0) {
        aborted++;
        return route.abort("connectionreset");
      }
      return route.continue();
    });
    const size = 12 * 1024 * 1024 + 123;
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4096) bytes[i] = i % 251;
    await page.locator("#file-input").setInputFiles({ name: "sweeps.bin", mimeType: "application/octet-stream", buffer: bytes });
    await waitUploaded(page, "sweeps.bin");
    expect(aborted).toBe(1);
    expect(parts.filter((p) => p === "2").length).toBe(2);
    const entry = (await app.call("GET", `/api/records/${id}/draft/files/sweeps.bin`, { as: "alice" })).json;
    expect(entry).toMatchObject({ status: "completed", size, transfer: { type: "M", parts: 3 } });
    const expected = new Bun.CryptoHasher("md5").update(bytes).digest("hex");
    expect(entry.checksum).toBe(`md5:${expected}`);

    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
    await page.waitForURL((url) => url.pathname === `/records/${id}`);
    expect((await app.call("GET", `/api/records/${id}`)).json.files.entries["sweeps.bin"].size).toBe(size);
    await person.close();
  });

  test("when the connection stays down the upload pauses; resuming sends only the parts the server lacks", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", "/uploads/new");
    await fillRequired(page, "Sonar pings");
    const sent: string[] = [];
    const failing = /\/draft\/files\/pings\.bin\/content\/\d+$/;
    await page.route(failing, (route) => {
      const part = route.request().url().split("/").pop()!;
      sent.push(part);
      return part === "2" ? route.abort("internetdisconnected") : route.continue();
    });
    const size = 11 * 1024 * 1024;
    await page.locator("#file-input").setInputFiles({ name: "pings.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(size, 7) });
    const resume = page.getByRole("button", { name: "Resume pings.bin" });
    await resume.waitFor({ timeout: 20_000 });
    expect(sent.filter((p) => p === "2").length).toBe(5);
    const id = idOf(page);
    const pending = (await app.call("GET", `/api/records/${id}/draft/files/pings.bin`, { as: "alice" })).json;
    expect(pending).toMatchObject({ status: "pending", transfer: { uploaded_parts: [1, 3] } });

    await page.unroute(failing);
    const resent: string[] = [];
    page.on("request", (request) => {
      if (failing.test(request.url())) resent.push(request.url().split("/").pop()!);
    });
    await resume.click();
    await waitUploaded(page, "pings.bin");
    expect(resent).toEqual(["2"]);
    await person.close();
  });

  test("a published record is edited from the dashboard, and a new version started and published", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", "/uploads/new");
    await fillRequired(page, "Wind speeds");
    await page.locator("#file-input").setInputFiles({ name: "wind.csv", mimeType: "text/csv", buffer: Buffer.from("t,v\n1,3\n") });
    await waitUploaded(page, "wind.csv");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
    await page.waitForURL(/\/records\/[a-z0-9-]+$/);
    const id = idOf(page);

    // Edit: from the dashboard's list to the draft of the published record.
    await open(page, "/me/uploads");
    await page.getByRole("button", { name: "Edit Wind speeds" }).click();
    await page.waitForURL((url) => url.pathname === `/uploads/${id}`);
    const html = await (await page.request.get(`/uploads/${id}`)).text();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Edit a published record");
    await checkPage(page, html);
    await page.getByLabel("Title (required)").fill("Wind speeds, corrected");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
    await page.waitForURL((url) => url.pathname === `/records/${id}`);
    expect((await app.call("GET", `/api/records/${id}`)).json.metadata.title).toBe("Wind speeds, corrected");

    // New version: the metadata comes along, the date and the files do not.
    await open(page, "/me/uploads");
    await page.getByRole("button", { name: "New version of Wind speeds, corrected" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/uploads/") && url.pathname !== `/uploads/${id}`);
    const next = idOf(page);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("New version");
    await expect(page.getByLabel("Title (required)").inputValue()).resolves.toBe("Wind speeds, corrected");
    await expect(page.getByLabel("Publication date (required)").inputValue()).resolves.toBe("");
    await page.getByRole("button", { name: "Import the files of the previous version" }).click();
    await page
      .locator('li.file[data-key="wind.csv"]')
      .getByText(/Uploaded/)
      .waitFor();
    await page.locator("#file-input").setInputFiles({ name: "wind-2.csv", mimeType: "text/csv", buffer: Buffer.from("t,v\n2,4\n") });
    await waitUploaded(page, "wind-2.csv");
    await page.getByLabel("Publication date (required)").fill("2026-11-22");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
    await page.waitForURL((url) => url.pathname === `/records/${next}`);
    const v2 = (await app.call("GET", `/api/records/${next}`)).json;
    expect(v2.versions.index).toBe(2);
    expect(Object.keys(v2.files.entries).sort()).toEqual(["wind-2.csv", "wind.csv"]);
    expect(v2.parent.id).toBe((await app.call("GET", `/api/records/${id}`)).json.parent.id);
    await person.close();
  });

  test("with a DOI prefix a DOI is reserved from the form; a draft is deleted; a published record's /uploads page offers edit and new version", async () => {
    const withDois = await startBrowserApp({ DATACITE_PREFIX: "10.80001" });
    try {
      const person = await withDois.newPerson();
      const page = await person.newPage();
      await signIn(page, "alice", "alice-password", "/uploads/new");
      await fillRequired(page, "Salinity profiles");
      await page.getByRole("button", { name: "Reserve a DOI" }).click();
      await page.getByText(/^Reserved: 10\.80001\//).waitFor();
      const id = idOf(page);
      expect((await withDois.call("GET", `/api/records/${id}/draft`, { as: "alice" })).json.pids.doi.identifier).toBe(`10.80001/${id}`);
      await expect(page.getByRole("button", { name: "Reserve a DOI" }).count()).resolves.toBe(0);

      page.once("dialog", (dialog) => dialog.accept());
      await page.getByRole("button", { name: "Delete draft" }).click();
      await page.waitForURL((url) => url.pathname === "/me/uploads");
      expect((await withDois.call("GET", `/api/records/${id}/draft`, { as: "alice" })).status).toBe(404);

      const published = await publishRecord(withDois, publishableDraft());
      const html = await open(page, `/uploads/${published.id}`);
      expect(await htmlErrors(html)).toEqual([]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "New version" }).click();
      await page.waitForURL((url) => url.pathname.startsWith("/uploads/") && url.pathname !== `/uploads/${published.id}`);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("New version");
      // Someone else's draft is refused as the REST API refuses it.
      const bob = await withDois.newPerson();
      const bobPage = await bob.newPage();
      await signIn(bobPage, "bob", "bob-password");
      const refused = await bobPage.goto(page.url());
      expect(refused?.status()).toBe(403);
      await person.close();
      await bob.close();
    } finally {
      await withDois.stop();
    }
  });
});
