// The mail outbox: rows wait without MAIL_SERVER; the `mail-send` job delivers them over SMTP (a
// fake server on 127.0.0.1), records sent_at, attempts and last_error, and backs off on failures.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { MAIL_MAX_ATTEMPTS } from "../../src/mail/service";
import { startFakeSmtp, type FakeSmtp } from "../helpers/fake-smtp";
import { createRequestsTestApp, type RequestsTestApp } from "../helpers/requests";

const MINUTE = 60_000;

const queue = async (t: RequestsTestApp, to: string, subject = `Hello ${to}`) =>
  (await t.mail.queueMail({ to, subject, body: `Dear ${to},\n.leading dot\nbye`, topic: "test:mail" }))!;
const runJob = async (t: RequestsTestApp) => (await t.services.jobs.runNow(systemActor, "mail-send")).result as Record<string, unknown>;
const row = async (t: RequestsTestApp, id: number) => (await t.outbox()).find((r) => r.id === id)!;

describe("without MAIL_SERVER", () => {
  let t: RequestsTestApp;
  beforeAll(async () => (t = await createRequestsTestApp()));
  afterAll(() => t.close());

  test("mail stays in the outbox, untried", async () => {
    const queued = await queue(t, "alice@example.org");
    expect(await runJob(t)).toEqual({ sent: 0, failed: 0, disabled: true });
    expect(await row(t, queued.id)).toMatchObject({ recipient: "alice@example.org", sentAt: null, attempts: 0, lastError: null, topic: "test:mail" });
  });

  test("a blank address is not queued", async () => {
    expect(await t.mail.queueMail({ to: "  ", subject: "x", body: "y", topic: "" })).toBeNull();
  });

  test("the job runs every minute", () => {
    expect(t.services.jobs.registry.get("mail-send")?.schedule).toEqual({ everyMs: MINUTE });
  });

  test("the outbox listing is for administrators", async () => {
    await expect(t.mail.listMail(t.actorOf("alice"))).rejects.toThrow(expect.objectContaining({ status: 403 }));
    expect((await t.mail.listMail(systemActor, { topic: "test:mail" })).length).toBeGreaterThan(0);
  });
});

describe("delivery over SMTP", () => {
  let smtp: FakeSmtp;
  let t: RequestsTestApp;
  beforeAll(async () => {
    smtp = startFakeSmtp({ reject: ["nobody@example.org"], deferred: ["later@example.org"] });
    t = await createRequestsTestApp({ MAIL_SERVER: "127.0.0.1", MAIL_PORT: smtp.port, MAIL_USE_TLS: false, MAIL_DEFAULT_SENDER: "repo@example.org" });
  });
  afterAll(async () => {
    await t.close();
    smtp.stop();
  });
  afterEach(() => {
    smtp.received.length = 0;
  });

  test("pending mail is sent: envelope, headers and body; sent_at and one attempt recorded", async () => {
    const a = await queue(t, "alice@example.org", "Request accepted");
    const b = await queue(t, "bob@example.org");
    expect(await runJob(t)).toEqual({ sent: 2, failed: 0 });
    expect(smtp.received.map((m) => [m.from, m.to])).toEqual([
      ["repo@example.org", ["alice@example.org"]],
      ["repo@example.org", ["bob@example.org"]],
    ]);
    const data = smtp.received[0]!.data;
    expect(data).toMatch(/^Subject: Request accepted$/m);
    expect(data).toMatch(/^To: alice@example.org$/m);
    expect(data).toContain("Dear alice@example.org,");
    expect(data).toContain("\r\n.leading dot");
    for (const id of [a.id, b.id]) expect(await row(t, id)).toMatchObject({ sentAt: t.clock.now(), attempts: 1, lastError: null });
  });

  test("sent mail is not sent again", async () => {
    expect(await runJob(t)).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toEqual([]);
  });

  test("a permanent refusal (5xx) is given up at once; the other mail still goes", async () => {
    const bad = await queue(t, "nobody@example.org");
    const good = await queue(t, "carol@example.org");
    expect(await runJob(t)).toEqual({ sent: 1, failed: 1 });
    expect(await row(t, bad.id)).toMatchObject({ sentAt: null, attempts: MAIL_MAX_ATTEMPTS });
    expect((await row(t, bad.id)).lastError).toContain("550");
    expect((await row(t, good.id)).sentAt).not.toBeNull();
    t.clock.advance(365 * 24 * 60 * MINUTE);
    expect(await runJob(t)).toEqual({ sent: 0, failed: 0 });
  });

  test("a temporary failure (4xx) is retried with backoff: after 1 min, then 3 min", async () => {
    const later = await queue(t, "later@example.org");
    expect(await runJob(t)).toEqual({ sent: 0, failed: 1 });
    expect(await row(t, later.id)).toMatchObject({ attempts: 1, sentAt: null });
    expect((await row(t, later.id)).lastError).toContain("451");
    expect(await runJob(t)).toEqual({ sent: 0, failed: 0 }); // not due yet
    t.clock.advance(MINUTE);
    expect(await runJob(t)).toEqual({ sent: 0, failed: 1 });
    expect((await row(t, later.id)).attempts).toBe(2);
    t.clock.advance(MINUTE);
    expect(await runJob(t)).toEqual({ sent: 0, failed: 0 }); // 2 of the 3 minutes
    smtp.deferred.delete("later@example.org");
    t.clock.advance(MINUTE);
    expect(await runJob(t)).toEqual({ sent: 1, failed: 0 });
    expect(await row(t, later.id)).toMatchObject({ attempts: 3, lastError: null, sentAt: t.clock.now() });
  });

  test("notifications of requests reach the SMTP server", async () => {
    await t.addCommunity("mail-ocean");
    await t.requests.createRequest(t.actorOf("alice"), { type: "test-review", receiver: { kind: "community", id: "mail-ocean" }, submit: true });
    expect(await runJob(t)).toEqual({ sent: 3, failed: 0 });
    expect(smtp.received.flatMap((m) => m.to).sort()).toEqual(["curator@example.org", "manager@example.org", "owner@example.org"]);
  });
});

describe("a server that does not answer", () => {
  let t: RequestsTestApp;
  beforeAll(async () => {
    // A port that was just free: nothing listens on it any more.
    const gone = startFakeSmtp();
    const port = gone.port;
    gone.stop();
    t = await createRequestsTestApp({ MAIL_SERVER: "127.0.0.1", MAIL_PORT: port, MAIL_USE_TLS: false });
  });
  afterAll(() => t.close());

  test("the run stops at the connection error; every due message counts the attempt and backs off", async () => {
    const a = await queue(t, "alice@example.org");
    const b = await queue(t, "bob@example.org");
    expect(await runJob(t)).toEqual({ sent: 0, failed: 2 });
    for (const id of [a.id, b.id]) {
      expect(await row(t, id)).toMatchObject({ attempts: 1, sentAt: null });
      expect((await row(t, id)).lastError).toMatch(/ECONNREFUSED|connect/i);
    }
    expect(await runJob(t)).toEqual({ sent: 0, failed: 0 });
  });

  test(`after ${MAIL_MAX_ATTEMPTS} attempts a message is given up`, async () => {
    const c = await queue(t, "carol@example.org");
    for (let i = 0; i < MAIL_MAX_ATTEMPTS + 2; i++) {
      t.clock.advance(2 ** MAIL_MAX_ATTEMPTS * MINUTE);
      await runJob(t);
    }
    expect((await row(t, c.id)).attempts).toBe(MAIL_MAX_ATTEMPTS);
    expect(await runJob(t)).toEqual({ sent: 0, failed: 0 });
  });
});
