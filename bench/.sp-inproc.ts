// temporary (stats-perf): in-process GET /api/records/{id} cost with statistics on vs off
import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { createApp, createServices } from "../src/app";
import { loadConfig } from "../src/config";
import { recordIdFromNumber } from "../src/records/ids";
import { bulkInsertRecords, createRandom, MAIN } from "./lib";
const base = process.argv[2]!;
const RECORDS = 2000;
const { pick } = createRandom(3);
const document = (i: number) => ({
  access: { record: "public", files: "public", embargo: { active: false, until: null, reason: null } },
  files: { enabled: false, default_preview: null, order: [] },
  metadata: { resource_type: { id: "dataset", title: { en: "Dataset" }, props: { type: "dataset" } }, title: `Benchmark record ${i}`, publication_date: "2025-01-01", creators: [{ person_or_org: { type: "personal", given_name: "Ada", family_name: "Lovelace", name: "Lovelace, Ada", identifiers: [] }, affiliations: [] }], publisher: "Cairn" },
  custom_fields: {}, pids: {},
});
const on = join(base, "on");
if (!existsSync(join(on, "cairn.db"))) {
  createServices({ config: loadConfig({ flags: { DATA_DIR: on, HTTP: true }, env: {} }), log: () => {} }).close();
  bulkInsertRecords(on, RECORDS, document, () => Date.now());
  const r = Bun.spawnSync([process.execPath, MAIN, "reindex", "--data", on]);
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  cpSync(on, join(base, "off"), { recursive: true });
}
const apps = {
  on: createApp({ config: loadConfig({ flags: { DATA_DIR: on, HTTP: true }, env: { CAIRN_STATS_ENABLED: "true" } }), log: () => {} }),
  off: createApp({ config: loadConfig({ flags: { DATA_DIR: join(base, "off"), HTTP: true }, env: { CAIRN_STATS_ENABLED: "false" } }), log: () => {} }),
};
const AGENTS = Array.from({ length: 500 }, (_, i) => `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + (i % 40)}.0) Gecko/20100101 Firefox/${100 + i}.0`);
const IDS = Array.from({ length: RECORDS }, (_, i) => recordIdFromNumber(2 * i + 1));
async function round(name: "on" | "off", n: number) {
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await apps[name].app.handle(new Request(`http://localhost/api/records/${pick(IDS)}`, { headers: { "user-agent": pick(AGENTS) } }));
    if (res.status !== 200) throw new Error(String(res.status));
    await res.arrayBuffer();
  }
  return ((performance.now() - t) * 1000) / n;
}
const sums = { on: 0, off: 0 };
const R = Number(process.argv[3] ?? 10);
await round("on", 2000); await round("off", 2000);
for (let r = 0; r < R; r++) for (const name of (r % 2 ? ["off", "on"] : ["on", "off"]) as ("on" | "off")[]) sums[name] += await round(name, 3000);
console.log(`us/request on ${(sums.on / R).toFixed(1)} off ${(sums.off / R).toFixed(1)} diff ${((sums.on - sums.off) / R).toFixed(1)} (${((100 * (sums.on - sums.off)) / sums.on).toFixed(1)}% of on)`);
apps.on.services.close(); apps.off.services.close();
process.exit(0);
