// `cairn users block|restore|deactivate|activate|approve|promote|demote|delete|reset-password --login L` and `cairn audit
// list` on a test app's data directory: each action's effect on the account (seen through the API
// the account's token reaches), its audit entry (the system, via the CLI), the log as a table and
// as JSON with its filters, and the refusals (unknown account, no --login, unknown command, delete
// without --records, the last active administrator).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";
import { publishRecord } from "../helpers/records";
import { cairn } from "../helpers/cli";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * Runs the command with its clock a minute after the previous one's start (the child's clock runs on
 * from the test's): the entries it writes are in the order the commands ran.
 */
function run(...args: string[]) {
  t.clock.advance(60_000);
  return cairn([...args, "--data", t.dataDir], {}, { clock: t.clock });
}
/** True when an ISO time a child stamped is within the half-minute after its clock's start (the last run's). */
const startedAfter = (iso: string) => {
  const ms = Date.parse(iso);
  return ms >= t.clock.now() && ms < t.clock.now() + 30_000;
};
/** The status bob's token gets on a read that needs it. */
const bobReads = async () => (await t.call("GET", "/api/user/records", { as: "bob" })).status;

describe("cairn users ACTION --login", () => {
  test("block: bob's token answers 403; restore: 200 again; each with an audit entry by the system via the CLI", async () => {
    const bob = t.users.bob.user;
    const blocked = run("users", "block", "--login", "bob");
    expect(blocked).toMatchObject({ code: 0, stderr: "" });
    expect(blocked.stdout).toStartWith(`block: bob@example.org (id ${bob.id}): inactive, blocked `);
    expect(startedAfter(blocked.stdout.split("blocked ")[1]!.trim())).toBe(true);
    expect(await bobReads()).toBe(403);
    const restored = run("users", "restore", "--login", "bob@example.org");
    expect(restored).toMatchObject({ code: 0, stdout: `restore: bob@example.org (id ${bob.id}): active\n` });
    expect(await bobReads()).toBe(200);
    const { entries } = await t.services.audit.search({ kind: "system" }, { targetId: String(bob.id) });
    expect(entries.map((e) => ({ action: e.action, actorId: e.actorId, actorLabel: e.actorLabel, targetType: e.targetType, via: e.via, address: e.address }))).toEqual([
      { action: "user.restore", actorId: null, actorLabel: "system", targetType: "user", via: "cli", address: null },
      { action: "user.block", actorId: null, actorLabel: "system", targetType: "user", via: "cli", address: null },
    ]);
  });

  test("deactivate and activate; approve; promote and demote", async () => {
    const alice = t.users.alice.user;
    expect(run("users", "deactivate", "--login", "alice").stdout).toBe(`deactivate: alice@example.org (id ${alice.id}): inactive\n`);
    expect((await t.call("GET", "/api/user/records", { as: "alice" })).status).toBe(401);
    expect(run("users", "activate", "--login", "alice").stdout).toBe(`activate: alice@example.org (id ${alice.id}): active\n`);
    expect((await t.call("GET", "/api/user/records", { as: "alice" })).status).toBe(200);
    const approved = run("users", "approve", "--login", "alice").stdout;
    expect(approved).toStartWith(`approve: alice@example.org (id ${alice.id}): active, verified `);
    const verified = approved.split("verified ")[1]!.trim();
    expect(startedAfter(verified)).toBe(true);
    expect(run("users", "promote", "--login", "alice").stdout).toBe(`promote: alice@example.org (id ${alice.id}): active, verified ${verified}, administrator\n`);
    expect((await t.call("GET", "/api/users/all", { as: "alice" })).status).toBe(200);
    expect(run("users", "demote", "--login", "alice").code).toBe(0);
    expect((await t.call("GET", "/api/users/all", { as: "alice" })).status).toBe(403);
    const { entries } = await t.services.audit.search({ kind: "system" }, { targetId: String(alice.id) });
    expect(entries.map((e) => `${e.action} ${e.via}`)).toEqual(["user.demote cli", "user.promote cli", "user.approve cli", "user.activate cli", "user.deactivate cli"]);
  });

  test.each([
    ["an unknown account", ["users", "block", "--login", "nobody"], "cairn: No account 'nobody'.\n"],
    ["no --login", ["users", "restore"], "cairn: --login is required\n"],
  ])("%s: exit 2 with the message, nothing logged", async (_name, args, message) => {
    const before = (await t.services.audit.search({ kind: "system" }, {})).total;
    expect(run(...args)).toMatchObject({ code: 2, stderr: message });
    expect((await t.services.audit.search({ kind: "system" }, {})).total).toBe(before);
  });
});

describe("cairn audit list", () => {
  test("a table of the newest entries: when, who, what, target, from where, how", () => {
    const res = run("audit", "list", "--size", "2");
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^at\s+actor\s+action\s+target\s+address\s+via\s+details$/);
    const alice = t.users.alice.user;
    expect(lines[1]).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\s+system\\s+user\\.demote\\s+user ${alice.id}\\s+-\\s+cli\\s+\\{"email":"alice@example.org"\\}$`),
    );
    expect(lines[2]).toContain("user.promote");
  });

  test("--json with --action and --target-type: the entries as JSON", () => {
    const res = run("audit", "list", "--action", "user.block", "--target-type", "user", "--json");
    expect(res.code).toBe(0);
    const entries = JSON.parse(res.stdout);
    expect(entries).toEqual([
      {
        id: expect.any(Number),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        actorId: null,
        actorLabel: "system",
        action: "user.block",
        targetType: "user",
        targetId: String(t.users.bob.user.id),
        details: { email: "bob@example.org", closed_requests: 0 },
        address: null,
        via: "cli",
      },
    ]);
    expect(JSON.parse(run("audit", "list", "--target-id", "99999", "--json").stdout)).toEqual([]);
  });

  test("refusals: an unknown command, a bad size", () => {
    expect(run("audit", "show")).toMatchObject({ code: 2, stderr: "cairn: unknown audit command 'show' (list)\n" });
    expect(run("audit", "list", "--size", "1000")).toMatchObject({ code: 2, stderr: "cairn: size: Must be a whole number from 1 to 100.\n" });
  });
});

describe("cairn users delete and reset-password", () => {
  test("delete needs --records keep|remove: refused without it (exit 2), nothing deleted or logged", async () => {
    const carol = await t.services.users.createUser(systemActor, { email: "carol@example.org", username: "carol" });
    const before = (await t.services.audit.search({ kind: "system" }, {})).total;
    for (const extra of [[], ["--records", "maybe"]]) {
      expect(run("users", "delete", "--login", "carol", ...extra)).toMatchObject({
        code: 2,
        stderr: "cairn: --records keep|remove is required: keep the published records under a placeholder owner, or remove them with tombstones (reason spam)\n",
      });
    }
    expect(await t.services.users.findUserById(carol.id)).not.toBeNull();
    expect((await t.services.audit.search({ kind: "system" }, {})).total).toBe(before);
  });

  test("delete --records remove: the account gone, its record tombstoned as spam, audited via the CLI", async () => {
    const dave = await t.services.users.createUser(systemActor, { email: "dave@example.org", username: "dave" });
    const { secret } = await t.services.tokens.createToken(systemActor, { userId: dave.id, name: "dave-token" });
    const record = await publishRecord({ call: (method, path, options = {}) => t.call(method, path, { ...options, as: undefined, token: secret }) });
    const res = run("users", "delete", "--login", "dave", "--records", "remove");
    expect(res).toMatchObject({
      code: 0,
      stderr: "",
      stdout: `deleted: dave@example.org (id ${dave.id}): 1 published records removed (tombstoned as spam), 0 drafts deleted, 0 requests cancelled\n`,
    });
    expect(await t.services.users.findUserById(dave.id)).toBeNull();
    const gone = await t.call("GET", `/api/records/${record.id}`);
    expect([gone.status, gone.json.tombstone.removal_reason.id]).toEqual([410, "spam"]);
    const { entries } = await t.services.audit.search({ kind: "system" }, { action: "user.delete" });
    expect(entries[0]).toMatchObject({ actorLabel: "system", targetId: String(dave.id), via: "cli", details: { records: "remove", published: 1, drafts: 0 } });
  });

  test("the last active administrator is not deleted, demoted, blocked or deactivated (exit 2 with the reason)", async () => {
    const LAST = (action: string) => `cairn: admin@example.org is the last active administrator: make another account an administrator before you ${action} this one.\n`;
    expect(run("users", "delete", "--login", "admin", "--records", "keep")).toMatchObject({ code: 2, stderr: LAST("delete") });
    for (const action of ["demote", "block", "deactivate"]) expect(run("users", action, "--login", "admin")).toMatchObject({ code: 2, stderr: LAST(action) });
    expect((await t.services.users.findUserById(t.users.admin.user.id))!).toMatchObject({ isAdmin: true, active: true, blockedAt: null });
  });

  test("reset-password mails the account a link and audits it", async () => {
    const res = run("users", "reset-password", "--login", "bob");
    expect(res).toMatchObject({ code: 0, stdout: `password-reset link sent to bob@example.org (id ${t.users.bob.user.id})\n` });
    const { messages } = await t.services.mail.searchOutbox(systemActor, {});
    expect(messages.find((m) => m.recipient === "bob@example.org")?.body).toContain("/lost-password/reset?token=");
    const { entries } = await t.services.audit.search({ kind: "system" }, { action: "user.password-reset" });
    expect(entries[0]).toMatchObject({ targetId: String(t.users.bob.user.id), via: "cli" });
  });
});
