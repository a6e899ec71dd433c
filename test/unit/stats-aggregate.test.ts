// Aggregation: chunked runs stopped half way and resumed by a fresh aggregator (a restart) give the
// same daily totals as one run; running again adds nothing; retention prunes aggregated events only.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { createAggregator } from "../../src/stats/aggregate";
import type { NewEvent } from "../../src/stats/model";
import * as store from "../../src/stats/store";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 22, 10, 30);

/** Views and downloads of two versions of one parent by three visitors over two days. */
function events(): NewEvent[] {
  const out: NewEvent[] = [];
  const visitors = ["u:1", "v-a", "v-b"];
  for (let i = 0; i < 60; i++) {
    const recordId = i % 3 === 0 ? "rec-2" : "rec-1";
    out.push({
      kind: i % 4 === 0 ? 1 : 0,
      ts: T0 + i * 25 * 60_000, // every 25 minutes: crosses hours and the day boundary
      recordId,
      parentId: "parent-1",
      visitor: visitors[i % visitors.length]!,
      fileKey: i % 4 === 0 ? "f.csv" : null,
      bytes: i % 4 === 0 ? 100 + i : 0,
      isMachine: i % 8 === 0,
    });
  }
  return out;
}

const tables = async (ctx: TestApp) => ({
  records: await ctx.services.deps.db.statements.all("SELECT * FROM stats_record_daily ORDER BY record_id, day"),
  parents: await ctx.services.deps.db.statements.all("SELECT * FROM stats_parent_daily ORDER BY parent_id, day"),
  totals: await ctx.services.deps.db.statements.all("SELECT * FROM stats_totals ORDER BY scope, id"),
});

let whole: TestApp;
let halves: TestApp;
beforeAll(async () => {
  whole = await createTestApp();
  halves = await createTestApp();
});
afterAll(async () => {
  await whole.close();
  await halves.close();
});

test("a run stopped half way and resumed after a restart counts exactly like one run", async () => {
  await store.insertEvents(whole.services.deps.db, events());
  const one = await whole.services.stats.aggregate();
  expect(one.events).toBe(60);

  const db = halves.services.deps.db;
  await store.insertEvents(db, events().slice(0, 40));
  const first = createAggregator(db, () => {});
  expect((await first.run({ chunk: 7, maxChunks: 3 })).events).toBe(21);
  // A new process: nothing in memory; the rest of the events arrives meanwhile.
  await store.insertEvents(db, events().slice(40));
  const second = createAggregator(db, () => {});
  const rest = await second.run({ chunk: 11 });
  expect(rest.events).toBe(39);
  expect(rest.watermark).toBe(60);
  expect(await tables(halves)).toEqual(await tables(whole));

  // Idempotent: nothing new, nothing added.
  expect((await second.run()).events).toBe(0);
  expect(await tables(halves)).toEqual(await tables(whole));

  const totals = await store.findTotals(db, "parent", "parent-1");
  expect(totals.views + totals.downloads).toBe(60);
  // Unique: one per visitor and clock hour across both versions.
  const sessions = new Set(events().map((e) => `${e.kind}|${e.visitor}|${Math.floor(e.ts / HOUR)}`));
  expect(totals.uniqueViews + totals.uniqueDownloads).toBe(sessions.size);
  expect(totals.volume).toBe(events().reduce((n, e) => n + e.bytes, 0));
});

test("retention prunes old aggregated events only", async () => {
  const db = whole.services.deps.db;
  const agg = createAggregator(db, () => {});
  await store.insertEvents(db, [{ kind: 0, ts: T0 - 100 * 86_400_000, recordId: "old", parentId: "old-p", visitor: "x", fileKey: null, bytes: 0, isMachine: false }]);
  // Not aggregated yet: kept.
  expect((await agg.prune(T0, 90)).deleted).toBe(0);
  await agg.run();
  expect((await agg.prune(T0, 90)).deleted).toBe(1);
  expect((await store.findTotals(db, "record", "old")).views).toBe(1);
  expect(await db.statements.get("SELECT count(*) AS n FROM stats_events")).toEqual({ n: 60 });
});
