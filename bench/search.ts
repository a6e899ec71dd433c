// Benchmark: N published records (default 100,000) with realistic metadata, bulk-indexed with
// `cairn reindex` (records/s), then the search issue's query mix over HTTP against `cairn serve`:
// common and rare terms, phrases, fielded queries, ranges, facets (every query computes them),
// sorts, page 1 and page 50. Usage: bun run bench:search [-- --count 1000000] [--queries 600]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createServices } from "../src/app";
import { loadConfig } from "../src/config";
import { bulkInsertRecords, measure, seedAndServe } from "./lib";
import { createRecordsData } from "./records-data";

const { values } = parseArgs({ options: { count: { type: "string" }, queries: { type: "string" }, keep: { type: "boolean" } } });
const COUNT = Number(values.count ?? 100_000);
const QUERIES = Number(values.queries ?? 600);
const dir = mkdtempSync(join(tmpdir(), "cairn-bench-search-"));
const data = join(dir, "data");

const records = createRecordsData(7);

function generate() {
  const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true }, env: {} });
  createServices({ config }).close(); // migrate and load fixtures
  const now = Date.now();
  bulkInsertRecords(data, COUNT, records.document, (i) => now - (COUNT - i) * 1000);
}

try {
  const { genSeconds, reindexSeconds, server } = await seedAndServe(data, generate);
  const base = server.base;
  try {
    const urls = records.queryMix(QUERIES);
    for (const url of urls.slice(0, 50)) await (await fetch(base + url)).arrayBuffer(); // warm up
    const measured = await measure(base, urls);
    const result = {
      date: new Date().toISOString(),
      records: COUNT,
      generateSeconds: +genSeconds.toFixed(1),
      reindex: { seconds: +reindexSeconds.toFixed(1), perSecond: Math.round(COUNT / reindexSeconds) },
      queries: { count: QUERIES, p50: measured.p50, p95: measured.p95, p99: measured.p99, max: measured.max },
      slowest: measured.slowest.map((x) => `${x.ms.toFixed(0)} ms ${decodeURIComponent(x.url)}`),
    };
    console.log(`| measure | result |\n|---|---|`);
    console.log(`| records | ${COUNT.toLocaleString()} |`);
    console.log(`| cairn reindex | ${result.reindex.seconds} s (${result.reindex.perSecond.toLocaleString()} records/s) |`);
    console.log(`| query mix over HTTP (${QUERIES}) | p50 ${result.queries.p50} ms, p95 ${result.queries.p95} ms, p99 ${result.queries.p99} ms, max ${result.queries.max} ms |`);
    console.log("slowest:\n  " + result.slowest.join("\n  "));
    writeFileSync(join(import.meta.dir, "results", `search-${COUNT}-${result.date.slice(0, 10)}.json`), JSON.stringify(result, null, 2) + "\n");
  } finally {
    await server.stop();
  }
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
