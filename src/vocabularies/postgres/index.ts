// The vocabulary search engine on PostgreSQL (the port: ../search.ts): a tsvector per entry in its
// type's index table (migrations/0000_vocabulary_search.sql) with a GIN index, searched with the
// rules of the SQLite engine (sqlite/fts.ts): the same words (text.ts), the same query decisions
// (query.ts), the same orders; ts_rank with the columns' weights stands in for bm25.
import type { Db } from "../../db/port";
import { KINDS, isSpecificType } from "../kinds";
import { GENERIC_TYPES, type EntryRow, type VocabularyType } from "../model";
import { exactFirst, RANK_LIMIT, type EntrySearch, type VocabularySearch } from "../search";
import { compileVocabularyQuery, expandVocabularyQuery } from "./query";
import { documentOf, rankWeightsOf, tsSuggest, type TsQuery } from "./text";

const TABLES: Record<VocabularyType, string> = {
  ...(Object.fromEntries(GENERIC_TYPES.map((t) => [t, "vocab_generic_search"])) as Record<(typeof GENERIC_TYPES)[number], string>),
  funders: "vocab_funders_search",
  affiliations: "vocab_affiliations_search",
  names: "vocab_names_search",
  subjects: "vocab_subjects_search",
  awards: "vocab_awards_search",
};

async function indexEntry(db: Db, type: VocabularyType, pk: number, entry: Record<string, unknown>): Promise<void> {
  const kind = KINDS[type];
  await db.statements.run(`INSERT INTO ${TABLES[type]} (pk, doc) VALUES (?, ?::tsvector)`, [pk, documentOf(kind, kind.texts(entry))]);
}

async function indexEntries(db: Db, type: VocabularyType, rows: { pk: number; entry: Record<string, unknown> }[]): Promise<void> {
  if (rows.length === 0) return;
  const kind = KINDS[type];
  await db.statements.run(
    `INSERT INTO ${TABLES[type]} (pk, doc) VALUES ${rows.map(() => "(?, ?::tsvector)").join(", ")}`,
    rows.flatMap((r) => [r.pk, documentOf(kind, kind.texts(r.entry))]),
  );
}

async function unindexEntry(db: Db, type: VocabularyType, pk: number): Promise<void> {
  await db.statements.run(`DELETE FROM ${TABLES[type]} WHERE pk = ?`, [pk]);
}

/**
 * As on SQLite: relevance for a single phrase; for several, shorter entries first; beyond
 * RANK_LIMIT, index (entry key) order. ts_rank with the columns' weights plays bm25, its length
 * normalisation 2 (divided by the entry's length) bm25's length norm: vocabulary entries are
 * short, and a shorter one naming the word is the better hit ("Ocean observations" before a
 * long title that says "ocean" twice), as bm25 has it. Equal ranks fall back to the name, then the key.
 */
function bestmatchOrder(type: VocabularyType, match: TsQuery | null, total: number, exact: string, params: (string | number)[]): string {
  if (match === null) return "e.sort_key, e.id";
  if (total > RANK_LIMIT) return "f.pk";
  if (match.phrases === 1) {
    params.push(match.q);
    return `${exact}ts_rank(${rankWeightsOf(KINDS[type])}, f.doc, ?::tsquery, 2) DESC, e.sort_key, e.pk`;
  }
  return `${exact}length(e.sort_key), e.sort_key, e.id`;
}

/** One page of a type's entries and the exact total, filtered and ordered in SQL (see sqlite/fts.ts for the rules). */
async function searchEntries(db: Db, type: VocabularyType, search: EntrySearch): Promise<{ rows: EntryRow[]; total: number }> {
  const kind = KINDS[type];
  const table = TABLES[type];
  const compiled = compileVocabularyQuery(await expandVocabularyQuery(db, kind, table, search.query), kind, table);
  const condition = compiled.ftsOnly === null && compiled.where !== "1 = 1" ? { sql: compiled.where, params: compiled.params } : null;
  const query: TsQuery | null = compiled.ftsOnly === null ? null : { q: compiled.ftsOnly, phrases: compiled.phrases };
  const parts = [
    query,
    tsSuggest(
      search.suggest,
      kind.suggestColumns.map((c) => kind.columns.indexOf(c)),
    ),
  ].filter((p): p is TsQuery => p !== null);
  const match: TsQuery | null = parts.length
    ? { q: parts.length === 1 ? parts[0]!.q : `(${parts.map((p) => p.q).join(" & ")})`, phrases: parts.reduce((n, p) => n + p.phrases, 0) }
    : null;
  const params: (string | number)[] = [];
  let from = "vocabulary_entries e";
  const where = ["e.type = ?"];
  if (match !== null) {
    from = `${table} f JOIN vocabulary_entries e ON e.pk = f.pk`;
    where.unshift("f.doc @@ ?::tsquery");
    params.push(match.q);
  } else {
    // Retired entries are out of the index (so out of every match) and out of the count.
    where.push("e.retired_at IS NULL");
  }
  params.push(type);
  if (condition) {
    where.push(`(${condition.sql})`);
    params.push(...condition.params);
  }
  if (search.tags.length) {
    // An entry's tags are a list (validate.ts); anything else has none.
    where.push(
      `EXISTS (SELECT 1 FROM json_array_elements_text(CASE WHEN json_typeof(e.data->'tags') = 'array' THEN e.data->'tags' ELSE '[]'::json END) t(v) WHERE t.v IN (${search.tags.map(() => "?").join(", ")}))`,
    );
    params.push(...search.tags);
  }
  const sqlWhere = where.join(" AND ");
  const total =
    match === null && search.tags.length === 0 && !condition
      ? ((await db.statements.get<{ entries: number }>("SELECT entries FROM vocabulary_counts WHERE type = ?", [type]))?.entries ?? 0)
      : match !== null && isSpecificType(type) && search.tags.length === 0 && !condition
        ? (await db.statements.get<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE doc @@ ?::tsquery`, [match.q]))!.n
        : (await db.statements.get<{ n: number }>(`SELECT count(*) AS n FROM ${from} WHERE ${sqlWhere}`, params))!.n;
  const orderParams: (string | number)[] = [];
  const exact = search.order === "bestmatch" ? exactFirst(type, search.suggest, orderParams, { title: `((e.data->'title'->>'en') COLLATE "C")`, like: "LIKE ? ESCAPE ''" }) : "";
  const orderBy =
    search.order === "bestmatch"
      ? bestmatchOrder(type, match, total, exact, orderParams)
      : { name: "e.sort_key, e.id", newest: "e.created DESC, e.pk DESC", oldest: "e.created, e.pk" }[search.order];
  const rows = await db.statements.all<EntryRow>(
    `SELECT e.pk, e.type, e.id, e.data, e.created, e.updated, e.revision_id FROM ${from} WHERE ${sqlWhere} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
    [...params, ...orderParams, search.limit, search.offset],
  );
  return { rows, total };
}

export const postgresVocabularySearch: VocabularySearch = { indexEntry, indexEntries, unindexEntry, searchEntries };
