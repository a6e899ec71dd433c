// The dashboard in a real browser: an access request answered by the record's owner (a comment,
// acceptance with an expiry date, the grant it makes), a draft submitted to a community from the
// deposit form and accepted by the community's owner, and the uploads and communities tabs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectStatus } from "../helpers/app";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { COMMUNITY_BODY } from "../helpers/communities";
import { createDraft, publishableDraft, publishDraft } from "../helpers/records";

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
});
afterAll(() => app.stop());

/** Opens a page and checks it: 200, valid markup as served, no serious accessibility violations, no sideways scrolling on a phone. */
async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  expect(await htmlErrors(await response!.text())).toEqual([]);
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
}

const phone = () => app.browser.newContext({ baseURL: app.base, viewport: { width: 375, height: 740 } });

describe("dashboard", () => {
  test("the owner answers an access request: reads it, comments, accepts with an expiry date; the requester has a grant", async () => {
    const draft = await createDraft(app, publishableDraft({ access: { record: "public", files: "restricted" }, files: { enabled: true } }), {
      files: [["data.csv", "station,level\nA,1.2\n"]],
    });
    const record = await publishDraft(app, draft.id);
    expectStatus(await app.call("PUT", `/api/records/${record.id}/access`, { as: "alice", body: { settings: { allow_user_requests: true } } }), 200);
    const asked = await app.call("POST", `/api/records/${record.id}/access/request`, {
      as: "bob",
      body: { permission: "view", email: "bob@example.org", full_name: "Bob Builder", message: "<p>I study tides.</p>", consent_to_share_personal_data: "true" },
    });
    expect(asked.status).toBeLessThan(300);

    const person = await phone();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", "/me/requests");
    await visit(page, "/me/requests");
    const row = page.getByRole("row", { name: /Access request for/ });
    await expect(row.textContent()).resolves.toContain("submitted");
    await row.getByRole("link").click();
    await page.waitForURL(/\/me\/requests\/[0-9a-f-]+$/);
    const requestPath = new URL(page.url()).pathname;
    await visit(page, requestPath);
    await expect(page.locator(".timeline").textContent()).resolves.toContain("I study tides.");

    await page.getByLabel("Add a comment").fill("Happy to share <the data>.");
    await page.getByRole("button", { name: "Comment" }).click();
    await page.getByRole("status").getByText("Your comment was added.").waitFor();
    await expect(page.locator(".timeline .comment").last().textContent()).resolves.toContain("Happy to share <the data>.");

    await expect(page.getByRole("button", { name: "Decline" }).count()).resolves.toBe(1);
    await page.getByLabel("Access ends on (optional)").fill("2026-12-31");
    await page.getByRole("button", { name: "Accept" }).click();
    await page.getByRole("status").getByText("The request was accepted.").waitFor();
    await expect(page.locator(".facts").textContent()).resolves.toContain("accepted");
    await expect(page.getByRole("button", { name: "Accept" }).count()).resolves.toBe(0);
    await expect(page.locator(".timeline").textContent()).resolves.toContain("accepted the request");
    expect(await seriousAxeViolations(page)).toEqual([]);

    const grants = (await app.call("GET", `/api/records/${record.id}/access/users`, { as: "alice" })).json;
    const bobId = String(app.users.bob.user.id);
    const grant = grants.hits.hits.find((g: any) => g.subject?.id === bobId);
    expect(grant).toMatchObject({ permission: "view", subject: { type: "user", id: bobId } });
    expect(String(grant.expires_at)).toStartWith("2026-12-31");
    expect((await app.call("GET", `/api/records/${record.id}/files/data.csv/content`, { as: "bob" })).status).toBe(200);

    // A request's self_html (/requests/{id}) leads here.
    const requestId = requestPath.split("/").pop();
    await page.goto(`/requests/${requestId}`);
    expect(new URL(page.url()).pathname).toBe(requestPath);
    await person.close();

    // The requester sees it among their closed requests, sent to the owner.
    const other = await phone();
    const bobPage = await other.newPage();
    await signIn(bobPage, "bob", "bob-password", "/me/requests?filter=closed");
    await visit(bobPage, "/me/requests?filter=closed");
    await expect(bobPage.getByRole("row", { name: /Access request for/ }).textContent()).resolves.toContain("accepted");
    await other.close();
  });

  test("a draft submitted to a community from the deposit form shows for the community's owner, who accepts it", async () => {
    expectStatus(await app.call("POST", "/api/communities", { as: "bob", body: COMMUNITY_BODY("tides", { title: "Tide watchers" }) }), 201);
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password", "/uploads/new");
    await visit(page, "/uploads/new");
    await page.getByLabel("Resource type (required)").selectOption("dataset");
    await page.getByLabel("Title (required)").fill("Harbour tide log");
    await page.getByLabel("Given name").fill("Ada");
    await page.getByLabel("Family name").fill("Lovelace");
    await page.locator("#file-input").setInputFiles({ name: "log.csv", mimeType: "text/csv", buffer: Buffer.from("t,h\n1,2\n") });
    await page
      .locator('li.file[data-key="log.csv"]')
      .getByText(/Uploaded/)
      .waitFor();
    await page.getByLabel("Community", { exact: true }).selectOption({ label: "Tide watchers" });
    await page.getByLabel("Message to the curators (optional)").fill("Please include our log.");
    await page.getByRole("button", { name: "Submit for review" }).click();
    await page.getByText("In review by Tide watchers").waitFor();
    const draftId = new URL(page.url()).pathname.split("/").pop()!;
    expect((await app.call("GET", `/api/records/${draftId}`)).status).toBe(404);
    await person.close();

    const owner = await phone();
    const ownerPage = await owner.newPage();
    await signIn(ownerPage, "bob", "bob-password", "/me/requests");
    await visit(ownerPage, "/me/requests");
    const row = ownerPage.getByRole("row", { name: /Harbour tide log/ });
    await expect(row.textContent()).resolves.toContain("Review");
    await row.getByRole("link").click();
    await ownerPage.waitForURL(/\/me\/requests\/[0-9a-f-]+$/);
    await visit(ownerPage, new URL(ownerPage.url()).pathname);
    await expect(ownerPage.locator(".timeline").textContent()).resolves.toContain("Please include our log.");
    await expect(ownerPage.getByRole("button", { name: "Decline" }).count()).resolves.toBe(1);
    await expect(ownerPage.getByLabel("Access ends on (optional)").count()).resolves.toBe(0);
    await ownerPage.getByRole("button", { name: "Accept" }).click();
    await ownerPage.getByRole("status").getByText("The request was accepted.").waitFor();
    const published = (await app.call("GET", `/api/records/${draftId}`)).json;
    expect(published.metadata.title).toBe("Harbour tide log");
    expect(published.parent.communities.ids).toHaveLength(1);

    await visit(ownerPage, "/me/communities");
    await expect(ownerPage.getByRole("link", { name: "Tide watchers" }).count()).resolves.toBe(1);
    await owner.close();
  });

  test("the uploads tab lists drafts and records with their status and ways in; signed-out visitors are sent to sign in", async () => {
    await createDraft(app, publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Unfinished soundings" } }));
    const person = await phone();
    const page = await person.newPage();
    await page.goto("/me/uploads");
    expect(new URL(page.url()).pathname).toBe("/login");
    await signIn(page, "alice", "alice-password", "/me/uploads");
    await visit(page, "/me/uploads");
    await expect(page.getByRole("row", { name: /Unfinished soundings/ }).textContent()).resolves.toContain("Draft");
    await expect(page.getByRole("row", { name: /Harbour tide log/ }).textContent()).resolves.toContain("Published");
    await page.getByRole("link", { name: "Continue Unfinished soundings" }).click();
    await page.waitForURL(/\/uploads\/[a-z0-9]{5}-[a-z0-9]{5}$/);
    await expect(page.getByLabel("Title (required)").inputValue()).resolves.toBe("Unfinished soundings");
    await visit(page, "/me/uploads?q=soundings");
    await expect(page.getByRole("row").count()).resolves.toBe(2);
    await person.close();
  });
});
