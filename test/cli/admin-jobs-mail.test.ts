// `cairn jobs retry|cancel ID` and `cairn mail list|show|resend|test` on a test app's data directory:
// each action's effect (read back through the services), exactly one audit entry per action by the
// system via the CLI without an address, and the refusals (unknown id: exit 2 with the service's
// message and nothing audited; a malformed id, a missing --to, an unknown command: usage errors).
// Mail is off (no SMTP server): resent and test messages wait in the outbox.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { CANCELLED_ERROR } from "../../src/jobs/service";
import { createTestApp, type TestApp } from "../helpers/app";
import { cairn } from "../helpers/cli";

let t: TestApp;
let failing = 0;
let queued = 0;
let pending = 0;

beforeAll(async () => {
  t = await createTestApp();
  // A job that failed for good, made as the worker leaves one (the CLI's process knows only the shipped job kinds).
  queued = (await t.services.jobs.enqueue("jobs-prune", {}, { runAt: t.clock.now() + 3_600_000 })).id;
  failing = (await t.services.jobs.enqueue("jobs-prune", {}, { runAt: t.clock.now() + 3_600_000 })).id;
  await t.services.jobs.cancelJob(systemActor, failing, { via: "cli" });
  pending = (await t.services.mail.queueMail({ to: "dave@example.org", subject: "A comment on your request", body: "Hi Dave.", topic: "request:pending" }))!.id;
});
afterAll(() => t.close());

function run(...args: string[]) {
  t.clock.advance(60_000);
  return cairn([...args, "--data", t.dataDir], {}, { clock: t.clock });
}
const entries = async (action: string) =>
  (await t.services.audit.search(systemActor, { action })).entries.map((e) => ({
    actorLabel: e.actorLabel,
    targetType: e.targetType,
    targetId: e.targetId,
    details: e.details,
    via: e.via,
    address: e.address,
  }));
const auditTotal = async () => (await t.services.audit.search(systemActor, {})).total;

describe("cairn jobs retry|cancel", () => {
  test("retry queues a failed job again; cancel gives up a queued one; one audit entry each, by the system via the CLI", async () => {
    const before = await auditTotal();
    expect(run("jobs", "retry", String(failing))).toEqual({ code: 0, stdout: `retry: job ${failing} (jobs-prune): queued\n`, stderr: "" });
    expect(await t.services.jobs.readJob(systemActor, failing)).toMatchObject({ status: "queued", attempts: 0 });
    expect(run("jobs", "cancel", String(queued))).toEqual({ code: 0, stdout: `cancel: job ${queued} (jobs-prune): failed: ${CANCELLED_ERROR}\n`, stderr: "" });
    expect(await t.services.jobs.readJob(systemActor, queued)).toMatchObject({ status: "failed", lastError: CANCELLED_ERROR });
    expect(await entries("job.retry")).toEqual([
      { actorLabel: "system", targetType: "job", targetId: String(failing), details: { name: "jobs-prune" }, via: "cli", address: null },
    ]);
    expect((await entries("job.cancel"))[0]).toEqual({
      actorLabel: "system",
      targetType: "job",
      targetId: String(queued),
      details: { name: "jobs-prune" },
      via: "cli",
      address: null,
    });
    expect(await auditTotal()).toBe(before + 2);
  });

  test("refusals: a job in the wrong state (409) and an unknown one (404) exit 2 with the message and nothing audited; a malformed id is a usage error", async () => {
    const before = await auditTotal();
    expect(run("jobs", "retry", String(failing))).toEqual({ code: 2, stdout: "", stderr: `cairn: Job ${failing} is queued: only a failed job is retried.\n` });
    expect(run("jobs", "cancel", String(queued))).toEqual({ code: 2, stdout: "", stderr: `cairn: Job ${queued} is failed: only a queued job is cancelled.\n` });
    expect(run("jobs", "cancel", "999999")).toEqual({ code: 2, stdout: "", stderr: "cairn: No job with id 999999.\n" });
    expect(run("jobs", "retry", "x")).toMatchObject({ code: 2, stderr: "cairn: jobs retry: 'x' is not a job ID (a whole number, see jobs list)\n" });
    expect(run("jobs", "cancel")).toMatchObject({ code: 2, stderr: "cairn: jobs cancel needs a job ID (see jobs list)\n" });
    expect(await auditTotal()).toBe(before);
  });
});

describe("cairn mail", () => {
  test("list: the outbox as a table, filtered by status and text; as JSON", async () => {
    const all = run("mail", "list");
    expect(all.code).toBe(0);
    expect(all.stdout).toContain("dave@example.org");
    expect(all.stdout).toContain("A comment on your request");
    expect(all.stdout).toEndWith("1 of 1 message(s)\n");
    expect(run("mail", "list", "--status", "sent").stdout).toEndWith("0 of 0 message(s)\n");
    const json = JSON.parse(run("mail", "list", "--q", "dave", "--json").stdout) as { id: number; status: string; recipient: string }[];
    expect(json.map((m) => ({ id: m.id, status: m.status, recipient: m.recipient }))).toEqual([{ id: pending, status: "pending", recipient: "dave@example.org" }]);
    expect(run("mail", "list", "--status", "lost")).toMatchObject({ code: 2, stderr: "cairn: status: Must be one of: pending, sent, failed.\n" });
  });

  test("show: one message with its text; an unknown id exits 2", async () => {
    const shown = run("mail", "show", String(pending));
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`id: ${pending}\nto: dave@example.org\nsubject: A comment on your request\ntopic: request:pending\nstatus: pending\nattempts: 0\n`);
    expect(shown.stdout).toEndWith("\nHi Dave.\n");
    expect(run("mail", "show", "999999")).toEqual({ code: 2, stdout: "", stderr: "cairn: No message with id 999999 in the outbox.\n" });
  });

  test("resend and test: the message waits (mail off); one audit entry each via the CLI; refusals audit nothing", async () => {
    const before = await auditTotal();
    expect(run("mail", "resend", String(pending))).toEqual({
      code: 0,
      stdout: `resend: message ${pending} to dave@example.org: pending: it waits in the outbox until MAIL_SERVER is set\n`,
      stderr: "",
    });
    const tested = run("mail", "test", "--to", "ops@example.org");
    expect(tested.code).toBe(0);
    const id = Number(/^test: message (\d+) to ops@example.org: pending: /.exec(tested.stdout)?.[1]);
    expect(await t.services.mail.readMail(systemActor, id)).toMatchObject({ recipient: "ops@example.org", subject: "Test message from Cairn", status: "pending" });
    expect(await entries("mail.resend")).toEqual([
      { actorLabel: "system", targetType: "mail", targetId: String(pending), details: { to: "dave@example.org" }, via: "cli", address: null },
    ]);
    expect(await entries("mail.test")).toEqual([{ actorLabel: "system", targetType: "mail", targetId: String(id), details: { to: "ops@example.org" }, via: "cli", address: null }]);
    expect(await auditTotal()).toBe(before + 2);

    expect(run("mail", "test", "--to", "not an address")).toEqual({ code: 2, stdout: "", stderr: "cairn: to: Enter one e-mail address, such as you@example.org.\n" });
    expect(run("mail", "test")).toMatchObject({ code: 2, stderr: "cairn: mail test needs --to ADDRESS\n" });
    expect(run("mail", "resend", "999999")).toMatchObject({ code: 2, stderr: "cairn: No message with id 999999 in the outbox.\n" });
    expect(run("mail", "resend", "-1")).toMatchObject({ code: 2 });
    expect(run("mail", "send")).toMatchObject({ code: 2, stderr: "cairn: unknown mail command 'send' (list, show, resend, test)\n" });
    expect(await auditTotal()).toBe(before + 2);
  });

  test("mail --help prints its usage", () => {
    const res = cairn(["mail", "--help"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("cairn mail test --to ADDRESS");
  });
});
