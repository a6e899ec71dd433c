// Queries on vocabulary_entries and the per-kind FTS5 indexes, kept in step row by row.
import type { Db } from "../db/connection";
import { KINDS } from "./kinds";
import type { VocabularyType } from "./model";

export interface EntryRow {
  pk: number;
  type: string;
  id: string;
  data: string;
  created: number;
  updated: number;
  revision_id: number;
}

export type Order = "bestmatch" | "name" | "newest" | "oldest";

export const findEntry = (db: Db, type: string, id: string) =>
  db.$client.query<EntryRow, [string, string]>("SELECT pk, type, id, data, created, updated, revision_id FROM vocabulary_entries WHERE type = ? AND id = ?").get(type, id);

function indexEntry(db: Db, type: VocabularyType, pk: number, entry: Record<string, unknown>) {
  const kind = KINDS[type];
  const placeholders = kind.columns.map(() => "?").join(", ");
  db.$client.query(`INSERT INTO ${kind.fts} (rowid, ${kind.columns.join(", ")}) VALUES (?, ${placeholders})`).run(pk, ...kind.texts(entry));
}

const unindexEntry = (db: Db, type: VocabularyType, pk: number) => db.$client.query(`DELETE FROM ${KINDS[type].fts} WHERE rowid = ?`).run(pk);

export type WriteOutcome = "created" | "updated" | "unchanged";

/** Inserts or replaces one entry and its index row; the caller owns the transaction. */
export function upsertEntry(db: Db, type: VocabularyType, entry: Record<string, unknown> & { id: string }, now: number): WriteOutcome {
  const data = JSON.stringify(entry);
  const sortKey = KINDS[type].sortKey(entry);
  const existing = db.$client.query<{ pk: number; data: string }, [string, string]>("SELECT pk, data FROM vocabulary_entries WHERE type = ? AND id = ?").get(type, entry.id);
  if (!existing) {
    const row = db.$client
      .query<{ pk: number }, [string, string, string, string, number, number]>(
        "INSERT INTO vocabulary_entries (type, id, data, sort_key, created, updated, revision_id) VALUES (?, ?, ?, ?, ?, ?, 1) RETURNING pk",
      )
      .get(type, entry.id, data, sortKey, now, now)!;
    indexEntry(db, type, row.pk, entry);
    return "created";
  }
  if (existing.data === data) return "unchanged";
  db.$client.query("UPDATE vocabulary_entries SET data = ?, sort_key = ?, updated = ?, revision_id = revision_id + 1 WHERE pk = ?").run(data, sortKey, now, existing.pk);
  unindexEntry(db, type, existing.pk);
  indexEntry(db, type, existing.pk, entry);
  return "updated";
}

export function deleteEntry(db: Db, type: VocabularyType, id: string): boolean {
  const existing = findEntry(db, type, id);
  if (!existing) return false;
  unindexEntry(db, type, existing.pk);
  db.$client.query("DELETE FROM vocabulary_entries WHERE pk = ?").run(existing.pk);
  return true;
}

export interface SearchOptions {
  match: string | null;
  tags: string[];
  order: Order;
  limit: number;
  offset: number;
}

/** One page of a type's entries and the exact total, filtered and ordered in SQL. */
export function searchEntries(db: Db, type: VocabularyType, options: SearchOptions): { rows: EntryRow[]; total: number } {
  const kind = KINDS[type];
  const params: (string | number)[] = [];
  let from = "vocabulary_entries e";
  const where = ["e.type = ?"];
  if (options.match !== null) {
    from = `${kind.fts} f JOIN vocabulary_entries e ON e.pk = f.rowid`;
    where.unshift(`${kind.fts} MATCH ?`);
    params.push(options.match);
  }
  params.push(type);
  if (options.tags.length) {
    where.push(`EXISTS (SELECT 1 FROM json_each(e.data, '$.tags') t WHERE t.value IN (${options.tags.map(() => "?").join(", ")}))`);
    params.push(...options.tags);
  }
  const orderBy = {
    bestmatch: options.match !== null ? `bm25(${kind.fts}, ${kind.weights.join(", ")}), e.sort_key` : "e.sort_key, e.id",
    name: "e.sort_key, e.id",
    newest: "e.created DESC, e.pk DESC",
    oldest: "e.created, e.pk",
  }[options.order];
  const sqlWhere = where.join(" AND ");
  const total = db.$client.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM ${from} WHERE ${sqlWhere}`).get(...params)!.n;
  const rows = db.$client
    .query<EntryRow, (string | number)[]>(
      `SELECT e.pk, e.type, e.id, e.data, e.created, e.updated, e.revision_id FROM ${from} WHERE ${sqlWhere} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
    )
    .all(...params, options.limit, options.offset);
  return { rows, total };
}

export const findFixtureVersion = (db: Db, name: string) =>
  db.$client.query<{ version: string }, [string]>("SELECT version FROM fixture_versions WHERE name = ?").get(name)?.version ?? null;

export const saveFixtureVersion = (db: Db, name: string, version: string, now: number) =>
  db.$client.query("INSERT INTO fixture_versions (name, version, loaded_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET version = excluded.version, loaded_at = excluded.loaded_at").run(name, version, now);
