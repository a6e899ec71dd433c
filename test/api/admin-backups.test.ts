// Administration → Backups over HTTP: a 404 for everyone but administrators on the page and its
// forms; the hint when BACKUP_DIR is empty; with a BACKUP_DIR, "Back up now" queues the backup job,
// the worker runs it and its snapshot is listed; "Verify" queues a verify job whose result shows
// (sound, then a damaged object); the last scheduled backup's state and error; CSRF refusals; the
// audit entries of both actions.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemActor, type Actor } from "../../src/core/actor";
import { DAY_MS } from "../../src/core/time";
import { bytes } from "../../src/pages/admin/frame";
import { sessionCookie, sessionCsrf } from "../helpers/accounts";
import { createTestApp, type TestApp } from "../helpers/app";
import { seedRecords } from "../helpers/backup";
import { raw } from "../helpers/sign-in";

const NOT_FOUND = "The requested URL was not found on the server.";
const PAGE = "/administration/backups";

let root = "";
/** BACKUP_DIR set (daily, keeping 7), one published record with a file. */
let app: TestApp;
/** BACKUP_DIR empty. */
let quiet: TestApp;
let admin: { cookie: string; csrf: string };
let alice: { cookie: string; csrf: string };
let quietAdmin: { cookie: string; csrf: string };
let start = 0;

const session = async (on: TestApp, login: string) => {
  const cookie = await sessionCookie(on, login, `${login}-password`);
  return { cookie, csrf: await sessionCsrf(on, cookie, "/account/settings/profile") };
};
const dest = () => join(root, "backups");

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-admin-backups-"));
  app = await createTestApp({ BACKUP_DIR: dest(), BACKUP_SCHEDULE: "daily" });
  start = app.clock.now();
  quiet = await createTestApp();
  await seedRecords(app, 1);
  admin = await session(app, "admin");
  alice = await session(app, "alice");
  quietAdmin = await session(quiet, "admin");
});
afterAll(async () => {
  await app.close();
  await quiet.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (path: string, who?: { cookie: string }, on: TestApp = app) => raw(on, "GET", path, { cookie: who?.cookie });
const post = (path: string, who: { cookie: string; csrf: string } | null, csrf = who?.csrf, on: TestApp = app) =>
  raw(on, "POST", path, { cookie: who?.cookie, form: csrf === undefined ? {} : { csrf }, address: "203.0.113.9" });

const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
const notice = (html: string) => /<p class="notice ok" role="status">([^<]*)</.exec(html)?.[1];
/** A table row's cells as text, by its data attribute. */
const rowText = (html: string, attribute: string, id: number | string) => {
  const row = new RegExp(`<tr ${attribute}="${id}">(.*?)</tr>`).exec(html)?.[1];
  return row === undefined ? undefined : [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, "").replace(/&amp;/g, "&"));
};
/** The facts (dt -> dd) of the "Last scheduled backup" section. */
const lastScheduled = (html: string) => {
  const section = /<h2 id="last-scheduled">.*?<\/dl>/.exec(html)?.[0] ?? "";
  return Object.fromEntries([...section.matchAll(/<dt>([^<]*)<\/dt><dd[^>]*>([^<]*)<\/dd>/g)].map((m) => [m[1], m[2]]));
};
const jobsNamed = async (on: TestApp, name: string) => (await on.services.jobs.listJobsNamed(systemActor, name)).map((j) => ({ id: j.id, status: j.status }));
const auditEntries = async (action: string) => (await app.services.audit.search(systemActor, { action })).entries;
const auditTotal = async () => (await app.services.audit.search(systemActor, {})).total;
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
const snapshotName = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

describe("the Backups screen is a 404 for everyone but administrators", () => {
  test("the page: the ordinary 404 for a guest, a signed-in person and a person's token; the page for an administrator", async () => {
    for (const [who, res] of [
      ["guest", await get(PAGE)],
      ["alice", await get(PAGE, alice)],
      ["alice's token", await raw(app, "GET", PAGE, { headers: { authorization: `Bearer ${app.users.alice.token}` } })],
    ] as const) {
      expect({ who, status: res.status, h1: h1(res.text), says: res.text.includes(NOT_FOUND), backups: res.text.includes("Back up now") }).toEqual({
        who,
        status: 404,
        h1: "Not found",
        says: true,
        backups: false,
      });
    }
    const own = await get(PAGE, admin);
    expect({ status: own.status, h1: h1(own.text) }).toEqual({ status: 200, h1: "Backups" });
    expect(own.text).toContain('<a href="/administration/backups" aria-current="page">Backups</a>');
  });

  test("the forms: a 404 for a guest and for a signed-in person with a valid CSRF token, with nothing queued nor audited", async () => {
    for (const path of [`${PAGE}/run`, `${PAGE}/20261122T120000Z/verify`]) {
      for (const [who, res] of [
        ["guest", await post(path, null, "")],
        ["alice", await post(path, alice)],
      ] as const) {
        expect({ path, who, status: res.status, h1: h1(res.text), says: res.text.includes(NOT_FOUND) }).toEqual({ path, who, status: 404, h1: "Not found", says: true });
      }
    }
    expect(await jobsNamed(app, "backup")).toEqual([]);
    expect(await jobsNamed(app, "backup-verify")).toEqual([]);
    expect((await app.services.audit.search(systemActor, {})).total).toBe(0);
  });

  test("the services refuse a person who is not an administrator (403) whatever calls them", async () => {
    const person: Actor = { kind: "user", userId: app.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    const quietPerson: Actor = { ...person, userId: quiet.users.alice.user.id } as Actor;
    const calls: [string, () => Promise<unknown>][] = [
      ["readBackups", () => app.services.backup.readBackups(person)],
      ["queueBackup", () => app.services.backup.queueBackup(person, { via: "api" })],
      ["queueVerify", () => app.services.backup.queueVerify(person, "20261122T120000Z", { via: "api" })],
      ["verifySnapshot", () => app.services.backup.verifySnapshot(person, "20261122T120000Z")],
      ["listJobsNamed", () => app.services.jobs.listJobsNamed(person, "backup")],
      // Without BACKUP_DIR nothing else would refuse them.
      ["readBackups without BACKUP_DIR", () => quiet.services.backup.readBackups(quietPerson)],
      ["queueBackup without BACKUP_DIR", () => quiet.services.backup.queueBackup(quietPerson, { via: "api" })],
    ];
    for (const [name, call] of calls) {
      const error = await call().then(
        () => null,
        (e: { status?: number }) => e,
      );
      expect({ name, status: error?.status }).toEqual({ name, status: 403 });
    }
    expect(await jobsNamed(app, "backup")).toEqual([]);
  });
});

describe("without BACKUP_DIR", () => {
  test("the screen says how to set it and offers no action; a forged-through POST is refused with 409", async () => {
    const res = await get(PAGE, quietAdmin, quiet);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h2 id="not-configured">Backups are not set up</h2>');
    expect(res.text).toContain("BACKUP_DIR is empty, so no backup is scheduled and none can be started here.");
    expect(res.text).toContain("<code>CAIRN_BACKUP_DIR</code>");
    expect(res.text).not.toContain('<form method="post"');
    expect(res.text).not.toContain("Back up now");
    const refused = await post(`${PAGE}/run`, quietAdmin, quietAdmin.csrf, quiet);
    expect({ status: refused.status, says: refused.text.includes("BACKUP_DIR is not set: configure where backups go") }).toEqual({ status: 409, says: true });
    expect(await jobsNamed(quiet, "backup")).toEqual([]);
    expect((await quiet.services.audit.search(systemActor, {})).total).toBe(0);
  });
});

describe("with BACKUP_DIR", () => {
  let backupJob = 0;
  let snapshot = "";
  let takenAt = 0;

  test("before any backup: where they go, the schedule, no runs, no snapshots, and a Back up now button", async () => {
    const res = await get(PAGE, admin);
    expect(res.text).toContain(`Backups go to <code>${dest()}</code>, keeping the newest 7.`);
    expect(lastScheduled(res.text)).toEqual({ Runs: "every 24 h", "Last run": "Not yet" });
    expect(res.text).toContain("No backup has run yet.");
    expect(res.text).toContain("No snapshots in BACKUP_DIR yet.");
    expect(res.text).toContain(`<form method="post" action="/administration/backups/run"><input type="hidden" name="csrf" value="${admin.csrf}"/>`);
  });

  test("Back up now: refused without the session's CSRF token", async () => {
    for (const csrf of ["", "forged", alice.csrf]) {
      const refused = await post(`${PAGE}/run`, admin, csrf);
      expect({ csrf, status: refused.status, h1: h1(refused.text) }).toEqual({ csrf, status: 403, h1: "Not allowed" });
    }
    expect(await jobsNamed(app, "backup")).toEqual([]);
    expect(await auditEntries("backup.run")).toEqual([]);
  });

  test("Back up now: queues the backup job (audited once), shows it queued, refuses a second one; the worker runs it and its snapshot is listed", async () => {
    const before = await auditTotal();
    const done = await post(`${PAGE}/run`, admin);
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `${PAGE}?done=backup` });
    const queued = await jobsNamed(app, "backup");
    expect(queued).toEqual([{ id: expect.any(Number), status: "queued" }]);
    backupJob = queued[0]!.id;
    expect((await app.services.jobs.readJob(systemActor, backupJob)).payload).toEqual({ requestedBy: app.users.admin.user.id });
    expect(await auditEntries("backup.run")).toEqual([
      expect.objectContaining({
        actorId: app.users.admin.user.id,
        action: "backup.run",
        targetType: "job",
        targetId: String(backupJob),
        via: "web",
        address: "203.0.113.9",
        details: { name: "backup" },
      }),
    ]);

    const shown = await get(`${PAGE}?done=backup`, admin);
    expect(notice(shown.text)).toBe("The backup was queued: refresh the page to follow it.");
    expect(shown.text).toContain(`A backup is queued (job ${backupJob}). Refresh the page to follow it.`);
    expect(shown.text).not.toContain('action="/administration/backups/run"');
    expect(rowText(shown.text, "data-backup-job", backupJob)).toEqual([String(backupJob), utc(app.clock.now()), "Queued", "—", "—", "—", "—"]);

    const again = await post(`${PAGE}/run`, admin);
    expect({ status: again.status, says: again.text.includes(`A backup (job ${backupJob}) is queued already; wait for it to finish.`) }).toEqual({ status: 409, says: true });
    expect(await auditEntries("backup.run")).toHaveLength(1);
    expect(await auditTotal()).toBe(before + 1);

    takenAt = app.clock.now();
    await app.services.worker.drain();
    expect(await jobsNamed(app, "backup")).toEqual([{ id: backupJob, status: "succeeded" }]);
    snapshot = snapshotName(takenAt);
    const listed = await get(PAGE, admin);
    expect(rowText(listed.text, "data-backup-job", backupJob)).toEqual([
      String(backupJob),
      utc(takenAt),
      "Succeeded",
      "1 of 1 (100%): files backed up",
      utc(takenAt),
      snapshot,
      "—",
    ]);
    const manifest = JSON.parse(readFileSync(join(dest(), snapshot, "manifest.json"), "utf8")) as { files: { size: number }[]; objects: [string, number, string][] };
    expect(manifest.objects).toHaveLength(1);
    const size = manifest.files.reduce((a, f) => a + f.size, 0) + manifest.objects[0]![1];
    expect(rowText(listed.text, "data-snapshot", snapshot)).toEqual([snapshot, utc(takenAt), bytes(size), "1", "Not verified yet", `Verify ${snapshot}`]);
    expect(listed.text).toContain(`<form method="post" action="/administration/backups/${snapshot}/verify">`);
    // A person's backup is not the scheduled one.
    expect(lastScheduled(listed.text)).toEqual({ Runs: "every 24 h", "Last run": "Not yet" });
    expect(listed.text).toContain('action="/administration/backups/run"');
  });

  test("Verify: refused without CSRF and for a name that is no snapshot; queued (audited once), run, its result shown", async () => {
    const before = await auditTotal();
    const path = `${PAGE}/${snapshot}/verify`;
    for (const csrf of ["", "forged", alice.csrf]) {
      const refused = await post(path, admin, csrf);
      expect({ csrf, status: refused.status, h1: h1(refused.text) }).toEqual({ csrf, status: 403, h1: "Not allowed" });
    }
    for (const name of ["20990101T000000Z", "objects", "..", ".lock"]) {
      const missing = await post(`${PAGE}/${encodeURIComponent(name)}/verify`, admin);
      expect({ name, status: missing.status }).toEqual({ name, status: 404 });
    }
    expect(await jobsNamed(app, "backup-verify")).toEqual([]);
    expect(await auditEntries("backup.verify")).toEqual([]);

    const done = await post(path, admin);
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `${PAGE}?done=verify` });
    const [job] = await jobsNamed(app, "backup-verify");
    expect(job).toEqual({ id: expect.any(Number), status: "queued" });
    expect(await auditEntries("backup.verify")).toEqual([
      expect.objectContaining({
        actorId: app.users.admin.user.id,
        action: "backup.verify",
        targetType: "backup",
        targetId: snapshot,
        via: "web",
        address: "203.0.113.9",
        details: { job: job!.id },
      }),
    ]);
    expect(await auditTotal()).toBe(before + 1);
    const queued = await get(`${PAGE}?done=verify`, admin);
    expect(notice(queued.text)).toBe("The verification was queued: refresh the page to follow it.");
    expect(rowText(queued.text, "data-snapshot", snapshot)?.slice(4)).toEqual(["Verification queued", "—"]);

    app.clock.advance(60_000);
    await app.services.worker.drain();
    const row = await app.services.jobs.readJob(systemActor, job!.id);
    expect(row).toMatchObject({ status: "succeeded", result: { snapshot, problems: [], objectsChecked: 1 } });
    // Its progress in KiB checked, kept at the end: every byte of the snapshot (rounded up to a KiB).
    const checked = Math.ceil((row.result as { bytesChecked: number }).bytesChecked / 1024);
    expect(row.progress).toEqual({ done: checked, total: checked, message: "KiB checked" });
    expect(checked).toBeGreaterThan(0);
    const verified = await get(PAGE, admin);
    expect(rowText(verified.text, "data-snapshot", snapshot)?.[4]).toBe(`Verified ${utc(app.clock.now())}: no problems`);
  });

  test("Verify finds a damaged object and says which", async () => {
    const manifest = JSON.parse(readFileSync(join(dest(), snapshot, "manifest.json"), "utf8")) as { objects: [string, number, string][] };
    const [id, size] = manifest.objects[0]!;
    const object = join(dest(), "objects", id.slice(0, 2), id);
    // Replaced, not written in place: the pool's copy may be a hard link to the file store's.
    unlinkSync(object);
    writeFileSync(object, "x".repeat(size));
    expect((await post(`${PAGE}/${snapshot}/verify`, admin)).status).toBe(303);
    await app.services.worker.drain();
    const shown = rowText((await get(PAGE, admin)).text, "data-snapshot", snapshot)![4]!;
    expect(shown).toStartWith(`Verified ${utc(app.clock.now())}: 1 problem: object ${id}: changed (MD5 `);
    expect(shown).toEndWith(`, the manifest says ${manifest.objects[0]![2]})`);
  });

  test("the last scheduled backup: its state and error text while it waits for a retry, then its snapshot", async () => {
    // Another process holds the folder's lock (this one: alive): the scheduled run is refused.
    writeFileSync(join(dest(), ".lock"), String(process.pid));
    const due = (await app.services.jobs.listKinds(systemActor)).find((k) => k.name === "backup")!.nextRunAt!;
    expect(due).toBe(start + DAY_MS);
    app.clock.set(due);
    await app.services.worker.drain();
    const [scheduled] = (await app.services.jobs.listJobsNamed(systemActor, "backup")).filter((j) => j.id !== backupJob);
    expect(scheduled).toMatchObject({ status: "queued", payload: {}, attempts: 1 });
    const error = `Another backup (pid ${process.pid}) is writing to ${dest()}; try again when it has finished.`;
    expect(lastScheduled((await get(PAGE, admin)).text)).toEqual({
      Runs: "every 24 h",
      "Last run": utc(start + DAY_MS),
      State: "Queued",
      Finished: "—",
      Snapshot: "—",
      Error: error,
    });

    unlinkSync(join(dest(), ".lock"));
    app.clock.advance(60 * 60_000);
    await app.services.worker.drain();
    const page = (await get(PAGE, admin)).text;
    const name = snapshotName(app.clock.now());
    expect(lastScheduled(page)).toEqual({
      Runs: "every 24 h",
      "Last run": utc(start + DAY_MS),
      State: "Succeeded",
      Finished: utc(app.clock.now()),
      Snapshot: name,
      Error: "—",
    });
    expect(rowText(page, "data-snapshot", name)?.slice(0, 2)).toEqual([name, utc(app.clock.now())]);
    expect(rowText(page, "data-snapshot", snapshot)?.[0]).toBe(snapshot);
  });
});
