// Writes the records search index (record_index, record_terms, record_fts) from records and
// drafts: called (through the search module, index.ts) inside the transactions that write records.
import type { RecordDocument } from "../../../core/record-document";
import type { SqliteDb } from "../../../db/sqlite/connection";
import { fullText, indexColumns, terms } from "../document";
import type { IndexedParent, IndexedRow } from "../index";

function removeKey(db: SqliteDb, key: number) {
  db.$client.query("DELETE FROM record_fts WHERE rowid = ?").run(key);
  db.$client.query("DELETE FROM record_terms WHERE key = ?").run(key);
}

/** Removes the index rows of a record (or of its draft); the keys removed. */
export function unindexRecord(db: SqliteDb, recordId: string, isDraft: boolean): number[] {
  const existing = db.$client.query<{ key: number }, [string, number]>("SELECT key FROM record_index WHERE record_id = ? AND is_draft = ?").get(recordId, isDraft ? 1 : 0);
  if (!existing) return [];
  removeKey(db, existing.key);
  db.$client.query("DELETE FROM record_index WHERE key = ?").run(existing.key);
  return [existing.key];
}

/** The three tables of the index: the live ones, or a rebuild's shadow copies (rebuild.ts). */
export interface IndexTables {
  index: string;
  terms: string;
  fts: string;
}
export const LIVE_TABLES: IndexTables = { index: "record_index", terms: "record_terms", fts: "record_fts" };

/**
 * Writes (or rewrites) the index rows of a record or draft. With `fresh` tables (a rebuild's
 * shadow copies) it only inserts: nothing is there to remove, and popularity is put back after.
 */
export function indexRecord(db: SqliteDb, row: IndexedRow, parent: IndexedParent, fresh?: IndexTables): number[] {
  const t = fresh ?? LIVE_TABLES;
  const doc = row.document as RecordDocument;
  // Popularity belongs to the parent (all versions): a rewritten or new version keeps it.
  // (A rebuild starts from empty tables: the counts are put back after it, see cli/reindex.ts.)
  const popularity = fresh
    ? null
    : db.$client
        .query<{ views: number | null; downloads: number | null }, [string]>("SELECT max(views) AS views, max(downloads) AS downloads FROM record_index WHERE parent_id = ?")
        .get(row.parentId);
  const removed = fresh ? [] : unindexRecord(db, row.id, row.isDraft);
  const values = indexColumns(row, parent, popularity);
  const columns = Object.keys(values);
  const key = db.$client
    .query<{ key: number }, (string | number | null)[]>(`INSERT INTO ${t.index} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) RETURNING key`)
    .get(...(Object.values(values) as (string | number | null)[]))!.key;
  const text = fullText(doc);
  db.$client
    .query(`INSERT INTO ${t.fts} (rowid, title, description, creators, subjects, other) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(key, text.title, text.description, text.creators, text.subjects, text.other);
  const insertTerm = db.$client.query(`INSERT INTO ${t.terms} (key, field, value) VALUES (?, ?, ?)`);
  for (const [field, value] of terms(row, doc, parent)) insertTerm.run(key, field, value);
  for (const ext of row.fileTypes ?? []) insertTerm.run(key, "files.types", ext);
  return [...removed, key];
}

/** Sets a parent's popularity (all versions' unique views/downloads) on its index rows; returns their keys. */
export function setPopularity(db: SqliteDb, parentId: string, views: number, downloads: number): number[] {
  return db.$client
    .query<{ key: number }, [number, number, string]>("UPDATE record_index SET views = ?, downloads = ? WHERE parent_id = ? RETURNING key")
    .all(views, downloads, parentId)
    .map((r) => r.key);
}

/** Mirrors records.is_latest for the parent's published versions; the keys of their rows. */
export function indexLatestFlags(db: SqliteDb, parentId: string, latestId: string): number[] {
  return (
    db.$client
      // Only rows whose flag changes: a first version's row is written already right, and an UPDATE
      // that leaves a value as it was still rewrites the row and its index entries (58 µs a publish).
      .query<{ key: number }, [string, string, string]>(
        "UPDATE record_index SET is_latest = (record_id = ?) WHERE parent_id = ? AND is_draft = 0 AND is_latest IS NOT (record_id = ?) RETURNING key",
      )
      .all(latestId, parentId, latestId)
      .map((r) => r.key)
  );
}

export { rowOf } from "../document";
