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
import { timeStatements } from "./sql-timing";
import { recordBody } from "./write-phases";

const { values } = parseArgs({ options: { count: { type: "string", default: "2000" } } });
const COUNT = Number(values.count);

const statements = timeStatements();

// Transactions' BEGIN and COMMIT run inside bun:sqlite, out of the wrapper's sight: a transaction's
// whole time less its work's time is what they cost.
let measuring = false;
let transactionMs = 0;
let transactionWorkMs = 0;
const transaction = Database.prototype.transaction;
Database.prototype.transaction = function (this: Database, work: (...a: unknown[]) => unknown) {
  const wrapped = transaction.call(this, (...args: unknown[]) => {
    const t = performance.now();
    try {
      return work(...args);
    } finally {
      if (measuring) transactionWorkMs += performance.now() - t;
    }
  }) as unknown as Record<string, (...a: unknown[]) => unknown>;
  const immediate = wrapped.immediate!;
  return Object.assign((...args: unknown[]) => (wrapped as unknown as (...a: unknown[]) => unknown)(...args), wrapped, {
    immediate: (...args: unknown[]) => {
      const t = performance.now();
      try {
        return immediate(...args);
      } finally {
        if (measuring) transactionMs += performance.now() - t;
      }
    },
  });
} as unknown as typeof Database.prototype.transaction;

const data = mkdtempSync(join(tmpdir(), "cairn-write-cost-"));
const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true } });
const { app, services } = createApp({ config });
// As the server runs: no checkpoint inside a commit (its checkpointer thread takes them), so the
// write-ahead log grows by what each commit writes, read below as frames per record.
services.deps.db.$client.exec("PRAGMA wal_autocheckpoint = 0");
const walFrames = () => statSync(join(data, "cairn.db-wal")).size / (4096 + 24);
const admin = await services.users.createUser(systemActor, { email: "admin@example.org", username: "admin", password: "admin-password", admin: true });
const { secret } = services.tokens.createToken(systemActor, { userId: admin.id, name: "bench" });
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
services.close();
rmSync(data, { recursive: true, force: true });

const us = (ms: number) => +((ms * 1000) / COUNT).toFixed(1);
const sqlMs = statements.totalMs();
console.log(`create + publish in process, ${COUNT} records: ${us(total)} µs each (${Math.round((COUNT * 1000) / total)}/s on one thread)`);
console.log(`write-ahead log: ${framesPerRecord.toFixed(1)} pages (4 KiB) written per record by its two commits`);
console.table([
  { phase: "POST /api/records (create)", us: us(phases.create) },
  { phase: "POST .../actions/publish", us: us(phases.publish) },
  { phase: "all SQLite statements", us: us(sqlMs) },
  { phase: "BEGIN + COMMIT of the write transactions", us: us(transactionMs - transactionWorkMs) },
  { phase: "everything else (JS: validation, presentation, JSON, framework)", us: us(total - sqlMs - (transactionMs - transactionWorkMs)) },
]);
console.table(statements.table(COUNT));
