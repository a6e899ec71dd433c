// What awaiting costs a request inside Bun.serve (issue 30): the same point read and JSON answer
// served three ways on one data directory — synchronously, after one await, and after 120 awaits
// of nested async calls (about what the asynchronous record read makes) — each driven by
// bench/load-child.ts at 1 and 64 connections, with this process's CPU per request.
// bun run bench:await-cost -- DATA_DIR (a directory of bench:read-cost, with its bench-ids.json)
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { LoadResult } from "./load";

const data = process.argv[2];
if (!data) throw new Error("usage: bun bench/await-cost.ts DATA_DIR (made by bench:read-cost, holding bench-ids.json)");
const db = new Database(join(data, "cairn.db"), { readonly: true });
const read = db.query<{ document: string }, [string]>("SELECT document FROM records WHERE id = ?");
const answer = (id: string) => new Response(JSON.stringify(JSON.parse(read.get(id)?.document ?? "{}")), { headers: { "Content-Type": "application/json" } });
const idOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);
async function nested(depth: number, id: string): Promise<string> {
  return depth === 0 ? id : await nested(depth - 1, id);
}
async function manyAwaits(id: string) {
  for (let i = 0; i < 20; i++) id = await nested(5, id);
  return id;
}

const servers = {
  synchronous: Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => answer(idOf(r.url)) }),
  "one await": Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: async (r) => answer(await Promise.resolve(idOf(r.url))) }),
  "120 awaits": Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: async (r) => answer(await manyAwaits(idOf(r.url))) }),
};
const rows: Record<string, unknown>[] = [];
for (let round = 1; round <= 2; round++) {
  for (const [way, server] of Object.entries(servers)) {
    for (const connections of [1, 64]) {
      const before = process.cpuUsage();
      const child = Bun.spawn(
        [process.execPath, join(import.meta.dir, "load-child.ts"), `http://127.0.0.1:${server.port}`, String(connections), "3", join(data, "bench-ids.json")],
        {
          stdout: "pipe",
        },
      );
      const result = JSON.parse(await new Response(child.stdout).text()) as LoadResult;
      const cpu = process.cpuUsage(before);
      // The child's warm-up requests ran on this process's CPU too.
      rows.push({ round, way, connections, perSecond: result.perSecond, cpuUsPerRequest: +((cpu.user + cpu.system) / (result.requests + 20 * connections)).toFixed(1) });
    }
  }
}
console.table(rows);
for (const server of Object.values(servers)) await server.stop(true);
