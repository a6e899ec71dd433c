// src/search wildcards: how the parser keeps `?`/inner-`*` patterns, their expansion against a real
// FTS5 vocabulary (term range, columns, cap), and GLOBs over keyword values with escapes.
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { HttpError } from "../../src/core/errors";
import { compileQuery, type SearchSchema } from "../../src/search/sqlite/compile";
import { parseQueryString } from "../../src/search/query-string";
import { expandWildcards, ftsVocabulary, MAX_EXPANSIONS, type Vocabulary } from "../../src/search/sqlite/wildcards";

const SCHEMA: SearchSchema = {
  key: "r.id",
  fts: { table: "docs_fts", columns: { title: "title", body: "body" }, defaultColumns: null },
  keywords: { table: "terms", fields: { code: "code" } },
  columns: {},
  aliases: {},
};

const db = new Database(":memory:");
db.run("CREATE TABLE docs (id INTEGER PRIMARY KEY)");
db.run("CREATE VIRTUAL TABLE docs_fts USING fts5(title, body, content='', contentless_delete=1, prefix='2 3', tokenize='unicode61 remove_diacritics 2')");
db.run("CREATE TABLE terms (rowid INTEGER NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL)");
const DOCS: [number, string, string, string][] = [
  [1, "Volcano", "ash", "a*b?"],
  [2, "Volcanic", "volcanoes", "axbz"],
  [3, "Vulcan", "Volcán", "a[b]"],
];
for (const [id, title, body, code] of DOCS) {
  db.query("INSERT INTO docs VALUES (?)").run(id);
  db.query("INSERT INTO docs_fts (rowid, title, body) VALUES (?, ?, ?)").run(id, title, body);
  db.query("INSERT INTO terms VALUES (?, 'code', ?)").run(id, code.toLowerCase());
}
afterAll(() => db.close());

const vocabulary = ftsVocabulary(db, "docs_fts");

/** The messages of the 400 that `work` throws. */
function rejection(work: () => unknown): string[] {
  try {
    work();
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    return (err as HttpError).errors!.flatMap((e) => e.messages);
  }
  throw new Error("not rejected");
}
function search(q: string, vocab: Vocabulary = vocabulary) {
  const node = expandWildcards(parseQueryString(q), SCHEMA, vocab);
  const compiled = compileQuery(node, SCHEMA);
  return db
    .query<{ id: number }, (string | number)[]>(`SELECT r.id FROM docs r WHERE ${compiled.where} ORDER BY r.id`)
    .all(...compiled.params)
    .map((r) => r.id);
}

describe("parser", () => {
  const term = (value: string, extra: Record<string, unknown> = {}) => ({ kind: "term", field: null, value, phrase: false, prefix: false, ...extra });
  test.each([
    ["volcan?", term("volcan", { wildcard: "volcan?" })],
    ["vol*no", term("vol", { wildcard: "vol*no" })],
    ["*cano", term("", { wildcard: "*cano" })],
    ["volcan*", term("volcan", { prefix: true })],
    ["volcan**", term("volcan", { prefix: true })],
    ["a\\*b?", term("a*b", { wildcard: "a\\*b?" })],
    ["a?\\\\", term("a", { wildcard: "a?\\\\" })],
    ["volcan\\?", term("volcan?")],
  ] as const)("%s", (q, expected) => {
    expect(parseQueryString(q)).toEqual(expected as never);
  });
});

describe("full-text expansion", () => {
  test("terms of the index matching the pattern, folded as the tokenizer folds", () => {
    expect(expandWildcards(parseQueryString("VOLCAN?"), SCHEMA, vocabulary)).toMatchObject({ expansion: ["volcano"] });
    expect(expandWildcards(parseQueryString("v?lcan"), SCHEMA, vocabulary)).toMatchObject({ expansion: ["volcan", "vulcan"] });
    expect(expandWildcards(parseQueryString("volcán?"), SCHEMA, vocabulary)).toMatchObject({ expansion: ["volcano"] });
  });
  test.each([
    ["volcan?", [1]],
    ["volcan??", [2]],
    ["title:volcan?", [1]],
    ["body:volcan?", []],
    ["body:v?lcan", [3]],
    ["vol*s", [2]],
    ["*ano", [1]],
    ["-volcan?", [2, 3]],
    ["?sh", [1]],
  ] as const)("%s finds %j", (q, expected) => {
    expect(search(q)).toEqual([...expected]);
  });
  test("the vocabulary reads the literal prefix's range and the pattern's columns", () => {
    const calls: unknown[][] = [];
    const spy: Vocabulary = (...args) => (calls.push(args), vocabulary(...args));
    search("title:volc?no", spy);
    search("*ano", spy);
    expect(calls).toEqual([
      ["volc?no", "volc", ["title"], MAX_EXPANSIONS + 1],
      ["*ano", "", null, MAX_EXPANSIONS + 1],
    ]);
  });
  test("more terms than the cap is a 400 naming the wildcard", () => {
    const many: Vocabulary = (_glob, _prefix, _columns, limit) => Array.from({ length: limit }, (_, i) => `t${i}`);
    expect(rejection(() => search("t?*", many))).toEqual(["The wildcard t?* matches more than 1024 terms of the index; make it more specific (max_clause_count)."]);
  });
  test("expanded terms count as clauses: two wildcards of 600 terms each are too many", () => {
    const six: Vocabulary = (glob) => Array.from({ length: 600 }, (_, i) => `${glob[0]}${i}`);
    expect(search("a?", six)).toEqual([]);
    expect(rejection(() => search("a? OR b?", six))[0]).toContain("The query has 1200 clauses");
  });
  test("without expansion (a caller with no vocabulary) a wildcard falls back to its literal prefix", () => {
    const compiled = compileQuery(parseQueryString("volcan?"), SCHEMA);
    expect(compiled.params).toEqual(['"volcan"*']);
  });
});

describe("keyword wildcards are GLOBs, escapes literal", () => {
  test.each([
    ["code:a?b?", [1, 2, 3]],
    ["code:a?b", []],
    ["code:a\\*b?", [1]],
    ["code:a\\*b\\?", [1]],
    ["code:a[b?", [3]],
    ["code:*z", [2]],
    ["code:A?B*", [1, 2, 3]],
    ["code:ax?*", [2]],
  ] as const)("%s finds %j", (q, expected) => {
    expect(search(q)).toEqual([...expected]);
  });
});
