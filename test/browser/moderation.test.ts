// Moderation of new accounts in a real browser (ACCOUNTS_MODERATION=first-publish): a new account
// publishes from the deposit page and stays there, told its upload awaits moderation, which its
// uploads list says too; an administrator finds the account with the Users screen's "Awaiting
// moderation" filter, sees the held upload on the account's page and approves it, after which the
// record is public. Markup, axe and width at desktop and phone size on each screen.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { adminNav, checkScreen, heading } from "../helpers/admin-pages";
import { signIn, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";
import { publishableDraft } from "../helpers/records";

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp({ ACCOUNTS_MODERATION: "first-publish" });
});
afterAll(() => app.stop());

describe("moderation of new accounts", () => {
  test("the owner sees their upload awaiting moderation; an administrator approves the account from its page and the record is public", async () => {
    const title = "Tide gauges of the north coast";
    const draft = await app.call("POST", "/api/records", { as: "bob", body: publishableDraft({ metadata: { ...publishableDraft().metadata, title } }) });
    expect(draft.status).toBe(201);
    const id: string = draft.json.id;

    // The owner publishes from the deposit page and stays on it.
    const owner = await app.newPerson();
    const page = await owner.newPage();
    await signIn(page, "bob", "bob-password", `/uploads/${id}`);
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
    await page.locator("#moderation-status").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/uploads/${id}`);
    await expect(page.locator("#moderation-status strong").textContent()).resolves.toBe("Awaiting moderation.");
    await checkScreen(page);
    expect((await app.call("GET", `/api/records/${id}`)).status).toBe(404);

    // Their uploads list says so too.
    await page.goto("/me/uploads");
    await expect(
      page
        .getByRole("row", { name: new RegExp(title) })
        .getByText("Awaiting moderation")
        .count(),
    ).resolves.toBe(1);
    await checkScreen(page);
    // And the draft's preview.
    await page.goto(`/records/${id}?preview=1`);
    await expect(page.locator("#moderation-status strong").textContent()).resolves.toBe("Awaiting moderation.");
    await owner.close();

    // An administrator finds the account awaiting moderation.
    const person = await app.newPerson();
    const adminPage = await person.newPage();
    await signIn(adminPage, "admin", "admin-password", "/administration");
    await adminNav(adminPage).getByRole("link", { name: "Users" }).click();
    await adminPage.waitForURL((url) => url.pathname === "/administration/users");
    await adminPage.getByLabel("State").selectOption({ label: "Awaiting moderation" });
    await adminPage.getByRole("button", { name: "Search users" }).click();
    await adminPage.waitForURL((url) => url.searchParams.get("state") === "moderation");
    await expect(adminPage.getByRole("row").count()).resolves.toBe(2);
    await checkScreen(adminPage);

    // The account's page shows the held upload; Approve publishes it.
    await adminPage.getByRole("link", { name: "bob@example.org" }).click();
    await expect(heading(adminPage)).resolves.toBe("User bob@example.org");
    await expect(adminPage.getByRole("heading", { name: "Awaiting moderation" }).count()).resolves.toBe(1);
    const held = adminPage.getByRole("region", { name: "Table of held uploads" });
    await expect(
      held
        .getByRole("row", { name: new RegExp(title) })
        .getByRole("cell")
        .textContent(),
    ).resolves.toBe(id);
    await checkScreen(adminPage);
    await submitForm(adminPage, adminPage.getByRole("button", { name: "Approve" }));
    await expect(adminPage.getByRole("status").textContent()).resolves.toBe("The account was approved: its held uploads are published and its publications skip moderation.");
    await expect(adminPage.getByRole("heading", { name: "Awaiting moderation" }).count()).resolves.toBe(0);
    await expect(adminPage.locator(".badge.verified").textContent()).resolves.toBe("verified");
    await checkScreen(adminPage);

    // The record is public.
    const record = await app.call("GET", `/api/records/${id}`);
    expect(record.status).toBe(200);
    expect(record.json.metadata.title).toBe(title);
    const landing = await adminPage.goto(`/records/${id}`);
    expect(landing?.status()).toBe(200);
    await expect(heading(adminPage)).resolves.toBe(title);

    // The audit log has the approval, from the pages.
    await adminPage.goto("/administration/audit");
    await expect(adminPage.getByRole("row", { name: /user\.approve/ }).count()).resolves.toBe(1);
    await person.close();
  });
});
