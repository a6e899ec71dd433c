// Compiles a parsed query string into one SQL condition over a search index, for every engine:
// full-text fields through the engine's full-text index (wildcards as the terms wildcards.ts
// expanded them to), exact keyword fields through a terms table, ranges over plain columns. What
// differs between engines (the full-text syntax, the pattern operator) is a `TextDialect`:
// sqlite/compile.ts (FTS5 MATCH, GLOB) and postgres/compile.ts (tsquery, regular expressions).
import { invalidQuery } from "../core/errors";
import { bounds, DATE_PREFIX, prefixBounds, wildcardBounds, type Bound, type PatternPart } from "./bounds";
import type { QueryNode } from "./query-string";

export type { Bound } from "./bounds";

export interface SearchSchema {
  /** Full-text: field name -> column of the full-text index `fts.table`; bare words search `fts.defaultColumns`. */
  fts: {
    table: string;
    columns: Record<string, string>;
    defaultColumns: string[] | null;
    /**
     * A column holding, per row, a bit for each full-text field (bit i for `fields[i]`) that has a
     * value: `_exists_` on a full-text field reads it (an FTS5 column mixes several fields, so
     * FTS5 cannot tell). Without it such a test matches nothing.
     */
    presence?: { column: string; fields: string[] };
  };
  /**
   * Exact keyword fields in a terms table (rowid INTEGER, field TEXT, value TEXT) -> the field key
   * stored there. Matching is case-insensitive on values stored lower-cased; a trailing `*` is a
   * prefix match, other wildcards a pattern (the dialect's) within the literal prefix's range. `keyColumn` names the
   * table's column holding the main key (default `rowid`).
   */
  keywords: { table: string; fields: Record<string, string>; keyColumn?: string };
  /** Range/comparison/exists fields -> an SQL expression over the main table alias `r` (e.g. "r.publication_date"). */
  columns: Record<string, string>;
  /** Short names clients use (Zenodo/InvenioRDM): alias -> canonical field, e.g. doi -> pids.doi.identifier, title -> metadata.title, recid -> id. */
  aliases: Record<string, string>;
  /** The main table's integer key as `r.<col>`, which FTS rowids and terms rowids equal. */
  key: string;
}

export interface CompiledQuery {
  where: string;
  params: (string | number)[];
  /** The full-text expression of the query's full-text part when it is one AND-ed block (for ranking), else null. */
  rankMatch: string | null;
  /** The full-text expression when the whole query is that one full-text condition, else null. */
  ftsOnly: string | null;
}

type Params = (string | number)[];
type Sql = { sql: string; params: Params; match?: string };

/** What one engine's SQL says differently: its full-text expressions and its pattern match. */
export interface TextDialect {
  /** One phrase (a prefix query when `prefix`) limited to `columns` (null: all), or null when the text has nothing searchable. */
  phrase(value: string, prefix: boolean, columns: string[] | null): string | null;
  /** Full-text expressions OR-ed (more than one). */
  or(parts: string[]): string;
  /** `positive` AND-ed (at least one), less each of `negative`. */
  andNot(positive: string[], negative: string[]): string;
  /** The keys (`s.key`) whose full text matches `match`, bound as the one parameter. */
  matchIn(s: SearchSchema, match: string): Sql;
  /** SQL testing `expr` against a wildcard's (folded) parts, and the bound value. */
  pattern(expr: string, parts: PatternPart[]): Sql;
  /** The placeholder a value compared with column `expr` is bound as (default `?`: SQLite compares by the column's affinity). */
  bind?(expr: string): string;
}
type Term = Extract<QueryNode, { kind: "term" }>;
type Range = Extract<QueryNode, { kind: "range" }>;
type Target =
  | { kind: "fts"; columns: string[] | null }
  | { kind: "keyword"; field: string }
  | { kind: "column"; expr: string }
  | { kind: "present"; column: string; bit: number }
  | { kind: "none" };

// Own properties only: a field called `constructor` must not find Object.prototype's.
const lookup = (map: Record<string, string>, key: string) => (Object.hasOwn(map, key) ? map[key] : undefined);

/** Where a word or phrase on `field` is searched: exact keywords first, then full text, then columns. */
export function termTarget(s: SearchSchema, field: string | null): Target {
  const all: Target = { kind: "fts", columns: s.fts.defaultColumns };
  if (field === null) return all;
  const name = lookup(s.aliases, field) ?? field;
  const keyword = lookup(s.keywords.fields, name);
  if (keyword !== undefined) return { kind: "keyword", field: keyword };
  const column = lookup(s.fts.columns, name);
  if (column !== undefined) return { kind: "fts", columns: [column] };
  const expr = lookup(s.columns, name);
  if (expr !== undefined) return { kind: "column", expr };
  // Unknown fields are searched as full text (InvenioRDM answers them rather than failing).
  return all;
}

/** Where a range or `_exists_` on `field` is evaluated: columns, then keywords, then full-text presence. */
function rangeTarget(s: SearchSchema, field: string): Target {
  const name = lookup(s.aliases, field) ?? field;
  const expr = lookup(s.columns, name);
  if (expr !== undefined) return { kind: "column", expr };
  const keyword = lookup(s.keywords.fields, name);
  if (keyword !== undefined) return { kind: "keyword", field: keyword };
  const bit = s.fts.presence && lookup(s.fts.columns, name) !== undefined ? s.fts.presence.fields.indexOf(name) : -1;
  if (bit >= 0) return { kind: "present", column: s.fts.presence!.column, bit: 2 ** bit };
  return { kind: "none" };
}

/** `field:*` on a named full-text field asks whether it has a value, as in Lucene: its presence target, else null. */
function presenceOf(s: SearchSchema, node: Term): Target | null {
  if (!node.prefix || node.value !== "" || node.field === null) return null;
  const target = rangeTarget(s, node.field);
  return target.kind === "present" ? target : null;
}

/** Rows whose presence column has the field's bit. */
const presentSql = (target: { column: string; bit: number }): Sql => ({ sql: `(${target.column} & ?) != 0`, params: [target.bit] });

/** Keyword rows of `field` within `limits` (and matching `pattern`), as a key set: served by an index on (field, value). */
function keywordIn(s: SearchSchema, field: string, limits: Bound[] | "any", pattern?: Sql): Sql {
  const { table, keyColumn = "rowid" } = s.keywords;
  const bounded = limits === "any" ? [] : limits;
  const conds = ["field = ?", ...bounded.map(([op]) => `value ${op} ?`), ...(pattern === undefined ? [] : [pattern.sql])];
  const params = [field, ...bounded.map(([, v]) => v), ...(pattern?.params ?? [])];
  return { sql: `${s.key} IN (SELECT ${keyColumn} FROM ${table} WHERE ${conds.join(" AND ")})`, params };
}

function columnSql(d: TextDialect, expr: string, limits: Bound[], pattern?: Sql): Sql {
  const mark = d.bind?.(expr) ?? "?";
  const conds = [...limits.map(([op]) => `${expr} ${op} ${mark}`), ...(pattern === undefined ? [] : [pattern.sql])];
  if (conds.length === 0) return { sql: `${expr} IS NOT NULL`, params: [] };
  return { sql: conds.join(" AND "), params: [...limits.map(([, v]) => v), ...(pattern?.params ?? [])] };
}

/** A word or phrase on a keyword or column field; on a full-text field only what `ftsTerm` leaves to SQL. */
function termSql(d: TextDialect, s: SearchSchema, node: Term, target: Target): Sql | null {
  if (target.kind === "fts") {
    const present = presenceOf(s, node);
    // Otherwise a wildcard that matched no term of the index.
    return present?.kind === "present" ? presentSql(present) : { sql: "0 = 1", params: [] };
  }
  if (node.wildcard !== undefined) {
    // Keyword values are stored lower-cased; columns compare as stored.
    const { limits, parts } = wildcardBounds(node.wildcard, target.kind === "keyword");
    if (target.kind === "keyword") return keywordIn(s, target.field, limits.length ? limits : "any", d.pattern("value", parts));
    return target.kind === "column" ? columnSql(d, target.expr, limits, d.pattern(target.expr, parts)) : null;
  }
  if (target.kind === "keyword") {
    const value = node.value.toLowerCase();
    // `field:*` asks for any value, as in Lucene.
    if (node.prefix) return keywordIn(s, target.field, value ? prefixBounds(value) : "any");
    return keywordIn(s, target.field, [["=", value]]);
  }
  if (target.kind === "column") {
    if (node.prefix || DATE_PREFIX.test(node.value)) return columnSql(d, target.expr, node.value ? prefixBounds(node.value) : []);
    return { sql: `${target.expr} = ${d.bind?.(target.expr) ?? "?"}`, params: [node.value] };
  }
  return null;
}

function rangeSql(d: TextDialect, s: SearchSchema, node: Range | Extract<QueryNode, { kind: "exists" }>): Sql {
  const target = rangeTarget(s, node.field);
  const limits = node.kind === "exists" ? [] : bounds(node.from, node.to, node.includeFrom, node.includeTo);
  if (target.kind === "column") return columnSql(d, target.expr, limits);
  if (target.kind === "keyword") {
    // Keyword values are stored lower-cased, so bounds are compared lower-cased too.
    const lowered = limits.map(([op, v]): Bound => [op, v.toLowerCase()]);
    return keywordIn(s, target.field, lowered.length ? lowered : "any");
  }
  if (target.kind === "present" && node.kind === "exists") return presentSql(target);
  // Like OpenSearch on an unmapped field: a range or existence test there matches nothing.
  return { sql: "0 = 1", params: [] };
}

const andBlock = (d: TextDialect, positive: string[], negative: string[]) => (positive.length === 1 && negative.length === 0 ? positive[0]! : d.andNot(positive, negative));
const orBlock = (d: TextDialect, parts: string[]) => (parts.length === 1 ? parts[0]! : d.or(parts));

/**
 * A full-text word as the dialect's expression: a phrase, a prefix, or the index terms its wildcard
 * expanded to, OR-ed (undefined when there are none: SQL then matches nothing).
 */
function ftsTerm(d: TextDialect, node: Term, columns: string[] | null): string | null | undefined {
  if (node.wildcard === undefined) return d.phrase(node.value, node.prefix, columns);
  // Not expanded (a caller without the index's terms, see wildcards.ts): its literal prefix, which over-matches.
  if (node.expansion === undefined) return d.phrase(node.value, true, columns);
  const terms = node.expansion.map((t) => d.phrase(t, false, columns)).filter((t): t is string => t !== null);
  return terms.length ? orBlock(d, terms) : undefined;
}

function ftsExpr(d: TextDialect, s: SearchSchema, node: QueryNode): string | null | undefined {
  switch (node.kind) {
    case "term": {
      const target = termTarget(s, node.field);
      return target.kind === "fts" && !presenceOf(s, node) ? ftsTerm(d, node, target.columns) : undefined;
    }
    case "or": {
      const parts: string[] = [];
      for (const item of node.items) {
        const e = ftsExpr(d, s, item);
        if (e === undefined) return undefined;
        if (e !== null) parts.push(e);
      }
      return parts.length ? orBlock(d, parts) : null;
    }
    case "and": {
      const positive: string[] = [];
      const negative: string[] = [];
      for (const item of node.items) {
        const e = item.kind === "not" ? ftsExpr(d, s, item.item) : ftsExpr(d, s, item);
        if (e === undefined) return undefined;
        if (e !== null) (item.kind === "not" ? negative : positive).push(e);
      }
      // Full text cannot subtract from everything (FTS5): negations alone are left to SQL.
      if (positive.length === 0) return negative.length ? undefined : null;
      return andBlock(d, positive, negative);
    }
    default:
      return undefined;
  }
}

function join(parts: Sql[], op: "AND" | "OR"): Sql {
  if (parts.length === 1) return parts[0]!;
  return { sql: parts.map((p) => `(${p.sql})`).join(` ${op} `), params: parts.flatMap((p) => p.params) };
}

/** SQL for a node; null when it constrains nothing. Full-text parts of one AND/OR share one MATCH. */
function compileNode(d: TextDialect, s: SearchSchema, node: QueryNode): Sql | null {
  const whole = ftsExpr(d, s, node);
  if (whole === null) return null;
  if (whole !== undefined) return { ...d.matchIn(s, whole), match: whole };
  switch (node.kind) {
    case "term":
      return termSql(d, s, node, termTarget(s, node.field));
    case "range":
    case "exists":
      return rangeSql(d, s, node);
    case "not": {
      const inner = compileNode(d, s, node.item);
      return inner && { sql: `NOT (${inner.sql})`, params: inner.params };
    }
    case "or": {
      const fts: string[] = [];
      const parts: Sql[] = [];
      for (const item of node.items) {
        const e = ftsExpr(d, s, item);
        if (e === undefined) {
          const part = compileNode(d, s, item);
          if (part) parts.push(part);
        } else if (e !== null) fts.push(e);
      }
      if (fts.length) parts.unshift(d.matchIn(s, orBlock(d, fts)));
      return parts.length ? join(parts, "OR") : null;
    }
    case "and": {
      const positive: string[] = [];
      const negative: string[] = [];
      const parts: Sql[] = [];
      for (const item of node.items) {
        const e = item.kind === "not" ? ftsExpr(d, s, item.item) : ftsExpr(d, s, item);
        if (e === undefined) {
          const part = compileNode(d, s, item);
          if (part) parts.push(part);
        } else if (e !== null) (item.kind === "not" ? negative : positive).push(e);
      }
      let match: string | undefined;
      if (positive.length) parts.unshift(d.matchIn(s, (match = andBlock(d, positive, negative))));
      else if (negative.length) {
        // `-a -b` is "neither": one subquery for all of them.
        const either = d.matchIn(s, orBlock(d, negative));
        parts.unshift({ sql: `NOT (${either.sql})`, params: either.params });
      }
      return parts.length ? { ...join(parts, "AND"), match } : null;
    }
  }
}

/**
 * Nested groups of the same operator flattened (`a (b c)` is `a b c`), so their full text merges,
 * and repeated items dropped (`a a` is `a`): a query of one word repeated 400 times costs what
 * the word costs, not 400 times its doclist in every ranking and set operation.
 */
export function flatten(node: QueryNode): QueryNode {
  if (node.kind === "not") return { kind: "not", item: flatten(node.item) };
  if (node.kind !== "and" && node.kind !== "or") return node;
  const seen = new Set<string>();
  const items = node.items
    .map(flatten)
    .flatMap((n) => (n.kind === node.kind ? n.items : [n]))
    .filter((n) => {
      const key = JSON.stringify(n);
      return !seen.has(key) && Boolean(seen.add(key));
    });
  return items.length === 1 ? items[0]! : { kind: node.kind, items };
}

/** OpenSearch's default `indices.query.bool.max_clause_count`: more distinct clauses is a 400. */
export const MAX_CLAUSE_COUNT = 1024;

// A wildcard's expansion counts a clause per term, as OpenSearch's rewrite into OR-ed terms does.
const clauseCount = (node: QueryNode): number =>
  node.kind === "and" || node.kind === "or"
    ? node.items.reduce((n, item) => n + clauseCount(item), 0)
    : node.kind === "not"
      ? clauseCount(node.item)
      : node.kind === "term" && node.expansion
        ? Math.max(1, node.expansion.length)
        : 1;

/** 400 for a query with more distinct clauses (terms, ranges, `_exists_`, a wildcard's terms) than MAX_CLAUSE_COUNT. */
function checkClauses(node: QueryNode) {
  const n = clauseCount(node);
  if (n > MAX_CLAUSE_COUNT) {
    throw invalidQuery([{ field: "q", messages: [`The query has ${n} clauses; at most ${MAX_CLAUSE_COUNT} are allowed (max_clause_count).`] }]);
  }
}

/** One engine's compiler: `compileQuery` and `ftsExpression` in its dialect. */
export function createCompiler(d: TextDialect) {
  return {
    /**
     * The query as an SQL condition over the main table (alias `r`), with every value bound as a
     * parameter. An empty query, or one with nothing searchable, matches everything.
     */
    compileQuery(node: QueryNode | null, schema: SearchSchema): CompiledQuery {
      const flat = node && flatten(node);
      if (flat) checkClauses(flat);
      const compiled = flat && compileNode(d, schema, flat);
      if (!compiled) return { where: "1 = 1", params: [], rankMatch: null, ftsOnly: null };
      // The whole condition is one full-text lookup: callers may then read the matching keys straight from the full-text index.
      const single = compiled.params.length === 1 && compiled.sql === d.matchIn(schema, "").sql;
      return { where: compiled.sql, params: compiled.params, rankMatch: compiled.match ?? null, ftsOnly: single ? String(compiled.params[0]) : null };
    },
    /**
     * The node as one full-text expression when it is purely full-text; null when it is full-text
     * but has nothing searchable (dropped); undefined when part of it needs SQL.
     */
    ftsExpression: (s: SearchSchema, node: QueryNode): string | null | undefined => ftsExpr(d, s, flatten(node)),
  };
}

/**
 * A range or `_exists_` on a plain column, as the column's SQL expression and the bounds the SQL
 * compares it with (none for `_exists_`): lets a caller evaluate it elsewhere with the same rules.
 * Null for any other node.
 */
export function columnRange(node: QueryNode, schema: SearchSchema): { expr: string; limits: Bound[] } | null {
  if (node.kind !== "range" && node.kind !== "exists") return null;
  const target = rangeTarget(schema, node.field);
  if (target.kind !== "column") return null;
  return { expr: target.expr, limits: node.kind === "exists" ? [] : bounds(node.from, node.to, node.includeFrom, node.includeTo) };
}
