// The PostgreSQL full-text vocabulary for wildcard expansion (../wildcards.ts): the words of a
// full-text table's documents, kept in a `<table>_vocab (term, col)` table beside it (a prefix
// range on its key, then a regular expression its trigram index serves).
import type { Db } from "../../db/port";
import { after, type PatternPart } from "../bounds";
import type { AsyncVocabulary } from "../wildcards";
import { regexOf } from "./compile";

/** A GLOB (bounds.ts globOf: `*`, `?`, `[c]` for a literal character) as its parts. */
function globParts(glob: string): PatternPart[] {
  const parts: PatternPart[] = [];
  const chars = Array.from(glob);
  let text = "";
  const flush = () => {
    if (text) parts.push({ literal: text });
    text = "";
  };
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "*" || c === "?") {
      flush();
      parts.push({ wild: c });
    } else if (c === "[" && chars[i + 2] === "]") {
      text += chars[i + 1]!;
      i += 2;
    } else text += c;
  }
  flush();
  return parts;
}

/** The words of `table`'s vocabulary matching `glob` (all starting with `prefix`), ascending, at most `limit`, within `columns`. */
export function postgresVocabulary(db: Db, table: string): AsyncVocabulary {
  return async (glob, prefix, columns, limit) => {
    const next = prefix ? after(prefix) : null;
    const conds = [...(prefix ? ["term >= ?"] : []), ...(next !== null ? ["term < ?"] : []), "term ~ ?", ...(columns ? [`col IN (${columns.map(() => "?").join(", ")})`] : [])];
    const params = [...(prefix ? [prefix] : []), ...(next !== null ? [next] : []), regexOf(globParts(glob)), ...(columns ?? []), limit];
    const rows = await db.statements.all<{ term: string }>(`SELECT DISTINCT term FROM ${table}_vocab WHERE ${conds.join(" AND ")} ORDER BY term LIMIT ?`, params);
    return rows.map((r) => r.term);
  };
}
