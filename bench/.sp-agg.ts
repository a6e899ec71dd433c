// temporary (stats-perf): aggregate a prepared events db; usage: bun bench/.sp-agg.ts DIR EVENTS
import { Database } from "bun:sqlite";
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createServices } from "../src/app";
import { loadConfig } from "../src/config";
import { createRandom } from "./lib";
import { visitorKey } from "../src/stats/store";
const base = process.argv[2]!;
const EVENTS = Number(process.argv[3] ?? 1_000_000);
const { rand } = createRandom(11);
const pristine = join(base, "pristine");
if (!existsSync(join(pristine, "cairn.db"))) {
  const config = loadConfig({ flags: { DATA_DIR: pristine, HTTP: true }, env: {} });
  createServices({ config, log: () => {} }).close();
  const db = new Database(join(pristine, "cairn.db"));
  const insert = db.query("INSERT INTO stats_events (kind, ts, record_id, parent_id, visitor, file_key, bytes, is_machine, record_key, visitor_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertKey = db.query("INSERT INTO stats_keys (key, value) VALUES (?, ?)");
  db.transaction(() => {
    for (let r = 0; r < 100_000; r++) insertKey.run(r + 1, `rec${r}`);
  })();
  const t0 = Date.UTC(2026, 9, 1);
  const span = 30 * 86_400_000;
  for (let start = 0; start < EVENTS; start += 100_000) {
    db.transaction(() => {
      for (let i = start; i < Math.min(EVENTS, start + 100_000); i++) {
        const r = Math.floor(rand() * rand() * 100_000);
        const download = rand() < 0.3;
        const visitor = `v${Math.floor(rand() * 1_000_000)}`;
        insert.run(download ? 1 : 0, t0 + Math.floor((i / EVENTS) * span), `rec${r}`, `par${Math.floor(r * 0.8)}`, visitor, download ? "data.csv" : null, download ? 1_000_000 : 0, download && rand() < 0.05 ? 1 : 0, r + 1, visitorKey(visitor));
      }
    })();
  }
  db.close();
}
const work = join(base, "work");
rmSync(work, { recursive: true, force: true });
cpSync(pristine, work, { recursive: true });
const config = loadConfig({ flags: { DATA_DIR: work, HTTP: true }, env: {} });
const services = createServices({ config, log: () => {} });
const t = performance.now();
const cpu0 = process.cpuUsage();
const run = await services.stats.aggregate({ chunk: 200_000 });
console.log(JSON.stringify({ ...run, seconds: ((performance.now() - t) / 1000).toFixed(1), cpu: (() => { const c = process.cpuUsage(cpu0); return ((c.user + c.system) / 1e6).toFixed(1); })() }));
const db = services.deps.db.$client;
console.log(JSON.stringify(db.query("SELECT (SELECT count(*) FROM stats_record_daily) r, (SELECT count(*) FROM stats_parent_daily) p, (SELECT sum(views) FROM stats_totals WHERE scope='parent') v, (SELECT sum(unique_views) FROM stats_totals WHERE scope='parent') uv, (SELECT sum(unique_downloads) FROM stats_record_daily) ud, (SELECT sum(unique_investigations) FROM stats_record_daily) ui, (SELECT sum(machine_unique_downloads) FROM stats_record_daily) mud, (SELECT sum(unique_views) FROM stats_totals WHERE scope='record') ruv").get()));
services.close();
