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

const { values } = parseArgs({ options: { count: { type: "string", default: "2000" } } });
const COUNT = Number(values.count);

const sqlTime = new Map<string, { calls: number; ms: number }>();
let timing = false;
function timed<T extends object>(statement: T, sql: string): T {
  const s = statement as unknown as Record<string, (...a: unknown[]) => unknown> & { timed?: true };
  if (s.timed) return statement;
  for (const method of ["get", "all", "run", "values"]) {
    const plain = s[method]!.bind(s);
    s[method] = (...args: unknown[]) => {
      if (!timing) return plain(...args);
      const t = performance.now();
      try {
        return plain(...args);
      } finally {
        const entry = sqlTime.get(sql) ?? { calls: 0, ms: 0 };
        entry.calls++;
        entry.ms += performance.now() - t;
        sqlTime.set(sql, entry);
      }
    };
  }
  s.timed = true;
  return statement;
}
for (const name of ["query", "prepare"] as const) {
  const plain = Database.prototype[name];
  Database.prototype[name] = function (this: Database, sql: string, ...rest: unknown[]) {
    return timed((plain as (...a: unknown[]) => object).call(this, sql, ...rest), sql);
  } as unknown as (typeof Database.prototype)[typeof name];
}

// Transactions' BEGIN and COMMIT run inside bun:sqlite, out of the wrapper's sight: a transaction's
// whole time less its work's time is what they cost.
let transactionMs = 0;
let transactionWorkMs = 0;
const transaction = Database.prototype.transaction;
Database.prototype.transaction = function (this: Database, work: (...a: unknown[]) => unknown) {
  const wrapped = transaction.call(this, (...args: unknown[]) => {
    const t = performance.now();
    try {
      return work(...args);
    } finally {
      if (timing) transactionWorkMs += performance.now() - t;
    }
  }) as unknown as Record<string, (...a: unknown[]) => unknown>;
  const immediate = wrapped.immediate!;
  return Object.assign((...args: unknown[]) => (wrapped as unknown as (...a: unknown[]) => unknown)(...args), wrapped, {
    immediate: (...args: unknown[]) => {
      const t = performance.now();
      try {
        return immediate(...args);
      } finally {
        if (timing) transactionMs += performance.now() - t;
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
const body = (n: number) =>
  JSON.stringify({
    access: { record: "public", files: "public" },
    files: { enabled: false },
    metadata: {
      resource_type: { id: "dataset" },
      title: `Sea surface temperature, North Atlantic, run ${n}`,
      publication_date: "2026-11-01",
      creators: [
        { person_or_org: { type: "personal", given_name: "Ada", family_name: "Lovelace" }, affiliations: [{ name: "University of Somewhere" }] },
        { person_or_org: { type: "personal", given_name: "Alan", family_name: "Turing" } },
      ],
      description: "<p>Daily sea surface temperature from moored buoys, quality-controlled and gridded.</p>",
      publisher: "Cairn",
    },
  });

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
timing = true;
const framesBefore = walFrames();
const started = performance.now();
for (let i = 0; i < COUNT; i++) await deposit(300 + i);
const total = performance.now() - started;
timing = false;
const framesPerRecord = (walFrames() - framesBefore) / COUNT;
services.close();
rmSync(data, { recursive: true, force: true });

const us = (ms: number) => +((ms * 1000) / COUNT).toFixed(1);
const sqlMs = [...sqlTime.values()].reduce((n, s) => n + s.ms, 0);
console.log(`create + publish in process, ${COUNT} records: ${us(total)} µs each (${Math.round((COUNT * 1000) / total)}/s on one thread)`);
console.log(`write-ahead log: ${framesPerRecord.toFixed(1)} pages (4 KiB) written per record by its two commits`);
console.table([
  { phase: "POST /api/records (create)", us: us(phases.create) },
  { phase: "POST .../actions/publish", us: us(phases.publish) },
  { phase: "all SQLite statements", us: us(sqlMs) },
  { phase: "BEGIN + COMMIT of the write transactions", us: us(transactionMs - transactionWorkMs) },
  { phase: "everything else (JS: validation, presentation, JSON, framework)", us: us(total - sqlMs - (transactionMs - transactionWorkMs)) },
]);
console.table(
  [...sqlTime]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, 25)
    .map(([sql, s]) => ({ sql: sql.replace(/\s+/g, " ").slice(0, 100), callsPerRecord: +(s.calls / COUNT).toFixed(2), us: us(s.ms) })),
);
