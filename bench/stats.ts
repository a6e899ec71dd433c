// Benchmark of statistics (issue 9): (1) GET /api/records/{id} throughput against two `cairn serve`
// processes on copies of the same data, one with STATS_ENABLED=true and one with false, measured in
// alternating rounds of the same run (many user agents, so views are really recorded); (2) the
// aggregation of N raw events (default 10 million) into daily totals.
// Usage: bun run bench:stats [-- --records 2000] [--events 10000000] [--seconds 5] [--rounds 4] [--concurrency 32] [--dir DIR]
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createServices } from "../src/app";
import { loadConfig } from "../src/config";
import { recordIdFromNumber } from "../src/records/ids";
import { visitorKey } from "../src/stats/store";
import { bulkInsertRecords, createRandom, reindexData, startServer } from "./lib";

const { values } = parseArgs({
  options: {
    records: { type: "string" },
    events: { type: "string" },
    seconds: { type: "string" },
    rounds: { type: "string" },
    concurrency: { type: "string" },
    "skip-aggregate": { type: "boolean" },
    "skip-http": { type: "boolean" },
    dir: { type: "string" },
  },
});
const RECORDS = Number(values.records ?? 2000);
const EVENTS = Number(values.events ?? 10_000_000);
const SECONDS = Number(values.seconds ?? 5);
const ROUNDS = Number(values.rounds ?? 4);
const CONCURRENCY = Number(values.concurrency ?? 32);
// --dir /dev/shm measures without the disk (this machine's disk is shared and often the bottleneck).
const dir = mkdtempSync(join(values.dir ?? tmpdir(), "cairn-bench-stats-"));
const { rand, pick } = createRandom(11);

const document = (i: number) => ({
  access: { record: "public", files: "public", embargo: { active: false, until: null, reason: null } },
  files: { enabled: false, default_preview: null, order: [] },
  metadata: {
    resource_type: { id: "dataset", title: { en: "Dataset" }, props: { type: "dataset" } },
    title: `Benchmark record ${i}`,
    publication_date: "2025-01-01",
    creators: [{ person_or_org: { type: "personal", given_name: "Ada", family_name: "Lovelace", name: "Lovelace, Ada", identifiers: [] }, affiliations: [] }],
    publisher: "Cairn",
  },
  custom_fields: {},
  pids: {},
});

async function prepare(data: string) {
  const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true }, env: {} });
  await createServices({ config }).close(); // migrate and load fixtures
  bulkInsertRecords(data, RECORDS, document, () => Date.now());
  reindexData(data);
}

const AGENTS = Array.from({ length: 500 }, (_, i) => `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + (i % 40)}.0) Gecko/20100101 Firefox/${100 + i}.0`);
const IDS = Array.from({ length: RECORDS }, (_, i) => recordIdFromNumber(2 * i + 1));

/** CPU time (user + system) a process has used, in µs (Linux: /proc, clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Requests per second of GET /api/records/{id} with CONCURRENCY in flight for SECONDS, and the
 * server's CPU time per request (steadier than throughput on a shared machine). */
async function throughput({ base, pid }: { base: string; pid: number }): Promise<{ perSecond: number; cpuPerRequest: number }> {
  const cpu0 = cpuMicros(pid);
  let done = 0;
  const until = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const res = await fetch(`${base}/api/records/${pick(IDS)}`, { headers: { "user-agent": pick(AGENTS) } });
      if (res.status !== 200) throw new Error(`answered ${res.status}`);
      await res.arrayBuffer();
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { perSecond: done / ((performance.now() - start) / 1000), cpuPerRequest: (cpuMicros(pid) - cpu0) / done };
}

async function benchHttp() {
  const on = join(dir, "on");
  await prepare(on);
  const off = join(dir, "off");
  cpSync(on, off, { recursive: true });
  const servers = { on: await startServer(on, { CAIRN_STATS_ENABLED: "true" }), off: await startServer(off, { CAIRN_STATS_ENABLED: "false" }) };
  const rates: { on: number[]; off: number[] } = { on: [], off: [] };
  const cpu: { on: number[]; off: number[] } = { on: [], off: [] };
  try {
    for (const name of ["on", "off"] as const) await throughput(servers[name]); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of (r % 2 ? ["off", "on"] : ["on", "off"]) as ("on" | "off")[]) {
        const round = await throughput(servers[name]);
        rates[name].push(Math.round(round.perSecond));
        cpu[name].push(+round.cpuPerRequest.toFixed(1));
      }
    }
  } finally {
    await servers.on.stop();
    await servers.off.stop();
  }
  const events = new Database(join(on, "cairn.db")).query("SELECT count(*) AS n FROM stats_events").get() as { n: number };
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const result = { on: Math.round(mean(rates.on)), off: Math.round(mean(rates.off)), rounds: rates, cpuMicrosPerRequest: cpu, recordedEvents: events.n };
  const cpuOn = mean(cpu.on);
  const cpuOff = mean(cpu.off);
  return {
    ...result,
    dropPercent: +((100 * (result.off - result.on)) / result.off).toFixed(1),
    cpuOn: +cpuOn.toFixed(1),
    cpuOff: +cpuOff.toFixed(1),
    cpuIncreasePercent: +((100 * (cpuOn - cpuOff)) / cpuOff).toFixed(1),
  };
}

/** N events over 30 days, 100,000 records (80,000 parents), 1 million visitors; 70 % views. */
function insertEvents(data: string) {
  const db = new Database(join(data, "cairn.db"));
  const insert = db.query(
    "INSERT INTO stats_events (kind, ts, record_id, parent_id, visitor, file_key, bytes, is_machine, record_key, visitor_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  // The keys the recorder gives (store.insertEvents): record r is key r + 1.
  const insertKey = db.query("INSERT INTO stats_keys (key, value) VALUES (?, ?)");
  db.transaction(() => {
    for (let r = 0; r < 100_000; r++) insertKey.run(r + 1, `rec${r}`);
  })();
  const t0 = Date.UTC(2026, 9, 1);
  const span = 30 * 86_400_000;
  for (let start = 0; start < EVENTS; start += 100_000) {
    db.transaction(() => {
      for (let i = start; i < Math.min(EVENTS, start + 100_000); i++) {
        const r = Math.floor(rand() * rand() * 100_000); // popular records get more
        const download = rand() < 0.3;
        const visitor = `v${Math.floor(rand() * 1_000_000)}`;
        insert.run(
          download ? 1 : 0,
          t0 + Math.floor((i / EVENTS) * span),
          `rec${r}`,
          `par${Math.floor(r * 0.8)}`,
          visitor,
          download ? "data.csv" : null,
          download ? 1_000_000 : 0,
          download && rand() < 0.05 ? 1 : 0,
          r + 1,
          visitorKey(visitor),
        );
      }
    })();
  }
  db.close();
}

async function benchAggregate() {
  const data = join(dir, "agg");
  const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true }, env: {} });
  await createServices({ config }).close();
  let t = performance.now();
  insertEvents(data);
  const insertSeconds = (performance.now() - t) / 1000;
  const services = createServices({ config });
  t = performance.now();
  const run = await services.stats.aggregate({ chunk: 200_000 });
  const seconds = (performance.now() - t) / 1000;
  await services.close();
  return { events: run.events, seconds: +seconds.toFixed(1), perSecond: Math.round(run.events / seconds), parents: run.parents, insertSeconds: +insertSeconds.toFixed(1) };
}

try {
  const result: Record<string, unknown> = {
    date: new Date().toISOString(),
    dir: values.dir ?? tmpdir(),
    records: RECORDS,
    seconds: SECONDS,
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
  };
  if (!values["skip-http"]) {
    result.http = await benchHttp();
    console.log("GET /api/records/{id}:", JSON.stringify(result.http));
  }
  if (!values["skip-aggregate"]) {
    result.aggregate = await benchAggregate();
    console.log("aggregation:", JSON.stringify(result.aggregate));
  }
  writeFileSync(join(import.meta.dir, "results", `stats-${result.date!.toString().slice(0, 10)}.json`), JSON.stringify(result, null, 2) + "\n");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
