// A parser for the query-string syntax clients send (a Lucene/OpenSearch `query_string` subset):
// words (AND by default), "phrases", field:value, AND/OR/NOT, +/-, parentheses, trailing `*`/`?`.
// A query that does not parse is searched as its plain words, as InvenioRDM does.

export type QueryNode =
  | { kind: "and" | "or"; items: QueryNode[] }
  | { kind: "not"; item: QueryNode }
  | { kind: "term"; field: string | null; value: string; phrase: boolean; prefix: boolean };

type Token = { t: "word"; v: string } | { t: "phrase"; v: string } | { t: "op"; v: "AND" | "OR" | "NOT" | "(" | ")" | "+" | "-" } | { t: "field"; v: string };

class ParseError extends Error {}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      const end = input.indexOf('"', i + 1);
      if (end < 0) throw new ParseError("unclosed quote");
      tokens.push({ t: "phrase", v: input.slice(i + 1, end) });
      i = end + 1;
    } else if (c === "(" || c === ")") {
      tokens.push({ t: "op", v: c });
      i++;
    } else if ((c === "+" || c === "-") && (tokens.length === 0 || /[\s(]/.test(input[i - 1] ?? " "))) {
      tokens.push({ t: "op", v: c });
      i++;
    } else {
      let j = i;
      while (j < input.length && !/[\s()"]/.test(input[j]!)) {
        if (input[j] === "\\" && j + 1 < input.length) j++;
        j++;
      }
      const raw = input.slice(i, j);
      const colon = raw.search(/(?<!\\):/);
      if (colon > 0 && /^[\w.]+$/.test(raw.slice(0, colon))) {
        tokens.push({ t: "field", v: raw.slice(0, colon) });
        const rest = raw.slice(colon + 1);
        if (rest) tokens.push({ t: "word", v: rest });
      } else if (raw === "AND" || raw === "OR" || raw === "NOT" || raw === "&&" || raw === "||") {
        tokens.push({ t: "op", v: raw === "&&" ? "AND" : raw === "||" ? "OR" : raw });
      } else {
        tokens.push({ t: "word", v: raw });
      }
      i = j;
    }
  }
  return tokens;
}

const unescape = (s: string) => s.replace(/\\(.)/g, "$1");

function termOf(field: string | null, token: Token): QueryNode {
  if (token.t === "phrase") return { kind: "term", field, value: token.v, phrase: true, prefix: false };
  const value = unescape(token.v);
  const wildcard = value.search(/[*?]/);
  // Only trailing wildcards can be served from the index; an inner one keeps the part before it.
  if (wildcard >= 0) return { kind: "term", field, value: value.slice(0, wildcard), phrase: false, prefix: true };
  return { kind: "term", field, value, phrase: false, prefix: false };
}

function parseTokens(tokens: Token[]): QueryNode {
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (v: string) => peek()?.t === "op" && peek()!.v === v;

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
      return { kind: "not", item: unary() };
    }
    if (isOp("+")) pos++;
    return primary();
  }
  function primary(): QueryNode {
    const token = peek();
    if (!token) throw new ParseError("unexpected end");
    pos++;
    if (token.t === "op" && token.v === "(") {
      const inner = or();
      if (!isOp(")")) throw new ParseError("missing )");
      pos++;
      return inner;
    }
    if (token.t === "field") {
      const value = peek();
      if (!value) throw new ParseError("field without value");
      if (value.t === "op" && value.v === "(") {
        pos++;
        const inner = withField(or(), token.v);
        if (!isOp(")")) throw new ParseError("missing )");
        pos++;
        return inner;
      }
      if (value.t !== "word" && value.t !== "phrase") throw new ParseError("field without value");
      pos++;
      return termOf(token.v, value);
    }
    if (token.t === "word" || token.t === "phrase") return termOf(null, token);
    throw new ParseError(`unexpected ${token.v}`);
  }
  const node = or();
  if (pos < tokens.length) throw new ParseError("trailing input");
  return node;
}

function withField(node: QueryNode, field: string): QueryNode {
  if (node.kind === "term") return { ...node, field: node.field ?? field };
  if (node.kind === "not") return { kind: "not", item: withField(node.item, field) };
  return { kind: node.kind, items: node.items.map((n) => withField(n, field)) };
}

/** Plain words of the input, AND-ed: the fallback for a query that does not parse. */
function plainWords(input: string): QueryNode | null {
  const words = input.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
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
