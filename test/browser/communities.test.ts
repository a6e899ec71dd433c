// The community pages in a real browser: a signed-in user creates a community through the form
// (the service's field errors shown beside the fields first), finds it listed, sees its records
// (one included through the REST API), edits its settings as the owner, invites a member and
// changes their role; a restricted community is a 404 page to others, as the API answers.
// Every page: valid markup, no serious accessibility violations, nothing wider than a phone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page, Response } from "playwright-core";
import { expectStatus } from "../helpers/app";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { MINIMAL_METADATA, publishableDraft, publishRecord } from "../helpers/records";

let app: BrowserApp;
let alice: Page;
let bob: Page;
const people: BrowserContext[] = [];
const RECORD = "Coral reef survey, Lizard Island";
const OTHER = "Kelp forest census";
const state = { recordId: "", communityId: "" };

/** A 1×1 PNG, for the logo. */
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

beforeAll(async () => {
  app = await startBrowserApp();
  const body = (title: string) => publishableDraft({ metadata: { ...MINIMAL_METADATA, publisher: "Cairn test repository", title } });
  state.recordId = (await publishRecord(app, body(RECORD))).id;
  await publishRecord(app, body(OTHER));
  for (let i = 0; i < 2; i++) people.push(await app.browser.newContext({ baseURL: app.base, viewport: { width: 375, height: 740 } }));
  alice = await people[0]!.newPage();
  bob = await people[1]!.newPage();
  for (const page of [alice, bob]) page.on("dialog", (dialog) => void dialog.accept());
  await signIn(alice, "alice", "alice-password");
  await signIn(bob, "bob", "bob-password");
});
afterAll(async () => {
  for (const person of people) await person.close();
  await app.stop();
});

/** The page as it is now and the HTML it was served with: no serious accessibility violations, valid markup, nothing wider than the screen. */
async function checkPage(page: Page, served?: string) {
  expect({ url: page.url(), violations: await seriousAxeViolations(page) }).toEqual({ url: page.url(), violations: [] });
  const html = served ?? (await (await page.request.get(page.url())).text());
  expect({ url: page.url(), errors: await htmlErrors(html) }).toEqual({ url: page.url(), errors: [] });
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
}

/** Goes to `path`, expects `status`, and checks the page. */
async function visit(page: Page, path: string, status = 200) {
  const response = await page.goto(path);
  expect({ path, status: response?.status() }).toEqual({ path, status });
  await checkPage(page, await response!.text());
}

/** Clicks a form's submit button and returns the answer to the POST (its HTML is what html-validate checks). */
async function submit(page: Page, button: string): Promise<Response> {
  const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByRole("button", { name: button }).click()]);
  await page.waitForLoadState();
  return response;
}

const h1 = async (page: Page) => (await page.getByRole("heading", { level: 1 }).textContent())?.trim();

describe("communities", () => {
  test("a signed-in user creates a community through the form; its errors show beside the fields", async () => {
    await visit(alice, "/communities");
    await alice.getByRole("link", { name: "New community" }).click();
    await alice.waitForURL((url) => url.pathname === "/communities/new");
    await checkPage(alice);

    // Refused first: a slug with spaces and no title.
    await alice.getByLabel("Identifier").fill("reef watchers");
    const refused = await submit(alice, "Create community");
    expect(refused.status()).toBe(400);
    expect(await alice.locator("#f-slug-error").textContent()).toContain("only letters with numbers or dashes");
    expect(await alice.locator("#f-title-error").textContent()).toContain("Missing data for required field.");
    expect(await alice.getByLabel("Title (required)").getAttribute("aria-invalid")).toBe("true");
    expect(await alice.getByLabel("Identifier").inputValue()).toBe("reef watchers");
    await checkPage(alice, await refused.text());

    await alice.getByLabel("Identifier").fill("reefs");
    await alice.getByLabel("Title (required)").fill("Reef watchers");
    await alice.getByLabel("Description").fill("Observations of coral reefs & their fish.");
    await alice.getByLabel("Type").selectOption({ label: "Topic" });
    await alice.getByLabel("Website").fill("https://reefs.example.org/");
    await alice.getByRole("button", { name: "Create community" }).click();
    await alice.waitForURL((url) => url.pathname === "/communities/reefs");
    expect(await h1(alice)).toBe("Reef watchers");
    expect(await alice.locator(".notice.ok").textContent()).toContain("you are its owner");
    expect(await alice.locator(".community-head").textContent()).toContain("Topic");
    expect(await alice.getByRole("link", { name: "https://reefs.example.org/" }).count()).toBe(1);
    await checkPage(alice);

    const api = await app.call("GET", "/api/communities/reefs", { as: "alice" });
    expectStatus(api, 200);
    expect(api.json).toMatchObject({ access: { visibility: "public", member_policy: "open", record_policy: "open" }, metadata: { title: "Reef watchers", type: { id: "topic" } } });
    state.communityId = api.json.id;
  });

  test("it is listed and found by the list's search and type facet, with its logo", async () => {
    const logo = await app.call("PUT", `/api/communities/${state.communityId}/logo`, { as: "alice", rawBody: PNG, headers: { "content-type": "application/octet-stream" } });
    expectStatus(logo, 200);
    await visit(bob, "/communities");
    const card = bob.locator("article.community-card", { hasText: "Reef watchers" });
    expect(await card.locator("img.logo").getAttribute("src")).toBe(`/api/communities/${state.communityId}/logo`);
    expect(await card.locator("img.logo").evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
    expect(await card.textContent()).toContain("Observations of coral reefs & their fish.");
    await bob.getByLabel("Search communities").fill("coral");
    await bob.getByLabel("Search communities").press("Enter");
    await bob.waitForURL((url) => url.searchParams.get("q") === "coral");
    expect(await bob.locator("article.community-card h3").allTextContents()).toEqual(["Reef watchers"]);
    // On a phone the facets fold behind the Filters button (issue 33), and stay open once opened.
    await bob.getByRole("button", { name: "Filters" }).click();
    await bob.getByRole("checkbox", { name: "Topic (1)" }).check();
    await bob.waitForURL((url) => url.searchParams.get("type") === "topic");
    expect(await bob.locator("article.community-card h3").allTextContents()).toEqual(["Reef watchers"]);
    await checkPage(bob);
    await bob.getByRole("link", { name: "Reef watchers" }).click();
    await bob.waitForURL((url) => url.pathname === "/communities/reefs");
  });

  test("its page shows the records included through the REST API, searchable with facets", async () => {
    await visit(bob, "/communities/reefs");
    expect(await bob.getByText("No records in this community match.").count()).toBe(1);
    const included = await app.call("POST", `/api/records/${state.recordId}/communities`, { as: "alice", body: { communities: [{ id: state.communityId }] } });
    expectStatus(included, 200);
    expect(included.json.processed).toHaveLength(1);

    await visit(bob, "/communities/reefs");
    expect(await bob.locator("article.result h3").allTextContents()).toEqual([RECORD]);
    expect(await bob.locator(".results-head .count").textContent()).toBe("1 record");
    expect(await bob.getByRole("checkbox", { name: "Dataset (1)" }).count()).toBe(1);
    await bob.getByLabel("Search this community's records").fill("kelp");
    await bob.getByLabel("Search this community's records").press("Enter");
    await bob.waitForURL((url) => url.pathname === "/communities/reefs" && url.searchParams.get("q") === "kelp");
    // The other record matches kelp but is not in the community.
    expect(await bob.locator("article.result").count()).toBe(0);
    await bob.goto("/communities/reefs?q=coral&access_status=metadata-only");
    expect(await bob.locator("article.result h3").allTextContents()).toEqual([RECORD]);
    expect(await bob.getByRole("checkbox", { name: "Metadata-only (1)" }).isChecked()).toBe(true);
    await checkPage(bob);
    // Its UUID leads to the page at its slug.
    await bob.goto(`/communities/${state.communityId}`);
    expect(new URL(bob.url()).pathname).toBe("/communities/reefs");
  });

  test("the owner edits the settings: field errors beside the fields, then saved, the policy shown sanitised", async () => {
    await visit(alice, "/communities/reefs");
    await alice.getByRole("navigation", { name: "Community" }).getByRole("link", { name: "Settings" }).click();
    await alice.waitForURL((url) => url.pathname === "/communities/reefs/settings");
    await checkPage(alice);
    expect(await alice.getByLabel("Title (required)").inputValue()).toBe("Reef watchers");
    expect(await alice.getByRole("radio", { name: /^Public/ }).isChecked()).toBe(true);

    await alice.getByLabel("Title (required)").fill("");
    await alice.getByLabel("Website").fill("not a url");
    const refused = await submit(alice, "Save settings");
    expect(refused.status()).toBe(400);
    expect(await alice.locator("#f-website-error").textContent()).toBe("Not a valid URL.");
    expect(await alice.locator("#f-title-error").textContent()).toContain("Missing data for required field.");
    await checkPage(alice, await refused.text());

    await alice.getByLabel("Title (required)").fill("Reef watchers of the Pacific");
    await alice.getByLabel("Website").fill("");
    await alice.getByLabel("Curation policy").fill('<p>Only <strong>reef</strong> data.</p><script src="/x.js"></script>');
    await alice.getByLabel("About page").fill("<p>We count fish.</p>");
    await alice.getByRole("radio", { name: /Every record is reviewed/ }).check();
    await alice.getByRole("radio", { name: /only when invited/ }).check();
    await alice.getByRole("button", { name: "Save settings" }).click();
    await alice.waitForURL((url) => url.searchParams.get("saved") === "1");
    expect(await alice.locator(".notice.ok").textContent()).toBe("The settings were saved.");
    expect(await alice.getByLabel("Curation policy").inputValue()).toBe("<p>Only <strong>reef</strong> data.</p>");
    await checkPage(alice);

    const api = await app.call("GET", "/api/communities/reefs", { as: "alice" });
    expect(api.json).toMatchObject({
      access: { member_policy: "closed", record_policy: "closed" },
      metadata: { title: "Reef watchers of the Pacific", page: "<p>We count fish.</p>" },
    });
    expect(api.json.metadata.website).toBeUndefined();
    expect(api.json.metadata.type).toMatchObject({ id: "topic" });

    await visit(bob, "/communities/reefs");
    expect(await bob.locator("#curation-policy strong").textContent()).toBe("reef");
    expect(await bob.locator("#about").textContent()).toContain("We count fish.");
    // Bob is no owner: no Settings tab, and the page itself refuses him.
    expect(await bob.getByRole("navigation", { name: "Community" }).getByRole("link", { name: "Settings" }).count()).toBe(0);
    await visit(bob, "/communities/reefs/settings", 403);
  });

  test("the owner invites a member, who accepts; the owner changes their role and removes them", async () => {
    await visit(alice, "/communities/reefs/members");
    expect(await alice.getByRole("row", { name: /alice/ }).textContent()).toContain("Owner");

    await alice.getByLabel("Username or e-mail address").fill("nobody-here");
    const refused = await submit(alice, "Send invitation");
    expect(refused.status()).toBe(400);
    expect(await alice.locator("#invite-member-error").textContent()).toContain("No user “nobody-here” was found");
    await checkPage(alice, await refused.text());

    await alice.getByLabel("Username or e-mail address").fill("bob");
    await alice.getByLabel("Role", { exact: true }).selectOption("curator");
    await alice.getByLabel("Message (optional)").fill("Join us <please>.");
    await alice.getByRole("button", { name: "Send invitation" }).click();
    await alice.waitForURL((url) => url.searchParams.get("done") === "invited");
    expect(await alice.locator(".notice.ok").textContent()).toContain("The invitation was sent.");
    const invitation = alice.getByRole("row", { name: /bob/ });
    expect(await invitation.textContent()).toContain("Curator");
    expect(await invitation.textContent()).toContain("Waiting for an answer");
    await checkPage(alice);

    // Bob accepts through the requests API (the dashboard's business); he is then a curator.
    const open = await app.call("GET", "/api/user/requests?is_open=true", { as: "bob" });
    const request = (open.json.hits.hits as any[]).find((r) => r.type === "community-invitation");
    expectStatus(await app.call("POST", `/api/requests/${request.id}/actions/accept`, { as: "bob", body: {} }), 200);

    await visit(alice, "/communities/reefs/members");
    const row = alice.getByRole("row", { name: /bob/ });
    expect(await row.getByLabel("Role of bob").inputValue()).toBe("curator");
    await row.getByLabel("Role of bob").selectOption("manager");
    await row.getByRole("button", { name: "Change role of bob" }).click();
    await alice.waitForURL((url) => url.searchParams.get("done") === "role");
    expect(await alice.getByRole("row", { name: /bob/ }).getByLabel("Role of bob").inputValue()).toBe("manager");
    const members = await app.call("GET", "/api/communities/reefs/members", { as: "alice" });
    expect((members.json.hits.hits as any[]).find((m) => m.member.name === "bob").role).toBe("manager");

    // A manager sees the members page with the invite form, and may not make owners.
    await visit(bob, "/communities/reefs/members");
    await bob.getByLabel("Username or e-mail address").fill("admin");
    await bob.getByLabel("Role", { exact: true }).selectOption("owner");
    const notOwner = await submit(bob, "Send invitation");
    expect(notOwner.status()).toBe(403);
    expect(await bob.getByRole("alert").textContent()).toContain("Only owners may make others owners.");
    await checkPage(bob, await notOwner.text());

    await alice.getByRole("button", { name: "Remove bob" }).click();
    await alice.waitForURL((url) => url.searchParams.get("done") === "removed");
    expect(await alice.getByRole("row", { name: /bob/ }).count()).toBe(0);
  });

  test("a restricted community is a 404 page for another user, as the API answers, and is not listed for them", async () => {
    await visit(alice, "/communities/new");
    await alice.getByLabel("Identifier").fill("hidden-lab");
    await alice.getByLabel("Title (required)").fill("Hidden lab");
    await alice.getByRole("radio", { name: /^Restricted/ }).check();
    await alice.getByRole("button", { name: "Create community" }).click();
    await alice.waitForURL((url) => url.pathname === "/communities/hidden-lab");
    expect(await alice.locator(".community-head").textContent()).toContain("Restricted: members only");
    await checkPage(alice);

    expectStatus(await app.call("GET", "/api/communities/hidden-lab", { as: "bob" }), 404);
    for (const path of ["/communities/hidden-lab", "/communities/hidden-lab/members", "/communities/hidden-lab/settings"]) {
      await visit(bob, path, 404);
      expect(await h1(bob)).toBe("Not found");
    }
    await visit(bob, "/communities");
    expect(await bob.getByRole("link", { name: "Hidden lab" }).count()).toBe(0);
    await visit(alice, "/communities");
    expect(await alice.locator("article.community-card", { hasText: "Hidden lab" }).textContent()).toContain("Restricted");
  });

  test("the front page shows communities; a guest asked to create one is sent to sign in", async () => {
    const guest = await app.newPerson();
    const page = await guest.newPage();
    await visit(page, "/");
    expect(await page.locator("#featured ~ article.community-card h3").allTextContents()).toEqual(["Reef watchers of the Pacific"]);
    // A guest sees the members who chose to be listed, without roles or forms.
    await visit(page, "/communities/reefs/members");
    expect(await page.getByRole("heading", { name: "Public members" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Send invitation" }).count()).toBe(0);
    await page.goto("/communities/new");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/communities/new");
    await guest.close();
  });
});
