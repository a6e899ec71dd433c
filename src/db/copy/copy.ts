// Copies one database into another, either engine to either engine: into an empty target migrated
// by its own engine, every table (plan.ts) read in one snapshot of the source and written in one
// transaction of the target, then checked: the same row count and checksum per table on both sides.
import type { Binding, DatabasePort, Db } from "../port";
import { tableHasher } from "./checksum";
import type { CopyEnd, SnapshotReader } from "./engine";
import { copyPlan, describedTables, type TablePlan } from "./plan";

/** The target holds data (or is the source): nothing was written. The CLI exits 2. */
export class CopyRefused extends Error {}
/** The copy does not match its source: the CLI exits 1, naming the table. */
export class CopyMismatch extends Error {}

/** Rows read from the source at a time. */
const READ_ROWS = 1000;
/** Bound values per INSERT: PostgreSQL takes at most 65,535 per statement, SQLite 32,766. */
const MAX_BINDINGS = 30_000;

export interface CopyProgress {
  table: string;
  done: number;
  total: number;
}

export interface TableCheck {
  table: string;
  rows: number;
  sha256: string;
}

export interface CopyOptions {
  now: number;
  onProgress?: (progress: CopyProgress) => void;
  /** Rows read at a time (tests use a few, to cross batch boundaries). */
  readRows?: number;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The target is empty when none of Cairn's tables (those db/tables describes, the search index
 * included) holds a row; tables it lacks do not count, and neither do schema_migrations' rows (a
 * database migrated by `cairn db copy` whose copy then failed is empty, so the copy can be run again).
 */
export async function findData(end: CopyEnd): Promise<string[]> {
  if (!end.exists()) return [];
  const reader = await end.snapshot();
  try {
    const present = await reader.tables();
    const holding: string[] = [];
    for (const table of describedTables()) {
      if (present.has(table) && (await reader.values(`SELECT 1 FROM ${quote(table)} LIMIT 1`)).length) holding.push(table);
    }
    return holding;
  } finally {
    await reader.close();
  }
}

/** Reads a table in primary-key order, a batch at a time (keyset paging: no OFFSET rescans). */
async function* readTable(reader: SnapshotReader, plan: TablePlan, batch: number): AsyncGenerator<unknown[][]> {
  const columns = plan.columns.map((c) => quote(c.name)).join(", ");
  const keyIndexes = plan.key.map((k) => plan.columns.findIndex((c) => c.name === k));
  const order = plan.key.map(quote).join(", ");
  const keyTuple = `(${order})`;
  let after: Binding[] | null = null;
  for (;;) {
    const where: string = after ? ` WHERE ${keyTuple} > (${after.map(() => "?").join(", ")})` : "";
    const rows: unknown[][] = await reader.values(`SELECT ${columns} FROM ${quote(plan.name)}${where} ORDER BY ${order} LIMIT ${batch}`, after ?? []);
    if (rows.length) yield rows;
    if (rows.length < batch) return;
    const last: unknown[] = rows.at(-1)!;
    after = keyIndexes.map((i) => last[i] as Binding);
  }
}

async function insertRows(tx: Db, plan: TablePlan, rows: unknown[][]) {
  const columns = plan.columns.map((c) => quote(c.name)).join(", ");
  const per = Math.max(1, Math.floor(MAX_BINDINGS / plan.columns.length));
  const tuple = `(${plan.columns.map(() => "?").join(", ")})`;
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    await tx.statements.run(`INSERT INTO ${quote(plan.name)} (${columns}) VALUES ${chunk.map(() => tuple).join(", ")}`, chunk.flat() as Binding[]);
  }
}

async function countRows(reader: SnapshotReader, table: string): Promise<number> {
  const rows = await reader.values(`SELECT count(*) FROM ${quote(table)}`);
  return Number(rows[0]![0]);
}

/** Every table's row count and checksum, read in one snapshot of `end`. */
export async function checksumTables(end: CopyEnd, readRows = READ_ROWS): Promise<TableCheck[]> {
  const reader = await end.snapshot();
  try {
    const out: TableCheck[] = [];
    for (const plan of copyPlan()) {
      const hasher = tableHasher(plan.columns.map((c) => c.kind));
      for await (const rows of readTable(reader, plan, readRows)) for (const row of rows) hasher.add(row);
      out.push({ table: plan.name, ...hasher.result() });
    }
    return out;
  } finally {
    await reader.close();
  }
}

export interface CopyResult {
  tables: TableCheck[];
  rows: number;
}

/**
 * Copies `source` into `target` (refused unless the target is empty, see findData); answers each
 * table's row count and checksum as read, for verifyCopy. `source` is read in one snapshot: a copy
 * taken while a server writes is consistent, as of its start.
 */
export async function copyDatabase(source: CopyEnd, target: CopyEnd, options: CopyOptions): Promise<CopyResult> {
  if (source.describe === target.describe) throw new CopyRefused(`the target ${target.describe} is the source database`);
  const holding = await findData(target);
  if (holding.length) {
    throw new CopyRefused(
      `the target ${target.describe} is not empty (${holding.slice(0, 3).join(", ")}${holding.length > 3 ? ", ..." : ""} hold rows): copy only into an empty database`,
    );
  }
  const readRows = options.readRows ?? READ_ROWS;
  const port: DatabasePort = target.open(options.now);
  let read: TableCheck[];
  try {
    await port.ready();
    const reader = await source.snapshot();
    try {
      // Both sides must have the same tables and columns: this Cairn's schema.
      const [from, to] = [await reader.level(), await port.schemaVersion()];
      if (from !== to) {
        throw new CopyRefused(
          `the source is at schema level ${from} and the target at ${to}: both must be at this Cairn's level (a server of this Cairn started on the source migrates it)`,
        );
      }
      // One transaction: a copy that fails leaves the target as empty as it was, to be run again.
      // It awaits the source's reads, which a server's transaction must never do; nothing else
      // uses a target being filled.
      read = await port.write(async (tx) => {
        const checks: TableCheck[] = [];
        for (const plan of copyPlan()) {
          const total = await countRows(reader, plan.name);
          const hasher = tableHasher(plan.columns.map((c) => c.kind));
          let maxKey = 0;
          let done = 0;
          options.onProgress?.({ table: plan.name, done, total });
          for await (const rows of readTable(reader, plan, readRows)) {
            for (const row of rows) hasher.add(row);
            await insertRows(tx, plan, rows);
            if (plan.sequence) maxKey = Math.max(maxKey, Number(rows.at(-1)![plan.columns.findIndex((c) => c.name === plan.sequence)]));
            options.onProgress?.({ table: plan.name, done: (done += rows.length), total });
          }
          checks.push({ table: plan.name, ...hasher.result() });
          if (plan.sequence) await target.continueSequence(tx, plan.name, plan.sequence, Math.max(maxKey, await reader.sequence(plan.name, plan.sequence)));
        }
        return checks;
      });
    } finally {
      await reader.close();
    }
  } finally {
    port.close();
  }
  return { tables: read, rows: read.reduce((sum, t) => sum + t.rows, 0) };
}

/**
 * Reads the target back in a snapshot of its own and compares each table's row count and checksum
 * with what was read from the source; throws CopyMismatch naming the first table that differs.
 */
export async function verifyCopy(target: CopyEnd, read: TableCheck[], readRows = READ_ROWS): Promise<TableCheck[]> {
  const written = await checksumTables(target, readRows);
  const byTable = new Map(written.map((t) => [t.table, t]));
  for (const expected of read) {
    const got = byTable.get(expected.table);
    if (!got || got.rows !== expected.rows) {
      throw new CopyMismatch(`the copy of ${expected.table} holds ${got?.rows ?? 0} rows, the source ${expected.rows}`);
    }
    if (got.sha256 !== expected.sha256)
      throw new CopyMismatch(`the copy of ${expected.table} differs from the source (checksum ${got.sha256.slice(0, 12)}…, the source's ${expected.sha256.slice(0, 12)}…)`);
  }
  return written;
}
