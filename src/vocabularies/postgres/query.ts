// A parsed vocabulary query (search/query-string.ts) as PostgreSQL SQL over a type's index table:
// the shared compiler in its PostgreSQL dialect (search/postgres/compile.ts), whose phrases know the
// type's column marks (text.ts), so it makes the decisions it makes on SQLite. A query that is one
// full-text condition comes back as that tsquery (`ftsOnly`), which the search ranks by; anything
// else (`-word` alone, a range, a wildcard that matched no word) is an SQL condition on `e.pk`.
// Vocabulary fields are all full text, so ranges and `_exists_` match nothing there, as on SQLite.
import type { Db } from "../../db/port";
import { createCompiler, flatten, type CompiledQuery, type TextDialect } from "../../search/compile";
import { postgresDialect } from "../../search/postgres/compile";
import { columnMark, quote, tsPhrase } from "../../search/postgres/text";
import type { QueryNode } from "../../search/query-string";
import { expandWildcardsAsync } from "../../search/wildcards";
import type { Kind } from "../kinds";
import { searchSchemaOf } from "../search-sql";
import { markNamesOf } from "./text";

/** `glob` (GLOB syntax, as search/bounds.ts writes it) as a LIKE pattern with `\` escapes. */
function likeOf(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") out += "%";
    else if (c === "?") out += "_";
    else {
      // `[x]` is a literal x.
      const literal = c === "[" && glob[i + 2] === "]" ? glob[(i += 2) - 1]! : c;
      out += /[%_\\]/.test(literal) ? `\\${literal}` : literal;
    }
  }
  return out;
}

/** PostgreSQL's dialect over a type's index table (keyed by `pk`), its phrases limited by the type's column marks. */
const dialectOf = (kind: Kind): TextDialect => ({
  ...postgresDialect(undefined, "pk"),
  phrase: (value, prefix, columns) => tsPhrase(value, prefix, columns && markNamesOf(kind, columns)),
});

const compilers = new Map<Kind, ReturnType<typeof createCompiler>>();

/** How many phrases the query's full text holds, counted as the SQLite engine counts its MATCH's: a single one is ranked by relevance. */
function phrasesOf(kind: Kind, node: QueryNode): number {
  const count = (value: string, prefix: boolean) => (tsPhrase(value, prefix, null) === null ? 0 : 1);
  switch (node.kind) {
    case "term":
      if (node.wildcard === undefined) return count(node.value, node.prefix);
      return node.expansion === undefined ? count(node.value, true) : node.expansion.reduce((n, w) => n + count(w, false), 0);
    case "not":
      return phrasesOf(kind, node.item);
    case "and":
    case "or":
      return node.items.reduce((n, item) => n + phrasesOf(kind, item), 0);
    default:
      return 0;
  }
}

/** The query compiled over `table` (see above), and the phrase count of its full text. */
export function compileVocabularyQuery(node: QueryNode | null, kind: Kind, table: string): CompiledQuery & { phrases: number } {
  let compiler = compilers.get(kind);
  if (!compiler) compilers.set(kind, (compiler = createCompiler(dialectOf(kind))));
  const compiled = compiler.compileQuery(node, searchSchemaOf(kind, table));
  return { ...compiled, phrases: node && compiled.ftsOnly !== null ? phrasesOf(kind, flatten(node)) : 0 };
}

/** Code point (UTF-8 byte) order, as SQLite orders the index's terms. */
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The index's words matching `glob` (each starting with `prefix`), ascending, at most `limit`, in
 * `columns` (names; null: any). Read with ts_stat from the documents holding a word with that prefix
 * (the GIN index finds them); a pattern without a literal prefix reads the whole table, as the
 * SQLite engine reads every term of its index. As there, a shared table answers every type's words.
 */
async function wordsLike(db: Db, kind: Kind, table: string, glob: string, prefix: string, columns: string[] | null, limit: number): Promise<string[]> {
  const marks = columns === null ? [""] : [...new Set(markNamesOf(kind, columns).map(columnMark))];
  const found = new Set<string>();
  for (const mark of marks) {
    const start = mark + prefix;
    const docs = start ? `SELECT doc FROM ${table} WHERE doc @@ ' || quote_literal(?::text) || '::tsquery` : `SELECT doc FROM ${table}`;
    const rows = await db.statements.all<{ word: string }>(
      `SELECT word FROM ts_stat('${docs}') WHERE word LIKE ? ESCAPE '\\' ${mark ? "" : "AND word NOT LIKE '|%'"} ORDER BY word COLLATE "C" LIMIT ?`,
      [...(start ? [`${quote(start)}:*`] : []), likeOf(mark) + likeOf(glob), limit],
    );
    for (const r of rows) found.add(r.word.slice(mark.length));
  }
  return [...found].sort(byCodePoint).slice(0, limit);
}

/** The query with its full-text wildcards expanded to the index's words (the shared expansion, search/wildcards.ts). */
export const expandVocabularyQuery = (db: Db, kind: Kind, table: string, node: QueryNode | null): Promise<QueryNode | null> =>
  expandWildcardsAsync(node, searchSchemaOf(kind, table), (glob, prefix, columns, limit) => wordsLike(db, kind, table, glob, prefix, columns, limit));
