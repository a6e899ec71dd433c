// Where a record read's time goes: `cairn serve` from source under Bun's CPU profiler, driven by
// the bench's load generator with GET /api/records/{id} of random public records, then the
// profile's path. bun run bench:read-profile [-- --records N] [--connections C] [--seconds S]
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { launch } from "./executable";
import { createRandom, MAIN } from "./lib";
import { runLoad } from "./load";
import { prepareRecords } from "./read-phases";

const { values } = parseArgs({
  options: { records: { type: "string", default: "10000" }, connections: { type: "string", default: "64" }, seconds: { type: "string", default: "10" }, keep: { type: "boolean" } },
});
const data = mkdtempSync(join(tmpdir(), "cairn-read-profile-"));
const profiles = mkdtempSync(join(tmpdir(), "cairn-read-profile-out-"));
const { publicIds } = await prepareRecords(data, Number(values.records));
const server = await launch(data, [process.execPath, "--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${profiles}`, "--cpu-prof-interval=100", MAIN]);
const { pick } = createRandom(3);
const result = await runLoad({
  base: server.base,
  connections: Number(values.connections),
  seconds: Number(values.seconds),
  path: () => `/api/records/${pick(publicIds)}`,
  headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" },
  warmup: 50,
});
await server.stop();
console.log(`${result.perSecond}/s p50 ${result.p50} ms p99 ${result.p99} ms`);
for (const file of readdirSync(profiles).filter((f) => f.endsWith(".md"))) console.log(`profile: ${join(profiles, file)}`);
if (!values.keep) rmSync(data, { recursive: true, force: true });
