// The read side of `bun run bench`: an N-record data directory, start-up on it, the search mix,
// GET /api/records/{id} through Cairn beside the bare Bun.serve baseline on the same file, and the
// landing page (GET /records/{id}) of a record with 10 files beside the JSON read of that record.
import { join } from "node:path";
import { EXECUTABLE, launch, type Launched } from "./executable";
import { MB, memory } from "./file-transfers";
import { bulkInsertRecords, createRandom, measure } from "./lib";
import { runLoad, type LoadResult } from "./load";
import { createRecordsData } from "./records-data";
import { apiClient } from "./write-phases";

// A browser's agent, so each read goes through view counting as a visitor's would.
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** A fresh data directory (migrated by a first start) with `count` published records, indexed. */
export async function prepareRecords(data: string, count: number) {
  await (await launch(data)).stop();
  const records = createRecordsData(7);
  const isPublic: boolean[] = [];
  let t = performance.now();
  const now = Date.now();
  const ids = bulkInsertRecords(
    data,
    count,
    (i) => {
      const doc = records.document(i);
      isPublic[i] = doc.access.record === "public";
      return doc;
    },
    (i) => now - (count - i) * 1000,
  );
  const generateSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  const reindex = Bun.spawnSync([EXECUTABLE, "reindex", "--data", data], { stdout: "ignore", stderr: "pipe" });
  if (reindex.exitCode !== 0) throw new Error(`cairn reindex: ${reindex.stderr}`);
  const reindexSeconds = (performance.now() - t) / 1000;
  return { publicIds: ids.filter((_, i) => isPublic[i]), queryMix: records.queryMix, generateSeconds: +generateSeconds.toFixed(1), reindexSeconds: +reindexSeconds.toFixed(1) };
}

/**
 * Launches the executable `launches` times on `data`: ms to the first answer (GET /ping) and to
 * the first search answer after it. Then one more launch for memory: its RSS a second after it
 * answers, before any request but /ping (idle), and a second after its first search (which builds
 * the search copy). That server is kept running.
 */
export async function measureStartup(data: string, launches: number) {
  const runs: { firstAnswerMs: number; firstSearchMs: number }[] = [];
  const firstSearch = async (server: Launched) => {
    const r = await fetch(`${server.base}/api/records?size=10`);
    if (!r.ok) throw new Error(`first search: ${r.status}`);
    await r.arrayBuffer();
  };
  for (let i = 0; i < launches; i++) {
    const server = await launch(data);
    const t = performance.now();
    await firstSearch(server);
    runs.push({ firstAnswerMs: +server.startupMs.toFixed(1), firstSearchMs: +(server.startupMs + performance.now() - t).toFixed(1) });
    await server.stop();
  }
  const server = await launch(data);
  await Bun.sleep(1000);
  const idleRssMB = MB(memory(server.pid).rss);
  await firstSearch(server);
  await Bun.sleep(1000);
  const afterFirstSearchRssMB = MB(memory(server.pid).rss);
  const sorted = runs.map((r) => r.firstAnswerMs).sort((a, b) => a - b);
  return { server, runs, medianMs: sorted[Math.floor(sorted.length / 2)]!, idleRssMB, afterFirstSearchRssMB };
}

/**
 * Memory after record reads: a fresh server on `data` answers GET /api/records/{id} of random
 * public records on 64 connections until `reads` are done; its peak RSS during them, and its RSS
 * once settled: 8 s after the last read, past the statistics' aggregation of the views (every
 * STATS_AGGREGATE_INTERVAL_MS, 5 s by default), which is the largest allocation of the run.
 */
export async function measureReadMemory(data: string, ids: string[], reads: number) {
  const server = await launch(data);
  try {
    const { pick } = createRandom(5);
    const idleRssMB = MB(memory(server.pid).rss);
    let done = 0;
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, memory(server.pid).rss)), 20);
    while (done < reads) {
      done += (await runLoad({ base: server.base, connections: 64, seconds: 2, path: () => `/api/records/${pick(ids)}`, headers: { "User-Agent": BROWSER }, warmup: 0 })).requests;
    }
    clearInterval(sampler);
    await Bun.sleep(8000);
    return { reads: done, idleRssMB, peakRssMB: MB(peak), rssMB: MB(memory(server.pid).rss) };
  } finally {
    await server.stop();
  }
}

/** The search issue's query mix, sequential, after 50 warm-up queries. */
export async function measureSearch(base: string, urls: string[]) {
  for (const url of urls.slice(0, 50)) await (await fetch(base + url)).arrayBuffer();
  const m = await measure(base, urls);
  return { queries: urls.length, p50: m.p50, p95: m.p95, p99: m.p99, max: m.max };
}

async function startBare(data: string) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "bare-server.ts"), "--data", data, "--port", String(port)], { stdout: "ignore", stderr: "inherit" });
  const base = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    i < 500 &&
    !(await fetch(`${base}/ping`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  )
    await Bun.sleep(10);
  return { base, stop: async () => (proc.kill("SIGTERM"), await proc.exited) };
}

export interface ReadRow {
  connections: number;
  rounds: number;
  cairn: LoadResult;
  bare: LoadResult;
  ratio: number;
}

const best = (a: LoadResult | undefined, b: LoadResult) => (a && a.perSecond >= b.perSecond ? a : b);

/**
 * GET /api/records/{id} of random public records at each concurrency, `rounds` times: the bare
 * baseline (its own process, same SQLite file) then Cairn, pair by pair so both see the same
 * machine load, keeping each side's best round (the machine is shared; the best is what it can do).
 * The baseline goes first so Cairn's view counting, which works on after its run, cannot slow it.
 */
export async function measureReads(cairnBase: string, data: string, ids: string[], seconds: number, rounds: number, concurrencies: number[]): Promise<ReadRow[]> {
  const { pick } = createRandom(3);
  const options = (base: string, connections: number) => ({ base, connections, seconds, path: () => `/api/records/${pick(ids)}`, headers: { "User-Agent": BROWSER }, warmup: 20 });
  const bare = await startBare(data);
  const rows: ReadRow[] = [];
  try {
    for (const c of concurrencies) {
      let bareBest: LoadResult | undefined;
      let cairnBest: LoadResult | undefined;
      for (let r = 0; r < rounds; r++) {
        bareBest = best(bareBest, await runLoad(options(bare.base, c)));
        cairnBest = best(cairnBest, await runLoad(options(cairnBase, c)));
      }
      rows.push({ connections: c, rounds, cairn: cairnBest!, bare: bareBest!, ratio: +(cairnBest!.perSecond / bareBest!.perSecond).toFixed(3) });
    }
  } finally {
    await bare.stop();
  }
  return rows;
}

/**
 * The landing-page benchmark's record, published through the REST API into the data set: 10 files
 * as a dataset has them — a README (its preview is the page's open one), a PDF, a figure and seven
 * CSV tables of about 100 KB. Returns its id.
 */
export async function publishTenFileRecord(server: Launched): Promise<string> {
  const api = apiClient(server);
  const draft = await api.call("POST", "/records", {
    access: { record: "public", files: "public" },
    files: { enabled: true },
    metadata: {
      resource_type: { id: "dataset" },
      title: "Sea surface temperature, North Atlantic moorings, 2015-2025",
      publication_date: "2026-11-01",
      creators: [
        { person_or_org: { type: "personal", given_name: "Ada", family_name: "Lovelace", identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] } },
        { person_or_org: { type: "personal", given_name: "Alan", family_name: "Turing" }, affiliations: [{ name: "University of Somewhere" }] },
      ],
      description: "<p>Daily sea surface temperature from moored buoys, quality-controlled and gridded.</p>",
      publisher: "Cairn",
      subjects: [{ subject: "oceanography" }, { subject: "temperature" }],
      rights: [{ id: "cc-by-4.0" }],
    },
  });
  const table = `station,time,temperature,salinity\n${"B1,2025-01-01T00:00Z,7.5,35.1\n".repeat(3300)}`;
  const files: [string, string | Uint8Array][] = [
    ["README.md", `# Moorings\n\n${"One row per station and day; temperatures in degrees Celsius.\n".repeat(20)}`],
    ["report.pdf", `%PDF-1.4\n${"% filler\n".repeat(2000)}%%EOF\n`],
    ["figure.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(20_000).fill(0)])],
    ...Array.from({ length: 7 }, (_, i): [string, string] => [`data/station-${i + 1}.csv`, table]),
  ];
  const base = `/records/${draft.id}/draft/files`;
  await api.call(
    "POST",
    base,
    files.map(([key]) => ({ key })),
  );
  for (const [key, content] of files) {
    const path = `${base}/${key.split("/").map(encodeURIComponent).join("/")}`;
    const r = await fetch(`${api.base}/api${path}/content`, { method: "PUT", headers: { ...api.auth, "Content-Type": "application/octet-stream" }, body: content });
    if (!r.ok) throw new Error(`content of ${key}: ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
    await api.call("POST", `${path}/commit`);
  }
  await api.call("POST", `/records/${draft.id}/draft/actions/publish`);
  return draft.id as string;
}

export interface LandingRow {
  connections: number;
  rounds: number;
  /** GET /records/{id} of the 10-file record. */
  page: LoadResult;
  /** GET /api/records/{id} of the same record. */
  json: LoadResult;
}

/**
 * The landing page of the 10-file record beside the JSON read of the same record, measured as
 * measureReads measures the JSON read (browser agent, view counting, warm-up, best of `rounds`
 * pairs at each concurrency); and the landing pages of random public records at 1 connection,
 * where most renders format a citation for the first time.
 */
export async function measureLandingPage(base: string, recordId: string, ids: string[], seconds: number, rounds: number, concurrencies: number[]) {
  const options = (path: () => string, connections: number) => ({ base, connections, seconds, path, headers: { "User-Agent": BROWSER }, warmup: 20 });
  const rows: LandingRow[] = [];
  for (const c of concurrencies) {
    let page: LoadResult | undefined;
    let json: LoadResult | undefined;
    for (let r = 0; r < rounds; r++) {
      json = best(json, await runLoad(options(() => `/api/records/${recordId}`, c)));
      page = best(page, await runLoad(options(() => `/records/${recordId}`, c)));
    }
    rows.push({ connections: c, rounds, page: page!, json: json! });
  }
  const { pick } = createRandom(5);
  let random: LoadResult | undefined;
  for (let r = 0; r < rounds; r++) random = best(random, await runLoad(options(() => `/records/${pick(ids)}`, 1)));
  return { rows, random: random! };
}
