// Administration → Backups in a real browser (axe, markup and width at desktop and phone size): an
// administrator reaches the screen by the navigation, runs a backup from the page ("Back up now"),
// follows it from queued to succeeded, sees its snapshot listed, and verifies it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemActor } from "../../src/core/actor";
import { adminNav, checkScreen, heading } from "../helpers/admin-pages";
import { signIn, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";

let root = "";
let app: BrowserApp;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-browser-backups-"));
  app = await startBrowserApp({ BACKUP_DIR: join(root, "backups") });
});
afterAll(async () => {
  await app.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("administration: backups", () => {
  test("run a backup from the page, see it listed, verify it", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration");
    await adminNav(page).getByRole("link", { name: "Backups" }).click();
    await page.waitForURL((url) => url.pathname === "/administration/backups");
    await expect(heading(page)).resolves.toBe("Backups");
    await expect(adminNav(page).getByRole("link", { name: "Backups" }).getAttribute("aria-current")).resolves.toBe("page");
    await expect(page.getByText("No snapshots in BACKUP_DIR yet.").isVisible()).resolves.toBe(true);
    await checkScreen(page);

    await submitForm(page, page.getByRole("button", { name: "Back up now" }));
    await expect(page.getByRole("status").first().textContent()).resolves.toBe("The backup was queued: refresh the page to follow it.");
    const [job] = await app.services.jobs.listJobsNamed(systemActor, "backup");
    const run = page.getByRole("table", { name: "Backup jobs, newest first" }).getByRole("row", { name: new RegExp(`^${job!.id} `) });
    await expect(run.getByRole("cell").nth(1).textContent()).resolves.toBe("Queued");
    await expect(page.getByRole("button", { name: "Back up now" }).count()).resolves.toBe(0);
    await checkScreen(page);

    await app.services.worker.drain();
    await page.reload();
    await expect(run.getByRole("cell").nth(1).textContent()).resolves.toBe("Succeeded");
    // Its progress, kept after the end: no stored files here, so none to copy.
    await expect(run.getByRole("progressbar", { name: `Progress of job ${job!.id} (backup)` }).isVisible()).resolves.toBe(true);
    await expect(run.getByRole("cell").nth(2).textContent()).resolves.toBe("0 of 0: files backed up");
    const name = (await run.getByRole("cell").nth(4).textContent())!;
    expect(name).toBe(
      new Date(app.clock.now())
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d+Z$/, "Z"),
    );
    const snapshot = page.getByRole("table", { name: "Snapshots in BACKUP_DIR, newest first" }).getByRole("row", { name: new RegExp(`^${name} `) });
    await expect(snapshot.getByRole("cell").nth(3).textContent()).resolves.toBe("Not verified yet");
    await checkScreen(page);

    await submitForm(page, snapshot.getByRole("button", { name: `Verify ${name}` }));
    await expect(page.getByRole("status").first().textContent()).resolves.toBe("The verification was queued: refresh the page to follow it.");
    await expect(snapshot.getByRole("cell").nth(3).textContent()).resolves.toBe("Verification queued");
    await app.services.worker.drain();
    await page.reload();
    await expect(snapshot.getByRole("cell").nth(3).textContent()).resolves.toBe(
      `Verified ${new Date(app.clock.now()).toISOString().slice(0, 16).replace("T", " ")} UTC: no problems`,
    );
    await checkScreen(page);
    await person.close();
  });
});
