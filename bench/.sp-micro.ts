// temporary micro-benchmark (stats-perf), not committed
import { mkdtempSync, rmSync } from "node:fs";
import { createServices } from "../src/app";
import { loadConfig } from "../src/config";
import { ManualClock } from "../src/core/time";
const dir = mkdtempSync("/dev/shm/sp-micro-");
const config = loadConfig({ flags: { DATA_DIR: dir, HTTP: true }, env: {} });
const clock = new ManualClock(Date.UTC(2026, 10, 22, 10));
const s = createServices({ config, clock, log: () => {} });
s.stats.setAddressResolver(() => "203.0.113.7");
const AGENTS = Array.from({ length: 500 }, (_, i) => `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + (i % 40)}.0) Gecko/20100101 Firefox/${100 + i}.0`);
const reqs = Array.from({ length: 2000 }, (_, i) => new Request(`http://x/api/records/r${i}`, { headers: { "user-agent": AGENTS[i % 500]!, accept: process.argv[3] ?? "application/json" } }));
const N = Number(process.argv[2] ?? 200000);
let flushT = 0;
for (const round of [0, 1, 2, 3]) {
  const t = performance.now();
  let counted = 0;
  for (let i = 0; i < N; i++) {
    const request = reqs[i % 2000]!;
    if (s.stats.recordView({ recordId: `rec${(i * 7919) % 20000}`, parentId: `par${i % 20000}`, actor: { kind: "anonymous" }, request })) counted++;
    if (s.stats.pendingEvents() >= 1000) { const f = performance.now(); s.stats.flush(); flushT += performance.now() - f; }
    if (i % 1000 === 0) clock.advance(40);
  }
  const total = performance.now() - t;
  console.log(`round ${round}: ${((total - flushT) * 1000 / N).toFixed(2)} us/record (excl flush), flush ${(flushT * 1000 / counted).toFixed(2)} us/event, counted ${counted}`);
  flushT = 0;
  clock.advance(60_000);
}
s.close();
rmSync(dir, { recursive: true, force: true });
