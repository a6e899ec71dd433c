// The "Done when" journey in a real Chromium, one step after the other on the same site:
// alice signs in, makes a token, deposits a record with two files and publishes it; it is found
// through search with a facet; its landing page shows it and a file downloads; bob asks for its
// restricted files and alice accepts from her dashboard; bob makes a community, alice submits a
// draft for review there and bob accepts it. Every page is checked with axe-core (no serious or
// critical violations) and its served HTML with html-validate.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { publishableDraft } from "../helpers/records";

let app: BrowserApp;
let alice: Page;
let bob: Page;
const people: BrowserContext[] = [];

/** What the steps hand on to the next ones. */
const state = { token: "", recordId: "", reviewedTitle: "", communitySlug: "" };

/** Each step drives several pages and runs axe on each: more than the suite's 30 s on a loaded machine. */
const STEP_MS = 90_000;

const TITLE = "Ocean buoy temperatures, North Sea 2025";
const OTHER_TITLE = "Buoy logger firmware";
const FILES = [
  { name: "temperatures.csv", mimeType: "text/csv", body: "station,time,temp\nB1,2025-01-01T00:00Z,7.5\nB2,2025-01-01T00:00Z,7.9\n" },
  { name: "README.txt", mimeType: "text/plain", body: "Hourly water temperatures from two buoys.\n" },
];

beforeAll(async () => {
  app = await startBrowserApp();
  for (let i = 0; i < 2; i++) people.push(await app.newPerson());
  alice = await people[0]!.newPage();
  bob = await people[1]!.newPage();
  // Confirmation prompts (publish, accept) are answered yes.
  for (const page of [alice, bob]) page.on("dialog", (dialog) => void dialog.accept());
});
afterAll(async () => {
  for (const person of people) await person.close();
  await app.stop();
});

/** The page as it is now has no serious accessibility violations, and its HTML as served is valid. */
async function checkPage(page: Page, html?: string) {
  expect({ url: page.url(), violations: await seriousAxeViolations(page) }).toEqual({ url: page.url(), violations: [] });
  const served = html ?? (await (await page.request.get(page.url())).text());
  expect({ url: page.url(), errors: await htmlErrors(served) }).toEqual({ url: page.url(), errors: [] });
}

/** Goes to `path` and checks the page; returns the served HTML. */
async function visit(page: Page, path: string, status = 200) {
  const response = await page.goto(path);
  expect({ path, status: response?.status() }).toEqual({ path, status });
  const html = await response!.text();
  await checkPage(page, html);
  return html;
}

/** From the dashboard's open requests, opens the one called `title` and accepts it. */
async function acceptFromDashboard(page: Page, title: string) {
  await visit(page, "/me/requests");
  await page.getByRole("link", { name: title, exact: true }).click();
  await page.waitForURL((url) => /^\/me\/requests\/[^/]+$/.test(url.pathname));
  await checkPage(page);
  await page.getByRole("button", { name: "Accept", exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get("done") === "accept");
  await expect(page.getByText("The request was accepted.").count()).resolves.toBe(1);
  await checkPage(page);
}

/** Clicks a file's download link on a landing page; the downloaded file's text. */
async function download(page: Page, key: string) {
  const started = page.waitForEvent("download");
  await page.getByRole("link", { name: `Download ${key}`, exact: true }).click();
  const file = await started;
  expect(file.suggestedFilename()).toBe(key);
  return Bun.file((await file.path())!).text();
}

/** A step that builds on an earlier one says so when that one did not finish (rather than failing obscurely). */
function needs(...values: (keyof typeof state)[]) {
  const missing = values.filter((name) => !state[name]);
  if (missing.length) throw new Error(`an earlier step did not finish: no ${missing.join(", ")}`);
}

const bearer = () => ({ Authorization: `Bearer ${state.token}` });

describe("the journey", () => {
  test(
    "1. alice signs in",
    async () => {
      await visit(alice, "/login");
      await signIn(alice, "alice", "alice-password");
      await expect(alice.getByRole("button", { name: /Sign out/ }).count()).resolves.toBe(1);
      await checkPage(alice);
    },
    STEP_MS,
  );

  test(
    "2. alice creates a personal access token on the applications page",
    async () => {
      await visit(alice, "/account/settings/applications");
      await alice.getByLabel("Name").fill("Journey script");
      await alice.getByRole("checkbox", { name: /user:email/ }).check();
      await alice.getByRole("button", { name: "Create token" }).click();
      state.token = await alice.getByLabel("Your new personal access token").inputValue();
      expect(state.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      const me = await alice.request.get("/api/user/records", { headers: bearer() });
      expect(me.status()).toBe(200);
    },
    STEP_MS,
  );

  test(
    "3. alice deposits a record with two files and publishes it",
    async () => {
      await visit(alice, "/uploads/new");
      // One file through the file picker, the other dropped on the drop zone.
      await alice.locator("#file-input").setInputFiles([{ name: FILES[0]!.name, mimeType: FILES[0]!.mimeType, buffer: Buffer.from(FILES[0]!.body) }]);
      // (DataTransfer is the page's: the test runs with Bun's types, without the DOM's.)
      const { name, mimeType, body } = FILES[1]!;
      const dropped = await alice.evaluateHandle(
        `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(body)}], ${JSON.stringify(name)}, { type: ${JSON.stringify(mimeType)} })); return t; })()`,
      );
      await alice.locator("#dropzone").dispatchEvent("dragover", { dataTransfer: dropped });
      await alice.locator("#dropzone").dispatchEvent("drop", { dataTransfer: dropped });
      for (const file of FILES)
        await alice
          .locator(`#file-list li[data-key="${file.name}"]`)
          .getByText(/^Uploaded/)
          .waitFor({ timeout: 20_000 });

      await alice.getByLabel("Resource type (required)").selectOption({ label: "Dataset" });
      await alice.getByLabel("Title (required)").fill(TITLE);
      await alice.getByLabel("Publication date (required)").fill("2026-11-20");
      // A new upload starts with one (empty) creator.
      await alice.getByLabel("Family name").first().fill("Lovelace");
      await alice.getByLabel("Given name").first().fill("Ada");
      await alice.getByLabel("Description").fill("Hourly water temperatures measured by two buoys in the North Sea.");
      await alice.getByLabel("Keywords").fill("oceanography, temperature");
      // The files are open to everyone who can see the record only on request (step 6).
      await alice.getByRole("group", { name: "Who can download the files" }).getByLabel("Only people I share them with").check();
      await checkPage(alice, await (await alice.request.get(alice.url())).text());

      await alice.getByRole("button", { name: "Publish", exact: true }).click();
      await alice.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
      await alice.waitForURL((url) => /^\/records\/[^/]+$/.test(url.pathname), { timeout: 20_000 });
      state.recordId = new URL(alice.url()).pathname.split("/")[2]!;
      await expect(alice.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(TITLE);

      // The API agrees: published, two files, restricted files. The token created in step 2 reads it.
      const record = await (await alice.request.get(`/api/records/${state.recordId}`, { headers: bearer() })).json();
      expect(record.status).toBe("published");
      expect(record.access).toMatchObject({ record: "public", files: "restricted" });
      expect(Object.keys(record.files.entries ?? {}).sort()).toEqual(FILES.map((f) => f.name).sort());
    },
    STEP_MS,
  );

  test(
    "4. the record is found through search with a facet",
    async () => {
      needs("token", "recordId");
      // Another record the words find, of another resource type, published with alice's token.
      const draft = await alice.request.post("/api/records", {
        headers: bearer(),
        data: publishableDraft({ metadata: { ...publishableDraft().metadata, title: OTHER_TITLE, resource_type: { id: "software" } } }),
      });
      expect(draft.status()).toBe(201);
      expect((await alice.request.post(`/api/records/${(await draft.json()).id}/draft/actions/publish`, { headers: bearer() })).status()).toBe(202);

      await visit(bob, "/search?q=buoy");
      await expect(bob.getByRole("link", { name: TITLE, exact: true }).count()).resolves.toBe(1);
      await expect(bob.getByRole("link", { name: OTHER_TITLE, exact: true }).count()).resolves.toBe(1);
      await bob.getByRole("checkbox", { name: /^Dataset/ }).check();
      await bob.waitForURL((url) => url.searchParams.getAll("resource_type").includes("dataset"));
      await checkPage(bob);
      await expect(bob.getByRole("link", { name: TITLE, exact: true }).count()).resolves.toBe(1);
      await expect(bob.getByRole("link", { name: OTHER_TITLE, exact: true }).count()).resolves.toBe(0);

      // The URL holds the search: opened again, it is the same search.
      const bookmark = new URL(bob.url());
      await bob.goto("/");
      await visit(bob, bookmark.pathname + bookmark.search);
      await expect(bob.getByLabel("Search records").inputValue()).resolves.toBe("buoy");
      await expect(bob.getByRole("checkbox", { name: /^Dataset/ }).isChecked()).resolves.toBe(true);
      await expect(bob.getByRole("link", { name: OTHER_TITLE, exact: true }).count()).resolves.toBe(0);

      await bob.getByRole("link", { name: TITLE, exact: true }).click();
      await bob.waitForURL((url) => url.pathname === `/records/${state.recordId}`);
      await expect(bob.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(TITLE);
    },
    STEP_MS,
  );

  test(
    "5. its landing page shows the record, and the owner downloads a file",
    async () => {
      needs("recordId");
      const html = await visit(alice, `/records/${state.recordId}`);
      await expect(alice.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(TITLE);
      await expect(alice.getByText("Lovelace, Ada").count()).resolves.toBeGreaterThanOrEqual(1);
      expect(html).toContain('<script type="application/ld+json"');
      expect(html).toContain('name="citation_title"');
      await expect(alice.getByText("Restricted", { exact: true }).count()).resolves.toBeGreaterThanOrEqual(1);
      for (const file of FILES) await expect(alice.getByRole("link", { name: `Download ${file.name}`, exact: true }).count()).resolves.toBe(1);
      expect(await download(alice, FILES[0]!.name)).toBe(FILES[0]!.body);
    },
    STEP_MS,
  );

  test(
    "6. bob asks for access to the restricted files; alice accepts from her dashboard; bob downloads",
    async () => {
      needs("token", "recordId");
      // The owner takes requests from signed-in users: set through the REST API with her token.
      const settings = await alice.request.put(`/api/records/${state.recordId}/access`, { headers: bearer(), data: { settings: { allow_user_requests: true } } });
      expect(settings.status()).toBe(200);

      await signIn(bob, "bob", "bob-password", `/records/${state.recordId}`);
      await checkPage(bob);
      await expect(bob.getByRole("link", { name: `Download ${FILES[0]!.name}`, exact: true }).count()).resolves.toBe(0);
      expect((await bob.request.get(`/api/records/${state.recordId}/files/${FILES[0]!.name}/content`)).status()).toBe(403);
      await bob.getByLabel("Message to the owner (why you ask)").fill("I study North Sea temperatures and would like to compare them.");
      await bob.getByLabel("I consent to share my name and e-mail address with the owner").check();
      const [answer] = await Promise.all([
        bob.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/access/request")),
        bob.getByRole("button", { name: "Request access", exact: true }).click(),
      ]);
      await bob.getByRole("heading", { name: "Access requested" }).waitFor();
      await expect(bob.getByRole("status").textContent()).resolves.toContain("Your request was sent to the record's owner.");
      await checkPage(bob, await answer.text());

      await acceptFromDashboard(alice, `Access request for "${TITLE}"`);

      await visit(bob, `/records/${state.recordId}`);
      expect(await download(bob, FILES[1]!.name)).toBe(FILES[1]!.body);
    },
    STEP_MS,
  );

  test(
    "7. bob creates a community; alice submits a draft for review there; bob accepts it from his dashboard",
    async () => {
      await visit(bob, "/communities");
      // Signed in since step 6 (or now, when that step stopped early).
      if (!(await bob.getByRole("button", { name: /Sign out/ }).count())) await signIn(bob, "bob", "bob-password", "/communities");
      await bob.getByRole("link", { name: "New community", exact: true }).click();
      await bob.waitForURL((url) => url.pathname === "/communities/new");
      await checkPage(bob);
      await bob.getByLabel("Identifier (required)").fill("north-sea");
      await bob.getByLabel("Title (required)").fill("North Sea observations");
      await bob.getByLabel("Every record is reviewed by the curators").check();
      await bob.getByRole("button", { name: "Create community" }).click();
      await bob.waitForURL((url) => url.pathname === "/communities/north-sea");
      state.communitySlug = "north-sea";
      await expect(bob.getByRole("heading", { level: 1 }).textContent()).resolves.toContain("North Sea observations");
      await expect(bob.getByText("The community was created: you are its owner.").count()).resolves.toBe(1);
      await checkPage(bob);

      state.reviewedTitle = "Salinity of the North Sea, 2025";
      await visit(alice, "/uploads/new");
      await alice.getByLabel("Metadata-only record (no files)").check();
      await alice.getByLabel("Resource type (required)").selectOption({ label: "Dataset" });
      await alice.getByLabel("Title (required)").fill(state.reviewedTitle);
      // A new upload starts with one (empty) creator.
      await alice.getByLabel("Family name").first().fill("Lovelace");
      await alice.getByLabel("Given name").first().fill("Ada");
      await alice.getByLabel("Community", { exact: true }).selectOption({ label: "North Sea observations" });
      await alice.getByLabel("Message to the curators (optional)").fill("Our salinity series, for the community.");
      await alice.getByRole("button", { name: "Submit for review" }).click();
      await alice.getByText("In review by North Sea observations").waitFor();
      await expect(alice.getByRole("status").textContent()).resolves.toContain("Submitted for review");
      await checkPage(alice);

      await acceptFromDashboard(bob, state.reviewedTitle);

      await visit(bob, `/communities/${state.communitySlug}`);
      await bob.getByRole("link", { name: state.reviewedTitle, exact: true }).click();
      await bob.waitForURL((url) => url.pathname.startsWith("/records/"));
      await expect(bob.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(state.reviewedTitle);
      await expect(bob.getByRole("link", { name: "North Sea observations" }).count()).resolves.toBeGreaterThanOrEqual(1);
      await checkPage(bob);
    },
    STEP_MS,
  );
});
