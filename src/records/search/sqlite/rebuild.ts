// Rebuilding the records index without ever showing an empty or partial one: the new rows go into
// shadow tables, batch by batch, and one transaction swaps them in. A rebuild killed at any point
// leaves the live index as it was (the next rebuild drops the leftover shadow tables).
import type { Db } from "../../../db/port";
import { onSqlite, withPageCache, type SqliteDb } from "../../../db/sqlite/connection";
import type { RebuildHooks } from "../index";
import { draftOf, publishedOf, withFileTypes, type FileTypes, type Indexed, type Raw } from "../rebuild-rows";
import { logIndexChange } from "./change-log";
import { indexRecord, LIVE_TABLES, type IndexTables } from "./indexer";

const SHADOW: IndexTables = { index: "record_index_rebuild", terms: "record_terms_rebuild", fts: "record_fts_rebuild" };
const BATCH = 2000;

/** The live tables' and indexes' CREATE statements, as SQLite keeps them (ALTERed columns included). */
function liveSchema(db: SqliteDb) {
  const tables = Object.values(LIVE_TABLES);
  return db.$client
    .query<{ type: string; name: string; sql: string }, string[]>(
      `SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND ((type = 'table' AND name IN (?, ?, ?)) OR (type = 'index' AND tbl_name IN (?, ?, ?)))`,
    )
    .all(...tables, ...tables);
}

/** A live table's name in its CREATE statement replaced by its shadow's. */
function shadowSql(sql: string): string {
  const pairs = Object.entries(LIVE_TABLES).map(([role, live]) => [live, SHADOW[role as keyof IndexTables]] as const);
  return sql.replace(/^(CREATE (?:VIRTUAL )?TABLE )[`"]?(\w+)[`"]?/, (_, head: string, name: string) => head + (pairs.find(([live]) => live === name)?.[1] ?? name));
}

export function dropShadow(db: SqliteDb) {
  for (const table of Object.values(SHADOW)) db.$client.exec(`DROP TABLE IF EXISTS ${table}`);
}

/** Shadow tables like the live ones, without their indexes: a bulk load is faster without, and the swap makes them. */
function createShadow(db: SqliteDb) {
  dropShadow(db);
  for (const object of liveSchema(db)) if (object.type === "table") db.$client.exec(shadowSql(object.sql));
}

/** Columns of the parent `p` (record_parents) a row is indexed with. */
const PARENT_COLUMNS = "p.pids AS parent_pids, (SELECT group_concat(community_id) FROM record_communities WHERE parent_id = p.id) AS parent_communities";

const DRAFTS_SQL = `SELECT d.*, ${PARENT_COLUMNS},
    d.version_index >= (SELECT max(v) FROM (SELECT max(version_index) AS v FROM records WHERE parent_id = d.parent_id UNION ALL SELECT max(version_index) FROM drafts WHERE parent_id = d.parent_id)) AS is_latest
  FROM drafts d LEFT JOIN record_parents p ON p.id = d.parent_id`;

/** Writes rows into the shadow tables. */
const indexShadow = (db: SqliteDb, items: Indexed[]) => items.forEach(({ row, parent }) => indexRecord(db, row, parent, SHADOW));

/** Removes shadow rows of these parents (or, with null, of records and drafts that no longer exist). */
function removeShadowRows(db: SqliteDb, parents: string[] | null) {
  const where = parents
    ? `parent_id IN (${parents.map(() => "?").join(", ")})`
    : "(is_draft = 0 AND record_id NOT IN (SELECT id FROM records)) OR (is_draft = 1 AND record_id NOT IN (SELECT id FROM drafts))";
  const keys = db.$client.query<{ key: number }, string[]>(`DELETE FROM ${SHADOW.index} WHERE ${where} RETURNING key`).all(...(parents ?? []));
  for (const { key } of keys) {
    db.$client.query(`DELETE FROM ${SHADOW.fts} WHERE rowid = ?`).run(key);
    db.$client.query(`DELETE FROM ${SHADOW.terms} WHERE key = ?`).run(key);
  }
}

/**
 * Writes made while the rebuild ran (a server beside `cairn reindex`) went to the live index only:
 * the records and drafts of every parent touched since `since` are read to be indexed into the
 * shadow again (a parent included in a community since then too; a removal leaves no row to find).
 * Their shadow rows are removed here; `indexShadow` writes the new ones.
 */
function catchUp(db: SqliteDb, since: number): Indexed[] {
  removeShadowRows(db, null);
  const parents = db.$client
    .query<{ p: string }, [number, number, number]>(
      "SELECT parent_id AS p FROM records WHERE updated >= ? UNION SELECT parent_id FROM drafts WHERE updated >= ? UNION SELECT parent_id FROM record_communities WHERE created >= ?",
    )
    .all(since, since, since)
    .map((r) => r.p);
  const items: Indexed[] = [];
  for (let i = 0; i < parents.length; i += 500) {
    const some = parents.slice(i, i + 500);
    const marks = some.map(() => "?").join(", ");
    removeShadowRows(db, some);
    const records = db.$client
      .query<Raw, string[]>(`SELECT r.*, ${PARENT_COLUMNS} FROM records r LEFT JOIN record_parents p ON p.id = r.parent_id WHERE r.parent_id IN (${marks})`)
      .all(...some);
    for (const raw of records) items.push(publishedOf(raw));
    for (const raw of db.$client.query<Raw, string[]>(`SELECT * FROM (${DRAFTS_SQL}) WHERE parent_id IN (${marks})`).all(...some)) items.push(draftOf(raw));
  }
  return items;
}

/** Popularity carried over, the live tables replaced by the shadow ones, their indexes made. */
function swapTables(db: SqliteDb) {
  // Views and downloads belong to the parent and are counted by statistics, not by the rebuild.
  db.$client.exec(
    `UPDATE ${SHADOW.index} AS s SET views = l.views, downloads = l.downloads FROM (SELECT parent_id, max(views) AS views, max(downloads) AS downloads FROM record_index GROUP BY parent_id) AS l WHERE l.parent_id = s.parent_id`,
  );
  const schema = liveSchema(db);
  for (const live of Object.values(LIVE_TABLES)) db.$client.exec(`DROP TABLE ${live}`);
  for (const [role, live] of Object.entries(LIVE_TABLES)) db.$client.exec(`ALTER TABLE ${SHADOW[role as keyof IndexTables]} RENAME TO ${live}`);
  for (const object of schema) if (object.type === "index") db.$client.exec(object.sql);
  // New tables, new keys: every process's copy rebuilds from them.
  logIndexChange(db, null);
}

/** One transaction: the catch-up, then the swap. */
async function swap(db: Db, since: number, fileTypes: FileTypes, beforeSwap: (() => void) | undefined) {
  await db.write(async (tx) => {
    const items = await onSqlite(tx, (s) => catchUp(s, since));
    // The file types are database reads: inside the transaction, as before the swap's writes.
    const typed = await withFileTypes(items, fileTypes);
    await onSqlite(tx, (s) => indexShadow(s, typed));
    beforeSwap?.();
    await onSqlite(tx, swapTables);
  });
}

/** Rebuilds the whole index from the records and drafts; returns how many published records it holds. */
export async function rebuildIndex(db: Db, since: number, fileTypes: FileTypes = () => [], hooks: RebuildHooks = {}): Promise<number> {
  const total = await onSqlite(db, (s) => s.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM records").get()!.n);
  // A bigger page cache for the bulk load: the index B-trees of a million rows outgrow the default 2 MB.
  return withPageCache(db, 131_072, async () => {
    await db.write(async (tx) => onSqlite(tx, (s) => createShadow(s)));
    hooks.onShadowReady?.();
    const batch = hooks.batchSize ?? BATCH;
    let done = 0;
    let after = "";
    for (;;) {
      // Keyset paging with each record's parent pids and communities in the same read: no per-record lookups.
      const rows = await onSqlite(db, (s) =>
        s.$client
          .query<Raw, [string, number]>(`SELECT r.*, ${PARENT_COLUMNS} FROM records r LEFT JOIN record_parents p ON p.id = r.parent_id WHERE r.id > ? ORDER BY r.id LIMIT ?`)
          .all(after, batch),
      );
      if (rows.length === 0) break;
      // Shaped and given their file types first: the batch's transaction only writes.
      const items = await withFileTypes(rows.map(publishedOf), fileTypes);
      await db.write(async (tx) => onSqlite(tx, (s) => indexShadow(s, items)));
      done += rows.length;
      after = rows[rows.length - 1]!.id;
      hooks.onProgress?.(done, total);
    }
    // Drafts too: the owners' own listings search them.
    const drafts = await withFileTypes((await onSqlite(db, (s) => s.$client.query<Raw, []>(DRAFTS_SQL).all())).map(draftOf), fileTypes);
    await db.write(async (tx) => onSqlite(tx, (s) => indexShadow(s, drafts)));
    await swap(db, since, fileTypes, hooks.beforeSwap);
    return onSqlite(db, (s) => s.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM record_index WHERE is_draft = 0").get()!.n);
  });
}

/**
 * How the live index compares with the records and drafts it should hold (a killed or failed write
 * shows here). Not complete either when it was written before the index kept which full-text
 * fields each record has (`_exists_` on them; every published record's title shows it): a rebuild
 * adds them.
 */
export function checkIndex(db: SqliteDb) {
  const count = (sql: string) => db.$client.query<{ n: number }, []>(sql).get()!.n;
  const records = count("SELECT count(*) AS n FROM records");
  const drafts = count("SELECT count(*) AS n FROM drafts");
  const indexedRecords = count("SELECT count(*) AS n FROM record_index WHERE is_draft = 0");
  const indexedDrafts = count("SELECT count(*) AS n FROM record_index WHERE is_draft = 1");
  // Every published record has a title: an oldest row without presence bits predates them (a rebuild gives every row new keys).
  const oldest = db.$client.query<{ present: number }, []>("SELECT present FROM record_index WHERE is_draft = 0 ORDER BY key LIMIT 1").get();
  const outdated = oldest !== null && oldest.present === 0;
  return { records, drafts, indexedRecords, indexedDrafts, outdated, complete: records === indexedRecords && drafts === indexedDrafts && !outdated };
}
