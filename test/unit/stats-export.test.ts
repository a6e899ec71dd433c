// `cairn stats export`: the COUNTER-style Dataset Report of a date range, from the command line
// and from the service (per month, regular and machine access).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { systemActor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";
import { cairn } from "../helpers/cli";
import { publishableDraft } from "../helpers/records";

let ctx: TestApp;
let rec: { id: string; parent: { id: string } };
const DAY = 86_400_000;
const visitor = (agent: string) => ({ address: null, userAgent: agent });

beforeAll(async () => {
  ctx = await createTestApp();
  const draft = (await ctx.call("POST", "/api/records", { as: "alice", body: publishableDraft() })).json;
  rec = (await ctx.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "alice" })).json;
  const stats = ctx.services.stats;
  const base = { recordId: rec.id, parentId: rec.parent.id, actor: { kind: "anonymous" } as const };
  // 2026-11-22: two people view, one downloads; a machine downloads. 2026-12-01: one more view.
  await ctx.call("GET", `/api/records/${rec.id}`, { headers: { "user-agent": "Firefox/120" } });
  await ctx.call("GET", `/api/records/${rec.id}`, { headers: { "user-agent": "Chrome/120" } });
  await stats.recordDownload({ ...base, fileKey: "a.csv", bytes: 10, visitor: visitor("Firefox/120") });
  await stats.recordDownload({ ...base, fileKey: "a.csv", bytes: 10, visitor: visitor("python-requests/2.31") });
  ctx.clock.advance(9 * DAY);
  await ctx.call("GET", `/api/records/${rec.id}`, { headers: { "user-agent": "Firefox/120" } });
  await stats.flush();
});
afterAll(() => ctx.close());

test("the command writes a DSR report of the range, per month and access method", () => {
  const output = join(ctx.dataDir, "dsr.json");
  const res = cairn(["stats", "export", "--data", ctx.dataDir, "--from", "2026-11-01", "--to", "2026-12-31", "--output", output], {}, { clock: ctx.clock });
  expect(res.stderr).toContain("wrote 1 dataset(s)");
  expect(res.code).toBe(0);
  const report = JSON.parse(readFileSync(output, "utf8"));
  expect(report["report-header"]).toMatchObject({ "report-id": "DSR", release: "rd1", "reporting-period": { "begin-date": "2026-11-01", "end-date": "2026-12-31" } });
  expect(report["report-datasets"]).toHaveLength(1);
  const dataset = report["report-datasets"][0];
  expect(dataset).toMatchObject({
    "dataset-title": "Sea surface temperature 2020-2024",
    "dataset-id": [{ type: "proprietary", value: rec.id }],
    yop: "2026",
    "data-type": "dataset",
  });
  expect(dataset.performance).toEqual([
    {
      period: { "begin-date": "2026-11-01", "end-date": "2026-11-30" },
      instance: [
        { "access-method": "regular", "metric-type": "total-dataset-investigations", count: 3 },
        { "access-method": "regular", "metric-type": "unique-dataset-investigations", count: 2 },
        { "access-method": "regular", "metric-type": "total-dataset-requests", count: 1 },
        { "access-method": "regular", "metric-type": "unique-dataset-requests", count: 1 },
        { "access-method": "machine", "metric-type": "total-dataset-investigations", count: 1 },
        { "access-method": "machine", "metric-type": "unique-dataset-investigations", count: 1 },
        { "access-method": "machine", "metric-type": "total-dataset-requests", count: 1 },
        { "access-method": "machine", "metric-type": "unique-dataset-requests", count: 1 },
      ],
    },
    {
      period: { "begin-date": "2026-12-01", "end-date": "2026-12-31" },
      instance: [
        { "access-method": "regular", "metric-type": "total-dataset-investigations", count: 1 },
        { "access-method": "regular", "metric-type": "unique-dataset-investigations", count: 1 },
      ],
    },
  ]);
});

test("a range without usage has no datasets; bad dates are usage errors", async () => {
  expect((await ctx.services.stats.exportReport(systemActor, "2025-01-01", "2025-01-31"))["report-datasets"]).toEqual([]);
  const bad = cairn(["stats", "export", "--data", ctx.dataDir, "--from", "2026-13-01", "--to", "2026-12-31"], {}, { clock: ctx.clock });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--from must be a date");
  expect(cairn(["stats", "export", "--data", ctx.dataDir, "--from", "2026-12-01", "--to", "2026-11-01"], {}, { clock: ctx.clock }).code).toBe(2);
  expect(cairn(["stats", "export", "--data", ctx.dataDir, "--to", "2026-11-01"], {}, { clock: ctx.clock }).stderr).toContain("--from is required");
});
