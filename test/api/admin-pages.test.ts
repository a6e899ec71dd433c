// The administration's first screens over HTTP (Health, Mail, Jobs, Audit log): a 404 for everyone
// but administrators on every page and form; each screen's content for an administrator; resend,
// test mail, retry and cancel with their effects and audit entries; the CSRF refusals; bad input
// as 4xx. Mail goes to a real SMTP server on 127.0.0.1 (the smtp-server package) that refuses
// chosen mailboxes with 550.
import { onPostgres, postgresDatabaseSize } from "../helpers/postgres";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHealthService } from "../../src/admin/health";
import { systemActor, type Actor } from "../../src/core/actor";
import { CANCELLED_ERROR } from "../../src/jobs/service";
import { MAIL_MAX_ATTEMPTS } from "../../src/mail/service";
import { sessionCookie, sessionCsrf } from "../helpers/accounts";
import { createTestApp, type TestApp } from "../helpers/app";
import { raw } from "../helpers/sign-in";
import { startSmtp, type TestSmtp } from "../helpers/smtp";

const NOT_FOUND = "The requested URL was not found on the server.";
const BANNER = "Mail is off: notifications wait in the outbox";
const REFUSED = "nobody@example.org";

let smtp: TestSmtp;
/** Mail on (the SMTP server above). */
let app: TestApp;
/** Mail off, HTTPS with the self-signed certificate, open sign-up, an administrator at admin@localhost. */
let quiet: TestApp;
let admin: { cookie: string; csrf: string };
let alice: { cookie: string; csrf: string };
let quietAdmin: { cookie: string; csrf: string };

const session = async (on: TestApp, login: string) => {
  const cookie = await sessionCookie(on, login, `${login}-password`);
  return { cookie, csrf: await sessionCsrf(on, cookie, "/account/settings/profile") };
};

beforeAll(async () => {
  smtp = await startSmtp();
  smtp.refusing.add(REFUSED);
  app = await createTestApp({ ...smtp.config });
  quiet = await createTestApp({ HTTP: false, ACCOUNTS_REGISTERABLE: true });
  await quiet.services.users.createUser(systemActor, { email: "admin@localhost", username: "root", password: "root-password", admin: true });
  admin = await session(app, "admin");
  alice = await session(app, "alice");
  quietAdmin = await session(quiet, "admin");
});
afterAll(async () => {
  await app.close();
  await quiet.close();
  await smtp.stop();
});

const get = (path: string, who?: { cookie: string }, on: TestApp = app) => raw(on, "GET", path, { cookie: who?.cookie });
const post = (path: string, who: { cookie: string; csrf: string } | null, form: Record<string, string> = {}, csrf = who?.csrf) =>
  raw(app, "POST", path, { cookie: who?.cookie, form: csrf === undefined ? form : { csrf, ...form } });

/** The page's h1. */
const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
/** The notice after an action. */
const notice = (html: string) => /role="status">([^<]*)</.exec(html)?.[1];
/** The rows of a table as their cells' text, by the row's data attribute. */
const rowText = (html: string, attribute: string, id: number | string) => {
  const row = new RegExp(`<tr ${attribute}="${id}">(.*?)</tr>`).exec(html)?.[1];
  return row === undefined ? undefined : [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
};
const rowIds = (html: string, attribute: string) => [...html.matchAll(new RegExp(`<tr ${attribute}="(\\d+)">`, "g"))].map((m) => Number(m[1]));

const auditEntries = async (action: string) => (await app.services.audit.search(systemActor, { action })).entries;
const auditTotal = async () => (await app.services.audit.search(systemActor, {})).total;
const mailRow = (id: number) => app.services.mail.readMail(systemActor, id);

describe("the administration is a 404 for everyone but administrators", () => {
  const screens = [
    "/administration",
    "/administration/health",
    "/administration/mail",
    "/administration/mail/1",
    "/administration/mail/1/resend",
    "/administration/jobs",
    "/administration/jobs/1/cancel",
    "/administration/audit",
  ];
  const forms = ["/administration/mail/1/resend", "/administration/mail/test", "/administration/jobs/1/cancel", "/administration/jobs/1/retry"];

  test("every screen: the ordinary 404 page for a guest, a signed-in person and a person's token; the page for an administrator", async () => {
    const id = (await app.services.mail.queueMail({ to: "someone@example.org", subject: "Welcome", body: "Hello", topic: "t:404" }))!.id;
    await app.services.jobs.enqueue("jobs-prune");
    const paths = screens.map((p) => p.replace("/mail/1", `/mail/${id}`));
    for (const path of paths) {
      for (const [who, res] of [
        ["guest", await get(path)],
        ["alice", await get(path, alice)],
        ["alice's token", await raw(app, "GET", path, { headers: { authorization: `Bearer ${app.users.alice.token}` } })],
      ] as const) {
        expect({ path, who, status: res.status, h1: h1(res.text), says: res.text.includes(NOT_FOUND), admin: res.text.includes("Administration") }).toEqual({
          path,
          who,
          status: 404,
          h1: "Not found",
          says: true,
          admin: false,
        });
      }
      const own = await get(path, admin);
      expect({ path, status: own.status }).toEqual({ path, status: 200 });
      expect(own.text).toContain('aria-label="Administration"');
    }
  });

  test("every form: a 404 for a guest and for a signed-in person with a valid CSRF token, with no effect", async () => {
    smtp.refusing.add("held@example.org");
    const id = (await app.services.mail.queueMail({ to: "held@example.org", subject: "Held", body: "Held", topic: "t:held" }))!.id;
    await app.services.mail.deliverPending();
    const job = await app.services.jobs.enqueue("jobs-prune");
    const before = (await app.services.audit.search(systemActor, {})).total;
    for (const path of forms.map((p) => p.replace("/mail/1", `/mail/${id}`).replace("/jobs/1", `/jobs/${job.id}`))) {
      for (const [who, res] of [
        ["guest", await post(path, null, { to: "x@example.org" }, "")],
        ["alice", await post(path, alice, { to: "x@example.org" })],
      ] as const) {
        expect({ path, who, status: res.status, h1: h1(res.text), says: res.text.includes(NOT_FOUND) }).toEqual({ path, who, status: 404, h1: "Not found", says: true });
      }
    }
    expect((await mailRow(id)).attempts).toBe(MAIL_MAX_ATTEMPTS);
    expect((await app.services.jobs.readJob(systemActor, job.id)).status).toBe("queued");
    expect((await app.services.mail.searchOutbox(systemActor, { q: "x@example.org" })).total).toBe(0);
    expect((await app.services.audit.search(systemActor, {})).total).toBe(before);
    smtp.refusing.delete("held@example.org");
  });

  test("the services refuse a person who is not an administrator (403) whatever calls them", async () => {
    const person: Actor = { kind: "user", userId: app.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    const calls: [string, () => Promise<unknown>][] = [
      ["readHealth", () => app.services.health.readHealth(person)],
      ["searchOutbox", () => app.services.mail.searchOutbox(person, {})],
      ["readMail", () => app.services.mail.readMail(person, 1)],
      ["resendMail", () => app.services.mail.resendMail(person, 1, { via: "api" })],
      ["sendTestMail", () => app.services.mail.sendTestMail(person, "alice@example.org", { via: "api" })],
      ["searchJobs", () => app.services.jobs.searchJobs(person, {})],
      ["readJob", () => app.services.jobs.readJob(person, 1)],
      ["retryJob", () => app.services.jobs.retryJob(person, 1, { via: "api" })],
      ["cancelJob", () => app.services.jobs.cancelJob(person, 1, { via: "api" })],
    ];
    for (const [name, call] of calls) {
      const error = await call().then(
        () => null,
        (e: { status?: number }) => e,
      );
      expect({ name, status: error?.status }).toEqual({ name, status: 403 });
    }
    // Nothing was done before the refusal: no test mail queued (nor sent).
    expect((await app.services.mail.searchOutbox(systemActor, { q: "alice@example.org" })).total).toBe(0);
    expect(smtp.to("alice@example.org")).toEqual([]);
  });
});

describe("Health", () => {
  test("version, commit, uptime by the clock, data directory, database and file-store sizes, disk space; no warnings to make with mail on over HTTP", async () => {
    mkdirSync(join(app.dataDir, "files", "objects", "ab"), { recursive: true });
    writeFileSync(join(app.dataDir, "files", "objects", "ab", "cd"), new Uint8Array(3 * 1024));
    app.clock.advance(26 * 3_600_000 + 5 * 60_000);
    const res = await get("/administration/health", admin);
    expect(res.status).toBe(200);
    expect(h1(res.text)).toBe("Health");
    const health = await app.services.health.readHealth(systemActor);
    expect(health.fileStoreBytes).toBe(3 * 1024);
    // SQLite's file, or PostgreSQL's own measure of the database (asked here through another client).
    expect(health.databaseBytes).toBeGreaterThanOrEqual(onPostgres() ? await postgresDatabaseSize(app.config.DATABASE_URL) : statSync(join(app.dataDir, "cairn.db")).size);
    for (const [term, value] of [
      ["Version", "0.1.0"],
      ["Commit", "source"],
      ["Running since", "2026-11-22 12:00 UTC"],
      ["Uptime", "1 d 2 h 5 min"],
      ["Data directory", app.dataDir],
      ["File store", "3.0 KiB"],
    ]) {
      expect(res.text).toMatch(new RegExp(`<dt>${term}</dt><dd[^>]*>${value!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</dd>`));
    }
    expect(res.text).toMatch(/<dt>Free disk space<\/dt><dd>[\d.]+ [KMGTP]iB free of [\d.]+ [KMGTP]iB \([\d.]+%\)<\/dd>/);
    // Mail is on here: neither the banner nor its warning; DOIs are off.
    expect(res.text).not.toContain(BANNER);
    expect([...res.text.matchAll(/data-warning="([^"]+)"/g)].map((m) => m[1])).toEqual(["dois-off"]);
  });

  test("each configuration warning is one entry of one list, and the mail-off banner is on every screen", async () => {
    const res = await get("/administration", quietAdmin, quiet);
    expect(res.status).toBe(200);
    expect([...res.text.matchAll(/data-warning="([^"]+)"/g)].map((m) => m[1])).toEqual([
      "mail-off",
      "dois-off",
      "self-signed-certificate",
      "default-admin-email",
      "registration-open",
    ]);
    expect(res.text).toContain("An administrator still has the default address admin@localhost");
    for (const path of ["/administration", "/administration/health", "/administration/mail", "/administration/jobs", "/administration/audit"]) {
      const page = await get(path, quietAdmin, quiet);
      expect({ path, status: page.status, banner: page.text.includes(BANNER) }).toEqual({ path, status: 200, banner: true });
    }
  });

  test("a disk under 10% free is a warning; at 10% it is not", async () => {
    const make = (free: number) =>
      createHealthService({
        config: app.config,
        clock: app.clock,
        startedAt: 0,
        adminEmails: async () => [],
        checkIndex: app.services.records.checkIndex,
        diskOf: () => ({ freeBytes: free, totalBytes: 1000 }),
      });
    expect((await make(99).readHealth(systemActor)).warnings.map((w) => w.message)).toEqual([
      "The data directory's disk is almost full: 9.9% free.",
      "DOIs are off (DATACITE_PREFIX is empty): published records get no DOI.",
    ]);
    expect((await make(100).readHealth(systemActor)).warnings.map((w) => w.key)).toEqual(["dois-off"]);
  });
});

describe("Mail", () => {
  let failed: number;
  let pending: number;
  let sent: number;

  beforeAll(async () => {
    sent = (await app.services.mail.queueMail({ to: "carol@example.org", subject: "Your upload was published", body: "Published.", topic: "record:abc" }))!.id;
    failed = (await app.services.mail.queueMail({ to: REFUSED, subject: "Invitation to Rocks", body: "Join us.", topic: "request:xyz" }))!.id;
    await app.services.mail.deliverPending();
    pending = (await app.services.mail.queueMail({ to: "dave@example.org", subject: "A comment on your request", body: "Hi.", topic: "request:pending" }))!.id;
  });

  test("the outbox: newest first, the failed message with the SMTP server's answer, filtered by status and text, paged", async () => {
    const all = await get("/administration/mail?size=100", admin);
    expect(all.status).toBe(200);
    const ids = rowIds(all.text, "data-mail-id");
    expect(ids.slice(0, 3)).toEqual([pending, failed, sent]);
    expect(rowText(all.text, "data-mail-id", failed)).toEqual([
      "Invitation to Rocks",
      REFUSED,
      "2026-11-23 14:05 UTC",
      "Failed, given up",
      String(MAIL_MAX_ATTEMPTS),
      `Can't send mail - all recipients were rejected: 550 5.1.1 &lt;${REFUSED}>: Recipient address rejected: mailbox unavailable`,
    ]);
    expect(rowText(all.text, "data-mail-id", sent)?.[3]).toBe("Sent 2026-11-23 14:05 UTC");
    expect(rowText(all.text, "data-mail-id", pending)?.[3]).toBe("Pending");

    const onlyFailed = await get("/administration/mail?status=failed&size=100", admin);
    // Besides `failed`, the message the 404 tests left refused (held@example.org).
    const failedIds = rowIds(onlyFailed.text, "data-mail-id");
    expect(failedIds).toContain(failed);
    expect(failedIds.map((id) => rowText(onlyFailed.text, "data-mail-id", id)?.[3])).toEqual(failedIds.map(() => "Failed, given up"));
    expect(failedIds).not.toContain(pending);
    expect(failedIds).not.toContain(sent);
    expect(rowIds((await get("/administration/mail?status=pending&size=100", admin)).text, "data-mail-id")).toEqual([pending]);
    expect(rowIds((await get("/administration/mail?q=Rocks", admin)).text, "data-mail-id")).toEqual([failed]);
    expect(rowIds((await get("/administration/mail?q=request%3A", admin)).text, "data-mail-id")).toEqual([pending, failed]);
    // A LIKE wildcard typed is a character, not "anything".
    expect(rowIds((await get("/administration/mail?q=%25", admin)).text, "data-mail-id")).toEqual([]);

    const first = await get("/administration/mail?q=request%3A&size=1", admin);
    expect(rowIds(first.text, "data-mail-id")).toEqual([pending]);
    expect(first.text).toContain('href="/administration/mail?q=request%3A&amp;page=2"');
    const second = await get("/administration/mail?q=request%3A&size=1&page=2", admin);
    expect(rowIds(second.text, "data-mail-id")).toEqual([failed]);
    expect(second.text).toContain("Page 2 of 2 (2 in all)");
  });

  test("a message's page shows its text and the SMTP answer; bad input is a 4xx page, never a 500", async () => {
    const page = await get(`/administration/mail/${failed}`, admin);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<pre class="mail-body">Join us.</pre>');
    expect(page.text).toContain(`href="/administration/mail/${failed}/resend"`);
    expect((await get(`/administration/mail/${sent}`, admin)).text).not.toContain(`/administration/mail/${sent}/resend`);
    for (const [path, status, says] of [
      ["/administration/mail?status=lost", 400, "status: Must be one of: pending, sent, failed."],
      ["/administration/mail?page=0", 400, "page: Must be a whole number of 1 or more."],
      ["/administration/mail?size=5000", 400, "size: Must be a whole number from 1 to 100."],
      ["/administration/mail/999999", 404, "No message with id 999999 in the outbox."],
      ["/administration/mail/abc", 404, "No message with id abc."],
      ["/administration/mail/abc/resend", 404, "No message with id abc."],
    ] as const) {
      const res = await get(path, admin);
      expect({ path, status: res.status, says: res.text.includes(says) }).toEqual({ path, status, says: true });
    }
  });

  test("Resend: a confirmation step, refused without the session's CSRF token, then sent, shown and audited once", async () => {
    const before = await auditTotal();
    const confirm = await get(`/administration/mail/${failed}/resend`, admin);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(`Resend “Invitation to Rocks” to ${REFUSED}?`);
    expect(confirm.text).toMatch(new RegExp(`<form method="post" action="/administration/mail/${failed}/resend"><input type="hidden" name="csrf" value="${admin.csrf}"/>`));

    for (const csrf of ["", "forged", alice.csrf]) {
      const refused = await post(`/administration/mail/${failed}/resend`, admin, {}, csrf);
      expect({ csrf, status: refused.status, h1: h1(refused.text) }).toEqual({ csrf, status: 403, h1: "Not allowed" });
    }
    expect((await mailRow(failed)).attempts).toBe(MAIL_MAX_ATTEMPTS);
    expect(await auditEntries("mail.resend")).toEqual([]);

    smtp.refusing.delete(REFUSED);
    const done = await post(`/administration/mail/${failed}/resend`, admin);
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `/administration/mail/${failed}?resent=1` });
    expect(smtp.to(REFUSED).map((m) => m.subject)).toEqual(["Invitation to Rocks"]);
    expect(await mailRow(failed)).toMatchObject({ status: "sent", attempts: 1, lastError: null, sentAt: app.clock.now() });
    const shown = await get(`/administration/mail/${failed}?resent=1`, admin);
    expect(notice(shown.text)).toBe("Resent: the SMTP server accepted it.");
    expect(await auditEntries("mail.resend")).toEqual([
      expect.objectContaining({
        actorId: app.users.admin.user.id,
        actorLabel: "admin@example.org",
        action: "mail.resend",
        targetType: "mail",
        targetId: String(failed),
        via: "web",
        details: { to: REFUSED },
      }),
    ]);

    // Sent once, never twice.
    const again = await post(`/administration/mail/${failed}/resend`, admin);
    expect({ status: again.status, says: again.text.includes(`Message ${failed} was sent already`) }).toEqual({ status: 409, says: true });
    expect(smtp.to(REFUSED)).toHaveLength(1);
    expect((await get(`/administration/mail/${failed}/resend`, admin)).status).toBe(409);
    expect(await auditEntries("mail.resend")).toHaveLength(1);
    expect(await auditTotal()).toBe(before + 1);
  });

  test("Resend while mail is off: the message waits in the outbox again, and the page says so", async () => {
    const id = (await quiet.services.mail.queueMail({ to: "erin@example.org", subject: "Waiting", body: "Wait.", topic: "t:off" }))!.id;
    const res = await raw(quiet, "POST", `/administration/mail/${id}/resend`, { cookie: quietAdmin.cookie, form: { csrf: quietAdmin.csrf } });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `/administration/mail/${id}?resent=1` });
    expect(await quiet.services.mail.readMail(systemActor, id)).toMatchObject({ status: "pending", attempts: 0, sentAt: null });
    expect(notice((await get(`/administration/mail/${id}?resent=1`, quietAdmin, quiet)).text)).toBe("Resent: it waits in the outbox until MAIL_SERVER is set.");
    expect((await quiet.services.audit.search(systemActor, { action: "mail.resend" })).entries).toEqual([
      expect.objectContaining({ actorLabel: "admin@example.org", targetId: String(id), via: "web" }),
    ]);
  });

  test("Send a test mail: to the administrator's own address by default, to one typed; refused without CSRF and for a bad address; audited once", async () => {
    const before = await auditTotal();
    const page = await get("/administration/mail", admin);
    expect(page.text).toContain('<input id="field-to" name="to" type="email" value="admin@example.org"');

    const forged = await post("/administration/mail/test", admin, { to: "ops@example.org" }, "forged");
    expect(forged.status).toBe(403);
    const bad = await post("/administration/mail/test", admin, { to: "not an address" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="field-to-error">Enter one e-mail address, such as you@example.org.<');
    expect(bad.text).toContain('value="not an address"');
    expect(smtp.to("ops@example.org")).toEqual([]);

    const done = await raw(app, "POST", "/administration/mail/test", { cookie: admin.cookie, form: { csrf: admin.csrf, to: "ops@example.org" }, address: "203.0.113.7" });
    expect(done.status).toBe(303);
    const id = Number(/\/administration\/mail\/(\d+)\?tested=1$/.exec(done.headers.get("location") ?? "")?.[1]);
    expect(smtp.to("ops@example.org").map((m) => m.subject)).toEqual(["Test message from Cairn"]);
    expect(notice((await get(`/administration/mail/${id}?tested=1`, admin)).text)).toBe("Test mail queued: the SMTP server accepted it.");
    expect(await auditEntries("mail.test")).toEqual([
      expect.objectContaining({
        actorLabel: "admin@example.org",
        targetType: "mail",
        targetId: String(id),
        via: "web",
        address: "203.0.113.7",
        details: { to: "ops@example.org" },
      }),
    ]);
    expect(await auditTotal()).toBe(before + 1);
  });
});

describe("Jobs", () => {
  let failing: number;
  let queued: number;

  beforeAll(async () => {
    app.services.jobs.registry.define({
      name: "test-broken",
      description: "Fails on purpose.",
      run: () => {
        throw new Error("the disk said no");
      },
    });
    await app.services.jobs.runNow(systemActor, "test-broken");
    failing = (await app.services.jobs.searchJobs(systemActor, { status: "failed" })).jobs.find((j) => j.name === "test-broken")!.id;
    queued = (await app.services.jobs.enqueue("jobs-prune", {}, { runAt: app.clock.now() + 3_600_000 })).id;
    // The schedule: made on the worker's first look, run when due.
    await app.services.worker.enqueueDueSchedules();
    app.clock.advance(61_000);
    await app.services.worker.enqueueDueSchedules();
  });

  test("the queue with each job's state and error text, filtered by state and paged; the schedule with last and next runs", async () => {
    const res = await get("/administration/jobs?size=100", admin);
    expect(res.status).toBe(200);
    expect(rowText(res.text, "data-job-id", failing)?.slice(0, 8)).toEqual([
      String(failing),
      "test-broken",
      "Failed",
      "1 of 1",
      "2026-11-23 14:05 UTC",
      "2026-11-23 14:05 UTC",
      "—",
      "the disk said no",
    ]);
    expect(res.text).toContain(`Retry job ${failing}`);
    expect(rowText(res.text, "data-job-id", queued)?.slice(1, 4)).toEqual(["jobs-prune", "Queued", "0 of 5"]);
    expect(res.text).toContain(`href="/administration/jobs/${queued}/cancel"`);

    const onlyFailed = await get("/administration/jobs?status=failed", admin);
    expect(rowIds(onlyFailed.text, "data-job-id")).toEqual([failing]);
    const paged = await get("/administration/jobs?status=queued&size=1", admin);
    expect(rowIds(paged.text, "data-job-id")).toHaveLength(1);
    expect(paged.text).toContain('href="/administration/jobs?status=queued&amp;page=2"');

    const now = app.clock.now();
    const at = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
    const mailSend = /<tr><th scope="row">mail-send<span[^>]*>[^<]*<\/span><\/th><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/.exec(res.text);
    expect(mailSend?.slice(1)).toEqual(["every 1 min", at(now), at(now + 60_000)]);
    expect(await get("/administration/jobs?status=done", admin).then((r) => [r.status, r.text.includes("status: Must be one of: queued, running, succeeded, failed.")])).toEqual([
      400,
      true,
    ]);
  });

  test("Retry a failed job: refused without CSRF, then queued again with its attempts afresh, audited once (by the service, via web); a queued one is not retried", async () => {
    const before = await auditTotal();
    expect((await post(`/administration/jobs/${failing}/retry`, admin, {}, "")).status).toBe(403);
    expect((await app.services.jobs.readJob(systemActor, failing)).status).toBe("failed");
    const res = await raw(app, "POST", `/administration/jobs/${failing}/retry`, { cookie: admin.cookie, form: { csrf: admin.csrf }, address: "203.0.113.8" });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: "/administration/jobs?done=retried" });
    expect(await app.services.jobs.readJob(systemActor, failing)).toMatchObject({ status: "queued", attempts: 0, runAt: app.clock.now(), finishedAt: null });
    expect(notice((await get("/administration/jobs?done=retried", admin)).text)).toBe("The job was queued again.");
    expect(await auditEntries("job.retry")).toEqual([
      expect.objectContaining({ targetType: "job", targetId: String(failing), via: "web", address: "203.0.113.8", details: { name: "test-broken" } }),
    ]);
    const twice = await post(`/administration/jobs/${failing}/retry`, admin);
    expect({ status: twice.status, says: twice.text.includes(`Job ${failing} is queued: only a failed job is retried.`) }).toEqual({ status: 409, says: true });
    expect(await auditTotal()).toBe(before + 1);
  });

  test("Cancel a queued job: a confirmation step, refused without CSRF, then failed with the reason, audited once (by the service, via web); a failed one is not cancelled", async () => {
    const before = await auditTotal();
    const confirm = await get(`/administration/jobs/${queued}/cancel`, admin);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(`Cancel job ${queued} (jobs-prune)?`);
    expect(confirm.text).toContain(`<form method="post" action="/administration/jobs/${queued}/cancel"><input type="hidden" name="csrf" value="${admin.csrf}"/>`);
    expect((await post(`/administration/jobs/${queued}/cancel`, admin, {}, alice.csrf)).status).toBe(403);
    expect((await app.services.jobs.readJob(systemActor, queued)).status).toBe("queued");
    const res = await raw(app, "POST", `/administration/jobs/${queued}/cancel`, { cookie: admin.cookie, form: { csrf: admin.csrf }, address: "203.0.113.8" });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: "/administration/jobs?done=cancelled" });
    expect(await app.services.jobs.readJob(systemActor, queued)).toMatchObject({ status: "failed", lastError: CANCELLED_ERROR, finishedAt: app.clock.now() });
    expect(await auditEntries("job.cancel")).toEqual([
      expect.objectContaining({ targetType: "job", targetId: String(queued), via: "web", address: "203.0.113.8", details: { name: "jobs-prune" } }),
    ]);
    const twice = await post(`/administration/jobs/${queued}/cancel`, admin);
    expect(twice.status).toBe(409);
    expect((await get(`/administration/jobs/${queued}/cancel`, admin)).status).toBe(409);
    expect((await post("/administration/jobs/999999/cancel", admin)).status).toBe(404);
    expect((await post("/administration/jobs/0/retry", admin)).status).toBe(404);
    expect(await auditTotal()).toBe(before + 1);
  });

  test("a job's progress: a bar named after the job with its numbers as text, kept after it ends; none without a report", async () => {
    app.services.jobs.registry.define({
      name: "test-counting",
      description: "Reports how far it got.",
      run: async (_payload, ctx) => {
        await ctx.progress({ done: 3, total: 8, message: "rows imported" });
      },
    });
    app.services.jobs.registry.define({ name: "test-open-ended", description: "Counts without an end.", run: (_payload, ctx) => ctx.progress({ done: 1200, message: "names" }) });
    const counted = (await app.services.jobs.runNow(systemActor, "test-counting")).id;
    const open = (await app.services.jobs.runNow(systemActor, "test-open-ended")).id;
    const res = await get("/administration/jobs?status=succeeded&size=100", admin);
    expect(rowText(res.text, "data-job-id", counted)?.slice(1, 3)).toEqual(["test-counting", "Succeeded"]);
    expect(rowText(res.text, "data-job-id", counted)?.[6]).toBe("3 of 8 (37%): rows imported");
    expect(res.text).toContain(
      `<progress max="8" value="3" aria-label="Progress of job ${counted} (test-counting)"></progress><span class="progress-text">3 of 8 (37%): rows imported</span>`,
    );
    // No total: a bar that says it does not know the end, and the count.
    expect(res.text).toContain(`<progress aria-label="Progress of job ${open} (test-open-ended)"></progress><span class="progress-text">1200: names</span>`);
    expect(rowText((await get("/administration/jobs?size=100", admin)).text, "data-job-id", failing)?.[6]).toBe("—");
  });
});

describe("Audit log", () => {
  test("the entries as a table, newest first, filtered by action and target, paged", async () => {
    const all = (await app.services.audit.search(systemActor, { size: 100 })).entries;
    expect(all.map((e) => e.action)).toEqual(["job.cancel", "job.retry", "mail.test", "mail.resend"]);
    const res = await get("/administration/audit", admin);
    expect(res.status).toBe(200);
    expect(rowIds(res.text, "data-audit-id")).toEqual(all.map((e) => e.id));
    const resend = all.find((e) => e.action === "mail.resend")!;
    expect(rowText(res.text, "data-audit-id", resend.id)).toEqual([
      new Date(resend.at).toISOString().slice(0, 16).replace("T", " ") + " UTC",
      "admin@example.org",
      "mail.resend",
      `mail ${resend.targetId}`,
      "web",
      `to: ${REFUSED}`,
    ]);
    expect(rowIds((await get("/administration/audit?action=mail.test", admin)).text, "data-audit-id")).toEqual([all[2]!.id]);
    expect(rowIds((await get("/administration/audit?target_type=job", admin)).text, "data-audit-id")).toEqual([all[0]!.id, all[1]!.id]);
    expect(rowIds((await get(`/administration/audit?target_type=mail&target_id=${resend.targetId}`, admin)).text, "data-audit-id")).toEqual([resend.id]);
    const paged = await get("/administration/audit?size=3&page=2", admin);
    expect(rowIds(paged.text, "data-audit-id")).toEqual([resend.id]);
    expect(paged.text).toContain("Page 2 of 2 (4 in all)");
    expect((await get("/administration/audit?page=x", admin)).status).toBe(400);
  });
});
