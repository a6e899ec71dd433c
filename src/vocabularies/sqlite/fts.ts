// The vocabulary search engine on SQLite: one FTS5 index per directory type (one shared by the
// controlled lists), kept in step with vocabulary_entries, and the search that ranks with it.
import type { Db } from "../../db/port";
import { onConnection } from "../../db/sqlite/port";
import type { QueryNode } from "../../search/query-string";
import { compileQuery, type SearchSchema } from "../../search/sqlite/compile";
import { phraseCount, toFtsSuggest } from "../../search/sqlite/fts";
import { expandWildcards, ftsVocabulary } from "../../search/sqlite/wildcards";
import { KINDS, isSpecificType, type Kind } from "../kinds";
import { GENERIC_TYPES, type EntryRow, type VocabularyType } from "../model";

interface Index {
  table: string;
  /** bm25 weights, one per `Kind.columns` entry: the name/title counts most. */
  weights: number[];
}

const INDEXES: Record<VocabularyType, Index> = {
  ...(Object.fromEntries(GENERIC_TYPES.map((t) => [t, { table: "vocab_generic_fts", weights: [10, 5, 1, 1] }])) as Record<(typeof GENERIC_TYPES)[number], Index>),
  funders: { table: "vocab_funders_fts", weights: [10, 5, 3, 1, 1] },
  affiliations: { table: "vocab_affiliations_fts", weights: [10, 5, 3, 1, 1] },
  names: { table: "vocab_names_fts", weights: [10, 5, 5, 2, 1] },
  subjects: { table: "vocab_subjects_fts", weights: [10, 1, 1] },
  awards: { table: "vocab_awards_fts", weights: [10, 5, 5, 1, 1] },
};

/** Adds an entry's texts to its type's index; inside the transaction that wrote the entry. */
export async function indexEntry(db: Db, type: VocabularyType, pk: number, entry: Record<string, unknown>): Promise<void> {
  const kind = KINDS[type];
  const placeholders = kind.columns.map(() => "?").join(", ");
  await db.statements.run(`INSERT INTO ${INDEXES[type].table} (rowid, ${kind.columns.join(", ")}) VALUES (?, ${placeholders})`, [pk, ...kind.texts(entry)]);
}

export async function unindexEntry(db: Db, type: VocabularyType, pk: number): Promise<void> {
  await db.statements.run(`DELETE FROM ${INDEXES[type].table} WHERE rowid = ?`, [pk]);
}

/**
 * Above this many matches, bestmatch gives up bm25 and returns matches in index order: ranking
 * costs grow with the matches (30 ms for 40,000 at a million names), and a broad prefix such as
 * "lo" matches that many names with near-equal scores anyway.
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

/** How queries map onto a type's full-text index (record search's compiler, full text only). */
const searchSchemaOf = (kind: Kind, table: string): SearchSchema => ({
  key: "e.pk",
  fts: { table, columns: kind.fields, defaultColumns: null },
  keywords: { table: "", fields: {} },
  columns: {},
  aliases: {},
});

/**
 * bm25 needs each phrase's document frequency, which FTS5 finds by walking the phrase's whole
 * doclist: cheap for one phrase whose matches are few, 25 ms for "University AND Lovelace" at a
 * million names. So: bm25 for a single phrase; for several, shorter entries first (fewer words
 * beside the matched ones, which is most of what bm25's length norm says); beyond RANK_LIMIT,
 * index order.
 */
function bestmatchOrder(index: Index, match: string | null, phrases: number, total: number, exact: string): string {
  if (match === null) return "e.sort_key, e.id";
  if (total > RANK_LIMIT) return "f.rowid";
  if (phrases === 1) return `${exact}bm25(${index.table}, ${index.weights.join(", ")}), e.sort_key`;
  return `${exact}length(e.sort_key), e.sort_key, e.id`;
}

/** An id or title as a person types it: lower case, `-`, `_`, `.` and runs of spaces as one space ("CC BY 4.0" = "cc-by-4.0"). */
export const looseKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[-_.\s]+/g, " ")
    .trim();

/** The same key in SQL, for a column expression. */
const looseSql = (column: string) => `trim(replace(replace(replace(lower(${column}), '-', ' '), '_', ' '), '.', ' '))`;

/**
 * Before bm25, the controlled lists (licences, languages, resource types…) put what the typed
 * text names exactly first, then entries whose id or title starts with it (shortest id first): bm25
 * alone ranks "CC BY 4.0" below licences that repeat "cc" and "by", and "cc-by" below a dozen
 * variants of it. The directories (names, funders…) keep bm25 only: their lists are too long to
 * scan titles and their ids are not what people type.
 */
function exactFirst(type: VocabularyType, suggest: string, params: (string | number)[]): string {
  const typed = looseKey(suggest);
  if (isSpecificType(type) || typed === "") return "";
  const id = looseSql("e.id");
  const title = looseSql("json_extract(e.data, '$.title.en')");
  params.push(typed, typed, `${typed} %`, `${typed} %`);
  return `CASE WHEN ${id} = ? OR ${title} = ? THEN 0 WHEN ${id} LIKE ? OR ${title} LIKE ? THEN length(e.id) ELSE 1000000 END, `;
}

/**
 * One page of a type's entries and the exact total, filtered and ordered in SQL. Runs on the
 * connection in one go: wildcard expansion reads the index's terms synchronously, and the count
 * and the page see the same rows.
 */
export function searchEntries(db: Db, type: VocabularyType, search: EntrySearch): Promise<{ rows: EntryRow[]; total: number }> {
  const kind = KINDS[type];
  const index = INDEXES[type];
  const schema = searchSchemaOf(kind, index.table);
  return onConnection(db, (sqlite) => {
    // The same query compiler as record search: a query that is one full-text condition is a
    // MATCH that can be ranked; anything else (e.g. `-word`) is a condition beside it.
    // `?` and inner `*` expand to the index's own terms, as in record search (search/sqlite/wildcards.ts).
    const compiled = compileQuery(expandWildcards(search.query, schema, ftsVocabulary(sqlite, index.table)), schema);
    const condition = compiled.ftsOnly === null && compiled.where !== "1 = 1" ? { sql: compiled.where, params: compiled.params } : null;
    const parts = [compiled.ftsOnly, toFtsSuggest(search.suggest, kind.suggestColumns)].filter((p): p is string => p !== null);
    const match = parts.length ? parts.join(" AND ") : null;
    // A directory (names, funders...) has an index of its own; the controlled lists share one.
    const ownIndex = isSpecificType(type);
    const params: (string | number)[] = [];
    let from = "vocabulary_entries e";
    const where = ["e.type = ?"];
    if (match !== null) {
      from = `${index.table} f JOIN vocabulary_entries e ON e.pk = f.rowid`;
      where.unshift(`${index.table} MATCH ?`);
      params.push(match);
    } else {
      // Retired entries are out of the index (so out of every match) and out of the count; a
      // listing without a match reads the table, so it leaves them out itself.
      where.push("e.retired_at IS NULL");
    }
    params.push(type);
    if (condition) {
      where.push(`(${condition.sql})`);
      params.push(...condition.params);
    }
    if (search.tags.length) {
      where.push(`EXISTS (SELECT 1 FROM json_each(e.data, '$.tags') t WHERE t.value IN (${search.tags.map(() => "?").join(", ")}))`);
      params.push(...search.tags);
    }
    const sqlWhere = where.join(" AND ");
    const total =
      match === null && search.tags.length === 0 && !condition
        ? (sqlite.query<{ entries: number }, [string]>("SELECT entries FROM vocabulary_counts WHERE type = ?").get(type)?.entries ?? 0)
        : match !== null && ownIndex && search.tags.length === 0 && !condition
          ? sqlite.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${index.table} WHERE ${index.table} MATCH ?`).get(match)!.n
          : sqlite.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM ${from} WHERE ${sqlWhere}`).get(...params)!.n;
    const orderParams: (string | number)[] = [];
    const exact = search.order === "bestmatch" ? exactFirst(type, search.suggest, orderParams) : "";
    const orderBy = {
      bestmatch: bestmatchOrder(index, match, phraseCount(match), total, exact),
      name: "e.sort_key, e.id",
      newest: "e.created DESC, e.pk DESC",
      oldest: "e.created, e.pk",
    }[search.order];
    const rows = sqlite
      .query<EntryRow, (string | number)[]>(
        `SELECT e.pk, e.type, e.id, e.data, e.created, e.updated, e.revision_id FROM ${from} WHERE ${sqlWhere} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      )
      .all(...params, ...orderParams, search.limit, search.offset);
    return { rows, total };
  });
}
