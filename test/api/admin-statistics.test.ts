// Administration → Statistics over HTTP: views, downloads, new records and storage per day (30 days)
// and per month (12) in the charts' tables, the most viewed and downloaded records linked, the
// COUNTER Dataset Report of the same period as a download; a 404 for everyone but administrators,
// a 403 from the service; a bad period is a 400. Usage is seeded on the manual clock over 50 days.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor, type Actor } from "../../src/core/actor";
import { DAY_MS } from "../../src/core/time";
import { sessionCookie } from "../helpers/accounts";
import { createTestApp, type TestApp } from "../helpers/app";
import { publishableDraft, publishRecord, MINIMAL_METADATA } from "../helpers/records";
import { raw } from "../helpers/sign-in";

const PAGE = "/administration/statistics";
const REPORT = "/administration/statistics/report";
const NOT_FOUND = "The requested URL was not found on the server.";

let app: TestApp;
let admin: string;
let alice: string;
/** Published 2026-11-22 with 1,000 bytes, 2026-12-12 with 500, 2027-01-10 without files. */
const ids = { a: "", b: "", c: "" };

const titled = (title: string, files: boolean) => publishableDraft({ files: { enabled: files }, metadata: { ...MINIMAL_METADATA, title } });

async function publish(title: string, bytes: number): Promise<{ id: string; parent: string }> {
  const record = await publishRecord(app, titled(title, bytes > 0), { files: bytes ? [["data.bin", "x".repeat(bytes)]] : [] });
  return { id: record.id, parent: record.parent.id };
}

/** Views of a record by different people (one browser each). */
async function view(id: string, people: number) {
  for (let i = 0; i < people; i++) {
    const res = await app.call("GET", `/api/records/${id}`, { headers: { "user-agent": `Firefox/${100 + i}` } });
    expect(res.status).toBe(200);
  }
}

async function download(record: { id: string; parent: string }, people: number) {
  for (let i = 0; i < people; i++) {
    await app.services.stats.recordDownload({
      recordId: record.id,
      parentId: record.parent,
      actor: { kind: "anonymous" },
      fileKey: "data.bin",
      bytes: 10,
      visitor: { address: null, userAgent: `Chrome/${100 + i}` },
    });
  }
}

beforeAll(async () => {
  app = await createTestApp();
  // 2026-11-22: A published (1,000 bytes), viewed by 3, downloaded by 1.
  const a = await publish("Alpha", 1000);
  await view(a.id, 3);
  await download(a, 1);
  // 2026-12-12: B published (500 bytes), viewed by 3, downloaded by 2; A viewed once more.
  app.clock.advance(20 * DAY_MS);
  const b = await publish("Beta", 500);
  await view(b.id, 3);
  await download(b, 2);
  await view(a.id, 1);
  // 2027-01-10 ("today"): C published without files, viewed by 2.
  app.clock.advance(29 * DAY_MS);
  const c = await publish("Gamma", 0);
  await view(c.id, 2);
  await app.services.stats.aggregate();
  Object.assign(ids, { a: a.id, b: b.id, c: c.id });
  admin = await sessionCookie(app, "admin", "admin-password");
  alice = await sessionCookie(app, "alice", "alice-password");
});
afterAll(() => app.close());

const get = (path: string, cookie?: string) => raw(app, "GET", path, { cookie });

/** A chart's table (by its caption) as [label, value] rows. */
function chartTable(html: string, caption: string): [string, string][] {
  const table = new RegExp(`<table class="chart-table"><caption class="sr-only">${caption}</caption>(.*?)</table>`).exec(html)?.[1];
  if (table === undefined) throw new Error(`no chart table "${caption}"`);
  return [...table.matchAll(/<tr><th scope="row">([^<]*)<\/th><td>([^<]*)<\/td><\/tr>/g)].map((m) => [m[1]!, m[2]!]);
}

/** The rows of a chart's table whose value is not `zero`. */
const nonZero = (rows: [string, string][], zero = "0") => rows.filter(([, value]) => value !== zero);

/** A "most viewed/downloaded" table's rows: [rank, title, count] and the link. */
function topRows(html: string, caption: string) {
  const table = new RegExp(`<caption class="sr-only">${caption}</caption>(.*?)</table>`).exec(html)?.[1] ?? "";
  return [...table.matchAll(/<tr data-top-record="([^"]+)"><td>(\d+)<\/td><th scope="row"><a href="([^"]+)">([^<]*)<\/a><\/th><td>(\d+)<\/td><\/tr>/g)].map((m) => ({
    id: m[1],
    rank: m[2],
    href: m[3],
    title: m[4],
    count: m[5],
  }));
}

describe("Statistics for an administrator", () => {
  test("the last 30 days by day (the default): each chart's table holds the day's numbers", async () => {
    const res = await get(PAGE, admin);
    expect(res.status).toBe(200);
    expect(/<h1>([^<]*)<\/h1>/.exec(res.text)?.[1]).toBe("Statistics");
    const span = "2026-12-12 to 2027-01-10";
    expect(res.text).toContain(`aria-current="page">Last 30 days, by day</a>`);
    const views = chartTable(res.text, `Views, ${span}`);
    expect(views).toHaveLength(30);
    expect([views[0]![0], views[29]![0]]).toEqual(["12-12", "01-10"]);
    expect(nonZero(views)).toEqual([
      ["12-12", "4"],
      ["01-10", "2"],
    ]);
    expect(nonZero(chartTable(res.text, `Downloads, ${span}`))).toEqual([["12-12", "2"]]);
    expect(nonZero(chartTable(res.text, `New records, ${span}`))).toEqual([
      ["12-12", "1"],
      ["01-10", "1"],
    ]);
    // Storage is cumulative: A's 1,000 bytes from before the period, B's 500 from its first day.
    const storage = chartTable(res.text, `Storage used, ${span}`);
    expect(new Set(storage.map(([, value]) => value))).toEqual(new Set(["1.5 KiB"]));
    expect(res.text).toContain("<strong>6</strong> views, <strong>2</strong> downloads,");
    // Four charts, each an image named by its title, with a bar per day (or a point for storage).
    const svgs = [...res.text.matchAll(/<svg role="img" aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(svgs).toEqual([`Views, ${span}`, `Downloads, ${span}`, `New records, ${span}`, `Storage used, ${span}`]);
    expect([...res.text.matchAll(/<rect class="bar"/g)]).toHaveLength(90);
    expect([...res.text.matchAll(/<circle class="dot"/g)]).toHaveLength(30);
  });

  test("the most viewed and downloaded records of the period, linked, most first", async () => {
    const res = await get(PAGE, admin);
    expect(topRows(res.text, "Most viewed records")).toEqual([
      { id: ids.b, rank: "1", href: `/records/${ids.b}`, title: "Beta", count: "3" },
      { id: ids.c, rank: "2", href: `/records/${ids.c}`, title: "Gamma", count: "2" },
      { id: ids.a, rank: "3", href: `/records/${ids.a}`, title: "Alpha", count: "1" },
    ]);
    expect(topRows(res.text, "Most downloaded records")).toEqual([{ id: ids.b, rank: "1", href: `/records/${ids.b}`, title: "Beta", count: "2" }]);
  });

  test("the last 12 months by month", async () => {
    const res = await get(`${PAGE}?period=months`, admin);
    expect(res.status).toBe(200);
    const span = "2026-02-01 to 2027-01-10";
    expect(res.text).toContain(`aria-current="page">Last 12 months, by month</a>`);
    const views = chartTable(res.text, `Views, ${span}`);
    expect(views.map(([month]) => month)).toEqual([
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
      "2026-12",
      "2027-01",
    ]);
    expect(nonZero(views)).toEqual([
      ["2026-11", "3"],
      ["2026-12", "4"],
      ["2027-01", "2"],
    ]);
    expect(nonZero(chartTable(res.text, `Downloads, ${span}`))).toEqual([
      ["2026-11", "1"],
      ["2026-12", "2"],
    ]);
    expect(nonZero(chartTable(res.text, `New records, ${span}`))).toEqual([
      ["2026-11", "1"],
      ["2026-12", "1"],
      ["2027-01", "1"],
    ]);
    expect(nonZero(chartTable(res.text, `Storage used, ${span}`), "0 bytes")).toEqual([
      ["2026-11", "1000 bytes"],
      ["2026-12", "1.5 KiB"],
      ["2027-01", "1.5 KiB"],
    ]);
    expect(topRows(res.text, "Most viewed records").map((r) => [r.title, r.count])).toEqual([
      ["Alpha", "4"],
      ["Beta", "3"],
      ["Gamma", "2"],
    ]);
    expect(topRows(res.text, "Most downloaded records").map((r) => [r.title, r.count])).toEqual([
      ["Beta", "2"],
      ["Alpha", "1"],
    ]);
  });

  test("the COUNTER Dataset Report of the same period, linked beside the charts and downloaded as JSON", async () => {
    const days = await get(PAGE, admin);
    expect(days.text).toContain(`href="${REPORT}" download>Download the report of 2026-12-12 to 2027-01-10</a>`);
    const months = await get(`${PAGE}?period=months`, admin);
    expect(months.text).toContain(`href="${REPORT}?period=months" download>Download the report of 2026-02-01 to 2027-01-10</a>`);

    const res = await get(REPORT, admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="counter-dsr-2026-12-12-2027-01-10.json"');
    const report = JSON.parse(res.text);
    expect(report["report-header"]).toMatchObject({ "report-id": "DSR", "reporting-period": { "begin-date": "2026-12-12", "end-date": "2027-01-10" } });
    expect(report["report-datasets"].map((d: { "dataset-title": string }) => d["dataset-title"]).sort()).toEqual(["Alpha", "Beta", "Gamma"]);

    const year = await get(`${REPORT}?period=months`, admin);
    expect(year.headers.get("content-disposition")).toBe('attachment; filename="counter-dsr-2026-02-01-2027-01-10.json"');
    expect(JSON.parse(year.text)["report-header"]["reporting-period"]).toEqual({ "begin-date": "2026-02-01", "end-date": "2027-01-10" });
  });

  test("a period that is not one is a 400 page naming the parameter", async () => {
    for (const path of [`${PAGE}?period=weeks`, `${REPORT}?period=years`]) {
      const res = await get(path, admin);
      expect({ path, status: res.status, says: res.text.includes("period: Must be one of: days, months.") }).toEqual({ path, status: 400, says: true });
    }
  });
});

test("with counting off, the screen says so above the charts", async () => {
  const off = await createTestApp({ STATS_ENABLED: false });
  try {
    const res = await raw(off, "GET", PAGE, { cookie: await sessionCookie(off, "admin", "admin-password") });
    expect(res.status).toBe(200);
    expect(res.text).toContain("Views and downloads are not counted (STATS_ENABLED is off): their charts show what was counted before.");
    expect(res.text.indexOf("STATS_ENABLED is off")).toBeLessThan(res.text.indexOf("<figure"));
    expect((await get(PAGE, admin)).text).not.toContain("STATS_ENABLED is off");
  } finally {
    await off.close();
  }
});

describe("Statistics for everyone else", () => {
  test("the pages and the report: the ordinary 404 for a guest, a signed-in person and a person's token", async () => {
    for (const path of [PAGE, `${PAGE}?period=months`, REPORT]) {
      for (const [who, res] of [
        ["guest", await get(path)],
        ["alice", await get(path, alice)],
        ["alice's token", await raw(app, "GET", path, { headers: { authorization: `Bearer ${app.users.alice.token}` } })],
      ] as const) {
        expect({ path, who, status: res.status, says: res.text.includes(NOT_FOUND), report: res.text.includes("report-datasets") || res.text.includes("Views,") }).toEqual({
          path,
          who,
          status: 404,
          says: true,
          report: false,
        });
      }
    }
  });

  test("the service refuses a person who is not an administrator (403)", async () => {
    const person: Actor = { kind: "user", userId: app.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    for (const [name, call] of [
      ["readOverview", () => app.services.stats.readOverview(person, {})],
      ["exportPeriodReport", () => app.services.stats.exportPeriodReport(person, {})],
    ] as const) {
      const status = await call().then(
        () => 200,
        (e: { status?: number }) => e.status,
      );
      expect({ name, status }).toEqual({ name, status: 403 });
    }
    expect((await app.services.stats.readOverview(systemActor, {})).totals).toEqual({ views: 6, downloads: 2, newRecords: 2 });
  });
});
