// The query-string compiler (../compile.ts) in SQLite's dialect: full text as FTS5 MATCH
// expressions over a full-text table (rowid = the main key), wildcards on values as GLOB.
import { globOf } from "../bounds";
import { createCompiler, type SearchSchema, type TextDialect } from "../compile";
import { ftsPhrase } from "./fts";

export type { Bound } from "../bounds";
export type { CompiledQuery, SearchSchema } from "../compile";
// Engine-neutral pieces other modules still import from here.
export { columnRange, flatten, MAX_CLAUSE_COUNT, termTarget } from "../compile";

export const SQLITE_TEXT: TextDialect = {
  phrase: ftsPhrase,
  or: (parts) => `(${parts.join(" OR ")})`,
  andNot(positive, negative) {
    let block = positive.length === 1 ? positive[0]! : `(${positive.join(" AND ")})`;
    for (const n of negative) block = `(${block} NOT ${n})`;
    return block;
  },
  matchIn: (s: SearchSchema, match: string) => ({ sql: `${s.key} IN (SELECT rowid FROM ${s.fts.table} WHERE ${s.fts.table} MATCH ?)`, params: [match] }),
  // Inside brackets GLOB's own special characters are literal (globOf); the parts come folded.
  pattern: (expr, parts) => ({
    sql: `${expr} GLOB ?`,
    params: [globOf(parts, (v) => v)],
  }),
};

export const { compileQuery, ftsExpression } = createCompiler(SQLITE_TEXT);
