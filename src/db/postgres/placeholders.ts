// The stores write one SQL text for both engines, as SQLite reads it; two habits of SQLite's that
// PostgreSQL reads otherwise are rewritten here, once per statement text (cached):
// - placeholders: `?` and `?NNN` (drizzle's SQLite builder, the fixed statements) -> `$1`, `$NNN`;
// - the case of names: SQLite keeps `AS parentId` as written, PostgreSQL folds an unquoted name to
//   lower case (`parentid`), so a bare camelCase name (a lower-case letter first, an upper-case one
//   later: never a keyword, a function or a snake_case column) is quoted, wherever it appears;
// - an upsert's conflict target: drizzle's SQLite builder names its columns with their table
//   (`on conflict ("t"."key")`), which PostgreSQL refuses: the bare column names.

const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;

const isWordStart = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
const isWordPart = (c: string) => isWordStart(c) || (c >= "0" && c <= "9") || c === "$";
const CONFLICT_TARGET = /on conflict \(((?:"[^"]+"\."[^"]+"(?:, )?)+)\)/gi;
const QUALIFIER = /"[^"]+"\./g;
const CAMEL_CASE = /^[a-z][a-z0-9_]*[A-Z][A-Za-z0-9_]*$/;

/** `sql` with `?` as `$1, $2, …`, `?NNN` as `$NNN` and bare camelCase names quoted; quoted text, quoted names and comments left alone. */
export function numberedPlaceholders(sql: string): string {
  const known = cache.get(sql);
  if (known !== undefined) return known;
  let out = "";
  let next = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') {
      // A quoted string or name runs to the next unpaired quote of its kind ('' and "" are escapes).
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === ch) {
          if (sql[j + 1] === ch) j += 2;
          else break;
        } else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (ch === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (isWordStart(ch)) {
      let j = i + 1;
      while (j < sql.length && isWordPart(sql[j]!)) j++;
      const word = sql.slice(i, j);
      out += CAMEL_CASE.test(word) ? `"${word}"` : word;
      i = j;
    } else if (ch === "?") {
      let j = i + 1;
      while (j < sql.length && sql[j]! >= "0" && sql[j]! <= "9") j++;
      out += j > i + 1 ? `$${sql.slice(i + 1, j)}` : `$${++next}`;
      i = j;
    } else {
      out += ch;
      i++;
    }
  }
  out = out.replace(CONFLICT_TARGET, (_, columns: string) => `on conflict (${columns.replace(QUALIFIER, "")})`);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(sql, out);
  return out;
}
