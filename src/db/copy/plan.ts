// What a copy between engines moves (`cairn db copy`, a PostgreSQL backup, a restore into
// PostgreSQL): every table of the one schema description (db/tables) except the derived search
// index, parents before the tables whose foreign keys name them, and how each column's values are
// read alike on both engines.
import { getTableName, is, type Column } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as tables from "../tables";

/** How a column's values compare across engines (see checksum.ts). */
export type ColumnKind = "text" | "json" | "integer" | "real" | "blob";

const KINDS: Record<string, ColumnKind> = {
  SQLiteText: "text",
  SQLiteTextJson: "json",
  SQLiteInteger: "integer",
  SQLiteTimestamp: "integer",
  SQLiteBoolean: "integer",
  SQLiteReal: "real",
  SQLiteBlobBuffer: "blob",
};

/**
 * The record search index is derived from the records, and its engine-specific half (SQLite's FTS5
 * tables, PostgreSQL's tsvectors) can only be written by the target's own search engine: the
 * target rebuilds the whole index from the copied records instead (records' `reindex`), as
 * `cairn reindex` does. The vocabulary entries are copied; their full-text index is rebuilt too.
 * The serving processes' own state is left behind as well: the target's processes make theirs.
 */
export const DERIVED_TABLES: ReadonlySet<string> = new Set([
  "record_index",
  "record_terms",
  // The SQLite index's log of its writes, which the target's rebuild writes anew.
  "index_changes",
  // What the source's serving processes kept for themselves: which ran, and their rate-limit counts.
  "server_instances",
  "rate_counts",
]);

export interface TablePlan {
  name: string;
  columns: { name: string; kind: ColumnKind }[];
  /** The primary key's columns: rows are read and checksummed in this order on both engines. */
  key: string[];
  /**
   * An INTEGER PRIMARY KEY column (SQLite's rowid alias, AUTOINCREMENT or not), whose next value
   * the target continues past the source's: PostgreSQL gives each a sequence (db/postgres/schema.ts).
   */
  sequence: string | null;
}

function planOf(table: SQLiteTable): TablePlan & { parents: string[] } {
  const config = getTableConfig(table);
  const columns = config.columns.map((c: Column) => {
    const kind = KINDS[c.columnType];
    if (!kind) throw new Error(`copy: ${config.name}.${c.name} has a type the copy does not know (${c.columnType})`);
    return { name: c.name, kind };
  });
  const key = [...config.columns.filter((c) => c.primary).map((c) => c.name), ...config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name))];
  if (!key.length) throw new Error(`copy: ${config.name} has no primary key to read it in order by`);
  // Not AUTOINCREMENT alone: after a copy into PostgreSQL, a plain rowid alias's sequence would
  // start at 1 and hand out the keys of copied rows (stats_keys: every new record's views refused).
  const auto = config.columns.find((c) => c.primary && c.columnType === "SQLiteInteger");
  const parents = config.foreignKeys.map((fk) => getTableName(fk.reference().foreignTable)).filter((p) => p !== config.name);
  return { name: config.name, columns, key, sequence: auto?.name ?? null, parents };
}

/** Every described table, derived ones included (the emptiness check looks at them too). */
export const describedTables = (): string[] => (Object.values(tables) as unknown[]).filter((t): t is SQLiteTable => is(t, SQLiteTable)).map((t) => getTableName(t));

/** The tables a copy moves, each after the tables its foreign keys reference. */
export function copyPlan(): TablePlan[] {
  const plans = (Object.values(tables) as unknown[])
    .filter((t): t is SQLiteTable => is(t, SQLiteTable) && !DERIVED_TABLES.has(getTableName(t)))
    .map(planOf)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const byName = new Map(plans.map((p) => [p.name, p]));
  const ordered: TablePlan[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (plan: TablePlan & { parents: string[] }) => {
    if (state.get(plan.name) === "done") return;
    if (state.get(plan.name) === "visiting") throw new Error(`copy: the foreign keys of ${plan.name} form a cycle`);
    state.set(plan.name, "visiting");
    for (const parent of plan.parents) {
      const p = byName.get(parent);
      if (p) visit(p);
    }
    state.set(plan.name, "done");
    const { parents: _, ...rest } = plan;
    ordered.push(rest);
  };
  for (const plan of plans) visit(plan);
  return ordered;
}
