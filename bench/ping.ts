// Benchmark: `/ping` latency while the worst searches we can build run without pause, with
// searches on the request thread (SEARCH_READERS=0, the baseline) and on a reader worker (the
// default), side by side on the same data. Target: /ping under 50 ms while they run.
// Usage: bun run bench:ping [-- --count 100000] [--seconds 10]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createServices } from "../src/app";
import { loadConfig } from "../src/config";
import { bulkInsertRecords, percentile, reindexData, startServer } from "./lib";
import { createRecordsData } from "./records-data";

// Read only when run as a script: run.ts imports this module with its own arguments.
const { values } = import.meta.main ? parseArgs({ options: { count: { type: "string" }, seconds: { type: "string" } } }) : { values: {} as { count?: string; seconds?: string } };
const COUNT = Number(values.count ?? 100_000);
const SECONDS = Number(values.seconds ?? 10);

/** Queries that cost the most: every record matched by prefixes, negations, many words, deep pages. */
export function worstQueries(round: number): string[] {
  // A fresh pair of letters each round, so the match cache never answers.
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const a = letters[round % 26]!;
  const b = letters[Math.floor(round / 26) % 26]!;
  const words = ["data", "ocean", "soil", "survey", "climate", "model", "river", "forest", "analysis", "water"];
  return [
    `/api/records?q=${encodeURIComponent(
      letters
        .split("")
        .map((c) => `${c}${a}*`)
        .join(" OR "),
    )}`,
    `/api/records?q=${encodeURIComponent(`${a}${b}* OR ${b}* OR ${a}*`)}&sort=mostviewed`,
    `/api/records?q=${encodeURIComponent(`-${a}* -${b}*`)}`,
    `/api/records?q=${encodeURIComponent(Array.from({ length: 300 }, (_, i) => `${words[i % 10]}${i}`).join(" OR "))}`,
    `/api/records?q=${encodeURIComponent(
      Array(400)
        .fill(words[round % 10])
        .join(" "),
    )}`,
    `/api/records?q=${encodeURIComponent("_exists_:metadata.publication_date")}&sort=oldest&page=100&size=100`,
    `/api/records?q=${encodeURIComponent(`${"(".repeat(60)}${words[round % 10]}${")".repeat(60)}`)}&page=100&size=100`,
    `/api/records?q=${encodeURIComponent(`metadata.subjects.subject:${a}* AND description:${b}*`)}&resource_type=dataset&language=eng`,
  ];
}

/** /ping latencies (ms) sampled every 10 ms while `worstQueries` run back to back for `seconds`. */
export async function pingDuringWorstSearch(base: string, seconds: number) {
  const until = performance.now() + seconds * 1000;
  const searches: number[] = [];
  const statuses = new Map<number, number>();
  const searching = (async () => {
    for (let round = 0; performance.now() < until; round++) {
      for (const url of worstQueries(round)) {
        const started = performance.now();
        const res = await fetch(base + url);
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        searches.push(performance.now() - started);
      }
    }
  })();
  const pings: number[] = [];
  while (performance.now() < until) {
    const started = performance.now();
    await (await fetch(`${base}/ping`)).arrayBuffer();
    pings.push(performance.now() - started);
    await Bun.sleep(10);
  }
  await searching;
  const stats = (xs: number[]) => {
    const sorted = [...xs].sort((x, y) => x - y);
    return { n: xs.length, p50: +percentile(sorted, 50).toFixed(1), p99: +percentile(sorted, 99).toFixed(1), max: +sorted[sorted.length - 1]!.toFixed(1) };
  };
  return { ping: stats(pings), search: stats(searches), statuses: Object.fromEntries(statuses) };
}

if (import.meta.main) {
  const dir = mkdtempSync(join(tmpdir(), "cairn-bench-ping-"));
  const data = join(dir, "data");
  try {
    const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true }, env: {} });
    await createServices({ config }).close();
    const records = createRecordsData(7);
    const now = Date.now();
    bulkInsertRecords(data, COUNT, records.document, (i) => now - (COUNT - i) * 1000);
    reindexData(data);
    console.log(`| searches | /ping p50 | /ping p99 | /ping max | worst search p50 | max | statuses |\n|---|---|---|---|---|---|---|`);
    for (const readers of ["0", "1"]) {
      const server = await startServer(data, { CAIRN_SEARCH_READERS: readers });
      try {
        const r = await pingDuringWorstSearch(server.base, SECONDS);
        const side = readers === "0" ? "on the request thread (baseline)" : "on a reader worker";
        console.log(`| ${side} | ${r.ping.p50} ms | ${r.ping.p99} ms | ${r.ping.max} ms | ${r.search.p50} ms | ${r.search.max} ms | ${JSON.stringify(r.statuses)} |`);
      } finally {
        await server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
