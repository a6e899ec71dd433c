// Queries on vocabulary_entries, their counts and the fixture versions; the search index is kept in
// step in the same transactions through the database engine's vocabulary search (`index`, search.ts).
import type { Db } from "../db/port";
import { KINDS } from "./kinds";
import type { EntryRow, VocabularyType } from "./model";
import type { VocabularySearch } from "./search";

// Where the ranking cut-off has always been read from.
export { RANK_LIMIT, type Order } from "./search";

export type { EntryRow };

export const findEntry = (db: Db, type: string, id: string) =>
  db.statements.get<EntryRow>("SELECT pk, type, id, data, created, updated, revision_id, retired_at FROM vocabulary_entries WHERE type = ? AND id = ?", [type, id]);

// The existing count named by its table: PostgreSQL finds a bare `entries` ambiguous beside `excluded`.
const countEntries = (db: Db, type: string, delta: number) =>
  db.statements.run("INSERT INTO vocabulary_counts (type, entries) VALUES (?, ?) ON CONFLICT(type) DO UPDATE SET entries = vocabulary_counts.entries + excluded.entries", [
    type,
    delta,
  ]);

export type WriteOutcome = "created" | "updated" | "unchanged";

/**
 * Inserts or replaces one entry and its index row; the caller owns the transaction. A retired
 * entry stays retired (out of the index and the count) when an import or an edit rewrites it.
 */
export async function upsertEntry(db: Db, type: VocabularyType, entry: Record<string, unknown> & { id: string }, now: number, index: VocabularySearch): Promise<WriteOutcome> {
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
    await index.indexEntry(db, type, row.pk, entry);
    await countEntries(db, type, +1);
    return "created";
  }
  if (existing.data === data) return "unchanged";
  await db.statements.run("UPDATE vocabulary_entries SET data = ?, sort_key = ?, updated = ?, revision_id = revision_id + 1 WHERE pk = ?", [data, sortKey, now, existing.pk]);
  if (existing.retired_at !== null) return "updated";
  await index.unindexEntry(db, type, existing.pk);
  await index.indexEntry(db, type, existing.pk, entry);
  return "updated";
}

/** Rows per multi-row statement of `upsertEntries` (6 bound values each: far below either engine's limit). */
const BULK_ROWS = 500;

/**
 * `upsertEntry` for many entries of one type (an import's batch, the shipped lists), with the same
 * outcomes: the entries that are new (the bulk of a first load or import) are inserted and indexed
 * a few hundred per statement, the rest (and an id repeated in `entries`) one by one. On a server
 * engine every statement is a round trip: a first load of the shipped lists takes ~60 of them
 * instead of ~35,000 (PostgreSQL: 1.7 s instead of 6 s; 100,000 names: 15 s instead of minutes).
 * The caller owns the transaction.
 */
export async function upsertEntries(db: Db, type: VocabularyType, entries: (Record<string, unknown> & { id: string })[], now: number, index: VocabularySearch) {
  const outcomes: Record<WriteOutcome, number> = { created: 0, updated: 0, unchanged: 0 };
  for (let start = 0; start < entries.length; start += BULK_ROWS) {
    const chunk = entries.slice(start, start + BULK_ROWS);
    // Each id's first copy is tried as new; the entries the type already has are left alone here
    // (no look-up first: on a server engine a long IN list over a table just filled is planned badly).
    const first = new Map<string, Record<string, unknown> & { id: string }>();
    for (const entry of chunk) if (!first.has(entry.id)) first.set(entry.id, entry);
    const tried = [...first.values()];
    const inserted = await db.statements.all<{ pk: number; id: string }>(
      `INSERT INTO vocabulary_entries (type, id, data, sort_key, created, updated, revision_id) VALUES ${tried.map(() => "(?, ?, ?, ?, ?, ?, 1)").join(", ")} ON CONFLICT (type, id) DO NOTHING RETURNING pk, id`,
      tried.flatMap((entry) => [type, entry.id, JSON.stringify(entry), KINDS[type].sortKey(entry), now, now]),
    );
    if (inserted.length) {
      await index.indexEntries(
        db,
        type,
        inserted.map((r) => ({ pk: r.pk, entry: first.get(r.id)! })),
      );
      await countEntries(db, type, inserted.length);
      outcomes.created += inserted.length;
    }
    // The rest in input order, one by one: a repeated id then updates the entry its first copy made.
    const created = new Set(inserted.map((r) => first.get(r.id)!));
    for (const entry of chunk) if (!created.has(entry)) outcomes[await upsertEntry(db, type, entry, now, index)]++;
  }
  return outcomes;
}

export async function deleteEntry(db: Db, type: VocabularyType, id: string, index: VocabularySearch): Promise<boolean> {
  const existing = await findEntry(db, type, id);
  if (!existing) return false;
  await db.statements.run("DELETE FROM vocabulary_entries WHERE pk = ?", [existing.pk]);
  // A retired entry has left the index and the count already.
  if (existing.retired_at !== null && existing.retired_at !== undefined) return true;
  await index.unindexEntry(db, type, existing.pk);
  await countEntries(db, type, -1);
  return true;
}

/**
 * Retires an entry or offers it again. A retired entry leaves its type's search index
 * and its count, so every search (and the deposit form's choices, which are searches) stops
 * offering it, while reads by id still find it. The caller owns the transaction.
 */
export async function setRetired(db: Db, type: VocabularyType, row: EntryRow, retire: boolean, now: number, index: VocabularySearch): Promise<void> {
  await db.statements.run("UPDATE vocabulary_entries SET retired_at = ?, updated = ?, revision_id = revision_id + 1 WHERE pk = ?", [retire ? now : null, now, row.pk]);
  if (retire) {
    await index.unindexEntry(db, type, row.pk);
    await countEntries(db, type, -1);
  } else {
    await index.indexEntry(db, type, row.pk, JSON.parse(row.data) as Record<string, unknown>);
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

/** The next `limit` offered (not retired) entries after pk `afterPk`, in pk order: a rebuild of the search index reads them batch by batch. */
export const listOfferedEntries = (db: Db, afterPk: number, limit: number) =>
  db.statements.all<{ pk: number; type: VocabularyType; data: string }>("SELECT pk, type, data FROM vocabulary_entries WHERE retired_at IS NULL AND pk > ? ORDER BY pk LIMIT ?", [
    afterPk,
    limit,
  ]);
