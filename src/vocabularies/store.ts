// Queries on vocabulary_entries and the per-kind FTS5 indexes, kept in step row by row.
import type { Db } from "../db/sqlite/connection";
import { KINDS, isSpecificType } from "./kinds";
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

const countEntries = (db: Db, type: string, delta: number) =>
  db.$client.query("INSERT INTO vocabulary_counts (type, entries) VALUES (?1, ?2) ON CONFLICT(type) DO UPDATE SET entries = entries + ?2").run(type, delta);

const storedCount = (db: Db, type: string) => db.$client.query<{ entries: number }, [string]>("SELECT entries FROM vocabulary_counts WHERE type = ?").get(type)?.entries ?? 0;

/**
 * Above this many matches, bestmatch gives up bm25 and returns matches in index order: ranking
 * costs grow with the matches (30 ms for 40,000 at a million names), and a broad prefix such as
 * "lo" matches that many names with near-equal scores anyway.
 */
export const RANK_LIMIT = 5000;

/**
 * bm25 needs each phrase's document frequency, which FTS5 finds by walking the phrase's whole
 * doclist: cheap for one phrase whose matches are few, 25 ms for "University AND Lovelace" at a
 * million names. So: bm25 for a single phrase; for several, shorter entries first (fewer words
 * beside the matched ones, which is most of what bm25's length norm says); beyond RANK_LIMIT,
 * index order.
 */
function bestmatchOrder(fts: string, weights: number[], options: SearchOptions, total: number): string {
  if (options.match === null) return "e.sort_key, e.id";
  if (total > RANK_LIMIT) return "f.rowid";
  if (options.phrases === 1) return `bm25(${fts}, ${weights.join(", ")}), e.sort_key`;
  return "length(e.sort_key), e.sort_key, e.id";
}

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
    countEntries(db, type, +1);
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
  countEntries(db, type, -1);
  return true;
}

export interface SearchOptions {
  match: string | null;
  /** A compiled query condition over the entries `e` (when the query is more than one MATCH). */
  condition: { sql: string; params: (string | number)[] } | null;
  /** How many phrases (terms) the match has: ranking costs depend on it. */
  phrases: number;
  tags: string[];
  order: Order;
  limit: number;
  offset: number;
}

/** One page of a type's entries and the exact total, filtered and ordered in SQL. */
export function searchEntries(db: Db, type: VocabularyType, options: SearchOptions): { rows: EntryRow[]; total: number } {
  const kind = KINDS[type];
  // A directory (names, funders...) has an index of its own; the controlled lists share one.
  const ownIndex = isSpecificType(type);
  const params: (string | number)[] = [];
  let from = "vocabulary_entries e";
  const where = ["e.type = ?"];
  if (options.match !== null) {
    from = `${kind.fts} f JOIN vocabulary_entries e ON e.pk = f.rowid`;
    where.unshift(`${kind.fts} MATCH ?`);
    params.push(options.match);
  }
  params.push(type);
  if (options.condition) {
    where.push(`(${options.condition.sql})`);
    params.push(...options.condition.params);
  }
  if (options.tags.length) {
    where.push(`EXISTS (SELECT 1 FROM json_each(e.data, '$.tags') t WHERE t.value IN (${options.tags.map(() => "?").join(", ")}))`);
    params.push(...options.tags);
  }
  const sqlWhere = where.join(" AND ");
  const total =
    options.match === null && options.tags.length === 0 && !options.condition
      ? storedCount(db, type)
      : options.match !== null && ownIndex && options.tags.length === 0 && !options.condition
        ? db.$client.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${kind.fts} WHERE ${kind.fts} MATCH ?`).get(options.match)!.n
        : db.$client.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM ${from} WHERE ${sqlWhere}`).get(...params)!.n;
  const orderBy = {
    bestmatch: bestmatchOrder(kind.fts, kind.weights, options, total),
    name: "e.sort_key, e.id",
    newest: "e.created DESC, e.pk DESC",
    oldest: "e.created, e.pk",
  }[options.order];
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
  db.$client
    .query("INSERT INTO fixture_versions (name, version, loaded_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET version = excluded.version, loaded_at = excluded.loaded_at")
    .run(name, version, now);
