// Where create + publish's CPU goes (issue 22, item 2): in process (no HTTP), N metadata-only
// records created and published through app.handle with the administrator's token, with every
// SQLite statement timed through a wrapper on bun:sqlite's query()/prepare(): each request, the
// statements (by time), BEGIN + COMMIT, the rest, and write-ahead log pages per record.
// bun run bench:write-cost [-- --count 2000]
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { systemActor } from "../src/core/actor";
import { sqliteOf } from "../src/db/sqlite/port";
import { timeStatements } from "./sql-timing";
import { recordBody } from "./write-phases";

const { values } = parseArgs({ options: { count: { type: "string", default: "2000" } } });
const COUNT = Number(values.count);

const statements = timeStatements();

// The port's write transactions open and end with exec() (BEGIN IMMEDIATE, COMMIT, and ROLLBACK or
// savepoints), out of the statement wrapper's sight: timed here.
let measuring = false;
let transactionMs = 0;
const exec = Database.prototype.exec;
Database.prototype.exec = function (this: Database, sql: string, ...rest: unknown[]) {
  if (!measuring || !/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/.test(sql)) return (exec as (...a: unknown[]) => unknown).call(this, sql, ...rest);
  const t = performance.now();
  try {
    return (exec as (...a: unknown[]) => unknown).call(this, sql, ...rest);
  } finally {
    transactionMs += performance.now() - t;
  }
} as unknown as typeof Database.prototype.exec;

const data = mkdtempSync(join(tmpdir(), "cairn-write-cost-"));
const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true } });
const { app, services } = createApp({ config });
// As the server runs: no checkpoint inside a commit (its checkpointer thread takes them), so the
// write-ahead log grows by what each commit writes, read below as frames per record.
sqliteOf(services.deps.db).exec("PRAGMA wal_autocheckpoint = 0");
const walFrames = () => statSync(join(data, "cairn.db-wal")).size / (4096 + 24);
const admin = await services.users.createUser(systemActor, { email: "admin@example.org", username: "admin", password: "admin-password", admin: true });
const { secret } = await services.tokens.createToken(systemActor, { userId: admin.id, name: "bench" });
const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
const body = (n: number) => JSON.stringify(recordBody(n, false));

const phases = { create: 0, publish: 0 };
async function deposit(n: number) {
  let t = performance.now();
  const created = await app.handle(new Request("http://localhost/api/records", { method: "POST", headers, body: body(n) }));
  if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  phases.create += performance.now() - t;
  t = performance.now();
  const published = await app.handle(new Request(`http://localhost/api/records/${id}/draft/actions/publish`, { method: "POST", headers }));
  if (published.status !== 202) throw new Error(`publish: ${published.status} ${await published.text()}`);
  await published.arrayBuffer();
  phases.publish += performance.now() - t;
}

for (let i = 0; i < 300; i++) await deposit(i);
phases.create = phases.publish = 0;
statements.on = measuring = true;
const framesBefore = walFrames();
const started = performance.now();
for (let i = 0; i < COUNT; i++) await deposit(300 + i);
const total = performance.now() - started;
statements.on = measuring = false;
const framesPerRecord = (walFrames() - framesBefore) / COUNT;
await services.close();
rmSync(data, { recursive: true, force: true });

const us = (ms: number) => +((ms * 1000) / COUNT).toFixed(1);
const sqlMs = statements.totalMs();
console.log(`create + publish in process, ${COUNT} records: ${us(total)} µs each (${Math.round((COUNT * 1000) / total)}/s on one thread)`);
console.log(`write-ahead log: ${framesPerRecord.toFixed(1)} pages (4 KiB) written per record by its two commits`);
console.table([
  { phase: "POST /api/records (create)", us: us(phases.create) },
  { phase: "POST .../actions/publish", us: us(phases.publish) },
  { phase: "all SQLite statements", us: us(sqlMs) },
  { phase: "BEGIN + COMMIT of the write transactions", us: us(transactionMs) },
  { phase: "everything else (JS: validation, presentation, JSON, framework)", us: us(total - sqlMs - transactionMs) },
]);
console.table(statements.table(COUNT));
