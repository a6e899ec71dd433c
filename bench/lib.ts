// What the benchmark scripts share: a deterministic PRNG, percentiles, bulk-written records, and
// `cairn serve` on a data directory for the length of a measurement.
import { Database } from "bun:sqlite";
import { execSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { recordIdFromNumber } from "../src/records/ids";
import { createRandom } from "../test/helpers/random";

export { createRandom };

export const MAIN = join(import.meta.dir, "..", "src", "main.ts");

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** p50/p95/p99/max of sequential GETs, after the responses are read whole. */
export async function measure(base: string, urls: string[], headers: Record<string, string> = {}) {
  const times: { url: string; ms: number }[] = [];
  for (const url of urls) {
    const start = performance.now();
    const res = await fetch(base + url, { headers });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    times.push({ url, ms: performance.now() - start });
  }
  const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
  const round = (x: number) => +x.toFixed(1);
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]!),
    slowest: times.sort((a, b) => b.ms - a.ms).slice(0, 5),
  };
}

/** Runs `cairn serve --http` on the data directory until `stop()`; resolves once it answers. */
export async function startServer(data: string, env: Record<string, string> = {}) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = Bun.spawn([process.execPath, MAIN, "serve", "--http", "--port", String(port), "--data", data], {
    stdout: "ignore",
    stderr: "inherit",
    env: { ...process.env, ...env },
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/ping`)).ok) break;
    } catch {}
    await Bun.sleep(50);
  }
  return {
    base,
    pid: server.pid,
    async stop() {
      server.kill("SIGTERM");
      await server.exited;
    },
  };
}

/** Fills the data directory with `generate`, indexes it and starts a server on it; both durations in seconds. */
export async function seedAndServe(data: string, generate: () => void | Promise<void>) {
  const started = performance.now();
  await generate();
  const genSeconds = (performance.now() - started) / 1000;
  const reindexSeconds = reindexData(data);
  return { genSeconds, reindexSeconds, server: await startServer(data) };
}

/** `cairn reindex` of the data directory; its duration in seconds. */
export function reindexData(data: string): number {
  const started = performance.now();
  const reindex = Bun.spawnSync([process.execPath, MAIN, "reindex", "--data", data]);
  if (reindex.exitCode !== 0) throw new Error(reindex.stderr.toString());
  return (performance.now() - started) / 1000;
}

/**
 * Writes `count` published records (one version each, owner 1) straight into a migrated data
 * directory, 10,000 per transaction; `cairn reindex` then builds their search index.
 * `document(i)` gives record i's stored document; record i is `at(i)` ms old relative to now.
 * Returns the ids of the records, in order of i.
 */
export function bulkInsertRecords(data: string, count: number, document: (i: number) => { access: { record: string } }, at: (i: number) => number): string[] {
  const db = new Database(join(data, "cairn.db"));
  const insertParent = db.query("INSERT INTO record_parents (id, owner_id, latest_id, pids, created, updated) VALUES (?, 1, ?, '{}', ?, ?)");
  const insertRecord = db.query(
    "INSERT INTO records (id, parent_id, owner_id, is_published, is_latest, version_index, access_record, document, created, updated) VALUES (?, ?, 1, 1, 1, 1, ?, ?, ?, ?)",
  );
  const ids: string[] = [];
  for (let start = 0; start < count; start += 10_000) {
    db.transaction(() => {
      for (let i = start; i < Math.min(count, start + 10_000); i++) {
        const id = recordIdFromNumber(2 * i + 1);
        const parent = recordIdFromNumber(2 * i + 2);
        const doc = document(i);
        insertParent.run(parent, id, at(i), at(i));
        insertRecord.run(id, parent, doc.access.record, JSON.stringify(doc), at(i), at(i));
        ids.push(id);
      }
    })();
  }
  db.close();
  return ids;
}

/** CPU seconds (user + system, all threads) a process has used, from /proc. */
const TICKS = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;
export function cpuSeconds(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd (state) on
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** A data directory on PostgreSQL: its cairn.toml names the database, as an installation's would. */
export function onDatabase(dir: string, url: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, "cairn.toml"), `DATABASE_URL = ${JSON.stringify(url)}\n`, { mode: 0o600 });
  return dir;
}
