// `bun run bench:port-cost`: what the asynchronous database port (db/sqlite/port.ts) adds to a point
// read and to a small write transaction, beside the same statements called synchronously as the
// stores did before the port; alternating rounds on one in-memory database, µs per operation.
import { openSqlite } from "../src/db/sqlite/connection";
import { createSqlitePort } from "../src/db/sqlite/port";

const sqlite = openSqlite(":memory:");
sqlite.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
const insert = sqlite.query("INSERT INTO notes (text) VALUES (?)");
for (let i = 0; i < 10_000; i++) insert.run(`note ${i}`);
const port = createSqlitePort(sqlite);
const READ = "SELECT id, text FROM notes WHERE id = ?";
const WRITE = "UPDATE notes SET text = ? WHERE id = ?";
const N = 200_000;
const W = 20_000;

async function time(run: (i: number) => unknown, n: number): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < n; i++) await run(i);
  return ((performance.now() - t) * 1000) / n;
}

const rows: Record<string, number[]> = { "read, synchronous": [], "read, through the port": [], "write transaction, synchronous": [], "write transaction, through the port": [] };
for (let round = 0; round < 4; round++) {
  rows["read, synchronous"]!.push(await time((i) => sqlite.query(READ).get((i % 10_000) + 1), N));
  rows["read, through the port"]!.push(await time((i) => port.statements.get(READ, [(i % 10_000) + 1]), N));
  rows["write transaction, synchronous"]!.push(await time((i) => sqlite.transaction(() => sqlite.query(WRITE).run(`s ${i}`, (i % 10_000) + 1)).immediate(), W));
  rows["write transaction, through the port"]!.push(await time((i) => port.write((tx) => tx.statements.run(WRITE, [`p ${i}`, (i % 10_000) + 1])), W));
}
for (const [name, values] of Object.entries(rows)) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(`${name.padEnd(38)} median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} µs  (rounds: ${values.map((v) => v.toFixed(2)).join(", ")})`);
}
