// `bun run bench:workers [-- --quick] [--records N] [--engines sqlite,postgres]`: `cairn serve
// --workers 1` beside `--workers 2` (the built executable) on one machine, in one run, on each
// engine: GET /api/records/{id} at 64 connections beside the bare single-process Bun.serve on the
// same SQLite file, the search mix (p50/p95), and create + publish at 16 clients on a fresh data
// directory. PostgreSQL is Debian's, started by the bench on 127.0.0.1 with durable settings, its
// data set moved there with `cairn db copy`. The load generator runs on the same cores as the
// server (a 2-core machine shares them three ways): the table says what the machine does, not
// what the workers would on cores of their own. Prints a table and writes it as JSON to
// bench/results/<date>-workers[-quick].json.
import { execSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { startPostgresCluster } from "../test/helpers/postgres-cluster";
import { ensureBuilt, EXECUTABLE, launch, launchWorkers, type Launched } from "./executable";
import { cpuSeconds, onDatabase } from "./lib";
import { runLoad } from "./load";
import { measureReads, measureSearch, prepareRecords, type ReadRow } from "./read-phases";
import { apiClient, createAndPublish, type RateResult } from "./write-phases";

const { values } = parseArgs({ options: { quick: { type: "boolean" }, records: { type: "string" }, engines: { type: "string" }, keep: { type: "boolean" } } });
const QUICK = values.quick === true;
const P = QUICK ? { records: 10_000, queries: 200, seconds: 4, readSeconds: 3, rounds: 2 } : { records: 100_000, queries: 400, seconds: 10, readSeconds: 5, rounds: 3 };
if (values.records) P.records = Number(values.records);
const ENGINES = (values.engines ?? "sqlite,postgres").split(",") as Engine[];
const WORKERS = [1, 2];
const began = performance.now();
const say = (line: string) => console.error(`[bench ${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s] ${line}`);

type Engine = "sqlite" | "postgres";

interface Row {
  engine: Engine;
  workers: number;
  reads: ReadRow;
  cpu: Awaited<ReturnType<typeof cpuPerRead>>;
  search: Awaited<ReturnType<typeof measureSearch>>;
  publish: RateResult;
}

/** The serving processes' CPU µs per record read at 64 connections (one more load, on Cairn alone). */
async function cpuPerRead(server: Launched & { pids: number[] }, ids: string[]) {
  let n = 0;
  const before = server.pids.map(cpuSeconds);
  const load = await runLoad({ base: server.base, connections: 64, seconds: P.readSeconds, path: () => `/api/records/${ids[n++ % ids.length]}`, warmup: 0 });
  const cpu = server.pids.map(cpuSeconds).reduce((sum, s, i) => sum + s - before[i]!, 0);
  return { perSecond: load.perSecond, cpuMicrosPerRead: +((cpu * 1e6) / load.requests).toFixed(1), cpuCores: +(cpu / load.seconds).toFixed(2) };
}

/** One engine and worker count; the bare baseline reads the SQLite copy of the same records (`bareData`). */
async function measureOne(engine: Engine, workers: number, data: string, bareData: string, writeData: string, ids: string[], queryMix: string[]): Promise<Row> {
  say(`${engine}, ${workers} worker(s): GET /api/records/{id} at 64 connections beside the bare server, then the search mix...`);
  const server = await launchWorkers(data, workers);
  let reads: ReadRow;
  let search: Row["search"];
  let cpu: Row["cpu"];
  try {
    reads = (await measureReads(server.base, bareData, ids, P.readSeconds, P.rounds, [64]))[0]!;
    cpu = await cpuPerRead(server, ids);
    search = await measureSearch(server.base, queryMix);
  } finally {
    await server.stop();
  }
  say(`${engine}, ${workers} worker(s): create + publish, 16 clients, ${P.seconds} s...`);
  const writer = await launchWorkers(writeData, workers);
  try {
    return { engine, workers, reads: reads!, cpu: cpu!, search: search!, publish: await createAndPublish(apiClient(writer), 16, P.seconds) };
  } finally {
    await writer.stop();
  }
}

function formatTable(rows: Row[]) {
  const lines = [
    "| engine | workers | GET 64 conn. req/s | bare Bun.serve req/s | ×1 worker | server CPU µs a read (cores busy) | search p50 / p95 ms | create + publish 16 clients rec/s |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of rows) {
    const one = rows.find((o) => o.engine === r.engine && o.workers === 1)!;
    lines.push(
      `| ${r.engine} | ${r.workers} | ${r.reads.cairn.perSecond} | ${r.reads.bare.perSecond} | ${(r.reads.cairn.perSecond / one.reads.cairn.perSecond).toFixed(2)} | ${r.cpu.cpuMicrosPerRead} (${r.cpu.cpuCores}) | ${r.search.p50} / ${r.search.p95} | ${r.publish.perSecond} |`,
    );
  }
  return lines.join("\n");
}

async function main() {
  const build = ensureBuilt(say);
  const root = mkdtempSync(join(tmpdir(), "cairn-bench-workers-"));
  const cluster = ENGINES.includes("postgres") ? await startPostgresCluster({ durable: true }) : null;
  const admin = cluster ? postgres(cluster.url, { max: 1, onnotice: () => {} }) : null;
  const database = async (name: string) => (await admin!.unsafe(`CREATE DATABASE ${name}`), cluster!.urlOf(name));
  try {
    const sqliteData = join(root, "sqlite");
    say(`writing ${P.records.toLocaleString()} records into SQLite and indexing them...`);
    const prepared = await prepareRecords(sqliteData, P.records);
    const queryMix = prepared.queryMix(P.queries);
    const rows: Row[] = [];
    for (const engine of ENGINES) {
      let data = sqliteData;
      if (engine === "postgres") {
        say("cairn db copy --to postgres://… ...");
        const url = await database("cairn_records");
        const copy = Bun.spawnSync([EXECUTABLE, "db", "copy", "--data", sqliteData, "--to", url], { stdout: "ignore", stderr: "pipe" });
        if (copy.exitCode !== 0) throw new Error(`cairn db copy: ${copy.stderr}`);
        data = onDatabase(join(root, "postgres"), url);
        copyFileSync(join(sqliteData, "admin-credentials.txt"), join(data, "admin-credentials.txt"));
      }
      for (const workers of WORKERS) {
        const name = `${engine}-writes-${workers}`;
        const writeData = engine === "postgres" ? onDatabase(join(root, name), await database(name.replaceAll("-", "_"))) : join(root, name);
        // A first start makes the write side's administrator, whose token the publishing clients use.
        await (await launch(writeData)).stop();
        rows.push(await measureOne(engine, workers, data, sqliteData, writeData, prepared.publicIds, queryMix));
      }
    }
    const result = {
      date: new Date().toISOString(),
      mode: QUICK ? "quick" : "full",
      machine: { cores: cpus().length, bun: Bun.version },
      executable: { commit: execSync("git rev-parse --short HEAD").toString().trim(), rebuilt: build.rebuilt },
      params: P,
      rows,
      seconds: Math.round((performance.now() - began) / 1000),
    };
    console.log(formatTable(rows));
    mkdirSync(join(import.meta.dir, "results"), { recursive: true });
    const file = join(import.meta.dir, "results", `${result.date.slice(0, 10)}-workers${QUICK ? "-quick" : ""}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    say(`wrote ${file}`);
  } finally {
    await admin?.end();
    cluster?.stop();
    if (values.keep) say(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
