// `bun run bench:postgres [-- --quick] [--records N]`: the built executable on PostgreSQL beside
// SQLite, in one run on one machine — the same N-record data set (written into SQLite, then moved
// with `cairn db copy`), the same measures on each engine in turn: start-up, the search mix
// (p50/p95/p99), GET /api/records/{id} at 1 and 64 connections, an OAI-PMH harvest's pages, and
// create + publish at 1 and 16 clients on a fresh data directory each. The PostgreSQL server is
// Debian's, started by the bench on 127.0.0.1 with durable settings (fsync on, as an installation
// runs it; SQLite runs as Cairn configures it: WAL, synchronous NORMAL). Prints a table and writes
// it as JSON to bench/results/<date>-postgres[-quick].json.
import { execSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { startPostgresCluster } from "../test/helpers/postgres-cluster";
import { ensureBuilt, EXECUTABLE, launch } from "./executable";
import { onDatabase, percentile } from "./lib";
import { runLoad } from "./load";
import { measureSearch, measureStartup, prepareRecords } from "./read-phases";
import { apiClient, createAndPublish, type RateResult } from "./write-phases";

const { values } = parseArgs({ options: { quick: { type: "boolean" }, records: { type: "string" }, keep: { type: "boolean" } } });
const QUICK = values.quick === true;
const P = QUICK
  ? { records: 10_000, queries: 300, seconds: 3, readSeconds: 2, rounds: 2, launches: 3, oaiPages: 20 }
  : { records: 100_000, queries: 600, seconds: 10, readSeconds: 5, rounds: 3, launches: 5, oaiPages: 50 };
if (values.records) P.records = Number(values.records);
const began = performance.now();
const say = (line: string) => console.error(`[bench ${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

type Engine = "sqlite" | "postgres";

/** An OAI-PMH harvest (ListRecords, oai_dc) of `pages` pages, following resumption tokens: ms per page. */
async function harvest(base: string, pages: number) {
  const times: number[] = [];
  let url = `${base}/oai2d?verb=ListRecords&metadataPrefix=oai_dc`;
  let records = 0;
  for (let i = 0; i < pages; i++) {
    const t = performance.now();
    const text = await (await fetch(url)).text();
    times.push(performance.now() - t);
    records += text.split("<record>").length - 1;
    const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(text)?.[1];
    if (!token) break;
    url = `${base}/oai2d?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { pages: times.length, records, p50: +percentile(sorted, 50).toFixed(1), p95: +percentile(sorted, 95).toFixed(1), max: +sorted.at(-1)!.toFixed(1) };
}

/** Record reads at each concurrency, `rounds` rounds, the best kept (the machine is shared). */
async function reads(base: string, ids: string[], concurrency: number) {
  let bestRound: Awaited<ReturnType<typeof runLoad>> | null = null;
  let n = 0;
  for (let r = 0; r < P.rounds; r++) {
    const round = await runLoad({
      base,
      connections: concurrency,
      seconds: P.readSeconds,
      path: () => `/api/records/${ids[n++ % ids.length]}`,
      headers: { "User-Agent": BROWSER },
      warmup: 20,
    });
    if (!bestRound || round.perSecond > bestRound.perSecond) bestRound = round;
  }
  return bestRound!;
}

/** Every read-side measure on one engine's copy of the data set. */
async function readSide(engine: Engine, data: string, publicIds: string[], queryMix: string[]) {
  say(`${engine}: start-up, ${P.launches} launches...`);
  const startup = await measureStartup(data, P.launches);
  try {
    say(`${engine}: search mix, ${queryMix.length} queries...`);
    const search = await measureSearch(startup.server.base, queryMix);
    say(`${engine}: GET /api/records/{id} at 1 and 64 connections...`);
    const one = await reads(startup.server.base, publicIds, 1);
    const many = await reads(startup.server.base, publicIds, 64);
    say(`${engine}: an OAI-PMH harvest, ${P.oaiPages} pages...`);
    const oai = await harvest(startup.server.base, P.oaiPages);
    return {
      startupMedianMs: startup.medianMs,
      idleRssMB: startup.idleRssMB,
      search,
      reads: [one, many].map((r) => ({ connections: r.connections, perSecond: r.perSecond, p50: r.p50, p99: r.p99 })),
      oai,
    };
  } finally {
    await startup.server.stop();
  }
}

/** Create + publish through the REST API on a fresh data directory, 1 then 16 clients. */
async function writeSide(engine: Engine, data: string): Promise<RateResult[]> {
  const server = await launch(data);
  try {
    say(`${engine}: create + publish, 1 then 16 clients, ${P.seconds} s each...`);
    const api = apiClient(server);
    return [await createAndPublish(api, 1, P.seconds), await createAndPublish(api, 16, P.seconds)];
  } finally {
    await server.stop();
  }
}

function formatTable(r: { sqlite: Side; postgres: Side; copySeconds: number; records: number }) {
  const row = (name: string, s: string | number, p: string | number, better: "lower" | "higher") => {
    const ratio = typeof s === "number" && typeof p === "number" && s > 0 ? (better === "lower" ? p / s : s / p) : null;
    return `| ${name} | ${s} | ${p} | ${ratio === null ? "" : `${ratio.toFixed(2)}×`} |`;
  };
  const lines = [
    `| ${r.records.toLocaleString()} records | SQLite | PostgreSQL | PostgreSQL slower by |`,
    "| --- | ---: | ---: | ---: |",
    row("start-up to first answer, median ms", r.sqlite.startupMedianMs, r.postgres.startupMedianMs, "lower"),
    row("search mix p50 ms", r.sqlite.search.p50, r.postgres.search.p50, "lower"),
    row("search mix p95 ms", r.sqlite.search.p95, r.postgres.search.p95, "lower"),
    row("search mix p99 ms", r.sqlite.search.p99, r.postgres.search.p99, "lower"),
    ...r.sqlite.reads.map((s, i) => row(`GET /api/records/{id}, ${s.connections} connection(s), req/s`, s.perSecond, r.postgres.reads[i]!.perSecond, "higher")),
    row("OAI-PMH ListRecords page p50 ms", r.sqlite.oai.p50, r.postgres.oai.p50, "lower"),
    row("OAI-PMH ListRecords page p95 ms", r.sqlite.oai.p95, r.postgres.oai.p95, "lower"),
    ...r.sqlite.writes.map((s, i) => row(`create + publish, ${s.clients} client(s), records/s`, s.perSecond, r.postgres.writes[i]!.perSecond, "higher")),
    ...r.sqlite.writes.map((s, i) => row(`create + publish, ${s.clients} client(s), p99 ms`, s.p99, r.postgres.writes[i]!.p99, "lower")),
    row("server RSS idle, MB", r.sqlite.idleRssMB, r.postgres.idleRssMB, "lower"),
    `| cairn db copy SQLite → PostgreSQL, s | | ${r.copySeconds} | |`,
  ];
  return lines.join("\n");
}

type Side = Awaited<ReturnType<typeof readSide>> & { writes: RateResult[] };

async function main() {
  const build = ensureBuilt(say);
  const root = mkdtempSync(join(tmpdir(), "cairn-bench-pg-"));
  say("starting a PostgreSQL server (Debian's, durable settings) on 127.0.0.1...");
  const cluster = await startPostgresCluster({ durable: true });
  const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
  const database = async (name: string) => (await admin.unsafe(`CREATE DATABASE ${name}`), cluster.urlOf(name));
  try {
    const sqliteData = join(root, "sqlite");
    say(`writing ${P.records.toLocaleString()} records into SQLite and indexing them...`);
    const prepared = await prepareRecords(sqliteData, P.records);
    say("cairn db copy --to postgres://… ...");
    const pgUrl = await database("cairn_records");
    const t = performance.now();
    const copy = Bun.spawnSync([EXECUTABLE, "db", "copy", "--data", sqliteData, "--to", pgUrl], { stdout: "ignore", stderr: "pipe" });
    if (copy.exitCode !== 0) throw new Error(`cairn db copy: ${copy.stderr}`);
    const copySeconds = +((performance.now() - t) / 1000).toFixed(1);
    const pgData = onDatabase(join(root, "postgres"), pgUrl);
    copyFileSync(join(sqliteData, "admin-credentials.txt"), join(pgData, "admin-credentials.txt"));
    const queryMix = prepared.queryMix(P.queries);
    const sides = {} as Record<Engine, Side>;
    for (const [engine, data] of [
      ["sqlite", sqliteData],
      ["postgres", pgData],
    ] as const) {
      const read = await readSide(engine, data, prepared.publicIds, queryMix);
      const writeData = engine === "sqlite" ? join(root, "sqlite-writes") : onDatabase(join(root, "postgres-writes"), await database("cairn_writes"));
      sides[engine] = { ...read, writes: await writeSide(engine, writeData) };
    }
    const result = {
      date: new Date().toISOString(),
      mode: QUICK ? "quick" : "full",
      machine: {
        cores: cpus().length,
        bun: Bun.version,
        postgres: execSync(`${join(cluster.bin, "postgres")} --version`)
          .toString()
          .trim(),
      },
      executable: { commit: execSync("git rev-parse --short HEAD").toString().trim(), rebuilt: build.rebuilt },
      params: P,
      records: P.records,
      copySeconds,
      sqlite: sides.sqlite,
      postgres: sides.postgres,
      seconds: Math.round((performance.now() - began) / 1000),
    };
    console.log(formatTable(result));
    mkdirSync(join(import.meta.dir, "results"), { recursive: true });
    const file = join(import.meta.dir, "results", `${result.date.slice(0, 10)}-postgres${QUICK ? "-quick" : ""}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    say(`wrote ${file}`);
  } finally {
    await admin.end();
    cluster.stop();
    if (values.keep) say(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
