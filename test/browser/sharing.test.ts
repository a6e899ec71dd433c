// Sharing a record from its landing page (issue 33, item 3) in a real Chromium: the owner's Share
// dialog gives a person access and takes it back, makes a secret link and revokes it, turns access
// requests on so that another user and a guest see "Request access" and accepts one, and transfers
// the record to another owner. The dialog is checked open with axe-core and html-validate at a
// desktop's and a phone's width; Escape closes it and focus returns to the Share button.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { systemActor } from "../../src/core/actor";
import { expectStatus } from "../helpers/app";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { createDraft, publishableDraft, publishDraft } from "../helpers/records";

let app: BrowserApp;

const WIDTHS = [1280, 390];
/** Each walk at a desktop's and a phone's width, on a record of its own per width. */
const WALKS = [
  ["desktop", 1280],
  ["phone", 390],
] as const;
// A file without a preview: the page checked is the Share dialog's, not a preview's.
const FILE = "data.dat";

beforeAll(async () => {
  // Users are listed in the directory, so the owner's look-up finds them.
  app = await startBrowserApp({ ACCOUNTS_DEFAULT_USER_VISIBILITY: "public" });
  await app.services.users.updateProfile(systemActor, app.users.bob.user.id, { fullName: "Bob Builder" });
  await app.services.groups.createGroup(systemActor, { name: "Glaciology lab", description: "The lab" });
});
afterAll(() => app.stop());

/** Alice's published record with one file, with this access. */
async function record(title: string, access: { record: string; files: string }): Promise<string> {
  const draft = await createDraft(app, publishableDraft({ access, files: { enabled: true }, metadata: { ...publishableDraft().metadata, title } }), {
    files: [[FILE, "a,b\n1,2\n"]],
  });
  return String((await publishDraft(app, draft.id)).id);
}

/** The page as served is valid HTML; the page as it is now has no serious axe violation at either width. */
async function checkPage(page: Page, html?: string) {
  expect(await htmlErrors(html ?? (await (await page.request.get(page.url())).text()))).toEqual([]);
  const walked = page.viewportSize()!;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(width);
  }
  // Back to the width the person walks at.
  await page.setViewportSize(walked);
}

/** A person in a browser of their own, `width` px wide, signed in as `login` if given. */
async function person(width: number, login?: string, next = "/") {
  const context = await app.newPerson();
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  page.on("dialog", (d) => void d.accept());
  if (login) await signIn(page, login, `${login}-password`, next);
  return { context, page };
}

const dialog = (page: Page) => page.getByRole("dialog", { name: "Share this record" });

/** Opens the Share dialog on the record's page; checks it open (markup of the page with the dialog, axe at both widths). */
async function openShare(page: Page, id: string, check = false) {
  const response = await page.goto(`/records/${id}`);
  expect(response?.status()).toBe(200);
  await page.getByRole("link", { name: "Share" }).click();
  await dialog(page).waitFor();
  if (check) await checkPage(page, await response!.text());
}

async function statusSays(page: Page, text: string) {
  await dialog(page).locator("#share-status", { hasText: text }).waitFor({ timeout: 10_000 });
}

/** Finds `words` in a look-up and picks the first match. */
async function pick(page: Page, section: string, words: string, list: "Person" | "Group") {
  const box = dialog(page).locator("details", { has: page.getByText(section, { exact: true }) });
  await box.locator("summary").click();
  await box.getByRole("searchbox").fill(words);
  await box.getByRole("button", { name: "Find" }).click();
  await box.getByRole("status").filter({ hasText: "found" }).waitFor();
  const select = box.getByLabel(list, { exact: true });
  const value = await select.locator("option").first().getAttribute("value");
  await select.selectOption(value!);
  return box;
}

describe("the Share dialog", () => {
  for (const [name, width] of WALKS)
    test(`the owner gives a person access to a restricted record, they open it; revoked, they cannot (${name})`, async () => {
      const id = await record("Ice cores", { record: "restricted", files: "restricted" });
      const bob = await person(width, "bob");
      expect((await bob.page.goto(`/records/${id}`))?.status()).toBe(403);
      // Someone who does not manage the record has no Share page either.
      expect((await bob.page.goto(`/records/${id}/share`))?.status()).toBe(403);

      const alice = await person(width, "alice");
      // The dialog's content as a page of its own (what the script re-reads), checked too.
      const sharePage = await alice.page.goto(`/records/${id}/share`);
      expect(sharePage?.status()).toBe(200);
      await expect(alice.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Share “Ice cores”");
      await checkPage(alice.page, await sharePage!.text());
      await openShare(alice.page, id, true);
      // A restricted record cannot be asked for: the dialog says so and offers grants and links.
      await expect(dialog(alice.page).getByText("This record itself is restricted").isVisible()).resolves.toBe(true);
      const box = await pick(alice.page, "Give a person access", "bob", "Person");
      await box.getByLabel("Permission").selectOption("view");
      await expect(box.getByText("YYYY-MM-DD").isVisible()).resolves.toBe(true);
      await box.getByLabel("Access ends after (optional)").fill("2027-01-15");
      await box.getByRole("button", { name: "Give access" }).click();
      await statusSays(alice.page, "Access given.");
      await expect(dialog(alice.page).getByText("Bob Builder").isVisible()).resolves.toBe(true);
      await expect(dialog(alice.page).getByText("until 2027-01-15").isVisible()).resolves.toBe(true);
      const grants = await app.call("GET", `/api/records/${id}/access/users`, { as: "alice" });
      expect(grants.json.hits.hits).toEqual([
        { id: 0, subject: { type: "user", id: String(app.users.bob.user.id) }, permission: "view", origin: expect.any(String), expires_at: "2027-01-15" },
      ]);
      // Escape closes the dialog and gives focus back to the Share button.
      await alice.page.keyboard.press("Escape");
      await dialog(alice.page).waitFor({ state: "hidden" });
      expect(await alice.page.evaluate("document.activeElement && document.activeElement.textContent")).toBe("Share");

      const opened = await bob.page.goto(`/records/${id}`);
      expect(opened?.status()).toBe(200);
      await expect(bob.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Ice cores");

      // A group too, from the groups' look-up.
      await openShare(alice.page, id);
      const groupBox = await pick(alice.page, "Give a group access", "glaciology", "Group");
      await groupBox.getByRole("button", { name: "Give access" }).click();
      await statusSays(alice.page, "Access given.");
      await expect(dialog(alice.page).getByText("Glaciology lab").isVisible()).resolves.toBe(true);

      await dialog(alice.page).getByRole("button", { name: "Revoke access of Bob Builder" }).click();
      await statusSays(alice.page, "Access of Bob Builder revoked.");
      expect((await bob.page.goto(`/records/${id}`))?.status()).toBe(403);
      await alice.context.close();
      await bob.context.close();
    }, 180_000);

  for (const [name, width] of WALKS)
    test(`a secret link opens the record in a fresh browser without signing in; revoked, it does not (${name})`, async () => {
      const id = await record("Firn density", { record: "restricted", files: "restricted" });
      const alice = await person(width, "alice");
      await openShare(alice.page, id);
      const box = dialog(alice.page).locator("details", { has: alice.page.getByText("Make a secret link", { exact: true }) });
      await box.locator("summary").click();
      await box.getByLabel("Permission").selectOption("view");
      await box.getByLabel("Note for yourself (optional)").fill("for the reviewers");
      await box.getByRole("button", { name: "Make the link" }).click();
      await statusSays(alice.page, "The secret link is made");
      const url = await dialog(alice.page)
        .getByLabel(/The new secret link/)
        .inputValue();
      expect(url).toMatch(new RegExp(`^${app.base}/records/${id}\\?token=[A-Za-z0-9._-]+$`));
      await checkPage(alice.page, await (await alice.page.request.get(`/records/${id}`)).text());

      const stranger = await person(width);
      // Anonymous: asked to sign in (401), as the API answers.
      expect((await stranger.page.goto(`/records/${id}`))?.status()).toBe(401);
      expect((await stranger.page.goto(url))?.status()).toBe(200);
      await expect(stranger.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Firn density");

      await dialog(alice.page).getByRole("button", { name: "Revoke the link made 2026-11-22 (for the reviewers)" }).click();
      await statusSays(alice.page, "The link is revoked.");
      await expect(dialog(alice.page).getByText("No secret links.").isVisible()).resolves.toBe(true);
      expect((await stranger.page.goto(url))?.status()).toBe(401);
      await alice.context.close();
      await stranger.context.close();
    }, 180_000);

  for (const [name, width] of WALKS)
    test(`access requests turned on: another user and a guest see 'Request access'; the owner accepts from the dialog (${name})`, async () => {
      const id = await record("Sea ice extent", { record: "public", files: "restricted" });
      const bob = await person(width, "bob");
      await bob.page.goto(`/records/${id}`);
      expect(await bob.page.getByRole("button", { name: "Request access" }).count()).toBe(0);

      const alice = await person(width, "alice");
      await openShare(alice.page, id);
      await dialog(alice.page).getByLabel("Signed-in users may ask for access to the files").check();
      await dialog(alice.page).getByLabel("Guests (without an account) may ask for access to the files").check();
      await dialog(alice.page)
        .getByLabel(/Conditions shown to whoever asks/)
        .fill("Cite the data set.");
      await dialog(alice.page).getByLabel("Access given by accepting a request lasts (days)").fill("30");
      await dialog(alice.page).getByRole("button", { name: "Save access request settings" }).click();
      await statusSays(alice.page, "The access request settings are saved.");
      const settings = (await app.call("GET", `/api/records/${id}`, { as: "alice" })).json.parent.access.settings;
      expect(settings).toEqual({ allow_user_requests: true, allow_guest_requests: true, accept_conditions_text: "Cite the data set.", secret_link_expiration: 30 });

      const seen = await bob.page.goto(`/records/${id}`);
      await checkPage(bob.page, await seen!.text());
      await expect(bob.page.getByText("Cite the data set.").isVisible()).resolves.toBe(true);
      await bob.page.getByLabel("I consent to share my name and e-mail address with the owner").check();
      await bob.page.getByRole("button", { name: "Request access" }).click();
      await bob.page.getByRole("heading", { name: "Access requested" }).waitFor();

      const guest = await person(width);
      const guestView = await guest.page.goto(`/records/${id}`);
      await checkPage(guest.page, await guestView!.text());
      await expect(guest.page.getByRole("button", { name: "Request access" }).isVisible()).resolves.toBe(true);
      await expect(guest.page.getByLabel("Your full name (required)").isVisible()).resolves.toBe(true);

      await openShare(alice.page, id);
      const waiting = dialog(alice.page).locator("li", { hasText: `Access request for "Sea ice extent"` });
      await expect(waiting.getByText("from Bob Builder").isVisible()).resolves.toBe(true);
      expect(await waiting.getByRole("link").getAttribute("href")).toMatch(/^\/me\/requests\/[0-9a-f-]{36}$/);
      await waiting.getByRole("button", { name: "Accept" }).click();
      await statusSays(alice.page, "Request accepted");
      await expect(dialog(alice.page).getByText("No open requests.").isVisible()).resolves.toBe(true);
      const file = await bob.page.request.get(`/api/records/${id}/files/${FILE}/content`);
      expect(file.status()).toBe(200);
      await alice.context.close();
      await bob.context.close();
      await guest.context.close();
    }, 180_000);

  for (const [name, width] of WALKS)
    test(`the owner transfers the record: the new owner may share it, the old one no longer sees Share (${name})`, async () => {
      const id = await record("Moraine survey", { record: "public", files: "public" });
      const alice = await person(width, "alice");
      await openShare(alice.page, id);
      await expect(dialog(alice.page).getByText("Owned by you.").isVisible()).resolves.toBe(true);
      const box = await pick(alice.page, "Transfer ownership", "bob", "Person");
      // The page reloads itself at the same address: wait for the new document's load, not the URL.
      await Promise.all([alice.page.waitForEvent("load"), box.getByRole("button", { name: "Transfer ownership" }).click()]);
      expect(await alice.page.getByRole("link", { name: "Share" }).count()).toBe(0);
      const owner = await app.call("GET", `/api/records/${id}`, { as: "bob" });
      expectStatus(owner, 200);
      expect(owner.json.parent.access.owned_by).toEqual({ user: String(app.users.bob.user.id) });

      const bob = await person(width, "bob");
      await openShare(bob.page, id);
      await expect(dialog(bob.page).getByText("Owned by you.").isVisible()).resolves.toBe(true);
      await alice.context.close();
      await bob.context.close();
    }, 180_000);
});
