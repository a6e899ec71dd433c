// Queries on vocabulary_entries, their counts and the fixture versions; the search index is kept in
// step row by row through the vocabulary search engine (sqlite/fts.ts).
import type { Db } from "../db/port";
import { KINDS } from "./kinds";
import type { EntryRow, VocabularyType } from "./model";
import { indexEntry, unindexEntry } from "./sqlite/fts";

// Where the ranking cut-off has always been read from.
export { RANK_LIMIT, type Order } from "./sqlite/fts";

export type { EntryRow };

export const findEntry = (db: Db, type: string, id: string) =>
  db.statements.get<EntryRow>("SELECT pk, type, id, data, created, updated, revision_id, retired_at FROM vocabulary_entries WHERE type = ? AND id = ?", [type, id]);

const countEntries = (db: Db, type: string, delta: number) =>
  db.statements.run("INSERT INTO vocabulary_counts (type, entries) VALUES (?1, ?2) ON CONFLICT(type) DO UPDATE SET entries = entries + ?2", [type, delta]);

export type WriteOutcome = "created" | "updated" | "unchanged";

/**
 * Inserts or replaces one entry and its index row; the caller owns the transaction. A retired
 * entry stays retired (out of the index and the count) when an import or an edit rewrites it.
 */
export async function upsertEntry(db: Db, type: VocabularyType, entry: Record<string, unknown> & { id: string }, now: number): Promise<WriteOutcome> {
  const data = JSON.stringify(entry);
  const sortKey = KINDS[type].sortKey(entry);
  const existing = await db.statements.get<{ pk: number; data: string; retired_at: number | null }>(
    "SELECT pk, data, retired_at FROM vocabulary_entries WHERE type = ? AND id = ?",
    [type, entry.id],
  );
  if (!existing) {
    const row = (await db.statements.get<{ pk: number }>(
      "INSERT INTO vocabulary_entries (type, id, data, sort_key, created, updated, revision_id) VALUES (?, ?, ?, ?, ?, ?, 1) RETURNING pk",
      [type, entry.id, data, sortKey, now, now],
    ))!;
    await indexEntry(db, type, row.pk, entry);
    await countEntries(db, type, +1);
    return "created";
  }
  if (existing.data === data) return "unchanged";
  await db.statements.run("UPDATE vocabulary_entries SET data = ?, sort_key = ?, updated = ?, revision_id = revision_id + 1 WHERE pk = ?", [data, sortKey, now, existing.pk]);
  if (existing.retired_at !== null) return "updated";
  await unindexEntry(db, type, existing.pk);
  await indexEntry(db, type, existing.pk, entry);
  return "updated";
}

export async function deleteEntry(db: Db, type: VocabularyType, id: string): Promise<boolean> {
  const existing = await findEntry(db, type, id);
  if (!existing) return false;
  await db.statements.run("DELETE FROM vocabulary_entries WHERE pk = ?", [existing.pk]);
  // A retired entry has left the index and the count already.
  if (existing.retired_at !== null && existing.retired_at !== undefined) return true;
  await unindexEntry(db, type, existing.pk);
  await countEntries(db, type, -1);
  return true;
}

/**
 * Retires an entry or offers it again. A retired entry leaves its type's search index
 * and its count, so every search (and the deposit form's choices, which are searches) stops
 * offering it, while reads by id still find it. The caller owns the transaction.
 */
export async function setRetired(db: Db, type: VocabularyType, row: EntryRow, retire: boolean, now: number): Promise<void> {
  await db.statements.run("UPDATE vocabulary_entries SET retired_at = ?, updated = ?, revision_id = revision_id + 1 WHERE pk = ?", [retire ? now : null, now, row.pk]);
  if (retire) {
    await unindexEntry(db, type, row.pk);
    await countEntries(db, type, -1);
  } else {
    await indexEntry(db, type, row.pk, JSON.parse(row.data) as Record<string, unknown>);
    await countEntries(db, type, +1);
  }
}

/** A type's retired entries, newest retirement first, and how many there are (the administration lists them). */
export async function listRetired(db: Db, type: VocabularyType, limit: number, offset: number): Promise<{ rows: EntryRow[]; total: number }> {
  const rows = await db.statements.all<EntryRow>(
    "SELECT pk, type, id, data, created, updated, revision_id, retired_at FROM vocabulary_entries WHERE type = ? AND retired_at IS NOT NULL ORDER BY retired_at DESC, pk DESC LIMIT ? OFFSET ?",
    [type, limit, offset],
  );
  const total = (await db.statements.get<{ n: number }>("SELECT count(*) AS n FROM vocabulary_entries WHERE type = ? AND retired_at IS NOT NULL", [type]))!.n;
  return { rows, total };
}

/** Each type's offered entries (retired ones are not counted). */
export const listCounts = (db: Db) => db.statements.all<{ type: string; entries: number }>("SELECT type, entries FROM vocabulary_counts", []);

export const findFixtureVersion = async (db: Db, name: string) =>
  (await db.statements.get<{ version: string }>("SELECT version FROM fixture_versions WHERE name = ?", [name]))?.version ?? null;

export const saveFixtureVersion = (db: Db, name: string, version: string, now: number) =>
  db.statements.run(
    "INSERT INTO fixture_versions (name, version, loaded_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET version = excluded.version, loaded_at = excluded.loaded_at",
    [name, version, now],
  );
