// The audit log's service: entries recorded with who (the administrator's address at the time, or
// the system), what, on what, from where and by which way in; searched newest first, filtered and
// paged, by administrators only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor, type Actor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
let admin: Actor;
beforeAll(async () => {
  t = await createTestApp();
  admin = { kind: "user", userId: t.users.admin.user.id, isAdmin: true, groupIds: [], scopes: [], tokenId: null };
});
afterAll(() => t.close());

describe("the audit log", () => {
  test("records the actor's address at the time, the action, its target and details; newest first", async () => {
    const start = t.clock.now();
    await t.services.audit.record(admin, {
      action: "user.block",
      targetType: "user",
      targetId: t.users.bob.user.id,
      details: { reason: "spam" },
      address: "203.0.113.5",
      via: "web",
    });
    t.clock.advance(1000);
    await t.services.audit.record(systemActor, { action: "user.promote", targetType: "user", targetId: t.users.alice.user.id, via: "cli" });
    const { entries, total } = await t.services.audit.search(admin, {});
    expect(total).toBe(2);
    expect(entries.map((e) => ({ ...e, id: 0 }))).toEqual([
      {
        id: 0,
        at: start + 1000,
        actorId: null,
        actorLabel: "system",
        action: "user.promote",
        targetType: "user",
        targetId: String(t.users.alice.user.id),
        details: {},
        address: null,
        via: "cli",
      },
      {
        id: 0,
        at: start,
        actorId: t.users.admin.user.id,
        actorLabel: t.users.admin.user.email,
        action: "user.block",
        targetType: "user",
        targetId: String(t.users.bob.user.id),
        details: { reason: "spam" },
        address: "203.0.113.5",
        via: "web",
      },
    ]);
  });

  test("filters by action, target and actor, and pages", async () => {
    expect((await t.services.audit.search(admin, { action: "user.block" })).entries.map((e) => e.action)).toEqual(["user.block"]);
    expect((await t.services.audit.search(admin, { targetType: "user", targetId: String(t.users.alice.user.id) })).entries.map((e) => e.action)).toEqual(["user.promote"]);
    expect((await t.services.audit.search(admin, { actorId: t.users.admin.user.id })).entries.map((e) => e.action)).toEqual(["user.block"]);
    const page2 = await t.services.audit.search(admin, { size: "1", page: "2" });
    expect({ actions: page2.entries.map((e) => e.action), total: page2.total, page: page2.page, size: page2.size }).toEqual({
      actions: ["user.block"],
      total: 2,
      page: 2,
      size: 1,
    });
    await expect(t.services.audit.search(admin, { size: "1000" })).rejects.toMatchObject({ status: 400 });
  });

  test("only administrators read it: 403 for a user, 401 for a guest", async () => {
    const bob: Actor = { kind: "user", userId: t.users.bob.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    await expect(t.services.audit.search(bob, {})).rejects.toMatchObject({ status: 403 });
    await expect(t.services.audit.search({ kind: "anonymous" }, {})).rejects.toMatchObject({ status: 401 });
  });
});
