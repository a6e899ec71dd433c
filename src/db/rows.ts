// Point reads by primary key through the port's cached statements, with rows shaped as drizzle
// would shape them. Drizzle's query builder costs ~40 µs a call; these cost ~3 µs, and they
// sit on every request's path (a record, its parent, a draft).
import { getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./port";

type Column = { key: string; name: string; kind: string };

const shapes = new WeakMap<SQLiteTable, Column[]>();

function columnsOf(table: SQLiteTable): Column[] {
  let cols = shapes.get(table);
  if (!cols) {
    cols = Object.entries(getTableColumns(table)).map(([key, col]) => ({ key, name: col.name, kind: col.dataType }));
    shapes.set(table, cols);
  }
  return cols;
}

/** A raw SQLite row -> the typed row (JSON columns parsed, boolean columns as booleans). */
export function shapeRow<T extends SQLiteTable>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const out: Record<string, unknown> = {};
  for (const c of columnsOf(table)) {
    const v = raw[c.name];
    out[c.key] = v === null || v === undefined ? null : c.kind === "json" ? JSON.parse(v as string) : c.kind === "boolean" ? v === 1 : v;
  }
  return out as T["$inferSelect"];
}

type Binding = string | number | null;

/**
 * The rows of `table` matching `where` (SQL with `?` parameters, column names as in SQL), with an
 * optional `ORDER BY`/`LIMIT` tail, through the statement cache: for lookups on a request's path
 * that the query builder made cost tens of µs a call. Callers build `where` from fixed fragments
 * only, never from values, so the cache holds one statement per shape. A few rows are better
 * ordered by `sortRows` than by a tail: the SQLite driver spends ~3.5 µs more on every run of a statement
 * with ORDER BY, even one an index serves or one that finds nothing (measured, Bun 1.4.5).
 */
export async function selectRows<T extends SQLiteTable>(db: Db, table: T, where: string, params: Binding[], tail = ""): Promise<T["$inferSelect"][]> {
  const rows = await db.statements.all<Record<string, unknown>>(`SELECT * FROM "${getTableName(table)}" WHERE ${where} ${tail}`, params);
  return rows.map((raw) => shapeRow(table, raw));
}

/** Sorts rows in place by the keys in order (ascending; numbers or strings), for `selectRows` results. */
export function sortRows<R>(rows: R[], ...keys: (keyof R)[]): R[] {
  return rows.sort((a, b) => {
    for (const key of keys) {
      const x = a[key] as string | number;
      const y = b[key] as string | number;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
}

/** The row whose `column` (SQL name) equals `value`, or null. */
export function findRow<T extends SQLiteTable>(db: Db, table: T, column: string, value: string | number): Promise<T["$inferSelect"] | null> {
  return db.statements.get<Record<string, unknown>>(`SELECT * FROM "${getTableName(table)}" WHERE "${column}" = ?`, [value]).then((raw) => (raw ? shapeRow(table, raw) : null));
}

/** Inserts a row given as drizzle would take it (keys left out take their SQL defaults). */
export async function insertRow<T extends SQLiteTable>(db: Db, table: T, row: T["$inferInsert"]): Promise<void> {
  const names: string[] = [];
  const values: (string | number | null)[] = [];
  const given = row as Record<string, unknown>;
  for (const c of columnsOf(table)) {
    const v = given[c.key];
    if (v === undefined) continue;
    names.push(`"${c.name}"`);
    values.push(v === null ? null : c.kind === "json" ? JSON.stringify(v) : c.kind === "boolean" ? (v ? 1 : 0) : (v as string | number));
  }
  await db.statements.run(`INSERT INTO "${getTableName(table)}" (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`, values);
}
