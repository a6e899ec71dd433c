// The administration's REST API (/api/administration/*): jobs, the mail outbox, backups, health,
// the audit log and the statistics overview. Each endpoint by an administrator with its answer's
// shape and values; 401 anonymous and 403 for everyone else on every one, with nothing done; 404
// for unknown ids and names; 400 for bad filters and bodies; each action writes exactly one audit
// entry, `via: "api"` with the client's address. Mail is off (no SMTP server): messages wait.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemActor } from "../../src/core/actor";
import { withClientAddress } from "../../src/core/client-address";
import { formatIsoTime } from "../../src/core/time";
import { CANCELLED_ERROR } from "../../src/jobs/service";
import { VERSION } from "../../src/version";
import { seedRecords } from "../helpers/backup";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";

const ADDRESS = "203.0.113.21";
const API = "/api/administration";
let root = "";
let app: TestApp;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-admin-api-"));
  app = await createTestApp({ BACKUP_DIR: join(root, "backups") });
  await seedRecords(app, 1);
});
afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

/** A call from ADDRESS (as the server's socket would report it), as the administrator unless told. */
async function call(method: string, path: string, options: { as?: "admin" | "alice" | "anonymous"; body?: unknown } = {}) {
  const as = options.as ?? "admin";
  const headers: Record<string, string> = as === "anonymous" ? {} : { authorization: `Bearer ${app.users[as].token}` };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(BASE_URL + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const response = await app.app.handle(withClientAddress(request, ADDRESS));
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as any };
}

const auditTotal = async () => (await app.services.audit.search(systemActor, {})).total;
/** The entries of one action, newest first. */
const entries = async (action: string) => (await app.services.audit.search(systemActor, { action })).entries;

/** `body` of 400 with the spec's shape naming `field`. */
const expectFieldError = (res: { status: number; json: any }, field: string) => {
  expect({ status: res.status, fields: (res.json?.errors ?? []).map((e: { field: string }) => e.field) }).toEqual({ status: 400, fields: [field] });
  expect(res.json.status).toBe(400);
  expect(typeof res.json.message).toBe("string");
};

let failing = 0;
let queued = 0;
let pending = 0;

describe("everyone but administrators is refused, with nothing done", () => {
  beforeAll(async () => {
    app.services.jobs.registry.define({
      name: "test-broken",
      description: "Fails on purpose.",
      run: () => {
        throw new Error("the disk said no");
      },
    });
    failing = (await app.services.jobs.runNow(systemActor, "test-broken")).id;
    queued = (await app.services.jobs.enqueue("jobs-prune", {}, { runAt: app.clock.now() + 3_600_000 })).id;
    pending = (await app.services.mail.queueMail({ to: "dave@example.org", subject: "A comment on your request", body: "Hi.", topic: "request:pending" }))!.id;
  });

  const endpoints = (): [string, string, unknown?][] => [
    ["GET", `${API}/jobs`],
    ["GET", `${API}/jobs/${failing}`],
    ["POST", `${API}/jobs/${failing}/retry`],
    ["POST", `${API}/jobs/${queued}/cancel`],
    ["GET", `${API}/mail`],
    ["GET", `${API}/mail/${pending}`],
    ["POST", `${API}/mail/${pending}/resend`],
    ["POST", `${API}/mail/test`, { to: "ops@example.org" }],
    ["GET", `${API}/backups`],
    ["POST", `${API}/backups`],
    ["POST", `${API}/backups/20261122T120000Z/verify`],
    ["GET", `${API}/health`],
    ["GET", `${API}/audit`],
    ["GET", `${API}/statistics`],
  ];

  test("401 anonymous and 403 with a person's token on every endpoint, in the spec's error shape", async () => {
    const before = await auditTotal();
    for (const [method, path, body] of endpoints()) {
      for (const [as, status] of [
        ["anonymous", 401],
        ["alice", 403],
      ] as const) {
        const res = await call(method, path, { as, body });
        expect({ method, path, as, status: res.status, shape: res.json?.status }).toEqual({ method, path, as, status, shape: status });
      }
    }
    expect(await auditTotal()).toBe(before);
    expect((await app.services.jobs.readJob(systemActor, failing)).status).toBe("failed");
    expect((await app.services.jobs.readJob(systemActor, queued)).status).toBe("queued");
    expect((await app.services.jobs.listJobsNamed(systemActor, "backup")).length).toBe(0);
    expect((await app.services.mail.searchOutbox(systemActor, { q: "ops@example.org" })).total).toBe(0);
  });
});

describe("jobs", () => {
  test("GET /jobs: newest first in the search envelope, with a status filter and paging; GET /jobs/{id}; bad filters are a 400, unknown ids a 404", async () => {
    const all = await call("GET", `${API}/jobs?size=100`);
    expect(all.status).toBe(200);
    expect(all.json.hits.total).toBe(all.json.hits.hits.length);
    const ids = all.json.hits.hits.map((j: { id: number }) => j.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const failed = await call("GET", `${API}/jobs?status=failed`);
    expect(failed.json.hits.hits.map((j: { id: number }) => j.id)).toContain(failing);
    expect(failed.json.hits.hits.every((j: { status: string }) => j.status === "failed")).toBe(true);
    expect(failed.json.hits.hits.find((j: { id: number }) => j.id === failing)).toEqual({
      id: failing,
      name: "test-broken",
      status: "failed",
      attempts: 1,
      max_attempts: 1,
      payload: {},
      result: null,
      error: "the disk said no",
      progress: null,
      run_at: formatIsoTime(app.clock.now()),
      created: formatIsoTime(app.clock.now()),
      updated: formatIsoTime(app.clock.now()),
      finished: formatIsoTime(app.clock.now()),
      links: {
        self: `${BASE_URL}${API}/jobs/${failing}`,
        retry: `${BASE_URL}${API}/jobs/${failing}/retry`,
        cancel: `${BASE_URL}${API}/jobs/${failing}/cancel`,
      },
    });
    expect(failed.json.links.self).toBe(`${BASE_URL}${API}/jobs?status=failed&page=1&size=25`);
    const paged = await call("GET", `${API}/jobs?size=1&page=2`);
    expect(paged.json.hits.hits.map((j: { id: number }) => j.id)).toEqual([ids[1]]);
    expect(paged.json.links.prev).toBe(`${BASE_URL}${API}/jobs?page=1&size=1`);

    const one = await call("GET", `${API}/jobs/${failing}`);
    expect({ status: one.status, json: one.json }).toEqual({ status: 200, json: failed.json.hits.hits.find((j: { id: number }) => j.id === failing) });
    for (const id of ["999999", "abc", "0", "1.5"]) expect({ id, status: (await call("GET", `${API}/jobs/${id}`)).status }).toEqual({ id, status: 404 });
    expectFieldError(await call("GET", `${API}/jobs?status=broken`), "status");
    expectFieldError(await call("GET", `${API}/jobs?page=x`), "page");
    expectFieldError(await call("GET", `${API}/jobs?size=101`), "size");
  });

  test("retry a failed job: queued again with its attempts afresh, one audit entry via api; 409 when it is not failed; 404 for an unknown id", async () => {
    const before = await auditTotal();
    const res = await call("POST", `${API}/jobs/${failing}/retry`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: failing, name: "test-broken", status: "queued", attempts: 0, finished: null });
    expect(await auditTotal()).toBe(before + 1);
    expect(await entries("job.retry")).toEqual([
      expect.objectContaining({
        actorId: app.users.admin.user.id,
        actorLabel: "admin@example.org",
        targetType: "job",
        targetId: String(failing),
        details: { name: "test-broken" },
        via: "api",
        address: ADDRESS,
      }),
    ]);
    const again = await call("POST", `${API}/jobs/${failing}/retry`);
    expect({ status: again.status, message: again.json.message }).toEqual({ status: 409, message: `Job ${failing} is queued: only a failed job is retried.` });
    for (const id of ["999999", "abc", "0"]) expect({ id, status: (await call("POST", `${API}/jobs/${id}/retry`)).status }).toEqual({ id, status: 404 });
    expect(await auditTotal()).toBe(before + 1);
  });

  test("cancel a queued job: failed with the reason, one audit entry via api; 409 when it is not queued; 404 for an unknown id", async () => {
    const before = await auditTotal();
    const res = await call("POST", `${API}/jobs/${queued}/cancel`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: queued, name: "jobs-prune", status: "failed", error: CANCELLED_ERROR });
    expect(await entries("job.cancel")).toEqual([
      expect.objectContaining({ targetType: "job", targetId: String(queued), details: { name: "jobs-prune" }, via: "api", address: ADDRESS }),
    ]);
    const again = await call("POST", `${API}/jobs/${queued}/cancel`);
    expect({ status: again.status, message: again.json.message }).toEqual({ status: 409, message: `Job ${queued} is failed: only a queued job is cancelled.` });
    expect((await call("POST", `${API}/jobs/999999/cancel`)).status).toBe(404);
    expect(await auditTotal()).toBe(before + 1);
  });
});

describe("mail", () => {
  let sent = 0;
  beforeAll(async () => {
    sent = (await app.services.mail.queueMail({ to: "carol@example.org", subject: "Your upload was published", body: "Published.", topic: "record:abc" }))!.id;
  });

  test("GET /mail: the outbox newest first with status and q filters, paged; bad filters are a 400", async () => {
    const all = await call("GET", `${API}/mail`);
    expect(all.status).toBe(200);
    expect(all.json.hits.hits.map((m: { id: number }) => m.id)).toEqual([sent, pending]);
    const found = await call("GET", `${API}/mail?q=carol&status=pending`);
    expect(found.json.hits).toEqual({
      total: 1,
      hits: [
        {
          id: sent,
          to: "carol@example.org",
          subject: "Your upload was published",
          body: "Published.",
          topic: "record:abc",
          status: "pending",
          attempts: 0,
          error: null,
          given_up: false,
          created: formatIsoTime(app.clock.now()),
          sent: null,
          links: { self: `${BASE_URL}${API}/mail/${sent}`, resend: `${BASE_URL}${API}/mail/${sent}/resend` },
        },
      ],
    });
    expect(found.json.links.self).toBe(`${BASE_URL}${API}/mail?status=pending&q=carol&page=1&size=25`);
    expect((await call("GET", `${API}/mail?status=sent`)).json.hits.total).toBe(0);
    expectFieldError(await call("GET", `${API}/mail?status=lost`), "status");
    expectFieldError(await call("GET", `${API}/mail?size=0`), "size");
  });

  test("GET /mail/{id}: one message; 404 for an unknown id", async () => {
    const res = await call("GET", `${API}/mail/${pending}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: pending, to: "dave@example.org", subject: "A comment on your request", status: "pending" });
    for (const id of ["999999", "x"]) expect({ id, status: (await call("GET", `${API}/mail/${id}`)).status }).toEqual({ id, status: 404 });
  });

  test("resend: due again at once (it waits while mail is off), one audit entry via api; 404 for an unknown id", async () => {
    const before = await auditTotal();
    const res = await call("POST", `${API}/mail/${pending}/resend`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: pending, status: "pending", attempts: 0, error: null });
    expect(await entries("mail.resend")).toEqual([
      expect.objectContaining({
        actorLabel: "admin@example.org",
        targetType: "mail",
        targetId: String(pending),
        details: { to: "dave@example.org" },
        via: "api",
        address: ADDRESS,
      }),
    ]);
    expect((await call("POST", `${API}/mail/999999/resend`)).status).toBe(404);
    expect(await auditTotal()).toBe(before + 1);
  });

  test("test mail: 201 with the queued message, one audit entry via api; a bad or missing address is a 400 naming `to`", async () => {
    const before = await auditTotal();
    for (const body of [{ to: "not an address" }, { to: 42 }, {}, undefined]) expectFieldError(await call("POST", `${API}/mail/test`, { body }), "to");
    expect((await call("POST", `${API}/mail/test`, { body: ["x"] })).status).toBe(400);
    expect(await auditTotal()).toBe(before);
    const res = await call("POST", `${API}/mail/test`, { body: { to: " ops@example.org " } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ to: "ops@example.org", subject: "Test message from Cairn", topic: "mail-test", status: "pending" });
    expect(await entries("mail.test")).toEqual([
      expect.objectContaining({ targetType: "mail", targetId: String(res.json.id), details: { to: "ops@example.org" }, via: "api", address: ADDRESS }),
    ]);
    expect(await auditTotal()).toBe(before + 1);
  });
});

describe("backups", () => {
  let snapshot = "";

  test("GET /backups before any: where they go, the schedule, no snapshots", async () => {
    const res = await call("GET", `${API}/backups`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      backup_dir: join(root, "backups"),
      keep: app.config.BACKUP_KEEP,
      schedule: expect.any(String),
      last_scheduled: null,
      recent: [],
      hits: { hits: [], total: 0 },
      links: { self: `${BASE_URL}${API}/backups` },
    });
  });

  test("POST /backups: 202 with the queued job, one audit entry via api; a second while it waits is a 409; the worker runs it and its snapshot is listed", async () => {
    const before = await auditTotal();
    const res = await call("POST", `${API}/backups`);
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ name: "backup", status: "queued", payload: { requestedBy: app.users.admin.user.id } });
    expect(await entries("backup.run")).toEqual([
      expect.objectContaining({ targetType: "job", targetId: String(res.json.id), details: { name: "backup" }, via: "api", address: ADDRESS }),
    ]);
    const again = await call("POST", `${API}/backups`);
    expect({ status: again.status, message: again.json.message }).toEqual({ status: 409, message: `A backup (job ${res.json.id}) is queued already; wait for it to finish.` });
    expect(await auditTotal()).toBe(before + 1);

    await app.services.worker.drain();
    const listed = await call("GET", `${API}/backups`);
    expect(listed.json.recent).toEqual([expect.objectContaining({ id: res.json.id, status: "succeeded" })]);
    expect(listed.json.hits.total).toBe(1);
    snapshot = listed.json.hits.hits[0].name;
    expect(listed.json.hits.hits[0]).toMatchObject({ name: snapshot, created: formatIsoTime(app.clock.now()), records: 1, verify: null });
    expect(listed.json.hits.hits[0].bytes).toBeGreaterThan(2000);
  });

  test("POST /backups/{name}/verify: 202 with the queued job, one audit entry via api; 404 for a name that is no snapshot", async () => {
    const before = await auditTotal();
    for (const name of ["20990101T000000Z", "objects", ".lock"]) {
      expect({ name, status: (await call("POST", `${API}/backups/${encodeURIComponent(name)}/verify`)).status }).toEqual({ name, status: 404 });
    }
    const res = await call("POST", `${API}/backups/${snapshot}/verify`);
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ name: "backup-verify", status: "queued", payload: { snapshot } });
    expect(await entries("backup.verify")).toEqual([
      expect.objectContaining({ targetType: "backup", targetId: snapshot, details: { job: res.json.id }, via: "api", address: ADDRESS }),
    ]);
    expect(await auditTotal()).toBe(before + 1);
    await app.services.worker.drain();
    const listed = await call("GET", `${API}/backups`);
    expect(listed.json.hits.hits[0].verify).toMatchObject({ id: res.json.id, status: "succeeded", result: { snapshot, problems: [] } });
  });
});

describe("health, audit log, statistics", () => {
  test("GET /health: version, uptime, sizes, the search index and the warnings (mail off among them)", async () => {
    const res = await call("GET", `${API}/health`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ version: VERSION, data_dir: app.dataDir, search_index: { complete: true, records: 1, indexed_records: 1 } });
    expect(res.json.database_bytes).toBeGreaterThan(0);
    expect(res.json.file_store_bytes).toBeGreaterThan(0);
    expect(res.json.warnings.map((w: { key: string }) => w.key)).toContain("mail-off");
    expect(typeof res.json.uptime_seconds).toBe("number");
  });

  test("GET /audit: newest first, filtered by action, target_type and target_id, paged; a bad page is a 400", async () => {
    const all = await call("GET", `${API}/audit?size=100`);
    expect(all.status).toBe(200);
    const actions = all.json.hits.hits.map((e: { action: string }) => e.action);
    expect(actions).toEqual(["backup.verify", "backup.run", "mail.test", "mail.resend", "job.cancel", "job.retry"]);
    const retry = (await app.services.audit.search(systemActor, { action: "job.retry" })).entries[0]!;
    expect(all.json.hits.hits[5]).toEqual({
      id: retry.id,
      created: formatIsoTime(retry.at),
      actor: { id: app.users.admin.user.id, label: "admin@example.org" },
      action: "job.retry",
      target: { type: "job", id: String(failing) },
      details: { name: "test-broken" },
      address: ADDRESS,
      via: "api",
    });
    const byTarget = await call("GET", `${API}/audit?target_type=job&target_id=${queued}`);
    expect(byTarget.json.hits.hits.map((e: { action: string }) => e.action)).toEqual(["job.cancel"]);
    expect(byTarget.json.links.self).toBe(`${BASE_URL}${API}/audit?target_type=job&target_id=${queued}&page=1&size=25`);
    expect((await call("GET", `${API}/audit?action=mail.test`)).json.hits.total).toBe(1);
    expect((await call("GET", `${API}/audit?size=2&page=3`)).json.hits.hits.map((e: { action: string }) => e.action)).toEqual(["job.cancel", "job.retry"]);
    expectFieldError(await call("GET", `${API}/audit?page=0`), "page");
  });

  test("GET /statistics: 30 days or 12 months with the seeded record new today; a bad period is a 400", async () => {
    const days = await call("GET", `${API}/statistics`);
    expect(days.status).toBe(200);
    expect(days.json).toMatchObject({
      period: "days",
      from: "2026-10-24",
      to: "2026-11-22",
      totals: { views: 0, downloads: 0, new_records: 1 },
      most_viewed: [],
      most_downloaded: [],
    });
    expect(days.json.buckets).toHaveLength(30);
    expect(days.json.buckets[29]).toMatchObject({ key: "2026-11-22", views: 0, downloads: 0, new_records: 1 });
    expect(days.json.buckets[29].storage_bytes).toBeGreaterThan(0);
    const months = await call("GET", `${API}/statistics?period=months`);
    expect(months.json.buckets.map((b: { key: string }) => b.key)).toEqual([
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
      "2026-04",
      "2026-05",
      "2026-06",
      "2026-07",
      "2026-08",
      "2026-09",
      "2026-10",
      "2026-11",
    ]);
    expectFieldError(await call("GET", `${API}/statistics?period=weeks`), "period");
  });
});
