// The popularity sorts follow real views through the HTTP API on the server's own timers (no
// manual aggregation): a burst of views that lands while popularity is held back still reaches
// `sort=mostviewed` once the hold-back ends, with no further view to trigger it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { publishRecord } from "../helpers/records";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
/** Folded in every 200 ms; popularity follows within twelve intervals (2.4 s), longer than the events take to be written (a second). */
const INTERVAL_MS = 200;

let ctx: TestApp;
beforeAll(async () => {
  ctx = await createTestApp({ STATS_AGGREGATE_INTERVAL_MS: INTERVAL_MS });
});
afterAll(() => ctx.close());

const view = (id: string, agent: string) => ctx.call("GET", `/api/records/${id}`, { headers: { "user-agent": agent } });
const mostViewed = async (ids: string[]) => {
  const res = await ctx.call("GET", `/api/records?sort=mostviewed&size=100&q=${encodeURIComponent(ids.map((id) => `id:${id}`).join(" OR "))}`);
  return (res.json.hits.hits as { id: string }[]).map((h) => h.id);
};

/** Polls `check` until it holds or `ms` pass (real time: the server's timers run on it). */
async function eventually(check: () => Promise<boolean>, ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (await check()) return true;
    await Bun.sleep(25);
  }
  return check();
}

test("two unique views overtake one within the hold-back, without another view to trigger it", async () => {
  const a = await publishRecord(ctx);
  const b = await publishRecord(ctx);
  // One view of a: the first aggregation pushes popularity at once.
  expect((await view(a.id, FIREFOX)).status).toBe(200);
  expect(await eventually(async () => (await mostViewed([a.id, b.id]))[0] === a.id, 2000)).toBe(true);
  // Two unique views of b right after: folded in within an interval, popularity held back...
  expect((await view(b.id, FIREFOX)).status).toBe(200);
  expect((await view(b.id, CHROME)).status).toBe(200);
  // (Read by a machine, which is not counted; events are written within a second, then folded in.)
  const uniqueViews = async () => (await ctx.call("GET", `/api/records/${b.id}`, { headers: { "user-agent": "curl/8.5.0" } })).json.stats.all_versions.unique_views;
  expect(await eventually(async () => (await uniqueViews()) === 2, 5000)).toBe(true);
  // ...and pushed when the hold-back ends: b (2) before a (1), nothing else happening meanwhile.
  expect(await eventually(async () => (await mostViewed([a.id, b.id]))[0] === b.id, 8000)).toBe(true);
  expect(await mostViewed([a.id, b.id])).toEqual([b.id, a.id]);
});
