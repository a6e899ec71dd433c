// Where a record read's CPU goes, phase by phase (issue 22, item 1):
//  1. in process, no HTTP: each phase of GET /api/records/{id} timed alone over the same random
//     public records (the service's point reads statement by statement, presentation, JSON,
//     Signposting, view counting, the whole app.handle, and app.handle of /ping: the framework's
//     floor), in µs a read;
//  2. over HTTP: the server's CPU (all its threads, process.cpuUsage) per request for Cairn's own
//     server and a bare Bun.serve answering the stored JSON from the same file, both in this process,
//     driven by bench/load-child.ts in its own process.
// bun run bench:read-cost [-- --records 10000] [--seconds 5] [--connections 1,64] [--data DIR] [--in-process]
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { anonymous } from "../src/core/actor";
import { startServer } from "../src/server/serve";
import { createRandom } from "./lib";
import type { LoadResult } from "./load";
import { prepareRecords } from "./read-phases";
import { timeStatements } from "./sql-timing";

const { values } = parseArgs({
  options: {
    records: { type: "string", default: "10000" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "1,64" },
    data: { type: "string" },
    "in-process": { type: "boolean" },
  },
});
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const own = !values.data;
const data = values.data ?? mkdtempSync(join(tmpdir(), "cairn-read-cost-"));
const idsFile = join(data, "bench-ids.json");
if (own) writeFileSync(idsFile, JSON.stringify((await prepareRecords(data, Number(values.records))).publicIds));
const ids: string[] = await Bun.file(idsFile).json();
const { pick } = createRandom(11);

// -- 1. In process: statement-by-statement SQL time (bench/sql-timing.ts).
const statements = timeStatements();

const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true } });
const { app, services, directRoutes } = createApp({ config });
const N = 20_000;
const phases: { phase: string; us: number }[] = [];
async function phase(name: string, run: (id: string) => unknown) {
  for (let i = 0; i < 2000; i++) await run(pick(ids));
  const t = performance.now();
  for (let i = 0; i < N; i++) await run(pick(ids));
  phases.push({ phase: name, us: +(((performance.now() - t) * 1000) / N).toFixed(1) });
}
statements.on = true;
await phase("records.readRecord (point reads + presentation)", (id) => services.records.readRecord(anonymous, id));
statements.on = false;
// The phase's 2,000 warm-up reads were timed too.
const sql = statements.table(N + 2000, 8);
const record = await services.records.readRecord(anonymous, ids[0]!);
await phase("JSON.stringify of the record", () => JSON.stringify(record));
await phase("Signposting Link header", () => services.exports.signposting(record));
let n = 0;
await phase("view counting (a new visitor each time)", (id) =>
  services.stats.recordView({ recordId: id, parentId: id, actor: anonymous, visitor: { address: `10.0.${(n >> 8) & 255}.${n++ & 255}`, userAgent: BROWSER }, accept: null }),
);
await phase("app.handle GET /ping (framework + global hooks)", async () => (await app.handle(new Request("http://localhost/ping"))).text());
await phase("app.handle GET /api/records/{id}", async (id) => (await app.handle(new Request(`http://localhost/api/records/${id}`, { headers: { "user-agent": BROWSER } }))).text());
// The server's direct route as Bun's router calls it (a loopback peer, as the load generator is).
const peer = { requestIP: () => ({ address: "127.0.0.1", family: "IPv4", port: 1 }) } as unknown as Parameters<(typeof directRoutes)["/api/records/:id"]>[1];
await phase("direct route GET /api/records/{id} (what the server runs)", async (id) => {
  const request = Object.assign(new Request(`http://localhost/api/records/${id}`, { headers: { "user-agent": BROWSER } }), { params: { id } });
  return (await directRoutes["/api/records/:id"](request, peer)).text();
});
await services.close();
if (values["in-process"]) {
  console.table(phases);
  console.table(sql);
  process.exit(0);
}

// -- 2. Over HTTP: server CPU per request, Cairn's server and the bare one in this process.
/** CPU ticks (utime + stime) of each thread of this process, by thread id and name. */
function threadTicks() {
  const ticks = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks.set(`${tid} ${name}`, Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}
const threads: Record<string, unknown>[] = [];

async function drive(base: string, connections: number): Promise<LoadResult & { cpuUsPerRequest: number }> {
  const before = process.cpuUsage();
  const ticksBefore = threadTicks();
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "load-child.ts"), base, String(connections), values.seconds!, idsFile, BROWSER], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(child.stdout).text();
  const cpu = process.cpuUsage(before);
  const result = JSON.parse(out) as LoadResult;
  // The child's warm-up requests ran on this server's CPU too.
  const served = result.requests + 20 * connections;
  const tick = 1e6 / 100; // µs per clock tick (USER_HZ)
  for (const [thread, t] of threadTicks()) {
    const used = (t - (ticksBefore.get(thread) ?? 0)) * tick;
    if (used > 0) threads.push({ base, connections, thread, cpuUsPerRequest: +(used / served).toFixed(1) });
  }
  return { ...result, cpuUsPerRequest: +((cpu.user + cpu.system) / served).toFixed(1) };
}
const bareDb = new Database(join(data, "cairn.db"), { readonly: true });
const readDocument = bareDb.query<{ document: string }, [string]>("SELECT document FROM records WHERE id = ?");
const bare = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    const row = readDocument.get(request.url.slice(request.url.lastIndexOf("/") + 1));
    return new Response(row?.document ?? "{}", { headers: { "Content-Type": "application/json" } });
  },
});
const cairn = await startServer(loadConfig({ flags: { DATA_DIR: data, HTTP: true, PORT: 0 } }), () => {});
const http: Record<string, unknown>[] = [];
for (const c of values.connections!.split(",").map(Number)) {
  const b = await drive(`http://127.0.0.1:${bare.port}`, c);
  const k = await drive(`http://127.0.0.1:${cairn.port}`, c);
  http.push({
    connections: c,
    barePerSecond: b.perSecond,
    bareCpuUs: b.cpuUsPerRequest,
    cairnPerSecond: k.perSecond,
    cairnCpuUs: k.cpuUsPerRequest,
    ratio: +(k.perSecond / b.perSecond).toFixed(2),
  });
}
await cairn.stop();
await bare.stop(true);
console.log("In process (µs a read):");
console.table(phases);
console.log("SQL statements of records.readRecord:");
console.table(sql);
console.log("Over HTTP (server CPU per request, all threads):");
console.table(http);
console.log("Server CPU per request by thread:");
console.table(threads);
if (own) rmSync(data, { recursive: true, force: true });
