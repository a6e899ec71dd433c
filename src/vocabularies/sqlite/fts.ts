// The vocabulary search engine on SQLite (the port: ../search.ts): one FTS5 index per directory
// type (one shared by the controlled lists), kept in step with vocabulary_entries, and the search
// that ranks with it.
import type { Db } from "../../db/port";
import { onConnection } from "../../db/sqlite/port";
import { compileQuery, type SearchSchema } from "../../search/sqlite/compile";
import { phraseCount, toFtsSuggest } from "../../search/sqlite/fts";
import { expandWildcards, ftsVocabulary } from "../../search/sqlite/wildcards";
import { KINDS, isSpecificType, type Kind } from "../kinds";
import { GENERIC_TYPES, type EntryRow, type VocabularyType } from "../model";
import { exactFirst, RANK_LIMIT, type EntrySearch, type VocabularySearch } from "../search";

/** The FTS5 table holding a type's entries; bm25 weighs its columns by `Kind.weights`. */
const TABLES: Record<VocabularyType, string> = {
  ...(Object.fromEntries(GENERIC_TYPES.map((t) => [t, "vocab_generic_fts"])) as Record<(typeof GENERIC_TYPES)[number], string>),
  funders: "vocab_funders_fts",
  affiliations: "vocab_affiliations_fts",
  names: "vocab_names_fts",
  subjects: "vocab_subjects_fts",
  awards: "vocab_awards_fts",
};

/** Adds an entry's texts to its type's index; inside the transaction that wrote the entry. */
async function indexEntry(db: Db, type: VocabularyType, pk: number, entry: Record<string, unknown>): Promise<void> {
  const kind = KINDS[type];
  const placeholders = kind.columns.map(() => "?").join(", ");
  await db.statements.run(`INSERT INTO ${TABLES[type]} (rowid, ${kind.columns.join(", ")}) VALUES (?, ${placeholders})`, [pk, ...kind.texts(entry)]);
}

async function indexEntries(db: Db, type: VocabularyType, rows: { pk: number; entry: Record<string, unknown> }[]): Promise<void> {
  if (rows.length === 0) return;
  const kind = KINDS[type];
  const row = `(?, ${kind.columns.map(() => "?").join(", ")})`;
  await db.statements.run(
    `INSERT INTO ${TABLES[type]} (rowid, ${kind.columns.join(", ")}) VALUES ${rows.map(() => row).join(", ")}`,
    rows.flatMap((r) => [r.pk, ...kind.texts(r.entry)]),
  );
}

async function unindexEntry(db: Db, type: VocabularyType, pk: number): Promise<void> {
  await db.statements.run(`DELETE FROM ${TABLES[type]} WHERE rowid = ?`, [pk]);
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
function bestmatchOrder(kind: Kind, table: string, match: string | null, phrases: number, total: number, exact: string): string {
  if (match === null) return "e.sort_key, e.id";
  if (total > RANK_LIMIT) return "f.rowid";
  if (phrases === 1) return `${exact}bm25(${table}, ${kind.weights.join(", ")}), e.sort_key`;
  return `${exact}length(e.sort_key), e.sort_key, e.id`;
}

/**
 * One page of a type's entries and the exact total, filtered and ordered in SQL. Runs on the
 * connection in one go: wildcard expansion reads the index's terms synchronously, and the count
 * and the page see the same rows.
 */
function searchEntries(db: Db, type: VocabularyType, search: EntrySearch): Promise<{ rows: EntryRow[]; total: number }> {
  const kind = KINDS[type];
  const table = TABLES[type];
  const schema = searchSchemaOf(kind, table);
  return onConnection(db, (sqlite) => {
    // The same query compiler as record search: a query that is one full-text condition is a
    // MATCH that can be ranked; anything else (e.g. `-word`) is a condition beside it.
    // `?` and inner `*` expand to the index's own terms, as in record search (search/sqlite/wildcards.ts).
    const compiled = compileQuery(expandWildcards(search.query, schema, ftsVocabulary(sqlite, table)), schema);
    const condition = compiled.ftsOnly === null && compiled.where !== "1 = 1" ? { sql: compiled.where, params: compiled.params } : null;
    const parts = [compiled.ftsOnly, toFtsSuggest(search.suggest, kind.suggestColumns)].filter((p): p is string => p !== null);
    const match = parts.length ? parts.join(" AND ") : null;
    // A directory (names, funders...) has an index of its own; the controlled lists share one.
    const ownIndex = isSpecificType(type);
    const params: (string | number)[] = [];
    let from = "vocabulary_entries e";
    const where = ["e.type = ?"];
    if (match !== null) {
      from = `${table} f JOIN vocabulary_entries e ON e.pk = f.rowid`;
      where.unshift(`${table} MATCH ?`);
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
          ? sqlite.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`).get(match)!.n
          : sqlite.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM ${from} WHERE ${sqlWhere}`).get(...params)!.n;
    const orderParams: (string | number)[] = [];
    const exact = search.order === "bestmatch" ? exactFirst(type, search.suggest, orderParams, { title: "json_extract(e.data, '$.title.en')", like: "LIKE ?" }) : "";
    const orderBy = {
      bestmatch: bestmatchOrder(kind, table, match, phraseCount(match), total, exact),
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

export const sqliteVocabularySearch: VocabularySearch = { indexEntry, indexEntries, unindexEntry, searchEntries };
