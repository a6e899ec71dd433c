// The landing-page rows of `bun run bench` on their own: an N-record data directory (as the full
// run writes it), the built executable on it, a record with 10 files published into it, and
// GET /records/{id} beside GET /api/records/{id} of that record. Usage:
//   bun bench/landing.ts [--records 100000] [--seconds 5] [--rounds 3]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ensureBuilt, launch } from "./executable";
import { measureLandingPage, prepareRecords, publishTenFileRecord } from "./read-phases";
import { landingRows } from "./run-table";

const { values } = parseArgs({ options: { records: { type: "string" }, seconds: { type: "string" }, rounds: { type: "string" } } });
const RECORDS = Number(values.records ?? 100_000);
const SECONDS = Number(values.seconds ?? 5);
const ROUNDS = Number(values.rounds ?? 3);
const say = (line: string) => console.error(`[bench:landing] ${line}`);

ensureBuilt(say);
const data = mkdtempSync(join(tmpdir(), "cairn-bench-landing-"));
try {
  say(`writing ${RECORDS.toLocaleString()} records and indexing them...`);
  const prepared = await prepareRecords(data, RECORDS);
  const server = await launch(data);
  try {
    const id = await publishTenFileRecord(server);
    say(`record ${id}: ${ROUNDS} rounds of ${SECONDS} s at 1 and 64 connections...`);
    const landing = await measureLandingPage(server.base, id, prepared.publicIds, SECONDS, ROUNDS, [1, 64]);
    console.log(["| measure | Cairn | beside | ratio | target |", "|---|---|---|---|---|", ...landingRows(landing, RECORDS).map((c) => `| ${c.join(" | ")} |`)].join("\n"));
    console.log(JSON.stringify(landing));
  } finally {
    await server.stop();
  }
} finally {
  rmSync(data, { recursive: true, force: true });
}
