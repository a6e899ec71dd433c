// Administration → Records, Communities and OAI-PMH sets in a real browser: an administrator finds
// a record and tombstones it with a reason, then restores it; features a community for a period and
// deletes another; creates an OAI-PMH set (its errors shown beside the fields first), edits it and
// deletes it; axe, markup and width at desktop and phone size on each screen. Someone who is not an
// administrator gets the 404 page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { systemActor } from "../../src/core/actor";
import { adminNav, checkScreen, heading, openScreen } from "../helpers/admin-pages";
import { signIn, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";
import { COMMUNITY_BODY } from "../helpers/communities";
import { MINIMAL_METADATA, publishableDraft, publishRecord } from "../helpers/records";

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
});
afterAll(async () => {
  await app.stop();
});

const status = (page: Page) => page.getByRole("status").textContent();

describe("administration: records, communities, OAI-PMH sets", () => {
  test("someone who is not an administrator gets the 404 page on each screen", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password");
    for (const path of ["/administration/records", "/administration/communities", "/administration/oai-sets"]) {
      expect({ path, status: (await page.goto(path))?.status() }).toEqual({ path, status: 404 });
      await expect(heading(page)).resolves.toBe("Not found");
    }
    await person.close();
  });

  test("records: find one, tombstone it with a reason, restore it", async () => {
    const record = await publishRecord(app, publishableDraft({ metadata: { ...MINIMAL_METADATA, title: "Plankton counts", publisher: "Cairn" } }));
    await publishRecord(app, publishableDraft({ metadata: { ...MINIMAL_METADATA, title: "Glacier melt", publisher: "Cairn" } }), { as: "bob" });
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration");
    await openScreen(page, "Records", "/administration/records");
    await expect(heading(page)).resolves.toBe("Records and drafts");
    await expect(page.getByRole("row").count()).resolves.toBe(3);
    await checkScreen(page);

    await page.getByLabel("Title, creator, id or any query").fill("plankton");
    await page.getByLabel("Status").selectOption({ label: "Published" });
    await page.getByRole("button", { name: "Search records" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === "plankton" && url.searchParams.get("status") === "published");
    const row = page.getByRole("row", { name: /Plankton counts/ });
    await expect(row.getByRole("cell").nth(1).textContent()).resolves.toBe("alice@example.org");
    await expect(page.getByRole("row").count()).resolves.toBe(2);
    await checkScreen(page);

    await row.getByRole("link", { name: "Plankton counts" }).click();
    await expect(heading(page)).resolves.toBe("Record Plankton counts");
    await page.getByRole("link", { name: "Tombstone" }).click();
    await expect(page.getByRole("heading", { name: `Tombstone the record ${record.id}?` }).count()).resolves.toBe(1);
    await checkScreen(page);
    await page.getByLabel("Removal reason").selectOption({ label: "Spam" });
    await page.getByLabel("Note (shown on the tombstone)").fill("Advertising.");
    await submitForm(page, page.getByRole("button", { name: "Tombstone the record" }));
    await expect(status(page)).resolves.toBe("The record was tombstoned.");
    await checkScreen(page);
    expect((await app.services.records.readRecord(systemActor, record.id, { includeDeleted: true })).tombstone).toMatchObject({
      removal_reason: { id: "spam" },
      note: "Advertising.",
    });

    await page.getByRole("link", { name: "Restore" }).click();
    await checkScreen(page);
    await submitForm(page, page.getByRole("button", { name: "Restore the record" }));
    await expect(status(page)).resolves.toBe("The record was restored.");
    expect((await app.services.records.readRecord(systemActor, record.id)).deletion_status.is_deleted).toBe(false);
    await person.close();
  });

  test("communities: feature one for a period, delete another", async () => {
    for (const slug of ["reefs", "spam-club"])
      expect((await app.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY(slug, { title: `The ${slug}` }) })).status).toBe(201);
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration");
    await openScreen(page, "Communities", "/administration/communities");
    await expect(heading(page)).resolves.toBe("Communities");
    await checkScreen(page);

    await page.getByLabel("Name, identifier or words of the description").fill("reefs");
    await page.getByRole("button", { name: "Search communities" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === "reefs");
    await page.getByRole("link", { name: "The reefs" }).click();
    await expect(heading(page)).resolves.toBe("Community The reefs");
    await checkScreen(page);
    const at = (offset: number) => new Date(app.clock.now() + offset).toISOString().slice(0, 16);
    await page.getByLabel("From (UTC)").fill(at(-3_600_000));
    await page.getByLabel("Until (UTC, optional)").fill(at(86_400_000));
    await submitForm(page, page.getByRole("button", { name: "Feature the community" }));
    await expect(status(page)).resolves.toBe("The community is featured for that period.");
    await expect(
      page
        .getByRole("row", { name: /Remove/ })
        .getByRole("cell")
        .nth(0)
        .textContent(),
    ).resolves.toBe(`${at(86_400_000).replace("T", " ")} UTC`);
    await checkScreen(page);
    const featured = (await app.call("GET", "/api/communities/featured")).json.hits.hits as { slug: string }[];
    expect(featured.map((c) => c.slug)).toEqual(["reefs"]);

    await adminNav(page).getByRole("link", { name: "Communities" }).click();
    await page.getByRole("link", { name: "The spam-club" }).click();
    await page.getByRole("link", { name: "Delete the community" }).click();
    await checkScreen(page);
    await submitForm(page, page.getByRole("button", { name: "Delete the community" }));
    await expect(status(page)).resolves.toBe("The community was deleted.");
    await expect(page.getByRole("link", { name: "The spam-club" }).count()).resolves.toBe(0);
    await person.close();
  });

  test("OAI-PMH sets: the service's errors beside the fields, then create, edit and delete a set", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration");
    await openScreen(page, "OAI-PMH sets", "/administration/oai-sets");
    await expect(heading(page)).resolves.toBe("OAI-PMH sets");
    await checkScreen(page);

    await page.getByRole("link", { name: "New set" }).click();
    await page.getByLabel("Name").fill("Physics");
    await page.getByLabel("Spec").fill("not a spec");
    await page.getByLabel("Search query").fill("metadata.subjects.subject:physics");
    const refused = await submitForm(page, page.getByRole("button", { name: "Create the set" }));
    expect(refused.status()).toBe(400);
    await expect(page.getByLabel("Spec").getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(page.locator("#field-spec-error").textContent()).resolves.toStartWith("Must be an OAI setSpec");
    expect(await page.getByLabel("Name").inputValue()).toBe("Physics");
    await page.getByLabel("Spec").fill("physics");
    await submitForm(page, page.getByRole("button", { name: "Create the set" }));
    await expect(status(page)).resolves.toBe("The set was created.");
    await checkScreen(page);

    await page.getByLabel("Name").fill("Physics and astronomy");
    await submitForm(page, page.getByRole("button", { name: "Save the set" }));
    await expect(status(page)).resolves.toBe("The set was saved.");
    await page.getByRole("link", { name: "Delete the set" }).click();
    await checkScreen(page);
    await submitForm(page, page.getByRole("button", { name: "Delete the set" }));
    await expect(status(page)).resolves.toBe("The set was deleted.");
    await expect(page.getByText("No sets yet.").count()).resolves.toBe(1);
    expect((await app.services.oai.listSets(systemActor, {})).hits.total).toBe(0);
    await person.close();
  });
});
