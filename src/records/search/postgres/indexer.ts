// Writes the records search index on PostgreSQL (record_index, record_terms, record_fts and its
// vocabulary) from records and drafts: through the database port, inside the caller's write
// transaction (its statements join it), so index rows commit or roll back with the record.
import type { RecordDocument } from "../../../core/record-document";
import type { Db } from "../../../db/port";
import { columnWords, documentOf, type DocumentColumn } from "../../../search/postgres/text";
import { termsOf } from "../../../search/tokens";
import { fullText, indexColumns, terms, type Popularity } from "../document";
import type { IndexedParent, IndexedRow, ParentPopularity } from "../index";

/** The five full-text columns with their ranking weights (SQLite's bm25 weights 10, 3, 5, 3, 1 as A, C, B, C, D). */
export function documentColumns(doc: RecordDocument): DocumentColumn[] {
  const text = fullText(doc);
  return [
    { name: "title", weight: "A", text: text.title },
    { name: "description", weight: "C", text: text.description },
    { name: "creators", weight: "B", text: text.creators },
    { name: "subjects", weight: "C", text: text.subjects },
    { name: "other", weight: "D", text: text.other },
  ];
}

/** `(?, ?, …), (…)` for `rows` rows of `width` values. */
const valuesOf = (rows: number, width: number) => Array.from({ length: rows }, () => `(${Array.from({ length: width }, () => "?").join(", ")})`).join(", ");

/** Rows inserted a few thousand per statement (a statement binds at most 65,535 values). */
async function insertRows(db: Db, into: string, rows: (string | number)[][], tail = "") {
  for (let i = 0; i < rows.length; i += 5000) {
    const some = rows.slice(i, i + 5000);
    await db.statements.run(`INSERT INTO ${into} VALUES ${valuesOf(some.length, some[0]!.length)}${tail}`, some.flat());
  }
}

/** Removes the index rows of a record (or of its draft). */
export async function unindexRecord(db: Db, recordId: string, isDraft: boolean): Promise<void> {
  const removed = await db.statements.all<{ key: number }>("DELETE FROM record_index WHERE record_id = ? AND is_draft = ? RETURNING key", [recordId, isDraft ? 1 : 0]);
  for (const { key } of removed) {
    const text = await db.statements.get<{ length: number }>("DELETE FROM record_fts WHERE key = ? RETURNING length", [key]);
    if (text) await db.statements.run("UPDATE record_fts_stats SET rows = rows - 1, words = words - ?", [text.length]);
    await db.statements.run("DELETE FROM record_terms WHERE key = ?", [key]);
  }
}

/**
 * Writes (or rewrites) the index rows of a record or draft. `fresh` (a rebuild, which emptied the
 * index in its transaction) only inserts, and popularity is put back after.
 */
export async function indexRecord(db: Db, row: IndexedRow, parent: IndexedParent, fresh = false): Promise<void> {
  const doc = row.document as RecordDocument;
  // Popularity belongs to the parent (all versions): a rewritten or new version keeps it.
  const popularity = fresh
    ? null
    : await db.statements.get<Popularity>("SELECT max(views) AS views, max(downloads) AS downloads FROM record_index WHERE parent_id = ?", [row.parentId]);
  if (!fresh) await unindexRecord(db, row.id, row.isDraft);
  const values = indexColumns(row, parent, popularity);
  const columns = Object.keys(values);
  const inserted = await db.statements.get<{ key: number }>(
    `INSERT INTO record_index (${columns.join(", ")}) VALUES ${valuesOf(1, columns.length)} RETURNING key`,
    Object.values(values),
  );
  const key = inserted!.key;
  const text = documentColumns(doc);
  // As FTS5 counts a row's words (bm25's document length), and the table's in all.
  const length = text.reduce((n, c) => n + termsOf(c.text).length, 0);
  await db.statements.run("INSERT INTO record_fts (key, doc, length) VALUES (?, ?::tsvector, ?)", [key, documentOf(text), length]);
  await db.statements.run("UPDATE record_fts_stats SET rows = rows + 1, words = words + ?", [length]);
  const exact = [...terms(row, doc, parent), ...(row.fileTypes ?? []).map((ext): [string, string] => ["files.types", ext])];
  await insertRows(
    db,
    "record_terms (key, field, value)",
    exact.map(([field, value]) => [key, field, value]),
  );
  await insertRows(db, "record_fts_vocab (term, col)", columnWords(text), " ON CONFLICT DO NOTHING");
}

const POPULARITY_ROWS = 1000;

/**
 * Sets parents' popularity (all versions' unique views/downloads) on their index rows, a thousand
 * parents a statement: one statement each (a round trip to the server each) held the write lock
 * 4 s after 20,000 views of as many records.
 */
export async function setPopularity(db: Db, rows: readonly ParentPopularity[]): Promise<void> {
  for (let start = 0; start < rows.length; start += POPULARITY_ROWS) {
    const chunk = rows.slice(start, start + POPULARITY_ROWS);
    await db.statements.run(
      `UPDATE record_index r SET views = v.views, downloads = v.downloads FROM (VALUES ${chunk.map(() => "(?::text, ?::bigint, ?::bigint)").join(", ")}) AS v (parent_id, views, downloads) WHERE r.parent_id = v.parent_id`,
      chunk.flatMap((p) => [p.parentId, p.views, p.downloads]),
    );
  }
}

/** Mirrors records.is_latest for the parent's published versions (only rows whose flag changes are rewritten). */
export async function indexLatestFlags(db: Db, parentId: string, latestId: string): Promise<void> {
  await db.statements.run(
    "UPDATE record_index SET is_latest = CASE WHEN record_id = ? THEN 1 ELSE 0 END WHERE parent_id = ? AND is_draft = 0 AND is_latest IS DISTINCT FROM (CASE WHEN record_id = ? THEN 1 ELSE 0 END)",
    [latestId, parentId, latestId],
  );
}
