// The vocabulary search port: what an engine's index of vocabulary entries does (kept in step row
// by row inside the writer's transaction, and searched with the same rules on every engine), and
// the engine-neutral rules both implementations share. SQLite's is sqlite/fts.ts (FTS5), PostgreSQL's
// postgres/index.ts (tsvector + GIN); engines.ts picks one by `db.engine`.
import type { Db } from "../db/port";
import type { QueryNode } from "../search/query-string";
import { isSpecificType } from "./kinds";
import type { EntryRow, VocabularyType } from "./model";

/**
 * Above this many matches, bestmatch gives up ranking and returns matches in index order (entry
 * key order): ranking costs grow with the matches (30 ms for 40,000 at a million names on
 * SQLite), and a broad prefix such as "lo" matches that many names with near-equal scores anyway.
 */
export const RANK_LIMIT = 5000;

export type Order = "bestmatch" | "name" | "newest" | "oldest";

export interface EntrySearch {
  /** The parsed `q` (null: none). */
  query: QueryNode | null;
  /** Search-as-you-type input ("" for none). */
  suggest: string;
  tags: string[];
  order: Order;
  limit: number;
  offset: number;
}

export interface VocabularySearch {
  /** Adds an entry's texts to its type's index; inside the transaction that wrote the entry. */
  indexEntry(db: Db, type: VocabularyType, pk: number, entry: Record<string, unknown>): Promise<void>;
  /** `indexEntry` for many new entries of one type, in a few statements (a first load, an import's batch). */
  indexEntries(db: Db, type: VocabularyType, rows: { pk: number; entry: Record<string, unknown> }[]): Promise<void>;
  unindexEntry(db: Db, type: VocabularyType, pk: number): Promise<void>;
  /**
   * One page of a type's offered (not retired) entries and the exact total. `bestmatch` orders, for
   * the controlled lists, what the typed text names exactly first, then entries whose id or English
   * title starts with it (shortest id first), then by relevance; see search-sql.ts.
   */
  searchEntries(db: Db, type: VocabularyType, search: EntrySearch): Promise<{ rows: EntryRow[]; total: number }>;
}

/** An id or title as a person types it: lower case, `-`, `_`, `.` and runs of spaces as one space ("CC BY 4.0" = "cc-by-4.0"). */
export const looseKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[-_.\s]+/g, " ")
    .trim();

/** The same key in SQL (the same on both engines: lower() and trim() of ASCII), for a column expression. */
const looseSql = (column: string) => `trim(replace(replace(replace(lower(${column}), '-', ' '), '_', ' '), '.', ' '))`;

/**
 * Before relevance, the controlled lists (licences, languages, resource types…) put what the typed
 * text names exactly first, then entries whose id or title starts with it (shortest id first):
 * relevance alone ranks "CC BY 4.0" below licences that repeat "cc" and "by", and "cc-by" below a
 * dozen variants of it. The directories (names, funders…) keep relevance only: their lists are too
 * long to scan titles and their ids are not what people type. `title` is the engine's SQL for the
 * English title (a text whose lower() is ASCII-only on both engines), `like` its LIKE operator
 * with `%`/`_` as the only special characters.
 */
export function exactFirst(type: VocabularyType, suggest: string, params: (string | number)[], sql: { title: string; like: string }): string {
  const typed = looseKey(suggest);
  if (isSpecificType(type) || typed === "") return "";
  const id = looseSql("e.id");
  const title = looseSql(sql.title);
  params.push(typed, typed, `${typed} %`, `${typed} %`);
  return `CASE WHEN ${id} = ? OR ${title} = ? THEN 0 WHEN ${id} ${sql.like} OR ${title} ${sql.like} THEN length(e.id) ELSE 1000000 END, `;
}
