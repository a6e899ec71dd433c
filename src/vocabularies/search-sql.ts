// The SQL both vocabulary search engines write alike (sqlite/fts.ts, postgres/index.ts): their
// index tables, how queries see a type's fields, and a search's filter, count, order and page,
// from the few pieces each engine says in its own SQL (`EntryDialect`).
import type { SearchSchema } from "../search/compile";
import { isSpecificType, type Kind } from "./kinds";
import { GENERIC_TYPES, SPECIFIC_TYPES, type VocabularyType } from "./model";
import { exactFirst, RANK_LIMIT, type EntrySearch, type Order } from "./search";

type Sql = { sql: string; params: (string | number)[] };

/**
 * Each type's index table on an engine (`vocab_names_fts` on SQLite, `vocab_names_search` on
 * PostgreSQL): a directory (names, funders…) has its own, the controlled lists share `vocab_generic_*`.
 */
export const indexTablesOf = (suffix: "fts" | "search") =>
  Object.fromEntries([...GENERIC_TYPES, ...SPECIFIC_TYPES].map((t) => [t, `vocab_${isSpecificType(t) ? t : "generic"}_${suffix}`])) as Record<VocabularyType, string>;

/** How queries map onto a type's index (record search's compiler, full text only): every field is full text. */
export const searchSchemaOf = (kind: Kind, table: string): SearchSchema => ({
  key: "e.pk",
  fts: { table, columns: kind.fields, defaultColumns: null },
  keywords: { table: "", fields: {} },
  columns: {},
  aliases: {},
});

/** What an engine says in its own SQL, over its index table `f` and the entries `e`. */
export interface EntryDialect {
  /** `f`'s entry key (its order is index order). */
  key: string;
  /** `f` matching the bound full-text expression. */
  matches: string;
  /** `e` carrying one of the tags bound at `placeholders` (`?, ?`). */
  hasTag(placeholders: string): string;
  /** The English title and the LIKE operator, for `exactFirst`. */
  exact: { title: string; like: string };
  /** The relevance order (best first) of the matches of a single phrase `q`. */
  rank(q: string): Sql;
}

/** A search's full-text expression and how many phrases it holds (bestmatch ranks a single one). */
export interface EntryMatch {
  q: string;
  phrases: number;
}

const ORDERS: Record<Exclude<Order, "bestmatch">, string> = { name: "e.sort_key, e.id", newest: "e.created DESC, e.pk DESC", oldest: "e.created, e.pk" };

/** The entries of `type` the search admits, as FROM, WHERE and their parameters. */
function filterOf(type: VocabularyType, table: string, match: EntryMatch | null, condition: Sql | null, tags: string[], d: EntryDialect) {
  const params: (string | number)[] = [];
  let from = "vocabulary_entries e";
  const where = ["e.type = ?"];
  if (match !== null) {
    from = `${table} f JOIN vocabulary_entries e ON e.pk = ${d.key}`;
    where.unshift(d.matches);
    params.push(match.q);
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
  if (tags.length) {
    where.push(d.hasTag(tags.map(() => "?").join(", ")));
    params.push(...tags);
  }
  return { from, where: where.join(" AND "), params };
}

/**
 * bestmatch: relevance for a single phrase (ranking several costs too much, sqlite/fts.ts); for
 * several, shorter entries first (fewer words beside the matched ones, which is most of what bm25's
 * length norm says); beyond RANK_LIMIT, index order.
 */
function bestmatchOrder(type: VocabularyType, match: EntryMatch | null, total: number, search: EntrySearch, d: EntryDialect, params: (string | number)[]): string {
  if (match === null) return ORDERS.name;
  if (total > RANK_LIMIT) return d.key;
  // Its parameters only where its SQL is used (a suggestion of no letters matched nothing, and the
  // statement then held more parameters than placeholders: a 500).
  const exact = exactFirst(type, search.suggest, params, d.exact);
  if (match.phrases !== 1) return `${exact}length(e.sort_key), e.sort_key, e.id`;
  const rank = d.rank(match.q);
  params.push(...rank.params);
  return `${exact}${rank.sql}`;
}

/**
 * A search of `type`'s entries over its index `table`: the statement counting every entry it
 * admits (`n`), and, given that total, the statement reading its page. `match` is the full-text
 * expression (the query's and search-as-you-type's), `condition` what of the query is SQL beside it.
 */
export function entrySearchSql(type: VocabularyType, table: string, match: EntryMatch | null, condition: Sql | null, search: EntrySearch, d: EntryDialect) {
  const filter = filterOf(type, table, match, condition, search.tags, d);
  const plain = search.tags.length === 0 && !condition;
  // A directory (names, funders...) has an index of its own, which counts its matches alone; the controlled lists share one.
  const count: Sql =
    plain && match === null
      ? { sql: "SELECT entries AS n FROM vocabulary_counts WHERE type = ?", params: [type] }
      : plain && match !== null && isSpecificType(type)
        ? { sql: `SELECT count(*) AS n FROM ${table} f WHERE ${d.matches}`, params: [match.q] }
        : { sql: `SELECT count(*) AS n FROM ${filter.from} WHERE ${filter.where}`, params: filter.params };
  const page = (total: number): Sql => {
    const orderParams: (string | number)[] = [];
    const orderBy = search.order === "bestmatch" ? bestmatchOrder(type, match, total, search, d, orderParams) : ORDERS[search.order];
    return {
      sql: `SELECT e.pk, e.type, e.id, e.data, e.created, e.updated, e.revision_id FROM ${filter.from} WHERE ${filter.where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      params: [...filter.params, ...orderParams, search.limit, search.offset],
    };
  };
  return { count, page };
}
