// Recording: the COUNTER robot/machine lists, visitor pseudonyms with a daily salt (no raw
// address stored), the 30-second double-click window, and batches written on flush and close.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { createRecorder } from "../../src/stats/events";
import { DOWNLOAD, VIEW, type NewEvent } from "../../src/stats/model";
import { classifyAgent } from "../../src/stats/robots";

describe("COUNTER user-agent lists", () => {
  test.each([
    ["Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0", "human"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15", "human"],
    ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "robot"],
    ["Mozilla/5.0 (compatible; YandexBot/3.0)", "robot"],
    ["facebookexternalhit/1.1", "robot"],
    ["curl/8.5.0", "machine"],
    ["python-requests/2.31.0", "machine"],
    ["Wget/1.21.4", "machine"],
    ["", "machine"],
  ])("%s is a %s", (agent, kind) => {
    expect(classifyAgent(agent)).toBe(kind as ReturnType<typeof classifyAgent>);
  });
});

describe("recorder", () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());
  const visitor = (agent: string) => ({ address: "203.0.113.7", userAgent: agent });
  const rows = () =>
    ctx.services.deps.db.statements.all<{
      kind: number;
      record_id: string;
      visitor: string;
      is_machine: number;
      bytes: number;
    }>("SELECT kind, record_id, visitor, is_machine, bytes FROM stats_events ORDER BY id");

  test("visitors are hashed with the day's salt; the address is never stored; double clicks slide", async () => {
    const written: number[] = [];
    const recorder = createRecorder({ db: ctx.services.deps.db, clock: ctx.clock, log: () => {}, onWritten: (n) => written.push(n) });
    const base = { recordId: "r1", parentId: "p1", actor: { kind: "anonymous" } as const, fileKey: null, bytes: 0 };
    expect(await recorder.record({ ...base, kind: VIEW, visitor: visitor("Firefox/120") })).toBe(true);
    ctx.clock.advance(29_000);
    expect(await recorder.record({ ...base, kind: VIEW, visitor: visitor("Firefox/120") })).toBe(false);
    ctx.clock.advance(29_000); // 29 s after the previous click: still one visit
    expect(await recorder.record({ ...base, kind: VIEW, visitor: visitor("Firefox/120") })).toBe(false);
    ctx.clock.advance(31_000);
    expect(await recorder.record({ ...base, kind: VIEW, visitor: visitor("Firefox/120") })).toBe(true);
    expect(await recorder.record({ ...base, kind: DOWNLOAD, fileKey: "a", bytes: 5, visitor: visitor("curl/8") })).toBe(true);
    expect(await recorder.record({ ...base, kind: VIEW, visitor: visitor("curl/8") })).toBe(false); // machines' views are not counted
    expect(await recorder.record({ ...base, kind: VIEW, visitor: visitor("Googlebot/2.1") })).toBe(false);
    expect(
      await recorder.record({ ...base, kind: VIEW, actor: { kind: "user", userId: 7, isAdmin: false, groupIds: [], scopes: [], tokenId: null }, visitor: visitor("Firefox/120") }),
    ).toBe(true);
    expect(recorder.pending()).toBe(4);
    expect(await recorder.flush()).toBe(4);
    expect(written).toEqual([4]);
    const stored = await rows();
    expect(stored.map((r) => [r.kind, r.is_machine, r.bytes])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [1, 1, 5],
      [0, 0, 0],
    ]);
    expect(stored[0]!.visitor).toBe(stored[1]!.visitor);
    expect(stored[0]!.visitor).not.toBe(stored[2]!.visitor);
    expect(stored[3]!.visitor).toBe("u:7");
    const everything = JSON.stringify(await ctx.services.deps.db.statements.all("SELECT * FROM stats_events"));
    expect(everything).not.toContain("203.0.113.7");

    // The next day the same visitor hashes differently, and the salt of two days ago is gone.
    ctx.clock.advance(86_400_000);
    await recorder.record({ ...base, kind: VIEW, visitor: visitor("Firefox/120") });
    ctx.clock.advance(86_400_000);
    await recorder.record({ ...base, kind: VIEW, visitor: visitor("Firefox/120") });
    await recorder.close();
    const later = await rows();
    expect(later[4]!.visitor).not.toBe(stored[0]!.visitor);
    expect(later[5]!.visitor).not.toBe(later[4]!.visitor);
    const salts = await ctx.services.deps.db.statements.all<{ key: string }>("SELECT key FROM stats_state WHERE key LIKE 'salt:%' ORDER BY key");
    expect(salts.length).toBe(2);
  });
});

describe("the events' record keys", () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  test("a batch of views of 1,200 records seen for the first time (more than one look-up batch): one key each, the same key again later", async () => {
    const { insertEvents } = await import("../../src/stats/store");
    const ids = Array.from({ length: 1200 }, (_, i) => `rec${String(i).padStart(4, "0")}-x`);
    const event = (recordId: string, ts: number): NewEvent => ({ kind: VIEW, ts, recordId, parentId: `p-${recordId}`, visitor: "v1", fileKey: null, bytes: 0, isMachine: false });
    await insertEvents(
      ctx.services.deps.db,
      [...ids, ...ids.slice(0, 10)].map((id, i) => event(id, 1000 + i)),
    );
    await insertEvents(ctx.services.deps.db, [event(ids[700]!, 5000), event("rec-new-x", 5001)]);
    const db = ctx.services.deps.db;
    const keys = await db.statements.all<{ key: number; value: string }>("SELECT key, value FROM stats_keys WHERE value LIKE 'rec%-x' ORDER BY value");
    expect(keys.length).toBe(1201);
    expect(new Set(keys.map((k) => k.key)).size).toBe(1201);
    // Every stored event carries its own record's key.
    const wrong = await db.statements.all<{ n: number }>(
      "SELECT count(*) AS n FROM stats_events e JOIN stats_keys k ON k.key = e.record_key WHERE e.record_id LIKE 'rec%-x' AND k.value <> e.record_id",
    );
    expect(wrong).toEqual([{ n: 0 }]);
    const counted = await db.statements.get<{ n: number }>("SELECT count(*) AS n FROM stats_events WHERE record_id LIKE 'rec%-x'");
    expect(counted).toEqual({ n: 1212 });
  });
});
