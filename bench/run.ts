// `bun run bench [-- --quick]`: the built executable against the machine's own limits, in one run
// on fresh data directories — record reads beside a bare Bun.serve, the landing page of a record
// with 10 files beside its JSON read, create + publish beside raw
// SQLite inserts, deposits with a file, the search mix, file transfers beside a bare streaming
// upload server (MD5 + fsync), Bun.write and MD5 alone, start-up
// and memory. Prints one table and writes it as JSON to bench/results/<date>[-quick].json.
// --quick: 10,000 records, 128 MiB file, shorter loads (under 2 minutes); --keep leaves the data.
import { execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ensureBuilt, EXECUTABLE, launch } from "./executable";
import { measureLandingPage, measureReadMemory, measureReads, measureSearch, measureStartup, prepareRecords, publishTenFileRecord } from "./read-phases";
import { pingDuringWorstSearch as pingWhileSearching } from "./ping";
import { formatTable } from "./run-table";
import { measureS3Transfers } from "./s3";
import { measureBackup } from "./backup";
import { apiClient, createAndPublish, depositWithFile, fileTransfers, lastStoredDocument, rawInserts } from "./write-phases";

const { values } = parseArgs({ options: { quick: { type: "boolean" }, keep: { type: "boolean" } } });
const QUICK = values.quick === true;
const P = QUICK
  ? { records: 10_000, queries: 300, seconds: 3, readSeconds: 2, rounds: 2, fileMiB: 128, launches: 3, s3Count: 5, s3MiB: 20 }
  : { records: 100_000, queries: 600, seconds: 10, readSeconds: 5, rounds: 3, fileMiB: 1024, launches: 5, s3Count: 20, s3MiB: 50 };
const say = (line: string) => console.error(`[bench ${((performance.now() - began) / 1000).toFixed(0).padStart(3)} s] ${line}`);
const began = performance.now();
const uptime = () => execSync("uptime").toString().trim();
const load = () => loadavg().map((x) => +x.toFixed(2));

async function readSide(data: string) {
  say(`writing ${P.records.toLocaleString()} records and indexing them (cairn reindex)...`);
  const prepared = await prepareRecords(data, P.records);
  const measured = await readMeasures(data, prepared);
  return { ...measured, memoryAfterReads: await readMemory(data, prepared.publicIds) };
}

async function readMeasures(data: string, prepared: Awaited<ReturnType<typeof prepareRecords>>) {
  say(`start-up, ${P.launches} launches...`);
  const startup = await measureStartup(data, P.launches);
  try {
    say(`search mix, ${P.queries} queries...`);
    const search = await measureSearch(startup.server.base, prepared.queryMix(P.queries));
    say(`/ping during the worst searches, ${P.seconds} s...`);
    const pingDuringWorstSearch = await pingWhileSearching(startup.server.base, P.seconds);
    say(`GET /api/records/{id}, bare then Cairn, ${P.rounds} rounds of ${P.readSeconds} s each...`);
    const reads = await measureReads(startup.server.base, data, prepared.publicIds, P.readSeconds, P.rounds, [1, 64]);
    say(`GET /records/{id}, the landing page of a record with 10 files, beside its JSON read, ${P.rounds} rounds of ${P.readSeconds} s each...`);
    const landingId = await publishTenFileRecord(startup.server);
    const landing = await measureLandingPage(startup.server.base, landingId, prepared.publicIds, P.readSeconds, P.rounds, [1, 64]);
    const { server: _, ...startupResult } = startup;
    return {
      prepare: { records: P.records, generateSeconds: prepared.generateSeconds, reindexSeconds: prepared.reindexSeconds },
      startup: startupResult,
      search,
      pingDuringWorstSearch,
      reads,
      landing,
    };
  } finally {
    await startup.server.stop();
  }
}

/** The memory target after 100,000 record reads, on a fresh server (one data directory, one server at a time). */
async function readMemory(data: string, publicIds: string[]) {
  say("memory of a fresh server through 100,000 record reads...");
  return measureReadMemory(data, publicIds, 100_000);
}

async function writeSide(root: string) {
  const data = join(root, "writes");
  let server = await launch(data);
  try {
    let api = apiClient(server);
    say(`create + publish, 1 then 16 clients, ${P.seconds} s each...`);
    const sequential = await createAndPublish(api, 1, P.seconds);
    const concurrent = await createAndPublish(api, 16, P.seconds);
    say("raw SQLite inserts of the same JSON...");
    const rawData = join(root, "raw");
    await (await launch(rawData)).stop(); // a migrated database with its administrator
    const raw = rawInserts(rawData, lastStoredDocument(data), P.seconds);
    say(`deposits with a 1 MiB file, 1 then 16 clients, ${P.seconds} s each...`);
    const deposits = [await depositWithFile(api, 1, P.seconds), await depositWithFile(api, 16, P.seconds)];
    // A restarted server, so its memory during the transfers is theirs, not the deposits' heap.
    await server.stop();
    server = await launch(data);
    api = apiClient(server);
    say(`a ${P.fileMiB} MiB file up and down beside the bare upload server, Bun.write and MD5 alone, ${P.rounds} rounds...`);
    const files = await fileTransfers(api, server.pid, root, P.fileMiB * 1024 * 1024, P.rounds);
    return { createPublish: [sequential, concurrent], raw, deposits, files };
  } finally {
    await server.stop();
  }
}

/** The commit the executable was built from, marked when src/ had uncommitted changes. */
function sourceVersion() {
  const commit = execSync("git rev-parse --short HEAD").toString().trim();
  return execSync("git status --porcelain -- src build.ts").toString().trim() ? `${commit}+uncommitted` : commit;
}

async function main() {
  const commit = sourceVersion();
  const build = ensureBuilt(say);
  const root = mkdtempSync(join(tmpdir(), "cairn-bench-"));
  say(`data in ${root}; ${uptime()}`);
  try {
    const before = { uptime: uptime(), loadavg: load() };
    const read = await readSide(join(root, "records"));
    const write = await writeSide(root);
    say(`files through Cairn on S3 beside a plain S3 client, ${P.s3Count} × ${P.s3MiB} MiB...`);
    const s3 = await measureS3Transfers({ root, count: P.s3Count, sizeMiB: P.s3MiB, command: [EXECUTABLE] });
    say(`cairn backup of a data directory with ${P.fileMiB} MiB of files beside cp -a...`);
    const backup = await measureBackup({ root: join(root, "backup"), cairn: [EXECUTABLE], sizeMiB: P.fileMiB, records: Math.min(P.records, 20_000), say });
    const result = {
      date: new Date().toISOString(),
      mode: QUICK ? "quick" : "full",
      machine: { cores: cpus().length, bun: Bun.version, loadBefore: before, loadAfter: { uptime: uptime(), loadavg: load() } },
      executable: { path: "dist/cairn", sizeMiB: +(statSync(EXECUTABLE).size / 1024 / 1024).toFixed(1), rebuilt: build.rebuilt, commit },
      params: P,
      ...read,
      ...write,
      s3,
      backup,
      seconds: Math.round((performance.now() - began) / 1000),
    };
    console.log(formatTable(result));
    mkdirSync(join(import.meta.dir, "results"), { recursive: true });
    const file = join(import.meta.dir, "results", `${result.date.slice(0, 10)}${QUICK ? "-quick" : ""}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    say(`wrote ${file}`);
  } finally {
    if (values.keep) say(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
