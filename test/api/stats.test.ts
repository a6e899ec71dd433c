// Statistics over HTTP: views counted by the COUNTER rules (robots, machines, double clicks,
// unique sessions per hour), downloads through the service, POST /api/stats with its 400s, the
// record's `stats`, restricted records, and the popularity sorts. Time moves by the ManualClock.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp, type Who } from "../helpers/app";
import { publishableDraft, publishDraft, publishRecord } from "../helpers/records";
import { scenarios } from "../helpers/scenarios";
import { systemActor } from "../../src/core/actor";
import { withClientAddress } from "../../src/core/client-address";
import { createServices } from "../../src/app";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CURL = "curl/8.5.0";
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

let ctx: TestApp;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function newVersion(id: string) {
  const draft = (await ctx.call("POST", `/api/records/${id}/versions`, { as: "alice" })).json;
  const body = publishableDraft({ metadata: { ...draft.metadata, publication_date: "2026-11-20" } });
  expect((await ctx.call("PUT", `/api/records/${draft.id}/draft`, { as: "alice", body })).status).toBe(200);
  return publishDraft(ctx, draft.id);
}

const view = (id: string, agent = FIREFOX, as?: Who) => ctx.call("GET", `/api/records/${id}`, { as, headers: { "user-agent": agent } });
const settle = () => ctx.services.stats.aggregate();
const stats = async (body: unknown, as?: Who) => {
  const res = await ctx.call("POST", "/api/stats", { body, as });
  expect(res.status).toBe(200);
  return res.json;
};
const download = (record: { id: string; parent: { id: string } }, fileKey: string, bytes: number, agent = FIREFOX) =>
  ctx.services.stats.recordDownload({
    recordId: record.id,
    parentId: record.parent.id,
    fileKey,
    bytes,
    actor: { kind: "anonymous" },
    visitor: { address: null, userAgent: agent },
  });

describe("record views", () => {
  test("robots are dropped, machines not counted, double clicks within 30 s count once, unique is per visitor-hour", async () => {
    const rec = await publishRecord(ctx);
    const start = ctx.clock.now();
    expect((await view(rec.id)).status).toBe(200);
    await view(rec.id); // double click: same visitor, same record, same moment
    ctx.clock.advance(20_000);
    await view(rec.id); // still inside 30 s of the previous click
    await view(rec.id, GOOGLEBOT);
    await view(rec.id, CURL);
    await view(rec.id, ""); // no user agent: a script
    await settle();
    const q = { v: { stat: "record-view", params: { recid: rec.id } } };
    expect((await stats(q)).v).toEqual({ start_date: null, end_date: null, recid: rec.id, views: 1, unique_views: 1 });

    ctx.clock.advance(31_000); // past the window: a new view in the same session
    await view(rec.id);
    await view(rec.id, CHROME); // another visitor (another user agent)
    await view(rec.id, FIREFOX, "bob"); // a signed-in visitor
    await settle();
    expect((await stats(q)).v).toMatchObject({ views: 4, unique_views: 3 });

    ctx.clock.set(start + HOUR + MINUTE); // the next hour: a new session for the same visitor
    await view(rec.id);
    ctx.clock.set(start + DAY); // the next day
    await view(rec.id);
    await view(rec.id, CHROME);
    await settle();
    expect((await stats(q)).v).toMatchObject({ views: 7, unique_views: 6 });

    const today = new Date(start).toISOString().slice(0, 10);
    const tomorrow = new Date(start + DAY).toISOString().slice(0, 10);
    const ranged = await stats({
      first: { stat: "record-view", params: { recid: rec.id, start_date: today, end_date: today } },
      second: { stat: "record-view", params: { recid: rec.id, start_date: tomorrow } },
      before: { stat: "record-view", params: { recid: rec.id, end_date: "2020-01-01" } },
    });
    expect(ranged.first).toEqual({ start_date: today, end_date: today, recid: rec.id, views: 5, unique_views: 4 });
    expect(ranged.second).toMatchObject({ start_date: tomorrow, end_date: null, views: 2, unique_views: 2 });
    expect(ranged.before).toMatchObject({ views: 0, unique_views: 0 });

    const record = (await ctx.call("GET", `/api/records/${rec.id}`, { headers: { "user-agent": CURL } })).json;
    expect(record.stats).toEqual({
      this_version: { views: 7, unique_views: 6, downloads: 0, unique_downloads: 0, data_volume: 0 },
      all_versions: { views: 7, unique_views: 6, downloads: 0, unique_downloads: 0, data_volume: 0 },
    });
  });

  test("an export format read through Accept is not a JSON view; unknown records are zeros", async () => {
    const rec = await publishRecord(ctx);
    const res = await ctx.call("GET", `/api/records/${rec.id}`, { headers: { "user-agent": FIREFOX, accept: "application/x-bibtex" } });
    await settle();
    const out = await stats({ a: { stat: "record-view", params: { recid: rec.id } }, b: { stat: "record-download", params: { recid: "nope0-00000" } } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("bibtex");
    expect(out.a.views).toBe(0);
    expect(out.b).toEqual({ start_date: null, end_date: null, recid: "nope0-00000", downloads: 0, unique_downloads: 0, data_volume: 0 });
  });
});

describe("downloads and versions", () => {
  test("downloads count bytes, unique per session; machines counted and robots dropped; all versions add up", async () => {
    const v1 = await publishRecord(ctx);
    const v2 = await newVersion(v1.id);
    expect(await download(v1, "data.csv", 1000)).toBe(true);
    expect(await download(v1, "data.csv", 1000)).toBe(false); // double click
    expect(await download(v1, "readme.txt", 50)).toBe(true); // another file: another request, same session
    expect(await download(v2, "data.csv", 2000)).toBe(true); // the same visitor on the other version
    expect(await download(v2, "data.csv", 2000, CURL)).toBe(true); // a machine: flagged, counted
    expect(await download(v2, "data.csv", 2000, GOOGLEBOT)).toBe(false);
    await view(v1.id);
    await view(v2.id);
    await settle();

    const out = await stats({
      one: { stat: "record-download", params: { recid: v1.id } },
      two: { stat: "record-download", params: { recid: v2.id } },
      all: { stat: "record-download-all-versions", params: { parent_recid: v1.parent.id } },
      views: { stat: "record-view-all-versions", params: { parent_recid: v1.parent.id } },
    });
    expect(out.one).toEqual({ start_date: null, end_date: null, recid: v1.id, downloads: 2, unique_downloads: 1, data_volume: 1050 });
    expect(out.two).toMatchObject({ downloads: 2, unique_downloads: 2, data_volume: 4000 });
    // Across versions the same visitor in the same hour is one session.
    expect(out.all).toEqual({ start_date: null, end_date: null, parent_recid: v1.parent.id, downloads: 4, unique_downloads: 2, data_volume: 5050 });
    expect(out.views).toMatchObject({ parent_recid: v1.parent.id, views: 2, unique_views: 1 });

    const record = (await ctx.call("GET", `/api/records/${v2.id}`, { headers: { "user-agent": CURL } })).json;
    expect(record.stats.this_version).toEqual({ views: 1, unique_views: 1, downloads: 2, unique_downloads: 2, data_volume: 4000 });
    expect(record.stats.all_versions).toEqual({ views: 2, unique_views: 1, downloads: 4, unique_downloads: 2, data_volume: 5050 });
  });

  test("events are written in batches and on close; a job run forces aggregation", async () => {
    const rec = await publishRecord(ctx);
    await view(rec.id, CHROME);
    expect(ctx.services.stats.pendingEvents()).toBe(1);
    const job = await ctx.services.jobs.runNow(systemActor, "stats-aggregate");
    expect(job.status).toBe("succeeded");
    expect(ctx.services.stats.pendingEvents()).toBe(0);
    expect((await stats({ a: { stat: "record-view", params: { recid: rec.id } } })).a.views).toBe(1);
  });
});

describe("restricted records", () => {
  let rec: { id: string; parent: { id: string } };
  beforeAll(async () => {
    rec = await publishRecord(ctx, publishableDraft({ access: { record: "restricted", files: "restricted" } }));
    await view(rec.id, FIREFOX, "alice");
    await settle();
  });
  const body = () => ({ q: { stat: "record-view", params: { recid: rec.id } }, p: { stat: "record-view-all-versions", params: { parent_recid: rec.parent.id } } });
  test("only those who may read the record see its statistics", async () => {
    expect((await ctx.call("POST", "/api/stats", { body: body() })).status).toBe(401);
    expect((await ctx.call("POST", "/api/stats", { body: body(), as: "bob" })).status).toBe(403);
    expect((await stats(body(), "alice")).q).toMatchObject({ views: 1, unique_views: 1 });
    expect((await stats(body(), "admin")).p).toMatchObject({ views: 1 });
  });
});

describe("the totals kept in memory", () => {
  test("are forgotten after this process's aggregation and after another process's, not again for this one's", async () => {
    const rec = await publishRecord(ctx);
    const shown = async () => (await ctx.call("GET", `/api/records/${rec.id}`, { headers: { "user-agent": CURL } })).json.stats.this_version.views;
    await ctx.services.stats.checkOtherAggregations();
    await view(rec.id);
    await settle();
    expect(await shown()).toBe(1);
    // A change no process announces: what a record shows tells whether the totals were read again.
    await ctx.services.deps.db.statements.run("UPDATE stats_totals SET views = 41 WHERE scope = 'record' AND id = ?", [rec.id]);
    // The watermark moved by this process's own run is no news: the totals stay.
    await ctx.services.stats.checkOtherAggregations();
    expect(await shown()).toBe(1);
    // Another process (its own services on the same database) counts a view and aggregates: forgotten here, read afresh.
    const other = createServices({ config: ctx.config, clock: ctx.clock, log: () => {} });
    try {
      await other.ready;
      await other.stats.recordView({ recordId: rec.id, parentId: rec.parent.id, actor: { kind: "anonymous" }, visitor: { address: "192.0.2.9", userAgent: CHROME }, accept: null });
      await other.stats.aggregate();
    } finally {
      await other.close();
    }
    await ctx.services.stats.checkOtherAggregations();
    expect(await shown()).toBe(42);
  });
});

describe("visitors behind a trusted reverse proxy", () => {
  test("each client the proxy forwards for is a visitor of its own, through the API and the landing page", async () => {
    const proxied = await createTestApp({ APP_TRUSTED_PROXIES: ["10.0.0.1"] });
    try {
      const rec = await publishRecord(proxied);
      // What the proxy's socket would report, with the client it forwards for.
      const through = (path: string, client: string) =>
        proxied.app.handle(withClientAddress(new Request(`${proxied.config.BASE_URL}${path}`, { headers: { "user-agent": FIREFOX, "x-forwarded-for": client } }), "10.0.0.1"));
      expect((await through(`/api/records/${rec.id}`, "203.0.113.5")).status).toBe(200);
      expect((await through(`/api/records/${rec.id}`, "198.51.100.7")).status).toBe(200);
      expect((await through(`/records/${rec.id}`, "192.0.2.44")).status).toBe(200);
      // The first client again: the same visitor within the hour.
      expect((await through(`/records/${rec.id}`, "203.0.113.5")).status).toBe(200);
      await proxied.services.stats.aggregate();
      const res = await proxied.call("POST", "/api/stats", { body: { v: { stat: "record-view", params: { recid: rec.id } } } });
      expect(res.json.v).toMatchObject({ views: 3, unique_views: 3 });
    } finally {
      await proxied.close();
    }
  });
});

describe("POST /api/stats errors", () => {
  scenarios(
    () => ctx,
    [
      {
        name: "unknown stat",
        method: "POST",
        url: "/api/stats",
        body: { x: { stat: "record-likes", params: { recid: "a" } } },
        status: 400,
        json: { status: 400, errors: [{ field: "x.stat", messages: [expect.stringContaining("Unknown statistic 'record-likes'")] }] },
      },
      {
        name: "missing recid",
        method: "POST",
        url: "/api/stats",
        body: { x: { stat: "record-view", params: {} } },
        status: 400,
        json: { status: 400, message: "A validation error occurred.", errors: [{ field: "x.params.recid", messages: ["Missing data for required field."] }] },
      },
      {
        name: "recid instead of parent_recid",
        method: "POST",
        url: "/api/stats",
        body: { y: { stat: "record-download-all-versions", params: { recid: "a" } } },
        status: 400,
        json: { errors: [{ field: "y.params.parent_recid" }] },
      },
      {
        name: "bad date",
        method: "POST",
        url: "/api/stats",
        body: { x: { stat: "record-view", params: { recid: "a", start_date: "yesterday" } } },
        status: 400,
        json: { errors: [{ field: "x.params.start_date" }] },
      },
      {
        name: "end before start",
        method: "POST",
        url: "/api/stats",
        body: { x: { stat: "record-view", params: { recid: "a", start_date: "2026-02-01", end_date: "2026-01-01" } } },
        status: 400,
        json: { errors: [{ field: "x.params.end_date" }] },
      },
      { name: "not an object", method: "POST", url: "/api/stats", body: [1, 2], status: 400, json: { status: 400, errors: [{ field: "" }] } },
      { name: "query not an object", method: "POST", url: "/api/stats", body: { x: "record-view" }, status: 400, json: { errors: [{ field: "x" }] } },
      { name: "empty body object", method: "POST", url: "/api/stats", body: {}, status: 200, json: {} },
    ],
  );
});

describe("popularity sorts", () => {
  test("mostviewed and mostdownloaded order by all versions' unique counts, descending", async () => {
    const title = (t: string) => publishableDraft({ metadata: { ...publishableDraft().metadata, title: t } });
    const a = await publishRecord(ctx, title("Popularity zebra alpha"));
    const b = await publishRecord(ctx, title("Popularity zebra beta"));
    const c = await publishRecord(ctx, title("Popularity zebra gamma"));
    for (const agent of [FIREFOX, CHROME, "Mozilla/5.0 Safari/605.1.15"]) await view(b.id, agent);
    for (const agent of [FIREFOX, CHROME]) await view(c.id, agent);
    for (const agent of [FIREFOX, CHROME, "Mozilla/5.0 Safari/605.1.15", "Mozilla/5.0 Edg/120"]) await download(a, "f.bin", 10, agent);
    await download(c, "f.bin", 10);
    await settle();
    const ids = async (sort: string) => (await ctx.call("GET", `/api/records?q=zebra&sort=${sort}`)).json.hits.hits.map((h: { id: string }) => h.id);
    expect(await ids("mostviewed")).toEqual([b.id, c.id, a.id]);
    expect(await ids("mostdownloaded")).toEqual([a.id, c.id, b.id]);
    // The SQL path (a fielded query) orders the same way.
    const sql = async (sort: string) => (await ctx.call("GET", `/api/records?q=title:zebra&sort=${sort}`)).json.hits.hits.map((h: { id: string }) => h.id);
    expect(await sql("mostviewed")).toEqual([b.id, c.id, a.id]);
    // A new version keeps the parent's popularity.
    const b2 = await newVersion(b.id);
    expect((await ids("mostviewed"))[0]).toBe(b2.id);
  });
});

describe("shutdown", () => {
  test("closing waits for an aggregation under way: it finishes, nothing is logged as failed", async () => {
    const own = await createTestApp();
    try {
      const rec = await publishRecord(own);
      await own.call("GET", `/api/records/${rec.id}`, { headers: { "user-agent": CHROME } });
      const run = own.services.stats.aggregate();
      await own.services.close(); // as a SIGTERM during the periodic aggregation
      expect(
        await run.then(
          () => "finished",
          (error: Error) => `failed: ${error.message}`,
        ),
      ).toBe("finished");
    } finally {
      await own.close().catch(() => undefined); // the services are closed already; the data goes
    }
  });
});
