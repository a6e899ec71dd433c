// A `cairn reindex` that kills itself (SIGKILL, as a crash would) at a chosen point of the
// rebuild: `bun reindex-child.ts DATA_DIR before|mid|swap`.
import { createServices } from "../../src/app";
import { loadConfig } from "../../src/config";
import { systemActor } from "../../src/core/actor";

const [dataDir, stage] = process.argv.slice(2);
const services = createServices({ config: loadConfig({ flags: { DATA_DIR: dataDir!, HTTP: true }, env: {} }) });
const die = () => process.kill(process.pid, "SIGKILL");
await services.records.reindex(systemActor, {
  batchSize: 10,
  onShadowReady: () => stage === "before" && die(),
  onProgress: (done) => stage === "mid" && done >= 20 && die(),
  beforeSwap: () => stage === "swap" && die(),
});
console.log("finished without being killed");
