// The administration in a real browser: a 404 for a person who is not an administrator; an
// administrator walks Health, Mail, Jobs and the Audit log by their navigation (axe, markup and
// width at desktop and phone size); reads a failed mail in the outbox (refused by a real SMTP
// server on 127.0.0.1), resends it, cancels a queued job, and finds both in the audit log.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { adminNav, checkScreen, heading } from "../helpers/admin-pages";
import { signIn, startBrowserApp, submitForm, type BrowserApp } from "../helpers/browser";
import { startSmtp, type TestSmtp } from "../helpers/smtp";

const REFUSED = "gone@example.org";
let smtp: TestSmtp;
let app: BrowserApp;
beforeAll(async () => {
  smtp = await startSmtp();
  app = await startBrowserApp({ ...smtp.config });
});
afterAll(async () => {
  await app.stop();
  await smtp.stop();
});

describe("administration", () => {
  test("a person who is not an administrator gets the 404 page and no link to it", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "alice", "alice-password");
    await expect(page.getByRole("link", { name: "Administration" }).count()).resolves.toBe(0);
    const response = await page.goto("/administration/mail");
    expect(response?.status()).toBe(404);
    await expect(heading(page)).resolves.toBe("Not found");
    await expect(page.getByText("The requested URL was not found on the server.").count()).resolves.toBe(1);
    await person.close();
  });

  test("an administrator walks Health, Mail, Jobs and the Audit log by the navigation", async () => {
    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password");
    await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Administration" }).click();
    await page.waitForURL((url) => url.pathname === "/administration");
    await expect(heading(page)).resolves.toBe("Health");
    await expect(page.getByText("Data directory").count()).resolves.toBe(1);
    await expect(page.getByRole("listitem").filter({ hasText: "DOIs are off" }).count()).resolves.toBe(1);
    // Mail is on here: no banner.
    await expect(page.getByText("Mail is off:").count()).resolves.toBe(0);
    await checkScreen(page);

    for (const [link, title, landmark] of [
      ["Mail", "Mail", "Send a test mail"],
      ["Jobs", "Jobs", "Schedule"],
      ["Audit log", "Audit log", "Filter the log"],
      ["Health", "Health", "Warnings"],
    ] as const) {
      await adminNav(page).getByRole("link", { name: link }).click();
      await page.waitForURL((url) => url.pathname.startsWith("/administration/"));
      await expect(heading(page)).resolves.toBe(title);
      await expect(adminNav(page).getByRole("link", { name: link }).getAttribute("aria-current")).resolves.toBe("page");
      await expect(page.getByText(landmark).first().isVisible()).resolves.toBe(true);
      await checkScreen(page);
    }
    await person.close();
  });

  test("read a failed mail in the outbox, resend it, cancel a queued job, and find both in the audit log", async () => {
    smtp.refusing.add(REFUSED);
    await app.services.mail.queueMail({ to: REFUSED, subject: "Your request was accepted", body: "Accepted.", topic: "request:browser" });
    await app.services.mail.deliverPending();
    const job = await app.services.jobs.enqueue("jobs-prune", {}, { runAt: app.clock.now() + 3_600_000 });

    const person = await app.newPerson();
    const page = await person.newPage();
    await signIn(page, "admin", "admin-password", "/administration/mail");
    await page.getByLabel("Status").selectOption({ label: "Failed" });
    await page.getByRole("button", { name: "Search the outbox" }).click();
    await page.waitForURL((url) => url.searchParams.get("status") === "failed");
    const row = page.getByRole("row", { name: /Your request was accepted/ });
    await expect(row.getByRole("cell").nth(0).textContent()).resolves.toBe(REFUSED);
    await expect(row.getByRole("cell").nth(2).textContent()).resolves.toBe("Failed, given up");
    await expect(row.getByRole("cell").nth(4).textContent()).resolves.toContain("550 5.1.1");
    await checkScreen(page);

    await row.getByRole("link", { name: "Your request was accepted" }).click();
    await expect(page.getByText("Recipient address rejected: mailbox unavailable").count()).resolves.toBe(1);
    await page.getByRole("link", { name: "Resend" }).click();
    await expect(page.getByRole("heading", { name: `Resend “Your request was accepted” to ${REFUSED}?` }).count()).resolves.toBe(1);
    await checkScreen(page);
    smtp.refusing.delete(REFUSED);
    await submitForm(page, page.getByRole("button", { name: "Resend" }));
    await expect(page.getByRole("status").textContent()).resolves.toBe("Resent: the SMTP server accepted it.");
    expect(smtp.to(REFUSED).map((m) => m.subject)).toEqual(["Your request was accepted"]);

    await adminNav(page).getByRole("link", { name: "Jobs" }).click();
    await page.getByRole("link", { name: `Cancel job ${job.id}` }).click();
    await expect(page.getByRole("heading", { name: `Cancel job ${job.id} (jobs-prune)?` }).count()).resolves.toBe(1);
    await submitForm(page, page.getByRole("button", { name: "Cancel the job" }));
    await expect(page.getByRole("status").textContent()).resolves.toBe("The job was cancelled.");
    await expect(page.getByRole("row", { name: new RegExp(`^${job.id} jobs-prune Failed`) }).count()).resolves.toBe(1);

    await adminNav(page).getByRole("link", { name: "Audit log" }).click();
    await expect(
      page
        .getByRole("row", { name: /mail\.resend/ })
        .getByRole("cell")
        .nth(0)
        .textContent(),
    ).resolves.toBe("admin@example.org");
    await expect(
      page
        .getByRole("row", { name: /job\.cancel/ })
        .getByRole("cell")
        .nth(2)
        .textContent(),
    ).resolves.toBe(`job ${job.id}`);
    await page.getByLabel("Action (such as mail.resend)").fill("job.cancel");
    await page.getByRole("button", { name: "Filter the log" }).click();
    await page.waitForURL((url) => url.searchParams.get("action") === "job.cancel");
    await expect(page.getByRole("row").count()).resolves.toBe(2);
    await checkScreen(page);
    await person.close();
  });
});
