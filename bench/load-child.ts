// bench/load.ts as its own process, for benchmarks that measure the CPU of the process serving:
// bun bench/load-child.ts BASE CONNECTIONS SECONDS IDS_JSON_FILE [USER_AGENT] -> one JSON LoadResult
import { createRandom } from "./lib";
import { runLoad } from "./load";

const [base, connections, seconds, idsFile, agent] = process.argv.slice(2);
const ids: string[] = await Bun.file(idsFile!).json();
const { pick } = createRandom(3);
const result = await runLoad({
  base: base!,
  connections: Number(connections),
  seconds: Number(seconds),
  path: () => `/api/records/${pick(ids)}`,
  headers: agent ? { "User-Agent": agent } : {},
  warmup: 20,
});
console.log(JSON.stringify(result));
