// A PostgreSQL database as one side of a copy between engines (db/copy/engine.ts).
import type { CopyEnd, SnapshotReader } from "../copy/engine";
import type { Binding } from "../port";
import { numberedPlaceholders } from "./placeholders";
import { createPostgresPort, describeUrl, openClient } from "./port";

/** The sequence schema.ts gives an AUTOINCREMENT key. */
const sequenceOf = (table: string, column: string) => `"${`${table}_${column}_seq`.replace(/"/g, '""')}"`;

/**
 * One connection in a REPEATABLE READ READ ONLY transaction: every read sees the same snapshot,
 * taken at its first statement, whatever other sessions commit meanwhile (and writes none).
 */
async function openSnapshot(url: string): Promise<SnapshotReader> {
  const client = openClient(url, 1);
  const sql = await client.reserve();
  try {
    await sql.unsafe("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const rows = await sql.unsafe<{ name: string }[]>("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()");
    const names = new Set(rows.map((r) => r.name));
    return {
      values: async (text: string, params: readonly Binding[] = []) =>
        (await sql.unsafe(numberedPlaceholders(text), params.map((p) => (p === true ? 1 : p === false ? 0 : p)) as never[]).values()) as unknown[][],
      tables: async () => names,
      level: async () => {
        if (!names.has("schema_migrations")) return 0;
        const row = (await sql.unsafe<{ version: number | null }[]>("SELECT max(version) AS version FROM schema_migrations"))[0];
        return Number(row?.version ?? 0);
      },
      sequence: async (table, column) => {
        const exists = await sql.unsafe<{ found: boolean }[]>("SELECT to_regclass($1) IS NOT NULL AS found", [sequenceOf(table, column)]);
        if (!exists[0]?.found) return 0;
        // Sequences are not transactional: this is the last value handed out by now, at least the snapshot's.
        const row = (await sql.unsafe<{ last_value: number; is_called: boolean }[]>(`SELECT last_value, is_called FROM ${sequenceOf(table, column)}`))[0]!;
        return row.is_called ? Number(row.last_value) : 0;
      },
      close: async () => {
        try {
          await sql.unsafe("COMMIT");
        } finally {
          sql.release();
          await client.end({ timeout: 5 });
        }
      },
    };
  } catch (error) {
    sql.release();
    await client.end({ timeout: 5 });
    throw error;
  }
}

export function postgresCopyEnd(url: string): CopyEnd {
  return {
    engine: "postgres",
    describe: describeUrl(url),
    exists: () => true,
    snapshot: () => openSnapshot(url),
    open: (now) => createPostgresPort(url, { migrateAt: now }),
    async continueSequence(tx, table, column, last) {
      if (last > 0) await tx.statements.get(`SELECT setval('${sequenceOf(table, column).replace(/'/g, "''")}', ?, true)`, [last]);
    },
  };
}
