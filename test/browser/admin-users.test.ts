// Administration → Users in a real browser (the issue's "find a user, block them, see it in the
// audit log"): an administrator searches for a person, opens their page, blocks them through the
// confirmation step, sees the block in the audit log, then restores them; axe, markup and width at
// desktop and phone size on each screen. A person who is not an administrator gets the 404 page.
// Deleting a user: their page with their records, the confirmation step and its choice, the account
// gone from the list, the entry in the audit log.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { adminNav, checkScreen, heading, openScreen } from "../helpers/admin-pages";
import type { Caller } from "../helpers/app";
import { publishableDraft, publishRecord } from "../helpers/records";
import { signIn, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
});
afterAll(async () => {
  await app.stop();
});

describe("administration: users", () => {
  test("a person who is not an administrator gets the 404 page", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password");
    const response = await page.goto("/administration/users");
    expect(response?.status()).toBe(404);
    await expect(heading(page)).resolves.toBe("Not found");
    await person.close();
  });

  test("find a user, block them, see it in the audit log, then restore them", async () => {
    const target = await app.services.users.registerUser({ email: "spammer@example.org", fullName: "Sam Spammer", affiliations: "Spam Ltd", confirmed: true });
    await app.services.tokens.createToken(systemActor, { userId: target.id, name: "bulk uploader" });

    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration");
    await adminNav(page).getByRole("link", { name: "Users" }).click();
    await page.waitForURL((url) => url.pathname === "/administration/users");
    await expect(heading(page)).resolves.toBe("Users");
    await expect(adminNav(page).getByRole("link", { name: "Users" }).getAttribute("aria-current")).resolves.toBe("page");
    await checkScreen(page);

    // Find them.
    await page.getByLabel("E-mail, username or name").fill("spammer");
    await page.getByLabel("State").selectOption({ label: "Active" });
    await page.getByRole("button", { name: "Search users" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === "spammer" && url.searchParams.get("state") === "active");
    const row = page.getByRole("row", { name: /spammer@example\.org/ });
    await expect(row.getByRole("cell").nth(0).textContent()).resolves.toBe("Sam Spammer");
    await expect(page.getByRole("row").count()).resolves.toBe(2);
    await checkScreen(page);

    // Their page.
    await row.getByRole("link", { name: "spammer@example.org" }).click();
    await expect(heading(page)).resolves.toBe("User spammer@example.org");
    await expect(page.getByText("Spam Ltd").count()).resolves.toBe(1);
    await expect(
      page
        .getByRole("row", { name: /bulk uploader/ })
        .getByRole("cell")
        .nth(1)
        .textContent(),
    ).resolves.toBe("never");
    await checkScreen(page);

    // Block them, through the confirmation step.
    await page.getByRole("link", { name: "Block" }).click();
    await expect(page.getByRole("heading", { name: "Block spammer@example.org?" }).count()).resolves.toBe(1);
    await checkScreen(page);
    await submitForm(page, page.getByRole("button", { name: "Block" }));
    await expect(page.getByRole("status").textContent()).resolves.toBe("The account was blocked.");
    await expect(page.locator(".badge.blocked").textContent()).resolves.toBe("blocked");
    await checkScreen(page);
    expect((await app.services.users.findUserById(target.id))!.blockedAt).toBe(app.clock.now());

    // See it in the audit log.
    await adminNav(page).getByRole("link", { name: "Audit log" }).click();
    const entry = page.getByRole("row", { name: /user\.block/ });
    await expect(entry.getByRole("cell").nth(0).textContent()).resolves.toBe("admin@example.org");
    await expect(entry.getByRole("cell").nth(2).textContent()).resolves.toBe(`user ${target.id}`);

    // Restore them.
    await page.goto(`/administration/users/${target.id}`);
    await submitForm(page, page.getByRole("button", { name: "Restore" }));
    await expect(page.getByRole("status").textContent()).resolves.toBe("The account was restored: it may sign in again.");
    await expect(page.locator(".badge.blocked").count()).resolves.toBe(0);
    await expect(page.getByRole("link", { name: "Block" }).count()).resolves.toBe(1);
    const restored = (await app.services.users.findUserById(target.id))!;
    expect({ blocked: restored.blockedAt, active: restored.active }).toEqual({ blocked: null, active: true });
    await person.close();
  });

  test("delete a user: the confirmation step with the choice, gone from the list, the entry in the audit log", async () => {
    const target = await app.services.users.createUser(systemActor, { email: "flooder@example.org", fullName: "Flo Flooder", password: "flooder-password" });
    const { secret } = await app.services.tokens.createToken(systemActor, { userId: target.id, name: "flood" });
    const caller: Caller = { call: (method, path, options = {}) => app.call(method, path, { ...options, as: undefined, token: secret }) };
    const record = await publishRecord(caller, publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Cheap watches" } }));

    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration/users?q=flooder");
    await page.getByRole("link", { name: "flooder@example.org" }).click();
    await expect(heading(page)).resolves.toBe("User flooder@example.org");
    // Their records are listed on their page.
    await expect(
      page
        .getByRole("row", { name: /Cheap watches/ })
        .getByRole("cell")
        .nth(1)
        .textContent(),
    ).resolves.toBe("published");
    await checkScreen(page);

    await page.getByRole("link", { name: "Delete" }).click();
    await expect(page.getByRole("heading", { name: "Delete flooder@example.org?" }).count()).resolves.toBe(1);
    await expect(page.getByRole("group", { name: "Their 1 published record" }).count()).resolves.toBe(1);
    await checkScreen(page);
    await page.getByLabel("Remove them: each gets a tombstone with the reason “Spam”").check();
    await submitForm(page, page.getByRole("button", { name: "Delete the account" }));
    await expect(page.getByRole("status").textContent()).resolves.toBe("The account flooder@example.org was deleted.");
    await expect(heading(page)).resolves.toBe("Users");
    await expect(page.getByRole("link", { name: "flooder@example.org" }).count()).resolves.toBe(0);
    await checkScreen(page);
    expect(await app.services.users.findUserById(target.id)).toBeNull();
    expect((await app.call("GET", `/api/records/${record.id}`)).status).toBe(410);

    await openScreen(page, "Audit log", "/administration/audit");
    const entry = page.getByRole("row", { name: /user\.delete/ });
    await expect(entry.getByRole("cell").nth(0).textContent()).resolves.toBe("admin@example.org");
    await expect(entry.getByRole("cell").nth(2).textContent()).resolves.toBe(`user ${target.id}`);
    await person.close();
  });
});
