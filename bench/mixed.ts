// `bun run bench:mixed`: a mixed workload against the built executable over an N-record data
// directory, modelled on the locustfile Zenodo's engineers load-test InvenioRDM (ZenodoRDM) with:
// throughput and p50/p95/p99 per request kind beside the issue's targets, errors, the server's peak
// RSS and CPU, and this generator's own CPU. Usage:
//   bun run bench:mixed [-- --users 64 --seconds 60 --records 100000 --think 1 --workers 1 --engine sqlite --keep]
// (`--engine postgres`: the records written into SQLite are copied with `cairn db copy` into a
// database of a PostgreSQL cluster started for the run, Debian's, and served from there.)
//
// The users, each an async loop in this one process (fetch, keep-alive; one request at a time):
// - guests, 3/4 of the users: a visit is a search `GET /api/records?q=dataset OR <word>&size=10`
//   (default facets; <word> is half the time a word of the records, half a random token that
//   matches nothing, as Zenodo's random hex defeats caches), then one record as JSON
//   (`GET /api/records/{id}`) and its landing page (`GET /records/{id}`): a hit of the search half
//   the time, otherwise a random public record (arriving by a link). A browser's agent, so view
//   counting runs. Think time 0.5-5 s before each request (the locustfile's `between(0.5, 5.0)`).
// - depositors, the rest (14 of 64), each its own account and token: the locustfile's task —
//   `GET /api/user/records`, create a draft, start an upload, PUT 1 MiB, commit, publish, then view
//   the record as JSON and HTML — with short think times (0.1-0.5 s) between the steps and 0.5-5 s
//   between deposits.
// - harvesters, 1 in 32 (at least one): `ListRecords` in `oai_dc` from a random `from` within the
//   records' dates, following resumption tokens to the end, then again; 0.5-1 s between pages.
// Every user starts with a think time, so they do not arrive together. `--think F` scales every
// think time (0: no pauses, a saturation test). With the default think times the request rate is
// set by the users, not the server: read the latencies, which are the measure, and the errors.
// Every answer outside 2xx/3xx (and an OAI-PMH error other than noRecordsMatch) is an error.
import { execSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { startPostgresCluster } from "../test/helpers/postgres-cluster";
import { ensureBuilt, EXECUTABLE, launchWorkers } from "./executable";
import { MB, memory } from "./file-transfers";
import { cpuSeconds, createRandom, onDatabase, percentile } from "./lib";
import { prepareRecords } from "./read-phases";

const { values } = parseArgs({
  options: {
    users: { type: "string" },
    seconds: { type: "string" },
    records: { type: "string" },
    think: { type: "string" },
    workers: { type: "string" },
    engine: { type: "string" },
    keep: { type: "boolean" },
  },
});
const P = {
  users: Number(values.users ?? 64),
  seconds: Number(values.seconds ?? 60),
  records: Number(values.records ?? 100_000),
  think: Number(values.think ?? 1),
  // `cairn serve --workers N`: the server's CPU and memory are then its processes' together.
  workers: Number(values.workers ?? 1),
  engine: values.engine === "postgres" ? ("postgres" as const) : ("sqlite" as const),
};
const MIX = { harvesters: Math.max(1, Math.round(P.users / 32)), guests: Math.max(1, Math.round(P.users * 0.75)), depositors: 0 };
MIX.depositors = Math.max(1, P.users - MIX.guests - MIX.harvesters);
/** Think times in seconds, before scaling by --think. */
const THINK = { guest: [0.5, 5], depositStep: [0.1, 0.5], betweenDeposits: [0.5, 5], harvestPage: [0.5, 1] } as const;
const READ_MS = 100;
const DEPOSIT_STEP_MS = 500;
const KINDS = {
  search: { label: "GET /api/records?q=dataset OR <word>&size=10 (with facets)", target: READ_MS },
  record: { label: "GET /api/records/{id}", target: READ_MS },
  landing: { label: "GET /records/{id} (landing page)", target: READ_MS },
  oai: { label: "GET /oai2d ListRecords oai_dc (one page)", target: READ_MS },
  userRecords: { label: "GET /api/user/records", target: READ_MS },
  create: { label: "POST /api/records (create a draft)", target: DEPOSIT_STEP_MS },
  startUpload: { label: "POST .../draft/files (start an upload)", target: DEPOSIT_STEP_MS },
  content: { label: "PUT .../content (1 MiB)", target: DEPOSIT_STEP_MS },
  commit: { label: "POST .../commit", target: DEPOSIT_STEP_MS },
  publish: { label: "POST .../actions/publish", target: DEPOSIT_STEP_MS },
} as const;
type Kind = keyof typeof KINDS;

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const WORDS = ["ocean", "climate", "temperature", "soil", "carbon", "genome", "river", "glacier", "coral", "forest", "species", "sediment", "drought", "energy"];
const DEPOSIT = {
  access: { record: "public", files: "public" },
  files: { enabled: true },
  metadata: {
    resource_type: { id: "dataset" },
    title: "Testing datasets",
    publication_date: "2026-08-01",
    publisher: "Cairn",
    rights: [{ id: "cc-by-4.0" }],
    creators: [{ person_or_org: { type: "personal", family_name: "Anonymous", given_name: "User" } }],
    description: "<p>Testing dataset creation</p>",
  },
};
/** The deposits' 1 MiB file: 64 KiB of random bytes repeated. */
const CONTENT = new Uint8Array(1024 * 1024);
crypto.getRandomValues(CONTENT.subarray(0, 65536));
for (let i = 65536; i < CONTENT.length; i += 65536) CONTENT.copyWithin(i, 0, 65536);
const say = (line: string) => console.error(`[bench:mixed ${((performance.now() - began) / 1000).toFixed(0).padStart(3)} s] ${line}`);
const began = performance.now();
const uptime = () => execSync("uptime").toString().trim();
const round = (x: number) => +x.toFixed(1);
const { rand, pick } = createRandom(22);

/** Accounts with a token each for the depositors, made with the CLI before the server starts. */
function depositorTokens(data: string, count: number): string[] {
  const run = (args: string[]) => {
    const r = Bun.spawnSync([EXECUTABLE, ...args, "--data", data], { stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`cairn ${args.join(" ")}: ${r.stderr}`);
    return r.stdout.toString().trim();
  };
  return Array.from({ length: count }, (_, i) => {
    const email = `depositor-${i + 1}@example.org`;
    run(["users", "create", "--email", email]);
    return run(["tokens", "create", "--email", email, "--name", "bench"]);
  });
}

/** The load: users of each kind for P.seconds against `base`; everything measured is in here. */
function createWorkload(base: string, publicIds: string[], tokens: string[]) {
  const latencies = Object.fromEntries(Object.keys(KINDS).map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
  const errors = Object.fromEntries(Object.keys(KINDS).map((k) => [k, 0])) as Record<Kind, number>;
  const firstErrors: string[] = [];
  const done = { deposits: 0, harvestedRecords: 0 };
  let deadline = Infinity;
  const running = () => performance.now() < deadline;
  /** A think time (cut short at the deadline); whether the run goes on after it. */
  const pause = async ([low, high]: readonly [number, number]) => {
    const ms = P.think * 1000 * (low + rand() * (high - low));
    if (ms > 0) await Bun.sleep(Math.max(0, Math.min(ms, deadline - performance.now())));
    return running();
  };

  /** One request, timed to the end of its body; the body's text when asked for, null on an error. */
  async function call(kind: Kind, path: string, init: RequestInit & { text?: boolean; ok?: (body: string) => boolean } = {}): Promise<string | null> {
    const started = performance.now();
    let status = 0;
    let body = "";
    try {
      const r = await fetch(base + path, { ...init, redirect: "manual" });
      status = r.status;
      if (init.text || init.ok || status >= 400) body = await r.text();
      else await r.arrayBuffer();
    } catch (error) {
      body = String(error);
    }
    latencies[kind].push(performance.now() - started);
    if (status >= 200 && status < 400 && (!init.ok || init.ok(body))) return body;
    errors[kind]++;
    if (firstErrors.length < 5) firstErrors.push(`${kind}: ${init.method ?? "GET"} ${path} answered ${status || "nothing"}: ${body.slice(0, 300)}`);
    return null;
  }

  async function guest(n: number) {
    const headers = { "User-Agent": `${BROWSER} guest-${n}`, Accept: "application/json" };
    while (await pause(THINK.guest)) {
      const word = rand() < 0.5 ? pick(WORDS) : `w${Math.floor(rand() * 2 ** 40).toString(36)}`;
      const found = await call("search", `/api/records?q=${encodeURIComponent(`dataset OR ${word}`)}&size=10`, { headers, text: true });
      const hits = found === null ? [] : (JSON.parse(found).hits.hits as { id: string }[]);
      const id = hits.length > 0 && rand() < 0.5 ? pick(hits).id : pick(publicIds);
      if (!(await pause(THINK.guest))) break;
      await call("record", `/api/records/${id}`, { headers });
      if (!(await pause(THINK.guest))) break;
      await call("landing", `/records/${id}`, { headers: { "User-Agent": headers["User-Agent"], Accept: "text/html" } });
    }
  }

  /** One deposit, step by step; stops at the first error or when the time is up. */
  async function deposit(token: string) {
    const auth = { Authorization: `Bearer ${token}` };
    const json = (body?: unknown) => ({
      method: "POST",
      headers: { ...auth, Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      text: true,
    });
    if ((await call("userRecords", "/api/user/records", { headers: { ...auth, Accept: "application/json" } })) === null) return;
    if (!(await pause(THINK.depositStep))) return;
    const created = await call("create", "/api/records", json(DEPOSIT));
    if (created === null) return;
    const id = JSON.parse(created).id as string;
    const files = `/api/records/${id}/draft/files`;
    const steps: [Kind, string, RequestInit & { text?: boolean }][] = [
      ["startUpload", files, json([{ key: "data.bin" }])],
      ["content", `${files}/data.bin/content`, { method: "PUT", headers: { ...auth, "Content-Type": "application/octet-stream" }, body: CONTENT }],
      ["commit", `${files}/data.bin/commit`, json()],
      ["publish", `/api/records/${id}/draft/actions/publish`, json()],
      ["record", `/api/records/${id}`, { headers: { ...auth, Accept: "application/json" } }],
      ["landing", `/records/${id}`, { headers: { ...auth, Accept: "text/html" } }],
    ];
    for (const [kind, path, init] of steps) {
      if (!(await pause(THINK.depositStep))) return;
      if ((await call(kind, path, init)) === null) return;
      if (kind === "publish") done.deposits++;
    }
  }

  async function depositor(token: string) {
    while (await pause(THINK.betweenDeposits)) await deposit(token);
  }

  /** Incremental harvests from a random date within the records' (written a second apart up to now). */
  async function harvester() {
    const headers = { "User-Agent": "cairn-bench-harvester/1.0" };
    const ok = (page: string) => !page.includes("<error") || page.includes('code="noRecordsMatch"');
    while (await pause(THINK.harvestPage)) {
      const from = new Date(Date.now() - rand() * P.records * 1000).toISOString().slice(0, 19) + "Z";
      let path = `/oai2d?verb=ListRecords&metadataPrefix=oai_dc&from=${from}`;
      for (;;) {
        const page = await call("oai", path, { headers, ok });
        if (page === null) break;
        done.harvestedRecords += page.split("<record>").length - 1;
        const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(page)?.[1];
        if (!token || !(await pause(THINK.harvestPage))) break;
        path = `/oai2d?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
      }
    }
  }

  /** Runs every user until the deadline and waits for their last requests; the run's wall-clock seconds. */
  async function run() {
    const started = performance.now();
    deadline = started + P.seconds * 1000;
    await Promise.all([
      ...Array.from({ length: MIX.guests }, (_, i) => guest(i)),
      ...Array.from({ length: MIX.depositors }, (_, i) => depositor(tokens[i]!)),
      ...Array.from({ length: MIX.harvesters }, () => harvester()),
    ]);
    return (performance.now() - started) / 1000;
  }
  /** Per request kind: count, rate, percentiles (ms), errors and the p99 target. */
  function stats(seconds: number) {
    return (Object.keys(KINDS) as Kind[]).map((kind) => {
      const sorted = [...latencies[kind]].sort((a, b) => a - b);
      const p = (q: number) => (sorted.length ? round(percentile(sorted, q)) : 0);
      const { label, target } = KINDS[kind];
      const [p50, p95, p99, max] = [p(50), p(95), p(99), p(100)];
      return { kind, label, count: sorted.length, perSecond: round(sorted.length / seconds), p50, p95, p99, max, errors: errors[kind], target, met: p99 < target };
    });
  }
  return { run, stats, firstErrors, done };
}

/** A search, a record, a landing page and an OAI-PMH page before the clock starts; the search's facets. */
async function warmUp(base: string, id: string) {
  const search = await fetch(`${base}/api/records?q=${encodeURIComponent("dataset OR ocean")}&size=10`);
  if (!search.ok) throw new Error(`warm-up search: ${search.status} ${await search.text()}`);
  const facets = Object.keys(((await search.json()) as { aggregations?: object }).aggregations ?? {});
  if (facets.length === 0) throw new Error("the search answered without facets (aggregations)");
  for (const path of [`/api/records/${id}`, `/records/${id}`, "/oai2d?verb=ListRecords&metadataPrefix=oai_dc"]) {
    const r = await fetch(base + path);
    if (!r.ok) throw new Error(`warm-up ${path}: ${r.status}`);
    await r.arrayBuffer();
  }
  return facets;
}

async function main() {
  const build = ensureBuilt(say);
  const root = mkdtempSync(join(tmpdir(), "cairn-bench-mixed-"));
  const cluster = P.engine === "postgres" ? await startPostgresCluster({ durable: true }) : null;
  let data = join(root, "data");
  try {
    say(`writing ${P.records.toLocaleString()} records and indexing them (cairn reindex)...`);
    const prepared = await prepareRecords(data, P.records);
    if (cluster) {
      say("cairn db copy --to postgres://… ...");
      const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
      await admin.unsafe("CREATE DATABASE cairn_mixed");
      await admin.end();
      const url = cluster.urlOf("cairn_mixed");
      const copy = Bun.spawnSync([EXECUTABLE, "db", "copy", "--data", data, "--to", url], { stdout: "ignore", stderr: "pipe" });
      if (copy.exitCode !== 0) throw new Error(`cairn db copy: ${copy.stderr}`);
      const pgData = onDatabase(join(root, "postgres"), url);
      // The administrator the copy brought along, whose token the start-up check uses.
      copyFileSync(join(data, "admin-credentials.txt"), join(pgData, "admin-credentials.txt"));
      data = pgData;
    }
    say(`${MIX.depositors} depositor accounts with tokens...`);
    const tokens = depositorTokens(data, MIX.depositors);
    const server = await launchWorkers(data, P.workers);
    // The supervisor and its workers (or the one server), summed.
    const pids = [...new Set([server.pid, ...server.pids])];
    const rss = () => pids.reduce((sum, pid) => sum + memory(pid).rss, 0);
    const cpuOfServer = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    try {
      const facets = await warmUp(server.base, prepared.publicIds[0]!);
      say(`facets of the search: ${facets.join(", ")}`);
      let peakRss = rss();
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, rss())), 100);
      const workload = createWorkload(server.base, prepared.publicIds, tokens);
      const loadBefore = { uptime: uptime(), loadavg: loadavg().map((x) => +x.toFixed(2)) };
      say(`${P.users} users (${MIX.guests} guests, ${MIX.depositors} depositors, ${MIX.harvesters} harvesters) for ${P.seconds} s, think times x${P.think}...`);
      const [cpu0, serverCpu0] = [process.cpuUsage(), cpuOfServer()];
      const seconds = await workload.run();
      const used = process.cpuUsage(cpu0);
      const [generatorCpu, serverCpu] = [(used.user + used.system) / 1e6, cpuOfServer() - serverCpu0];
      clearInterval(sampler);
      const mem = pids.map(memory).reduce((sum, m) => ({ rss: sum.rss + m.rss, hwm: sum.hwm + m.hwm }), { rss: 0, hwm: 0 });
      const kinds = workload.stats(seconds);
      const requests = kinds.reduce((sum, k) => sum + k.count, 0);
      const result = {
        date: new Date().toISOString(),
        params: P,
        mix: MIX,
        thinkSeconds: THINK,
        machine: { cores: cpus().length, bun: Bun.version, loadBefore, loadAfter: { uptime: uptime(), loadavg: loadavg().map((x) => +x.toFixed(2)) } },
        executable: { commit: execSync("git rev-parse --short HEAD").toString().trim(), rebuilt: build.rebuilt },
        prepare: { generateSeconds: prepared.generateSeconds, reindexSeconds: prepared.reindexSeconds },
        facets,
        seconds: round(seconds),
        requests,
        perSecond: round(requests / seconds),
        ...workload.done,
        kinds,
        errors: { count: kinds.reduce((sum, k) => sum + k.errors, 0), first: workload.firstErrors },
        server: { peakRssMB: MB(Math.max(peakRss, mem.rss)), vmHwmMB: MB(mem.hwm), cpuSeconds: +serverCpu.toFixed(2) },
        generator: { cpuSeconds: +generatorCpu.toFixed(2), shareOfOneCore: +(generatorCpu / seconds).toFixed(2) },
      };
      console.log(
        [
          `${P.users} users (${MIX.guests} guests, ${MIX.depositors} depositors, ${MIX.harvesters} harvesters), ${result.seconds} s, ${P.records.toLocaleString("en-US")} records, think x${P.think}, ${P.workers} worker(s) on ${P.engine === "postgres" ? "PostgreSQL" : "SQLite"}; commit ${result.executable.commit}, Bun ${Bun.version}, ${result.machine.cores} cores`,
          `load before: ${result.machine.loadBefore.uptime}`,
          `load after:  ${result.machine.loadAfter.uptime}`,
          "",
          "| request | count | per s | p50 ms | p95 ms | p99 ms | max ms | errors | target (p99) |",
          "|---|---|---|---|---|---|---|---|---|",
          ...result.kinds.map(
            (k) => `| ${k.label} | ${k.count} | ${k.perSecond} | ${k.p50} | ${k.p95} | ${k.p99} | ${k.max} | ${k.errors} | < ${k.target} ms: ${k.met ? "met" : "**missed**"} |`,
          ),
          "",
          `throughput: ${result.perSecond} requests/s (${result.requests} requests); ${result.deposits} deposits published; ${result.harvestedRecords} records harvested`,
          `errors: ${result.errors.count} (target 0: ${result.errors.count === 0 ? "met" : "**missed**"})${result.errors.first.map((e) => `\n  ${e}`).join("")}`,
          `server: peak RSS ${result.server.peakRssMB} MB (sampled every 100 ms; VmHWM ${result.server.vmHwmMB} MB), ${result.server.cpuSeconds} s of CPU`,
          `generator: ${result.generator.cpuSeconds} s of CPU (${Math.round(result.generator.shareOfOneCore * 100)}% of one core) — ${result.generator.cpuSeconds < result.server.cpuSeconds ? "less than the server's, so the generator does not dominate" : "NOT less than the server's: the generator may dominate the machine"}`,
        ].join("\n"),
      );
      const defaults = P.users === 64 && P.seconds === 60 && P.records === 100_000 && P.think === 1 && P.workers === 1 && P.engine === "sqlite";
      const name = `mixed-${result.date.slice(0, 10)}${defaults ? "" : `-${P.users}u-${P.seconds}s-${P.records}r-think${P.think}${P.workers > 1 ? `-${P.workers}w` : ""}${P.engine === "postgres" ? "-postgres" : ""}`}.json`;
      mkdirSync(join(import.meta.dir, "results"), { recursive: true });
      writeFileSync(join(import.meta.dir, "results", name), `${JSON.stringify(result, null, 2)}\n`);
      say(`wrote bench/results/${name}`);
    } finally {
      await server.stop();
    }
  } finally {
    cluster?.stop();
    if (values.keep) say(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
