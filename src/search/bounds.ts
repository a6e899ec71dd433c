// Bounds of text comparisons as SQL evaluates them, for every engine: ranges (date prefixes cover
// their period), prefixes, and wildcard patterns (`?` exactly one character, `*` any run, `\`
// escapes one) as an index range on their literal prefix plus a pattern (a GLOB, the form a
// full-text vocabulary is asked with; each engine's SQL dialect renders its own, sqlite/ and
// postgres/). compile.ts renders them; wildcards.ts expands full-text wildcards with the same patterns.

/** `2022`, `2022-06`, `2022-06-30`: a date that stands for a whole period of ISO timestamps. */
export const DATE_PREFIX = /^\d{4}(-\d{2}){0,2}$/;

export type Bound = [op: "=" | ">=" | ">" | "<=" | "<", value: string];

/**
 * Bounds of a text comparison. A date prefix covers its whole period, as OpenSearch rounds
 * dates: an inclusive upper bound `2022-06` means `< "2022-07"` (all of June, timestamps
 * included) and an exclusive lower bound `{2022-06` means `>= "2022-07"`.
 */
export function bounds(from: string | null, to: string | null, includeFrom: boolean, includeTo: boolean): Bound[] {
  const out: Bound[] = [];
  if (from !== null) {
    const next = includeFrom || !DATE_PREFIX.test(from) ? null : after(from);
    out.push(includeFrom ? [">=", from] : next !== null ? [">=", next] : [">", from]);
  }
  if (to !== null) {
    const next = includeTo && DATE_PREFIX.test(to) ? after(to) : null;
    out.push(!includeTo ? ["<", to] : next !== null ? ["<", next] : ["<=", to]);
  }
  return out;
}

/** Bounds matching exactly the strings that start with `prefix`. */
export function prefixBounds(prefix: string): Bound[] {
  const next = after(prefix);
  return next === null
    ? [[">=", prefix]]
    : [
        [">=", prefix],
        ["<", next],
      ];
}

/** A run of literal text, or one wildcard. */
export type PatternPart = { literal: string } | { wild: "*" | "?" };

/** The parts of a pattern as the parser keeps it (query-string.ts: `\*`, `\?`, `\\` escaped). */
export function patternParts(pattern: string): PatternPart[] {
  const parts: PatternPart[] = [];
  const chars = Array.from(pattern);
  let literal = "";
  for (let j = 0; j < chars.length; j++) {
    const c = chars[j]!;
    if (c === "*" || c === "?") {
      if (literal) parts.push({ literal });
      literal = "";
      parts.push({ wild: c });
    } else literal += c === "\\" && j + 1 < chars.length ? chars[++j]! : c;
  }
  if (literal) parts.push({ literal });
  return parts;
}

/** The pattern as a GLOB (case-sensitive, `?` one code point), each literal run first passed through `fold`. */
export function globOf(parts: PatternPart[], fold: (s: string) => string): string {
  // Inside brackets GLOB's own special characters are literal.
  return parts.map((p) => ("wild" in p ? p.wild : fold(p.literal).replace(/[*?[]/g, "[$&]"))).join("");
}

/** The literal text before the first wildcard, folded: every match starts with it. */
export function literalPrefix(parts: PatternPart[], fold: (s: string) => string): string {
  const first = parts[0];
  return first && "literal" in first ? fold(first.literal) : "";
}

/** The smallest string above every string that starts with `prefix` (code point order is UTF-8 byte order). */
export function after(prefix: string): string | null {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const next = points.pop()! + 1;
    if (next <= 0x10ffff) return String.fromCodePoint(...points, next === 0xd800 ? 0xe000 : next);
  }
  return null;
}

/**
 * A `?`/inner-`*` wildcard over values stored lower-cased (`lowerCased`) or as they are: a range on
 * its literal prefix, and the pattern's parts (folded) that each engine's SQL matches after it.
 */
export function wildcardBounds(pattern: string, lowerCased: boolean): { limits: Bound[]; parts: PatternPart[] } {
  const fold = lowerCased ? (v: string) => v.toLowerCase() : (v: string) => v;
  const parts = patternParts(pattern);
  const prefix = literalPrefix(parts, fold);
  return { limits: prefix ? prefixBounds(prefix) : [], parts: parts.map((p) => ("literal" in p ? { literal: fold(p.literal) } : p)) };
}
