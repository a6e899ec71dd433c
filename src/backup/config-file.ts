// A restored data directory's cairn.toml names the database the restore wrote, not the backed-up
// installation's: a backup made on PostgreSQL carries a cairn.toml whose DATABASE_URL is the
// original database, and a server started on the restored folder would otherwise quietly serve that
// one (or, restored onto SQLite, ignore the restored cairn.db). The rest of the file is kept as it is.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const KEY = /^\s*DATABASE_URL\s*=/;

/** cairn.toml's text with DATABASE_URL naming `databaseUrl` (empty: SQLite, the key taken out). */
export function withDatabaseUrl(text: string, databaseUrl: string): string {
  const lines = text.split("\n");
  const line = databaseUrl
    ? `DATABASE_URL = ${JSON.stringify(databaseUrl)}`
    : "# DATABASE_URL (the backed-up installation's database) taken out by cairn restore: this folder's cairn.db holds the data";
  const at = lines.findIndex((l) => KEY.test(l));
  // The first one replaced in place, any other dropped; none: a top-level key goes before the first table.
  const kept = lines.flatMap((l, i) => (i === at ? [line] : KEY.test(l) ? [] : [l]));
  return (at < 0 && databaseUrl ? [line, ...kept] : kept).join("\n");
}

/** Points `dir`'s cairn.toml (when it has one, or when a database must be named) at `databaseUrl`. */
export async function pointConfigAtDatabase(dir: string, databaseUrl: string): Promise<void> {
  const path = join(dir, "cairn.toml");
  const had = existsSync(path);
  if (!had && !databaseUrl) return;
  const text = had ? await readFile(path, "utf8") : "";
  const next = withDatabaseUrl(text, databaseUrl);
  if (next !== text) await writeFile(path, next.endsWith("\n") ? next : `${next}\n`, { mode: 0o600 });
}
