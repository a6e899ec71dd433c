// Storage quotas as people meet them: an administrator sets a user's quota from the user's page
// (Set quota), the user sees it in their profile, and an upload beyond it is refused on the deposit
// page with the quota and the space left named beside the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkScreen, heading, openScreen } from "../helpers/admin-pages";
import { signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
});
afterAll(() => app.stop());

describe("storage quotas", () => {
  test("an administrator sets alice's quota; alice sees it in her profile and a file beyond it is refused when she deposits", async () => {
    const admin = await (await app.newPerson()).newPage();
    await signIn(admin, "admin", "admin-password", "/administration/health");
    await openScreen(admin, "Users", "/administration/users");
    await admin.getByRole("link", { name: "alice@example.org" }).first().click();
    await admin.getByRole("link", { name: "Set quota" }).click();
    await expect(heading(admin)).resolves.toBe("Storage quota of alice@example.org");
    await checkScreen(admin);
    await admin.getByLabel("Quota", { exact: true }).fill("1KiB");
    await admin.getByLabel("Notes").fill("trial account");
    await admin.getByRole("button", { name: "Set quota" }).click();
    await expect(admin.getByRole("status").textContent()).resolves.toBe("The storage quota was set.");
    await expect(admin.locator(".storage-usage").first().textContent()).resolves.toContain("0 Bytes of 1.0 kB used");

    const alice = await (await app.newPerson()).newPage();
    await signIn(alice, "alice", "alice-password", "/account/settings/profile");
    await expect(alice.getByRole("region", { name: "Storage" }).textContent()).resolves.toContain("All your uploads: 0 Bytes of 1.0 kB used");

    await alice.goto("/uploads/new");
    await alice.getByLabel("Resource type (required)").selectOption("dataset");
    await alice.getByLabel("Title (required)").fill("Too much data");
    await alice.getByLabel("Given name").first().fill("Grace");
    await alice.getByLabel("Family name").first().fill("Hopper");
    await alice.locator("#file-input").setInputFiles({ name: "big.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(2000, 1) });
    const row = alice.locator('li.file[data-key="big.bin"]');
    await row.getByText(/would exceed/).waitFor({ timeout: 20_000 });
    await expect(row.textContent()).resolves.toContain(
      "This file (2000 bytes) would exceed the owner's storage quota (all their drafts and records together) of 1024 bytes: 1024 bytes are left.",
    );
  });
});
