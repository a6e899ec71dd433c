// PostgreSQL's tables from the one description of the schema (src/db/tables, drizzle's SQLite
// declarations): `bun scripts/postgres-baseline.ts` writes them as the baseline migration, and a test
// checks that both engines, migrated, hold the same tables and columns.
//
// The mapping: integers (times in epoch ms, counts, ids) -> bigint; booleans -> integer 0/1, so the
// hand-written SQL that compares them to 0/1 runs unchanged on both engines; JSON text -> json, not
// jsonb: the stored text comes back as written (jsonb reorders keys and respaces, so the API's
// answers would differ from SQLite's in key order), every JSON the API accepts is stored (jsonb
// refuses a string holding \u0000), and nothing indexes inside JSON (search has its own tables);`->`
// and `->>` read it alike;
// text -> text COLLATE "C", so text sorts and compares bytewise as on SQLite (orders that JS merges
// and sorts rely on) and lower() folds ASCII only, as SQLite's does, whatever the database's locale;
// an INTEGER PRIMARY KEY (SQLite's rowid alias) -> a sequence, filled by a trigger when an insert
// names the key with NULL, as drizzle's do (SQLite's way of asking for the next one).
import { Column, getTableName, is, Param, SQL, StringChunk } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as tables from "../tables";

const TYPES: Record<string, string> = {
  SQLiteText: 'text COLLATE "C"',
  SQLiteTextJson: "json",
  SQLiteInteger: "bigint",
  SQLiteTimestamp: "bigint",
  SQLiteBoolean: "integer",
  SQLiteReal: "double precision",
  SQLiteBlobBuffer: "bytea",
};

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** SQL written in a table declaration (an index expression, a default, a partial index's WHERE) as PostgreSQL text: columns by bare name. */
function render(chunk: unknown): string {
  if (is(chunk, SQL)) return chunk.queryChunks.map(render).join("");
  if (is(chunk, StringChunk)) return chunk.value.join("");
  if (is(chunk, Column)) return quote(chunk.name);
  if (is(chunk, Param)) return renderValue(chunk.value);
  if (typeof chunk === "string") return chunk;
  throw new Error(`schema: cannot render ${String(chunk)}`);
}

function renderValue(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "string") return literal(value);
  return literal(JSON.stringify(value));
}

function columnDefault(column: Column): string | null {
  if (!column.hasDefault || column.default === undefined) return null;
  if (is(column.default, SQL)) return render(column.default);
  if (column.columnType === "SQLiteTextJson") return `${literal(JSON.stringify(column.default))}::json`;
  return renderValue(column.default);
}

export const allTables = (): SQLiteTable[] => (Object.values(tables) as unknown[]).filter((t): t is SQLiteTable => is(t, SQLiteTable));

/** The statements that create one table (its sequence, trigger and indexes), and its foreign keys, added once every table exists. */
export function tableDdl(table: SQLiteTable): { create: string[]; foreignKeys: string[] } {
  const config = getTableConfig(table);
  const name = config.name;
  const out: string[] = [];
  const foreignKeys: string[] = [];
  const lines: string[] = [];
  const indexes: string[] = [];
  const keyed: string[] = [];
  for (const column of config.columns) {
    const type = TYPES[column.columnType];
    if (!type) throw new Error(`schema: ${name}.${column.name} has a type PostgreSQL's schema does not map (${column.columnType})`);
    // SQLite gives an INTEGER PRIMARY KEY (a rowid alias, AUTOINCREMENT or not) the next value when inserted as NULL.
    const autoIncrement = column.primary && column.columnType === "SQLiteInteger";
    let line = `${quote(column.name)} ${type}`;
    if (autoIncrement) {
      const sequence = `${name}_${column.name}_seq`;
      out.push(`CREATE SEQUENCE ${quote(sequence)}`);
      line += ` DEFAULT nextval(${literal(sequence)})`;
      keyed.push(column.name);
    } else {
      const fallback = columnDefault(column);
      if (fallback !== null) line += ` DEFAULT ${fallback}`;
    }
    if (column.primary) line += " PRIMARY KEY";
    else if (column.notNull) line += " NOT NULL";
    // A unique index by the name drizzle-kit gives SQLite's, rather than an inline constraint.
    if (column.isUnique) indexes.push(`CREATE UNIQUE INDEX ${quote(column.uniqueName ?? `${name}_${column.name}_unique`)} ON ${quote(name)} (${quote(column.name)})`);
    lines.push(line);
  }
  for (const pk of config.primaryKeys) lines.push(`PRIMARY KEY (${pk.columns.map((c) => quote(c.name)).join(", ")})`);
  for (const unique of config.uniqueConstraints) lines.push(`UNIQUE (${unique.columns.map((c) => quote(c.name)).join(", ")})`);
  for (const fk of config.foreignKeys) {
    const ref = fk.reference();
    let line = `ALTER TABLE ${quote(name)} ADD FOREIGN KEY (${ref.columns.map((c) => quote(c.name)).join(", ")}) REFERENCES ${quote(getTableName(ref.foreignTable))} (${ref.foreignColumns.map((c) => quote(c.name)).join(", ")})`;
    if (fk.onDelete && fk.onDelete !== "no action") line += ` ON DELETE ${fk.onDelete.toUpperCase()}`;
    if (fk.onUpdate && fk.onUpdate !== "no action") line += ` ON UPDATE ${fk.onUpdate.toUpperCase()}`;
    foreignKeys.push(line);
  }
  out.push(`CREATE TABLE ${quote(name)} (\n  ${lines.join(",\n  ")}\n)`);
  for (const column of keyed) {
    const sequence = `${name}_${column}_seq`;
    out.push(`ALTER SEQUENCE ${quote(sequence)} OWNED BY ${quote(name)}.${quote(column)}`);
    // drizzle's SQLite inserts name an AUTOINCREMENT key with NULL: the trigger gives it the next value.
    const fn = `${name}_${column}_next`;
    out.push(
      `CREATE FUNCTION ${quote(fn)}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.${quote(column)} IS NULL THEN NEW.${quote(column)} := nextval(${literal(sequence)}); END IF; RETURN NEW; END $$`,
    );
    out.push(`CREATE TRIGGER ${quote(fn)} BEFORE INSERT ON ${quote(name)} FOR EACH ROW EXECUTE FUNCTION ${quote(fn)}()`);
  }
  out.push(...indexes);
  for (const idx of config.indexes) {
    const { name: indexName, columns, unique, where } = idx.config;
    const parts = columns.map((c) => (is(c, Column) ? quote(c.name) : `(${render(c)})`));
    let line = `CREATE ${unique ? "UNIQUE " : ""}INDEX ${quote(indexName)} ON ${quote(name)} (${parts.join(", ")})`;
    if (where) line += ` WHERE ${render(where)}`;
    out.push(line);
  }
  return { create: out, foreignKeys };
}

/** Every table's statements: the tables, then the foreign keys between them. */
export function schemaDdl(): string[] {
  const parts = allTables().map(tableDdl);
  return [...parts.flatMap((p) => p.create), ...parts.flatMap((p) => p.foreignKeys)];
}
