// The scheduled backup job: off without BACKUP_DIR, BACKUP_SCHEDULE's forms, runs on the injected
// clock's schedule in the server's worker, logs its result, and keeps the newest BACKUP_KEEP.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBackupSchedule } from "../../src/backup/jobs";
import { systemActor } from "../../src/core/actor";
import { DAY_MS } from "../../src/core/time";
import { createTestApp, type TestApp } from "../helpers/app";
import { readManifest, seedRecords, snapshotsIn } from "../helpers/backup";
import { cairn } from "../helpers/cli";

let root = "";
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "cairn-backup-job-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("BACKUP_SCHEDULE", () => {
  test.each([
    ["hourly", { everyMs: 3_600_000 }],
    ["daily", { everyMs: DAY_MS }],
    ["Weekly", { everyMs: 7 * DAY_MS }],
    ["6h", { everyMs: 6 * 3_600_000 }],
    ["30m", { everyMs: 30 * 60_000 }],
    ["2d", { everyMs: 2 * DAY_MS }],
    ["03:30", { dailyAt: "03:30" }],
  ])("%s", (value, schedule) => expect(parseBackupSchedule(value)).toEqual(schedule));

  test.each(["sometimes", "1m", "25:00", "0h", ""])("%p is refused", (value) => {
    expect(() => parseBackupSchedule(value)).toThrow(
      `BACKUP_SCHEDULE: expected hourly, daily, weekly, an interval such as 6h (at least 5m) or a UTC time such as 03:30, got ${JSON.stringify(value)}`,
    );
  });

  test("a bad value stops a command with one line naming the key", () => {
    const res = cairn(["jobs", "list", "--data", join(root, "bad-schedule")], { CAIRN_BACKUP_SCHEDULE: "sometimes" });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('cairn: BACKUP_SCHEDULE: expected hourly, daily, weekly, an interval such as 6h (at least 5m) or a UTC time such as 03:30, got "sometimes"\n');
  });
});

describe("without BACKUP_DIR", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  test("the job is not scheduled, and run by hand it says what is missing", async () => {
    const kind = (await app.services.jobs.listKinds(systemActor)).find((k) => k.name === "backup");
    expect(kind).toMatchObject({ schedule: "on demand", nextRunAt: null });
    app.clock.advance(30 * DAY_MS);
    await app.services.worker.drain();
    expect((await app.services.jobs.listJobs(systemActor, 100)).filter((j) => j.name === "backup")).toEqual([]);
    const job = await app.services.jobs.runNow(systemActor, "backup");
    expect(job).toMatchObject({ status: "failed", lastError: "BACKUP_DIR is not set: configure where backups go (see the README's Backups section)." });
  });
});

describe("with BACKUP_DIR, daily, keeping 2", () => {
  let app: TestApp;
  const dest = () => join(root, "scheduled");
  beforeAll(async () => {
    app = await createTestApp({ BACKUP_DIR: join(root, "scheduled"), BACKUP_SCHEDULE: "daily", BACKUP_KEEP: 2 });
    await seedRecords(app, 3);
  });
  afterAll(() => app.close());

  const backupJobs = async () => (await app.services.jobs.listJobs(systemActor, 100)).filter((j) => j.name === "backup");
  const backupLogs = () => app.logs.filter((l) => l.includes("[job backup#"));

  test("nothing runs before the first day is over", async () => {
    const start = app.clock.now();
    await app.services.worker.drain();
    expect((await app.services.jobs.listKinds(systemActor)).find((k) => k.name === "backup")).toMatchObject({ schedule: "every 24 h", nextRunAt: start + DAY_MS });
    app.clock.advance(DAY_MS - 1);
    await app.services.worker.drain();
    expect(await backupJobs()).toEqual([]);
  });

  test("each day a snapshot; the result is logged and kept with the job", async () => {
    app.clock.advance(1);
    await app.services.worker.drain();
    expect(snapshotsIn(dest())).toEqual(["20261123T120000Z"]);
    const [job] = await backupJobs();
    expect(job).toMatchObject({
      status: "succeeded",
      result: { snapshot: "20261123T120000Z", path: join(dest(), "20261123T120000Z"), records: 3, objects: 3, copied: 3, reused: 0, pruned: [] },
    });
    expect(backupLogs()).toEqual([
      expect.stringMatching(
        new RegExp(`^\\[job backup#${job!.id}\\] backup 20261123T120000Z written to ${dest()}/20261123T120000Z: 3 records, 3 objects \\(3 new, 0 already there\\) in [0-9.]+ s$`),
      ),
    ]);
    // Inside the snapshot the job that took it is done: a restored server does not run it again at once.
    const db = new Database(join(dest(), "20261123T120000Z", "cairn.db"), { readonly: true });
    expect(db.query("SELECT status, result FROM jobs WHERE id = ?").get(job!.id)).toEqual({
      status: "succeeded",
      result: JSON.stringify({ snapshot: "20261123T120000Z", note: "recorded inside the snapshot this job took" }),
    });
    db.close();

    await seedRecords(app, 1, { title: "Second day" });
    app.clock.advance(DAY_MS);
    await app.services.worker.drain();
    expect(snapshotsIn(dest())).toEqual(["20261123T120000Z", "20261124T120000Z"]);
    expect(backupLogs().at(-1)).toContain("backup 20261124T120000Z written to");
    expect(backupLogs().at(-1)).toContain(": 4 records, 4 objects (1 new, 3 already there) in ");
  });

  test("the third day's run removes the oldest snapshot: the newest BACKUP_KEEP stay, with every object they name", async () => {
    app.clock.advance(DAY_MS);
    await app.services.worker.drain();
    expect(snapshotsIn(dest())).toEqual(["20261124T120000Z", "20261125T120000Z"]);
    expect(backupLogs().at(-1)).toMatch(/: 4 records, 4 objects \(0 new, 4 already there\) in [0-9.]+ s; removed 20261123T120000Z$/);
    expect((await backupJobs()).map((j) => j.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(readManifest(join(dest(), "20261125T120000Z")).counts).toMatchObject({ records: 4, objects: 4 });
    const verify = cairn(["backup", "--verify", dest()]);
    expect(verify.stdout).toContain("checked 2 snapshot(s), 4 stored files");
    expect(verify.code).toBe(0);
  });
});
