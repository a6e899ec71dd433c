// src/jobs on a real migrated database: the runner, retries, schedules, crash recovery, the worker, the service.
import { afterEach, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { systemActor, type Actor } from "../../src/core/actor";
import { HttpError } from "../../src/core/errors";
import { ManualClock } from "../../src/core/time";
import { openDatabase } from "../../src/db/sqlite/connection";
import { defineMaintenanceJobs } from "../../src/jobs/maintenance";
import { backoffDelay, createJobRegistry, describeSchedule, nextRun, type JobDefinition } from "../../src/jobs/registry";
import { progressText } from "../../src/jobs/progress";
import { LEASE_MS } from "../../src/jobs/runner";
import { createJobsService } from "../../src/jobs/service";
import * as store from "../../src/jobs/store";
import { createWorker, type Worker } from "../../src/jobs/worker";

const MINUTE = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

const started: Worker[] = [];
afterEach(async () => {
  for (const w of started.splice(0)) await w.stop(20);
});

function setup(definitions: JobDefinition[] = [], options = { concurrency: 2, pollMs: 5 }) {
  const clock = new ManualClock(T0);
  const db = openDatabase(":memory:", clock.now());
  const registry = createJobRegistry();
  for (const d of definitions) registry.define(d);
  const logs: string[] = [];
  const deps = { db, clock, registry, log: (m: string) => logs.push(m) };
  const worker = createWorker(deps, options);
  const jobs = createJobsService(deps);
  const job = async (id: number) => (await store.findJobById(db, id))!;
  const start = () => {
    started.push(worker);
    // In the background, as a server runs it: the test waits for what it does (waitFor), and afterEach stops it.
    void worker.start();
  };
  return { clock, db, registry, logs, worker, jobs, job, start };
}

/** Lets a real worker loop tick until `done` holds (a few ms at a time). */
async function waitFor(done: () => boolean | Promise<boolean>, timeoutMs = 2000) {
  const until = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > until) throw new Error("timed out waiting for the worker");
    await Bun.sleep(2);
  }
}

async function httpError(promise: () => unknown): Promise<HttpError> {
  try {
    await promise();
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error("expected an HttpError");
}

const echo: JobDefinition = { name: "echo", description: "Returns its payload.", run: (payload) => ({ got: payload }) };

describe("runner and retries", () => {
  test("an enqueued job runs on drain and stores its result", async () => {
    const { jobs, worker, job, clock } = setup([echo]);
    const row = await jobs.enqueue("echo", { x: 1 });
    expect(row).toMatchObject({ name: "echo", status: "queued", attempts: 0, maxAttempts: 5, runAt: T0 });
    clock.advance(1234);
    expect(await worker.drain()).toBe(1);
    expect(await job(row.id)).toMatchObject({
      status: "succeeded",
      result: { got: { x: 1 } },
      attempts: 1,
      leaseUntil: null,
      lastError: null,
      finishedAt: T0 + 1234,
    });
    expect(await worker.drain()).toBe(0);
  });

  test("a job queued for later waits for its run_at", async () => {
    const { jobs, worker, job, clock } = setup([echo]);
    const row = await jobs.enqueue("echo", {}, { runAt: T0 + MINUTE });
    expect(await worker.drain()).toBe(0);
    clock.advance(MINUTE);
    expect(await worker.drain()).toBe(1);
    expect((await job(row.id)).status).toBe("succeeded");
  });

  test("enqueue refuses an unknown kind", async () => {
    const { jobs } = setup([echo]);
    await expect(jobs.enqueue("nope")).rejects.toThrow("unknown job kind nope");
  });

  test.each([
    [30_000, 1, 30_000],
    [30_000, 2, 60_000],
    [30_000, 3, 120_000],
    [1000, 0, 1000],
    [30_000, 10, 3_600_000],
  ])("backoffDelay(%p, %p) is %p", (base, attempt, expected) => {
    expect(backoffDelay(base, attempt)).toBe(expected);
  });

  test("a throwing job is retried after the backoff, then fails after maxAttempts", async () => {
    const attempts: number[] = [];
    const flaky: JobDefinition = {
      name: "flaky",
      description: "Always fails.",
      maxAttempts: 3,
      backoffMs: 1000,
      run: (_p, ctx) => {
        attempts.push(ctx.attempt);
        throw new Error(`boom ${ctx.attempt}`);
      },
    };
    const { jobs, worker, job, clock, logs } = setup([flaky]);
    const { id } = await jobs.enqueue("flaky");

    expect(await worker.drain()).toBe(1);
    expect(await job(id)).toMatchObject({ status: "queued", attempts: 1, lastError: "boom 1", leaseUntil: null, runAt: T0 + backoffDelay(1000, 1) });
    expect((await job(id)).runAt).toBe(T0 + 1000);

    clock.advance(999);
    expect(await worker.drain()).toBe(0); // not before run_at
    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    expect(await job(id)).toMatchObject({ status: "queued", attempts: 2, lastError: "boom 2", runAt: clock.now() + 2000 });

    clock.advance(2000);
    expect(await worker.drain()).toBe(1);
    expect(await job(id)).toMatchObject({ status: "failed", attempts: 3, lastError: "boom 3", finishedAt: clock.now(), leaseUntil: null });
    expect(attempts).toEqual([1, 2, 3]);

    clock.advance(DAY);
    expect(await worker.drain()).toBe(0);
    expect(logs.some((l) => l.includes("failed after 3 attempts: boom 3"))).toBe(true);
  });

  test("the default backoff is 30 s", async () => {
    const { jobs, worker, job } = setup([{ name: "bad", description: "", run: () => Promise.reject("nope") }]);
    const { id } = await jobs.enqueue("bad");
    await worker.drain();
    expect(await job(id)).toMatchObject({ status: "queued", attempts: 1, lastError: "nope", runAt: T0 + 30_000 });
  });

  test("a job whose kind is unknown ends failed", async () => {
    const { db, worker, job } = setup([echo]);
    const { id } = await store.insertJob(db, { name: "ghost", runAt: T0, created: T0, updated: T0 });
    expect(await worker.drain()).toBe(1);
    expect(await job(id)).toMatchObject({ status: "failed", lastError: "No job kind named 'ghost' is known to this version of Cairn.", finishedAt: T0 });
  });
});

describe("progress", () => {
  /** Runs a job that reports each of `reports`, noting the stored progress after each; returns the notes and the row. */
  async function report(reports: { done: number; total?: number | null; message?: string }[], fail = false) {
    const { db, jobs, job } = setup([
      {
        name: "counting",
        description: "Reports progress.",
        maxAttempts: 1,
        run: async (_payload, ctx) => {
          const stored: unknown[] = [];
          for (const r of reports) {
            await ctx.progress(r);
            stored.push((await store.findJobById(db, ctx.jobId))!.progress);
          }
          if (fail) throw new Error("stopped half way");
          return stored;
        },
      },
    ]);
    const row = await jobs.runNow(systemActor, "counting");
    return { row, stored: (fail ? null : row.result) as unknown[] | null, after: (await job(row.id)).progress };
  }

  test("written only when the whole percent or the message changes", async () => {
    const { stored } = await report([
      { done: 1, total: 200 },
      { done: 2, total: 200 },
      { done: 3, total: 200 },
      { done: 3, total: 200, message: "files" },
      { done: 4, total: 200, message: "files" },
      { done: 200, total: 200, message: "files" },
    ]);
    expect(stored).toEqual([
      { done: 1, total: 200 },
      { done: 2, total: 200 },
      // 1.5% shows as 1%, as 2/200 did: not written.
      { done: 2, total: 200 },
      { done: 3, total: 200, message: "files" },
      { done: 4, total: 200, message: "files" },
      { done: 200, total: 200, message: "files" },
    ]);
  });

  test("without a total, written at each thousand", async () => {
    const { stored } = await report([{ done: 10 }, { done: 999 }, { done: 1000 }, { done: 1500 }, { done: 2001 }]);
    expect(stored).toEqual([
      { done: 10, total: null },
      { done: 10, total: null },
      { done: 1000, total: null },
      { done: 1000, total: null },
      { done: 2001, total: null },
    ]);
  });

  test("kept after the job ends, succeeded or failed", async () => {
    const ok = await report([{ done: 5, total: 10, message: "rows" }]);
    expect({ status: ok.row.status, progress: ok.after }).toEqual({ status: "succeeded", progress: { done: 5, total: 10, message: "rows" } });
    const failed = await report([{ done: 3, total: 4 }], true);
    expect({ status: failed.row.status, progress: failed.after }).toEqual({ status: "failed", progress: { done: 3, total: 4 } });
  });

  test.each([
    [{ done: 3, total: 10, message: "files backed up" }, "3 of 10 (30%): files backed up"],
    [{ done: 12, total: 10 }, "12 of 10 (100%)"],
    [{ done: 0, total: 0, message: "files backed up" }, "0 of 0: files backed up"],
    [{ done: 1200, message: "names" }, "1200: names"],
    [{ done: 0, total: null, message: "copying the database" }, "copying the database"],
    [{ done: 7 }, "7"],
  ])("progressText(%j) is %p", (progress, text) => {
    expect(progressText(progress)).toBe(text);
  });
});

describe("schedules", () => {
  test.each<[string, Parameters<typeof nextRun>[0], number, number]>([
    ["everyMs", { everyMs: 5 * MINUTE }, T0 + 17, T0 + 17 + 5 * MINUTE],
    ["dailyAt later today", { dailyAt: "03:10" }, Date.UTC(2026, 0, 1, 1, 0), Date.UTC(2026, 0, 1, 3, 10)],
    ["dailyAt earlier today", { dailyAt: "03:10" }, Date.UTC(2026, 0, 1, 5, 0), Date.UTC(2026, 0, 2, 3, 10)],
    ["dailyAt exactly now", { dailyAt: "03:10" }, Date.UTC(2026, 0, 1, 3, 10), Date.UTC(2026, 0, 2, 3, 10)],
    ["dailyAt at midnight", { dailyAt: "00:00" }, Date.UTC(2026, 11, 31, 23, 59), Date.UTC(2027, 0, 1)],
    ["dailyAt 23:59", { dailyAt: "23:59" }, Date.UTC(2026, 0, 1, 23, 58, 59), Date.UTC(2026, 0, 1, 23, 59)],
  ])("nextRun %s", (_name, schedule, now, expected) => {
    expect(nextRun(schedule, now)).toBe(expected);
  });

  test("describeSchedule", () => {
    expect([undefined, { dailyAt: "03:10" }, { everyMs: 7_200_000 }, { everyMs: 300_000 }, { everyMs: 1500 }].map((s) => describeSchedule(s))).toEqual([
      "on demand",
      "daily at 03:10 UTC",
      "every 2 h",
      "every 5 min",
      "every 1.5 s",
    ]);
  });

  test("define refuses a bad dailyAt and a second definition of a name", () => {
    const registry = createJobRegistry();
    for (const dailyAt of ["3:10", "24:00", "12:60", "noon"]) {
      expect(() => registry.define({ name: `x${dailyAt}`, description: "", run: () => 0, schedule: { dailyAt } })).toThrow("dailyAt must be HH:MM");
    }
    registry.define(echo);
    expect(() => registry.define(echo)).toThrow("job echo is defined twice");
  });

  test("an interval job is enqueued only when due and never twice while one is unfinished", async () => {
    const { worker, db, clock, jobs } = setup([{ ...echo, name: "tick", schedule: { everyMs: MINUTE } }]);
    const tickJobs = async () => (await store.listRecentJobs(db, 100)).filter((j) => j.name === "tick");

    expect(await worker.enqueueDueSchedules()).toBe(0); // first sight: scheduled a minute ahead
    expect(await store.listSchedules(db)).toEqual([{ name: "tick", nextRunAt: T0 + MINUTE, lastRunAt: null }]);
    clock.advance(MINUTE - 1);
    expect(await worker.enqueueDueSchedules()).toBe(0);
    clock.advance(1);
    expect(await worker.enqueueDueSchedules()).toBe(1);
    expect(await worker.enqueueDueSchedules()).toBe(0);
    expect(await store.listSchedules(db)).toEqual([{ name: "tick", nextRunAt: T0 + 2 * MINUTE, lastRunAt: T0 + MINUTE }]);
    expect((await tickJobs()).map((j) => [j.status, j.runAt])).toEqual([["queued", T0 + MINUTE]]);

    clock.advance(MINUTE); // due again, but the first is still queued
    expect(await worker.enqueueDueSchedules()).toBe(0);
    expect(await tickJobs()).toHaveLength(1);

    expect(await worker.drain()).toBe(1);
    expect((await tickJobs())[0]!.status).toBe("succeeded");
    clock.advance(MINUTE);
    expect(await worker.enqueueDueSchedules()).toBe(1);
    expect((await tickJobs()).map((j) => j.status)).toEqual(["queued", "succeeded"]);
    expect(await jobs.listKinds(systemActor)).toEqual([
      { name: "tick", description: "Returns its payload.", schedule: "every 1 min", nextRunAt: T0 + 4 * MINUTE, lastRunAt: T0 + 3 * MINUTE },
    ]);
  });

  test("a daily job is enqueued at its time of day (UTC)", async () => {
    const { worker, db, clock } = setup([{ ...echo, name: "nightly", schedule: { dailyAt: "03:10" } }]);
    expect(await worker.enqueueDueSchedules()).toBe(0);
    clock.set(Date.UTC(2026, 0, 1, 3, 9, 59, 999));
    expect(await worker.enqueueDueSchedules()).toBe(0);
    clock.set(Date.UTC(2026, 0, 1, 3, 10));
    expect(await worker.enqueueDueSchedules()).toBe(1);
    expect((await store.listSchedules(db))[0]).toEqual({ name: "nightly", nextRunAt: Date.UTC(2026, 0, 2, 3, 10), lastRunAt: Date.UTC(2026, 0, 1, 3, 10) });
  });
});

describe("leases and the worker loop", () => {
  test("a claimed job whose lease has passed is claimed again", async () => {
    const { db, clock } = setup([echo]);
    const { id } = await store.insertJob(db, { name: "echo", status: "running", attempts: 1, runAt: T0, leaseUntil: T0 + 1000, created: T0, updated: T0 });
    expect(await store.claimNextJob(db, clock.now(), clock.now() + LEASE_MS)).toBeNull();
    clock.advance(1000);
    expect(await store.claimNextJob(db, clock.now(), clock.now() + LEASE_MS)).toBeNull(); // lease ends at, not before, now
    clock.advance(1);
    const claimed = await store.claimNextJob(db, clock.now(), clock.now() + LEASE_MS);
    expect(claimed).toMatchObject({ id, status: "running", attempts: 2, leaseUntil: T0 + 1001 + LEASE_MS, updated: T0 + 1001 });
    expect(await store.claimNextJob(db, clock.now(), clock.now() + LEASE_MS)).toBeNull();
  });

  test("claims go by run_at, then id", async () => {
    const { db } = setup([echo]);
    const insert = async (runAt: number) => (await store.insertJob(db, { name: "echo", runAt, created: T0, updated: T0 })).id;
    const late = await insert(T0 - 10);
    const early = await insert(T0 - 20);
    const sameEarly = await insert(T0 - 20);
    await insert(T0 + 1); // not due
    const order: (number | null)[] = [];
    for (let i = 0; i < 4; i++) order.push((await store.claimNextJob(db, T0, T0 + LEASE_MS))?.id ?? null);
    expect(order).toEqual([early, sameEarly, late, null]);
  });

  test("start() requeues a job a dead process left running, and runs it", async () => {
    const { db, job, logs, start } = setup([echo]);
    const past = T0 - 5000; // claimed by a process that died; its lease has not run out yet
    const { id } = await store.insertJob(db, {
      name: "echo",
      payload: { n: 7 },
      status: "running",
      attempts: 1,
      runAt: past,
      leaseUntil: T0 + LEASE_MS,
      created: past,
      updated: past,
    });
    expect(await store.claimNextJob(db, T0, T0 + LEASE_MS)).toBeNull();
    start();
    await waitFor(async () => (await job(id)).status === "succeeded");
    expect(await job(id)).toMatchObject({ status: "succeeded", result: { got: { n: 7 } }, attempts: 2 });
    expect(logs).toContain("[jobs] resumed 1 job(s) left unfinished by the last run");
  });

  test("start() leaves the running jobs of live processes alone and takes back those of ended ones", async () => {
    const { db, clock, registry, job, logs, start } = setup([echo]);
    const host = hostname();
    // Another serving process of this database, alive: its worker has said so.
    const sibling = createWorker({ db, clock, registry, log: () => {} }, { concurrency: 0, pollMs: 60_000 });
    started.push(sibling);
    await sibling.start();
    const [siblingRow] = await store.listInstances(db);
    // A process on another machine that said it is alive 5 s ago, and one silent for a minute.
    await store.upsertInstance(db, { name: "elsewhere/41/aa", host: "elsewhere", pid: 41, startedAt: T0 - 60_000, seenAt: T0 - 5000 });
    await store.upsertInstance(db, { name: "gone/42/bb", host: "gone", pid: 42, startedAt: T0 - 120_000, seenAt: T0 - 60_000 });
    // A process on this machine whose pid has ended (a crash a moment ago: its row is fresh).
    const deadPid = Bun.spawnSync(["true"]).pid;
    await store.upsertInstance(db, { name: `${host}/${deadPid}/cc`, host, pid: deadPid, startedAt: T0 - 1000, seenAt: T0 });
    const running = async (claimedBy: string) =>
      (await db.statements.get<{ id: number }>(
        "INSERT INTO jobs (name, payload, status, attempts, max_attempts, run_at, lease_until, claimed_by, created, updated) VALUES ('echo', '{}', 'running', 1, 5, ?, ?, ?, ?, ?) RETURNING id",
        [T0 - 1000, T0 + LEASE_MS, claimedBy, T0 - 1000, T0 - 1000],
      ))!.id;
    const ofSibling = await running(siblingRow!.name);
    const ofElsewhere = await running("elsewhere/41/aa");
    const ofSilent = await running("gone/42/bb");
    const ofCrashed = await running(`${host}/${deadPid}/cc`);
    start();
    await waitFor(async () => (await job(ofSilent)).status === "succeeded" && (await job(ofCrashed)).status === "succeeded");
    expect([(await job(ofSibling)).status, (await job(ofElsewhere)).status]).toEqual(["running", "running"]);
    expect(logs).toContain("[jobs] resumed 2 job(s) left unfinished by the last run");
    // The ended processes' rows are gone; the live ones' stay, and this worker's is there too.
    const names = (await store.listInstances(db)).map((i) => i.name);
    const own = names.filter((n) => n !== siblingRow!.name && n.startsWith(`${host}/${process.pid}/`));
    expect([names.length, own.length, names.includes("elsewhere/41/aa"), names.includes(siblingRow!.name)]).toEqual([3, 1, true, true]);
  });

  test("a worker names itself in its claims, and its row goes at a graceful stop", async () => {
    const { db, clock, worker, job, start } = setup([echo]);
    const { id } = await store.insertJob(db, { name: "echo", runAt: clock.now(), created: clock.now(), updated: clock.now() });
    start();
    await waitFor(async () => (await job(id)).status === "succeeded");
    const [self] = await worker.listInstances();
    expect(self).toMatchObject({ host: hostname(), pid: process.pid, startedAt: T0, seenAt: T0 });
    expect((await job(id)).claimedBy).toBe(self!.name);
    await worker.stop(20);
    expect(await store.listInstances(db)).toEqual([]);
  });

  test("the worker runs at most `concurrency` jobs at once and picks up the rest as slots free", async () => {
    const releases: (() => void)[] = [];
    let running = 0;
    let peak = 0;
    const gate: JobDefinition = {
      name: "gate",
      description: "Waits to be let through.",
      run: () =>
        new Promise<void>((resolve) => {
          peak = Math.max(peak, ++running);
          releases.push(() => {
            running--;
            resolve();
          });
        }),
    };
    const { jobs, job, start } = setup([gate], { concurrency: 2, pollMs: 5 });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await jobs.enqueue("gate")).id);
    start();
    await waitFor(() => releases.length === 2);
    expect(await Promise.all(ids.map(async (id) => (await job(id)).status))).toEqual(["running", "running", "queued"]);
    releases.shift()!();
    await waitFor(() => releases.length === 2); // the third took the freed slot
    releases.splice(0).forEach((r) => r());
    await waitFor(async () => (await Promise.all(ids.map(job))).every((row) => row.status === "succeeded"));
    expect(peak).toBe(2);
  });

  test.each([
    ["rejects on abort", (reject: (e: Error) => void, _resolve: () => void) => reject(new Error("aborted"))],
    ["returns on abort", (_reject: (e: Error) => void, resolve: () => void) => resolve()],
  ])("stop() during a long job that %s releases it to queued without counting the attempt", async (_name, onAbort) => {
    let signalled = false;
    const long: JobDefinition = {
      name: "long",
      description: "Runs until told to stop.",
      run: (_p, ctx) =>
        new Promise<void>((resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            signalled = true;
            onAbort(reject, resolve);
          });
        }),
    };
    const { jobs, job, worker, clock, start } = setup([long]);
    const { id } = await jobs.enqueue("long");
    start();
    await waitFor(async () => (await job(id)).status === "running");
    expect((await job(id)).attempts).toBe(1);
    clock.advance(5000);
    await worker.stop(10);
    expect(signalled).toBe(true);
    expect(await job(id)).toMatchObject({ status: "queued", attempts: 0, leaseUntil: null, runAt: T0 + 5000, finishedAt: null, lastError: null });
  });
});

describe("jobs service", () => {
  const admin: Actor = { kind: "user", userId: 1, isAdmin: true, groupIds: [], scopes: [], tokenId: null };
  const user: Actor = { kind: "user", userId: 2, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
  const boom: JobDefinition = {
    name: "boom",
    description: "Fails.",
    maxAttempts: 5,
    run: () => {
      throw new Error("kaput");
    },
  };

  test.each([
    ["system", systemActor],
    ["an admin", admin],
  ])("runNow as %s runs inline and returns the finished row", async (_name, actor) => {
    const { jobs, job } = setup([echo, boom]);
    const ok = await jobs.runNow(actor, "echo", { x: 2 });
    expect(ok).toMatchObject({ name: "echo", status: "succeeded", result: { got: { x: 2 } }, attempts: 1, maxAttempts: 1, finishedAt: T0 });
    expect(await job(ok.id)).toEqual(ok);
    const failed = await jobs.runNow(actor, "boom");
    expect(failed).toMatchObject({ name: "boom", status: "failed", lastError: "kaput", attempts: 1, maxAttempts: 1 });
  });

  test("runNow refuses an unknown name with a 400 naming the known ones", async () => {
    const { jobs, db } = setup([echo, boom]);
    const err = await httpError(() => jobs.runNow(systemActor, "nope"));
    expect(err.status).toBe(400);
    expect(err.message).toBe("No job named 'nope'. Known: echo, boom.");
    expect(await store.listRecentJobs(db, 10)).toEqual([]);
  });

  test("runNow of a scheduled job records its last run", async () => {
    const { jobs, worker, clock } = setup([{ ...echo, schedule: { everyMs: MINUTE } }]);
    await worker.enqueueDueSchedules();
    clock.advance(10);
    await jobs.runNow(systemActor, "echo");
    expect((await jobs.listKinds(systemActor))[0]).toMatchObject({ name: "echo", nextRunAt: T0 + MINUTE, lastRunAt: T0 + 10 });
  });

  test("listJobs lists the most recent first, up to the limit", async () => {
    const { jobs } = setup([echo]);
    const made: number[] = [];
    for (let i = 0; i < 3; i++) made.push((await jobs.enqueue("echo")).id);
    const [, second, third] = made;
    expect((await jobs.listJobs(admin, 2)).map((j) => j.id)).toEqual([third!, second!]);
  });

  const calls: [string, (s: ReturnType<typeof createJobsService>, a: Actor) => unknown][] = [
    ["listJobs", (s, a) => s.listJobs(a)],
    ["listKinds", (s, a) => s.listKinds(a)],
    ["runNow", (s, a) => s.runNow(a, "echo")],
  ];
  test.each(calls)("%s refuses anonymous (401) and non-admin users (403)", async (_name, call) => {
    const { jobs, db } = setup([echo]);
    const anon = await httpError(() => call(jobs, { kind: "anonymous" }));
    expect(anon.status).toBe(401);
    expect(anon.headers["WWW-Authenticate"]).toStartWith("Bearer");
    expect((await httpError(() => call(jobs, user))).status).toBe(403);
    expect(await store.listRecentJobs(db, 10)).toEqual([]);
  });
});

describe("maintenance jobs", () => {
  test("jobs-prune deletes only finished jobs older than the retention", async () => {
    const { db, clock, registry, jobs } = setup();
    defineMaintenanceJobs(registry, { db, clock, retentionDays: 14 });
    clock.set(T0 + 100 * DAY);
    const now = clock.now();
    const insert = async (status: store.JobRow["status"], finishedAt: number | null, created = now - 30 * DAY) =>
      (await store.insertJob(db, { name: "echo", status, runAt: created, created, updated: created, finishedAt })).id;
    const oldOk = await insert("succeeded", now - 15 * DAY);
    const oldFailed = await insert("failed", now - 14 * DAY - 1);
    const atLimit = await insert("succeeded", now - 14 * DAY);
    const recent = await insert("failed", now - DAY);
    const queued = await insert("queued", null);
    const running = await insert("running", null);

    const row = await jobs.runNow(systemActor, "jobs-prune");
    expect(row).toMatchObject({ status: "succeeded", result: { deleted: 2 } });
    const left = (await store.listRecentJobs(db, 100)).map((j) => j.id);
    expect(left).toEqual([row.id, running, queued, recent, atLimit]);
    expect(left).not.toContain(oldOk);
    expect(left).not.toContain(oldFailed);
  });

  test("maintenance kinds are scheduled nightly and db-optimize runs", async () => {
    const { db, clock, registry, jobs } = setup();
    defineMaintenanceJobs(registry, { db, clock, retentionDays: 14 });
    expect((await jobs.listKinds(systemActor)).map((k) => [k.name, k.schedule])).toEqual([
      ["jobs-prune", "daily at 03:10 UTC"],
      ["db-optimize", "daily at 03:20 UTC"],
    ]);
    expect((await jobs.runNow(systemActor, "db-optimize")).status).toBe("succeeded");
  });
});
