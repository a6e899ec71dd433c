// A parser for the query-string syntax clients send (a Lucene/OpenSearch `query_string` subset):
// words (AND by default), "phrases", field:value, AND/OR/NOT, +/-, parentheses, wildcards `*`/`?`,
// ranges `field:[a TO b]`/`{a TO b}`/`[a TO *]`, comparisons `field:>=a`, `_exists_:field`, and
// backslash escapes. A query that does not parse is searched as its plain words, as InvenioRDM does.

export type QueryNode =
  | { kind: "and" | "or"; items: QueryNode[] }
  | { kind: "not"; item: QueryNode }
  | {
      kind: "term";
      field: string | null;
      value: string;
      phrase: boolean;
      /** Only a trailing `*`: `value` is the prefix, which the indexes serve without expanding. */
      prefix: boolean;
      /** Any other wildcard (`?`, an inner `*`): the word as typed, `\*`/`\?`/`\\` kept escaped (see pattern.ts); `value` is its literal prefix. */
      wildcard?: string;
      /** The index terms a full-text wildcard matches, in order (wildcards.ts fills it). */
      expansion?: string[];
    }
  /** A bound of null is open (`*`); include* says whether the bound itself matches. */
  | { kind: "range"; field: string; from: string | null; to: string | null; includeFrom: boolean; includeTo: boolean }
  | { kind: "exists"; field: string };

type RangeToken = { t: "range"; from: string | null; to: string | null; includeFrom: boolean; includeTo: boolean };
type Token = { t: "word"; v: string } | { t: "phrase"; v: string } | { t: "op"; v: "AND" | "OR" | "NOT" | "(" | ")" | "+" | "-" } | { t: "field"; v: string } | RangeToken;

class ParseError extends Error {}

const unescape = (s: string) => s.replace(/\\(.)/g, "$1");

/** A quoted string starting at `start` (a `"`): its unescaped content and the index after it. */
function readQuoted(input: string, start: number): [string, number] {
  for (let j = start + 1; j < input.length; j++) {
    if (input[j] === "\\") j++;
    else if (input[j] === '"') return [unescape(input.slice(start + 1, j)), j + 1];
  }
  throw new ParseError("unclosed quote");
}

/**
 * A field's unquoted value: it runs to the next whitespace so DOIs and URLs keep their slashes and
 * colons. Parentheses inside it are kept while balanced (DOIs like `10.1002/(SICI)...`); an
 * unbalanced `)` ends it, so `(doi:10.1/x)` still closes its group.
 */
function readValue(input: string, start: number): number {
  let depth = 0;
  let j = start;
  for (; j < input.length; j++) {
    const c = input[j]!;
    if (c === "\\") j++;
    else if (/\s/.test(c) || c === '"') break;
    else if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) break;
      depth--;
    }
  }
  return Math.min(j, input.length);
}

/** `[a TO b]`, `{a TO b}` or a mix, starting at the bracket; bounds may be quoted, `*` is open. */
function readRange(input: string, start: number): [RangeToken, number] {
  let j = start + 1;
  const parts: { v: string; quoted: boolean }[] = [];
  for (;;) {
    while (j < input.length && /\s/.test(input[j]!)) j++;
    const c = input[j];
    if (c === undefined) throw new ParseError("unclosed range");
    if (c === "]" || c === "}") break;
    if (c === '"') {
      const [v, end] = readQuoted(input, j);
      parts.push({ v, quoted: true });
      j = end;
      continue;
    }
    const from = j;
    while (j < input.length && !/[\s\]}"]/.test(input[j]!)) j += input[j] === "\\" ? 2 : 1;
    parts.push({ v: input.slice(from, Math.min(j, input.length)), quoted: false });
  }
  const [lo, to, hi] = parts;
  if (parts.length !== 3 || to!.quoted || to!.v !== "TO") throw new ParseError("malformed range");
  const bound = (p: { v: string; quoted: boolean }) => (!p.quoted && p.v === "*" ? null : p.quoted ? p.v : unescape(p.v));
  return [{ t: "range", from: bound(lo!), to: bound(hi!), includeFrom: input[start] === "[", includeTo: input[j] === "]" }, j + 1];
}

/** `>=a`, `>a`, `<=a`, `<a` starting at the operator, as a half-open range. */
function readComparison(input: string, start: number): [RangeToken, number] {
  const op = input.startsWith(">=", start) || input.startsWith("<=", start) ? input.slice(start, start + 2) : input[start]!;
  let j = start + op.length;
  let value: string;
  if (input[j] === '"') [value, j] = readQuoted(input, j);
  else {
    const end = readValue(input, j);
    value = unescape(input.slice(j, end));
    j = end;
  }
  if (!value) throw new ParseError("comparison without value");
  const bound = value === "*" ? null : value;
  const inclusive = op.length === 2;
  const token: RangeToken =
    op[0] === ">" ? { t: "range", from: bound, to: null, includeFrom: inclusive, includeTo: true } : { t: "range", from: null, to: bound, includeFrom: true, includeTo: inclusive };
  return [token, j];
}

/** A field name right before its colon (sticky: matched where the tokenizer stands). */
const FIELD = /[\w.]+(?=:)/y;

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    FIELD.lastIndex = i;
    const field = FIELD.exec(input)?.[0];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      const [v, end] = readQuoted(input, i);
      tokens.push({ t: "phrase", v });
      i = end;
    } else if (c === "(" || c === ")") {
      tokens.push({ t: "op", v: c });
      i++;
    } else if ((c === "+" || c === "-") && (tokens.length === 0 || /[\s(]/.test(input[i - 1] ?? " "))) {
      tokens.push({ t: "op", v: c });
      i++;
    } else if (field) {
      tokens.push({ t: "field", v: field });
      i += field.length + 1;
      const next = input[i];
      // A quote, a group or nothing after the colon is read by the main loop.
      if (next === undefined || /[\s"()]/.test(next)) continue;
      let token: Token;
      if (next === "[" || next === "{") [token, i] = readRange(input, i);
      else if (next === ">" || next === "<") [token, i] = readComparison(input, i);
      else {
        const end = readValue(input, i);
        token = { t: "word", v: input.slice(i, end) };
        i = end;
      }
      tokens.push(token);
    } else {
      let j = i;
      while (j < input.length && !/[\s()"]/.test(input[j]!)) {
        if (input[j] === "\\" && j + 1 < input.length) j++;
        j++;
      }
      const raw = input.slice(i, j);
      if (raw === "AND" || raw === "OR" || raw === "NOT" || raw === "&&" || raw === "||") {
        tokens.push({ t: "op", v: raw === "&&" ? "AND" : raw === "||" ? "OR" : raw });
      } else {
        tokens.push({ t: "word", v: raw });
      }
      i = j;
    }
  }
  return tokens;
}

function termOf(field: string | null, token: Token): QueryNode {
  if (token.t === "phrase") return { kind: "term", field, value: token.v, phrase: true, prefix: false };
  if (token.t !== "word") throw new ParseError("not a term");
  // Wildcards are found before unescaping, so `\*` stays a literal star.
  let value = "";
  let pattern = "";
  let wildcards = 0;
  // Nothing but `*` since the first wildcard: a prefix, which the indexes serve as it is.
  let trailingStars = true;
  for (let j = 0; j < token.v.length; j++) {
    const c = token.v[j]!;
    if (c === "*" || c === "?") {
      wildcards++;
      if (c === "?") trailingStars = false;
      pattern += c;
      continue;
    }
    const literal = c === "\\" && j + 1 < token.v.length ? token.v[++j]! : c;
    if (wildcards) trailingStars = false;
    else value += literal;
    pattern += literal === "*" || literal === "?" || literal === "\\" ? `\\${literal}` : literal;
  }
  if (wildcards > 0 && !trailingStars) return { kind: "term", field, value, phrase: false, prefix: false, wildcard: pattern };
  return { kind: "term", field, value, phrase: false, prefix: wildcards > 0 };
}

/** Deepest nesting of groups and negations: deeper is not a query a person writes (and would overflow the stack). */
const MAX_NESTING = 64;

function parseTokens(tokens: Token[]): QueryNode {
  let pos = 0;
  let nesting = 0;
  const peek = () => tokens[pos];
  const isOp = (v: string) => peek()?.t === "op" && (peek() as { v: string }).v === v;
  const nest = () => {
    if (++nesting > MAX_NESTING) throw new ParseError(`nested more than ${MAX_NESTING} levels deep`);
  };

  function or(): QueryNode {
    const items = [and()];
    while (isOp("OR")) {
      pos++;
      items.push(and());
    }
    return items.length === 1 ? items[0]! : { kind: "or", items };
  }
  function and(): QueryNode {
    const items = [unary()];
    for (;;) {
      if (isOp("AND")) {
        pos++;
        items.push(unary());
      } else if (peek() && !isOp("OR") && !isOp(")")) {
        items.push(unary());
      } else break;
    }
    return items.length === 1 ? items[0]! : { kind: "and", items };
  }
  function unary(): QueryNode {
    if (isOp("NOT") || isOp("-")) {
      pos++;
      nest();
      const item = unary();
      nesting--;
      return { kind: "not", item };
    }
    if (isOp("+")) pos++;
    return primary();
  }
  function group(): QueryNode {
    nest();
    const inner = or();
    if (!isOp(")")) throw new ParseError("missing )");
    pos++;
    nesting--;
    return inner;
  }
  function primary(): QueryNode {
    const token = peek();
    if (!token) throw new ParseError("unexpected end");
    pos++;
    if (token.t === "op" && token.v === "(") return group();
    if (token.t === "field") {
      const value = peek();
      if (!value) throw new ParseError("field without value");
      pos++;
      if (token.v === "_exists_") {
        if (value.t !== "word" && value.t !== "phrase") throw new ParseError("_exists_ needs a field name");
        return { kind: "exists", field: value.t === "word" ? unescape(value.v) : value.v };
      }
      if (value.t === "op" && value.v === "(") return withField(group(), token.v);
      if (value.t === "range") return { kind: "range", field: token.v, from: value.from, to: value.to, includeFrom: value.includeFrom, includeTo: value.includeTo };
      return termOf(token.v, value);
    }
    if (token.t === "word" || token.t === "phrase") return termOf(null, token);
    throw new ParseError(`unexpected ${token.t}`);
  }
  const node = or();
  if (pos < tokens.length) throw new ParseError("trailing input");
  return node;
}

function withField(node: QueryNode, field: string): QueryNode {
  switch (node.kind) {
    case "term":
      return { ...node, field: node.field ?? field };
    case "not":
      return { kind: "not", item: withField(node.item, field) };
    case "and":
    case "or":
      return { kind: node.kind, items: node.items.map((n) => withField(n, field)) };
    default:
      return node;
  }
}

/** The words (letters and digits) a query that does not parse is searched as. */
export const plainWordsOf = (input: string): string[] => input.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Plain words of the input, AND-ed: the fallback for a query that does not parse. */
function plainWords(input: string): QueryNode | null {
  const words = plainWordsOf(input);
  if (words.length === 0) return null;
  const items: QueryNode[] = words.map((value) => ({ kind: "term", field: null, value, phrase: false, prefix: false }));
  return items.length === 1 ? items[0]! : { kind: "and", items };
}

/** Parses a query string; null for a query with nothing to search (empty, or only punctuation). */
export function parseQueryString(input: string): QueryNode | null {
  if (!input.trim()) return null;
  try {
    return parseTokens(tokenize(input));
  } catch (err) {
    if (err instanceof ParseError) return plainWords(input);
    throw err;
  }
}

/** Why a query string does not parse strictly (unclosed quote, stray operator...), or null when it does. */
export function queryStringProblem(input: string): string | null {
  try {
    parseTokens(tokenize(input));
    return null;
  } catch (err) {
    if (err instanceof ParseError) return err.message;
    throw err;
  }
}
