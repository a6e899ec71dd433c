// Rebuilding the records index on PostgreSQL: one write transaction empties the index and writes
// every record and draft again. Searches never see an empty or partial index (they read the last
// commit until this one), and writers of every process wait for it (they take the same write
// lock), so nothing written meanwhile needs catching up. SQLite's shadow tables and their swap
// have no twin here: they exist so that writes may run between batches on one connection.
import type { Db } from "../../../db/port";
import type { IndexCheck, RebuildHooks } from "../index";
import { draftOf, publishedOf, withFileTypes, type FileTypes, type Raw } from "../rebuild-rows";
import { indexRecord, setPopularity } from "./indexer";

const BATCH = 2000;

/** Columns of the parent `p` (record_parents) a row is indexed with. */
const PARENT_COLUMNS = "p.pids AS parent_pids, (SELECT string_agg(community_id, ',') FROM record_communities WHERE parent_id = p.id) AS parent_communities";

const DRAFTS_SQL = `SELECT d.*, ${PARENT_COLUMNS},
    CASE WHEN d.version_index >= (SELECT max(v) FROM (SELECT max(version_index) AS v FROM records WHERE parent_id = d.parent_id UNION ALL SELECT max(version_index) FROM drafts WHERE parent_id = d.parent_id) AS m) THEN 1 ELSE 0 END AS is_latest
  FROM drafts d LEFT JOIN record_parents p ON p.id = d.parent_id ORDER BY d.id`;

/** Rebuilds the whole index from the records and drafts; returns how many published records it holds. */
export async function rebuildIndex(db: Db, fileTypes: FileTypes = () => [], hooks: RebuildHooks = {}): Promise<number> {
  const indexed = await db.write(async (tx) => {
    const total = (await tx.statements.get<{ n: number }>("SELECT count(*) AS n FROM records"))!.n;
    // Views and downloads belong to the parent and are counted by statistics, not by the rebuild.
    const popularity = await tx.statements.all<{ parent_id: string; views: number; downloads: number }>(
      "SELECT parent_id, max(views) AS views, max(downloads) AS downloads FROM record_index GROUP BY parent_id HAVING max(views) > 0 OR max(downloads) > 0",
    );
    // DELETE, not TRUNCATE: searches keep reading the old rows until this commits (TRUNCATE would lock them out).
    // The vocabulary too: the rebuild leaves only the words the records have now.
    await tx.statements.run("DELETE FROM record_fts_vocab");
    await tx.statements.run("DELETE FROM record_terms");
    await tx.statements.run("DELETE FROM record_fts");
    await tx.statements.run("UPDATE record_fts_stats SET rows = 0, words = 0");
    await tx.statements.run("DELETE FROM record_index");
    hooks.onShadowReady?.();
    let done = 0;
    let after = "";
    for (;;) {
      const rows = await tx.statements.all<Raw>(
        `SELECT r.*, ${PARENT_COLUMNS} FROM records r LEFT JOIN record_parents p ON p.id = r.parent_id WHERE r.id > ? ORDER BY r.id LIMIT ?`,
        [after, hooks.batchSize ?? BATCH],
      );
      if (rows.length === 0) break;
      for (const { row, parent } of await withFileTypes(rows.map(publishedOf), fileTypes)) await indexRecord(tx, row, parent, true);
      done += rows.length;
      after = rows[rows.length - 1]!.id;
      hooks.onProgress?.(done, total);
    }
    // Drafts too: the owners' own listings search them.
    const drafts = await withFileTypes((await tx.statements.all<Raw>(DRAFTS_SQL)).map(draftOf), fileTypes);
    for (const { row, parent } of drafts) await indexRecord(tx, row, parent, true);
    await setPopularity(
      tx,
      popularity.map((p) => ({ parentId: p.parent_id, views: p.views, downloads: p.downloads })),
    );
    hooks.beforeSwap?.();
    return (await tx.statements.get<{ n: number }>("SELECT count(*) AS n FROM record_index WHERE is_draft = 0"))!.n;
  });
  // Fresh statistics for the planner: with the old ones (or none, after a copy) it takes a keyword
  // lookup for one row and loops over it (0.3 s a search at 1,000 records) until autovacuum runs.
  await db.statements.run("ANALYZE record_index, record_terms, record_fts, record_fts_vocab");
  // And the full-text indexes' pending entries merged in: a GIN index takes a bulk write into a
  // pending list that every search then reads through (a sequential scan, 66 ms instead of 3.5 ms
  // for one word at 20,000 records) until vacuum merges it.
  await db.statements.get("SELECT gin_clean_pending_list('record_fts_doc'::regclass) AS a, gin_clean_pending_list('record_fts_vocab_trgm'::regclass) AS b");
  return indexed;
}

/** How the index compares with the records and drafts it should hold (as on SQLite: sqlite/rebuild.ts checkIndex). */
export async function checkIndex(db: Db): Promise<IndexCheck> {
  const count = async (sql: string) => (await db.statements.get<{ n: number }>(sql))!.n;
  const records = await count("SELECT count(*) AS n FROM records");
  const drafts = await count("SELECT count(*) AS n FROM drafts");
  const indexedRecords = await count("SELECT count(*) AS n FROM record_index WHERE is_draft = 0");
  const indexedDrafts = await count("SELECT count(*) AS n FROM record_index WHERE is_draft = 1");
  // Every published record has a title: an oldest row without presence bits predates them.
  const oldest = await db.statements.get<{ present: number }>("SELECT present FROM record_index WHERE is_draft = 0 ORDER BY key LIMIT 1");
  const outdated = oldest !== null && oldest.present === 0;
  return { records, drafts, indexedRecords, indexedDrafts, outdated, complete: records === indexedRecords && drafts === indexedDrafts && !outdated };
}
