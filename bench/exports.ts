// Export speed: one published record with 50 creators and 100 files (every metadata field and the
// custom fields), rendered in every registered format. Target: each export under 5 ms.
//   bun run bench:exports [-- --runs 300]
// Measures (a) render alone, with the app's own vocabulary lookup, and (b) the whole in-process
// `GET /api/records/{id}` with that format's Accept (read, access check, render, response).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { systemActor } from "../src/core/actor";
import { ManualClock } from "../src/core/time";
import { renderContext } from "../src/exports/context";
import { EXPORT_FORMATS } from "../src/exports/registry";
import { DIRECTORY_ENTRIES, RICH_CUSTOM_FIELDS, RICH_METADATA } from "../test/helpers/export-samples";
import { percentile } from "./lib";

const { values } = parseArgs({ options: { runs: { type: "string", default: "300" }, creators: { type: "string", default: "50" }, files: { type: "string", default: "100" } } });
const RUNS = Number(values.runs);
const CREATORS = Number(values.creators);
const FILES = Number(values.files);
const BASE = "http://127.0.0.1:5000";

const data = mkdtempSync(join(tmpdir(), "cairn-bench-exports-"));
const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true, BASE_URL: BASE, DATACITE_PREFIX: "10.1234", RDM_RECORDS_MAX_FILES_COUNT: FILES }, env: {} });
const { app, services } = createApp({ config, clock: new ManualClock(Date.UTC(2026, 10, 22, 12)), log: () => {} });

async function call(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, ...headers } };
  if (typeof body === "string") init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const res = await app.handle(new Request(BASE + path, init));
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.headers.get("content-type")?.includes("json") ? res.json() : res.text();
}

/** The record, published through the API: 50 creators (every fifth with an ORCID), 100 files. */
async function publishRecord(): Promise<string> {
  const admin = await services.users.createUser(systemActor, { email: "admin@example.org", username: "admin", password: "admin-password", admin: true });
  const { secret } = await services.tokens.createToken(systemActor, { userId: admin.id, name: "bench" });
  for (const [type, entry] of DIRECTORY_ENTRIES) await call("POST", `/api/${type}`, secret, entry);
  const creators = Array.from({ length: CREATORS }, (_, i) => ({
    person_or_org: {
      type: "personal",
      given_name: `Given${i}`,
      family_name: `Family${i}`,
      ...(i % 5 === 0 ? { identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] } : {}),
    },
    affiliations: [{ id: "01ggx4157" }],
  }));
  const draft = await call("POST", "/api/records", secret, {
    access: { record: "public", files: "public" },
    files: { enabled: true },
    metadata: { ...RICH_METADATA, creators },
    custom_fields: RICH_CUSTOM_FIELDS,
  });
  const files = `/api/records/${draft.id}/draft/files`;
  await call(
    "POST",
    files,
    secret,
    Array.from({ length: FILES }, (_, i) => ({ key: `data/part-${i}.csv` })),
  );
  for (let i = 0; i < FILES; i++) {
    await call("PUT", `${files}/data/part-${i}.csv/content`, secret, `a,b\n${i},${i}\n`, { "content-type": "application/octet-stream" });
    await call("POST", `${files}/data/part-${i}.csv/commit`, secret);
  }
  await call("POST", `/api/records/${draft.id}/draft/actions/publish`, secret);
  return draft.id;
}

function stats(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const round = (x: number) => +x.toFixed(3);
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), max: round(sorted[sorted.length - 1]!) };
}

async function main() {
  const id = await publishRecord();
  const record = await services.records.readRecord(systemActor, id);
  if (record.metadata.creators.length !== CREATORS || Object.keys(record.files.entries as object).length !== FILES)
    throw new Error("the record does not have the expected creators and files");
  // A distinct id per run, so nothing (citeproc's item registry included) can reuse an earlier render.
  const copies = Array.from({ length: RUNS }, (_, i) => ({ ...record, id: `${record.id}-${i}` }));
  const rows: Record<string, unknown>[] = [];
  for (const format of EXPORT_FORMATS) {
    const ctx = await renderContext(services.exports.context(), [record], format.id === "citation" ? { style: "apa" } : {});
    for (let i = 0; i < 30; i++) format.render(record, ctx); // warm-up: JIT, citeproc engine
    const render: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      bytes = format.render(copies[i]!, ctx).length;
      render.push(performance.now() - start);
    }
    const http: number[] = [];
    const headers = { accept: format.mediaTypes[0]! };
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const res = await app.handle(new Request(`${BASE}/api/records/${id}`, { headers }));
      await res.text();
      http.push(performance.now() - start);
    }
    rows.push({ format: format.id, bytes, render: stats(render), http: stats(http) });
  }
  console.log(`record ${id}: ${CREATORS} creators, ${FILES} files; ${RUNS} runs per format (ms)`);
  console.log("render: each run a copy with its own id (cold: no cached citation); GET: the same record each time, in-process");
  console.log("format          bytes    render p50/p95/max        GET /api/records/{id} p50/p95/max");
  for (const r of rows as any[]) {
    console.log(
      `${r.format.padEnd(15)} ${String(r.bytes).padStart(7)}   ${[r.render.p50, r.render.p95, r.render.max].join(" / ").padEnd(24)}  ${[r.http.p50, r.http.p95, r.http.max].join(" / ")}`,
    );
  }
  const worst = Math.max(...(rows as any[]).map((r) => r.render.p95));
  console.log(`slowest render p95: ${worst} ms (target < 5 ms): ${worst < 5 ? "met" : "NOT met"}`);
  const out = join(import.meta.dir, "results", `exports-${new Date().toISOString().slice(0, 10)}.json`);
  writeFileSync(out, `${JSON.stringify({ creators: CREATORS, files: FILES, runs: RUNS, rows }, null, 2)}\n`);
  console.log(`written: ${out}`);
}

try {
  await main();
} finally {
  await services.close();
  rmSync(data, { recursive: true, force: true });
}
