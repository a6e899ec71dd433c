// Reviews that say where they stand, in a real browser: a draft submitted to a community says "In
// review by …" with its request and Cancel (no Publish, no other submission), the dashboard says
// "In review"; cancelled and submitted again; the curator finds it on the community's Requests tab
// (the header's badge counting it), accepts, and the request links to the published record.
// Publishing asks first; errors name labels, never paths, and go when their cause goes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { systemActor } from "../../src/core/actor";
import { newUuid } from "../../src/core/ids";
import { communityMembersTable } from "../../src/db/tables";
import { expectStatus } from "../helpers/app";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { COMMUNITY_BODY } from "../helpers/communities";
import { createDraft, publishableDraft } from "../helpers/records";

const SIZES = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

let app: BrowserApp;
let community: { id: string; slug: string };

beforeAll(async () => {
  app = await startBrowserApp();
  const created = await app.call("POST", "/api/communities", { as: "bob", body: COMMUNITY_BODY("tides", { title: "Tide watchers" }) });
  expectStatus(created, 201);
  community = created.json;
  // carol curates the community (bob owns it); alice deposits.
  const carol = await app.services.users.createUser(systemActor, { email: "carol@example.org", username: "carol", password: "carol-password" });
  const now = app.clock.now();
  await app.services.deps.db
    .insert(communityMembersTable)
    .values({ id: newUuid(), communityId: community.id, role: "curator", userId: carol.id, created: now, updated: now })
    .run();
});
afterAll(() => app.stop());

/** The page as served passes html-validate; as shown, axe at both widths with nothing wider than the screen. */
async function check(page: Page) {
  const html = await (await page.request.get(page.url())).text();
  expect(await htmlErrors(html)).toEqual([]);
  const before = page.viewportSize()!;
  for (const size of SIZES) {
    await page.setViewportSize(size);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(size.width);
  }
  await page.setViewportSize(before);
}

/** No dotted field path (`metadata.title`, `files.enabled`) anywhere in the page's text. */
const DOTTED_PATH = /\b(metadata|files|access|pids|custom_fields|receiver)\.[a-z_]+/;

const titled = (title: string, extra: Record<string, unknown> = {}) => publishableDraft({ metadata: { ...publishableDraft().metadata, title }, ...extra });

/** The review walk at each width: the depositor and the curator both at that width, on a draft of its own. */
const WALKS = [
  ["desktop", SIZES[0]!],
  ["phone", SIZES[1]!],
] as const;

describe("reviews that say where they stand", () => {
  for (const [name, size] of WALKS)
    test(`submit → In review (no Publish), dashboard; cancel → resubmit; the curator accepts from the Requests tab; the badge counts it (${name})`, async () => {
      // A title per walk: the dashboard, the Requests tab and the closed requests list the other walk's draft too.
      const title = `Harbour tide log (${name})`;
      const row = new RegExp(title.replace(/[()]/g, "\\$&"));
      const draft = await createDraft(app, titled(title, { files: { enabled: true } }));
      const person = await app.browser.newContext({ baseURL: app.base, viewport: size });
      const page = await person.newPage();
      page.on("dialog", (d) => d.accept());
      await signIn(page, "alice", "alice-password", `/uploads/${draft.id}`);

      // Two files uploaded: the "Missing uploaded files" error of the empty draft goes with them.
      await page.getByText("Missing uploaded files").first().waitFor();
      await page.locator("#file-input").setInputFiles([
        { name: "log.csv", mimeType: "text/csv", buffer: Buffer.from("t,h\n1,2\n") },
        { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("calm sea") },
      ]);
      for (const key of ["log.csv", "notes.txt"])
        await page
          .locator(`li.file[data-key="${key}"]`)
          .getByText(/Uploaded/)
          .waitFor();
      await page.getByRole("status").getByText("2 files processed.").waitFor();
      const text = await page.locator("main").innerText();
      expect(text).not.toContain("Missing uploaded files");
      expect(text).not.toMatch(DOTTED_PATH);
      await expect(page.locator("#deposit-errors").isHidden()).resolves.toBe(true);

      await page.getByLabel("Community", { exact: true }).selectOption({ label: "Tide watchers" });
      await page.getByRole("button", { name: "Submit for review" }).click();
      await page.getByText("In review by Tide watchers").waitFor();
      await expect(page.getByRole("button", { name: "Publish" }).count()).resolves.toBe(0);
      await expect(page.getByRole("button", { name: "Submit for review" }).count()).resolves.toBe(0);
      // As served after a reload too, with the request's link.
      await page.reload();
      await page.getByText("In review by Tide watchers").waitFor();
      await expect(page.getByRole("button", { name: "Publish" }).count()).resolves.toBe(0);
      await expect(page.getByRole("button", { name: "Delete draft" }).count()).resolves.toBe(0);
      const requestHref = await page.getByRole("link", { name: "Open the review request" }).getAttribute("href");
      expect(requestHref).toMatch(/^\/me\/requests\/[0-9a-f-]{36}$/);
      await check(page);

      await page.goto("/me/uploads");
      await expect(page.getByRole("row", { name: row }).textContent()).resolves.toContain("In review");
      await check(page);

      // Cancelled: Publish and the submission come back; submitted again.
      await page.goto(`/uploads/${draft.id}`);
      await page.getByRole("button", { name: "Cancel the review" }).click();
      await page.getByRole("status").getByText("The review was cancelled.").waitFor();
      await expect(page.getByRole("button", { name: "Publish" }).count()).resolves.toBe(1);
      expect((await app.call("GET", `/api/requests/${requestHref!.split("/").pop()}`, { as: "alice" })).json.status).toBe("cancelled");
      await page.reload();
      await expect(page.locator("#review-status").textContent()).resolves.toContain("the review was cancelled");
      await page.getByRole("button", { name: "Submit for review" }).click();
      await page.getByText("In review by Tide watchers").waitFor();
      await expect(page.getByRole("button", { name: "Publish" }).count()).resolves.toBe(0);
      await check(page);

      // The curator: the badge says 1; the community's Requests tab; accept.
      const curator = await app.browser.newContext({ baseURL: app.base, viewport: size });
      const cPage = await curator.newPage();
      await signIn(cPage, "carol", "carol-password", "/communities/tides");
      // On a phone too the badge stays in view (beside the Menu button).
      await expect(cPage.getByRole("link", { name: /^Requests 1/ }).getAttribute("href")).resolves.toBe("/me/requests");
      await expect(cPage.getByRole("link", { name: /^Requests 1/ }).isVisible()).resolves.toBe(true);
      await cPage.getByRole("navigation", { name: "Community" }).getByRole("link", { name: "Requests" }).click();
      await cPage.waitForURL((url) => url.pathname === "/communities/tides/requests");
      await check(cPage);
      await cPage.getByRole("row", { name: row }).getByRole("link").click();
      await cPage.waitForURL(/\/me\/requests\/[0-9a-f-]+$/);
      await check(cPage);
      await cPage.getByRole("button", { name: "Accept" }).click();
      await cPage.getByRole("status").getByText("The request was accepted.").waitFor();
      await expect(cPage.getByRole("link", { name: "The published record" }).getAttribute("href")).resolves.toBe(`/records/${draft.id}`);
      await expect(cPage.getByRole("link", { name: "Edit the draft" }).count()).resolves.toBe(0);
      await expect(cPage.getByRole("link", { name: /^Requests \d/ }).count()).resolves.toBe(0);
      await check(cPage);
      expect((await app.call("GET", `/api/records/${draft.id}`)).json.metadata.title).toBe(title);
      await curator.close();

      // The depositor's request page links to the record too, and the deposit page is the published record's.
      await page.goto("/me/requests?filter=closed");
      await page.getByRole("row", { name: row }).filter({ hasText: "accepted" }).getByRole("link").click();
      await page.waitForURL(/\/me\/requests\/[0-9a-f-]+$/);
      await expect(page.getByRole("link", { name: "The published record" }).getAttribute("href")).resolves.toBe(`/records/${draft.id}`);
      await expect(page.getByRole("link", { name: "Edit the draft" }).count()).resolves.toBe(0);
      await person.close();
    }, 180_000);

  test("Publish asks first, saying what can no longer change: Cancel keeps the draft, Publish publishes", async () => {
    const draft = await createDraft(app, titled("Wave heights"));
    const person = await app.browser.newContext({ baseURL: app.base, viewport: SIZES[1] });
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", `/uploads/${draft.id}`);
    await page.getByRole("button", { name: "Publish" }).click();
    const dialog = page.getByRole("dialog", { name: "Publish this upload?" });
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain("the files can no longer be added, replaced or removed");
    await expect(dialog.textContent()).resolves.toContain("the record cannot be deleted");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog.isHidden()).resolves.toBe(true);
    expect((await app.call("GET", `/api/records/${draft.id}`)).status).toBe(404);
    expect((await app.call("GET", `/api/records/${draft.id}/draft`, { as: "alice" })).status).toBe(200);

    await page.getByRole("button", { name: "Publish" }).click();
    await dialog.getByRole("button", { name: "Publish" }).click();
    await page.waitForURL((url) => url.pathname === `/records/${draft.id}`);
    expect((await app.call("GET", `/api/records/${draft.id}`)).status).toBe(200);
    await person.close();
  });

  test("an error names the field's label, never its path, and goes once fixed", async () => {
    const { title: _, ...metadata } = publishableDraft().metadata as Record<string, unknown>;
    const draft = await createDraft(app, publishableDraft({ metadata }));
    const person = await app.browser.newContext({ baseURL: app.base, viewport: SIZES[0] });
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", `/uploads/${draft.id}`);
    const summary = page.locator("#deposit-errors");
    await summary.getByRole("link", { name: "Title" }).waitFor();
    await expect(page.locator("#title-error").isVisible()).resolves.toBe(true);
    expect(await page.locator("body").innerText()).not.toMatch(DOTTED_PATH);
    await check(page);

    await page.getByLabel("Title (required)").fill("Wind speeds");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").getByText("Draft saved.").waitFor();
    await expect(summary.isHidden()).resolves.toBe(true);
    await expect(page.locator("#title-error").isHidden()).resolves.toBe(true);
    await expect(page.getByLabel("Title (required)").getAttribute("aria-invalid")).resolves.toBeNull();

    // A path no field of the form owns is named after the section of its kind of fields, never printed.
    await page.route(`**/api/records/${draft.id}/draft`, async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      const response = await route.fetch();
      const body = await response.json();
      await route.fulfill({ response, json: { ...body, errors: [{ field: "metadata.no_such_field.0.thing", messages: ["Something is off here."] }] } });
    });
    await page.getByRole("button", { name: "Save draft" }).click();
    await summary.getByText("Something is off here.").waitFor();
    const item = await summary.locator("li").innerText();
    expect(item).toMatch(/^[A-Z][a-z].*: Something is off here\.$/);
    expect(await page.locator("body").innerText()).not.toMatch(/no_such_field|metadata\./);
    await person.close();
  });
});
