// The query-string compiler (../compile.ts) in PostgreSQL's dialect: full text as tsquery literals
// (text.ts) over a full-text table of (key, doc tsvector) rows keyed like the main table, wildcards
// on values as anchored regular expressions, and numeric columns compared with the value's number.
import type { PatternPart } from "../bounds";
import { createCompiler, type SearchSchema, type TextDialect } from "../compile";
import { tsPhrase } from "./text";

export type { CompiledQuery } from "../compile";

/** A regular expression's literal text: every character that means something there escaped. */
const literal = (s: string) => s.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");

/** A wildcard as an anchored regular expression: `?` one character (a code point in UTF-8), `*` any run. */
export const regexOf = (parts: PatternPart[]) => `^${parts.map((p) => ("wild" in p ? (p.wild === "*" ? ".*" : ".") : literal(p.literal))).join("")}$`;

/**
 * PostgreSQL's dialect; `numeric` names the column expressions that hold numbers (`r.version_index`),
 * `ftsKey` the full-text table's column holding the main key.
 */
export function postgresDialect(numeric: ReadonlySet<string> = new Set(), ftsKey = "key"): TextDialect {
  return {
    phrase: tsPhrase,
    or: (parts) => `(${parts.join(" | ")})`,
    andNot: (positive, negative) => `(${[...positive, ...negative.map((n) => `!${n}`)].join(" & ")})`,
    matchIn: (s: SearchSchema, match: string) => ({ sql: `${s.key} IN (SELECT ${ftsKey} FROM ${s.fts.table} WHERE doc @@ ?::tsquery)`, params: [match] }),
    // A number's text is matched as SQLite matches an integer column's (GLOB reads it as text).
    pattern: (expr, parts) => ({ sql: `${numeric.has(expr) ? `${expr}::text` : expr} ~ ?`, params: [regexOf(parts)] }),
    // A value that is no number compares as on SQLite (above every number), where a cast would fail the query (a 500 for a client's input).
    bind: (expr) => (numeric.has(expr) ? "cairn_number(?)" : "?"),
  };
}

/** A compiler for a schema whose numeric columns are `numeric`. */
export const createPostgresCompiler = (numeric?: ReadonlySet<string>) => createCompiler(postgresDialect(numeric));
