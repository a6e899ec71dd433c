// src/search: the query-string parser's range/exists/DOI syntax, and compiled queries run on real SQLite.
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { compileQuery, type SearchSchema } from "../../src/search/sqlite/compile";
import { parseQueryString } from "../../src/search/query-string";

const SCHEMA: SearchSchema = {
  key: "r.id",
  fts: {
    table: "recs_fts",
    columns: { "metadata.title": "title", "metadata.description": "description", "metadata.creators.person_or_org.name": "creators" },
    defaultColumns: ["title", "description", "creators"],
  },
  keywords: { table: "terms", fields: { "pids.doi.identifier": "doi", "metadata.resource_type.id": "resource_type", "metadata.languages.id": "language" } },
  columns: { "metadata.publication_date": "r.publication_date", created: "r.created", "metadata.version": "r.version", "stats.views": "r.views", id: "r.id" },
  aliases: {
    doi: "pids.doi.identifier",
    title: "metadata.title",
    creators: "metadata.creators.person_or_org.name",
    publication_date: "metadata.publication_date",
    resource_type: "metadata.resource_type.id",
    language: "metadata.languages.id",
    version: "metadata.version",
    views: "stats.views",
    recid: "id",
  },
};

type Rec = [
  id: number,
  title: string,
  description: string,
  creators: string | null,
  date: string | null,
  created: string,
  version: string | null,
  views: number,
  doi: string | null,
  type: string,
  languages: string[],
];
const RECORDS: Rec[] = [
  [1, "Ocean temperature measurements", "Sea surface data from buoys", "Doe, Jane", "2020-03-15", "2024-01-10T09:00:00", "v1", 10, "10.1234/ocean.1", "dataset", ["eng"]],
  [2, "Glacier retreat in the Alps", "Photographs of glaciers", "Smith, John", "2021-06-30", "2024-01-11T09:00:00", null, 250, "10.1234/ab:c", "image-photo", ["eng", "deu"]],
  [3, "Soil moisture dataset", "Sensor network readings", "Müller, Anna", "2022-06-01", "2024-02-01T00:00:00", "1.0", 5, "10.5281/zenodo.123", "dataset", ["deu"]],
  [4, "Urban heat islands", "Temperature maps of cities", "Doe, John", "2022-06-30", "2024-02-15T12:00:00", null, 0, null, "dataset", []],
  [5, "Bird migration tracks", "GPS tracks of storks", "Smith, Jane", "2022-07-01", "2024-03-01T08:30:00", null, 42, "10.1000/(SICI)1234", "dataset", ["eng"]],
  [6, "Coral reef survey", "Underwater photographs of reefs", "Nguyen, Linh", "2019-12-31", "2023-12-31T23:59:59", "v2", 7, "10.1234/REEF.2019", "image-photo", []],
  [7, "Temperature anomalies", "Global climate reconstruction", "Doe, Jane; Smith, John", "2023-01-01", "2024-03-02T10:00:00", null, 99, null, "dataset", ["eng"]],
  [8, "Archive of ocean sounds", "Hydrophone recordings", "García, Luis", "2018-05", "2024-03-03T00:00:00", null, 3, "10.1234/sound", "audio", ["spa"]],
  [9, "Notes on data curation", "", null, null, "2024-03-04T00:00:00", null, 0, null, "publication", []],
  [10, "Climate model output", "CMIP6 runs for the ocean", "Lee, Min", "2024-02-29", "2024-03-05T00:00:00", "2.0", 1000, "10.1234/climate-model", "dataset", ["eng"]],
  [11, "Forest inventory", "Tree heights and species", "Doe, Jane", "2022-06-15", "2024-03-06T00:00:00", null, 12, null, "dataset", []],
  [12, "C++ & R scripts", "Code for analysis", "Smith, John", "2020", "2024-03-07T00:00:00", "3.1", 8, "10.1234/scripts", "software", ["eng"]],
];
const ALL = RECORDS.map((r) => r[0]);
const except = (...ids: number[]) => ALL.filter((id) => !ids.includes(id));

const db = new Database(":memory:");
db.run("CREATE TABLE recs (id INTEGER PRIMARY KEY, publication_date TEXT, created TEXT NOT NULL, version TEXT, views INTEGER NOT NULL)");
db.run("CREATE VIRTUAL TABLE recs_fts USING fts5(title, description, creators, content='', contentless_delete=1)");
db.run("CREATE TABLE terms (rowid INTEGER NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL)");
// (field, value) leads, as the compiled subqueries need; rowid last makes them index-only.
db.run("CREATE INDEX terms_field_value ON terms (field, value, rowid)");
for (const [id, title, description, creators, date, created, version, views, doi, type, languages] of RECORDS) {
  db.query("INSERT INTO recs VALUES (?, ?, ?, ?, ?)").run(id, date, created, version, views);
  db.query("INSERT INTO recs_fts (rowid, title, description, creators) VALUES (?, ?, ?, ?)").run(id, title, description, creators);
  const terms: [string, string | null][] = [["doi", doi], ["resource_type", type], ...languages.map((l): [string, string] => ["language", l])];
  for (const [field, value] of terms) if (value) db.query("INSERT INTO terms VALUES (?, ?, ?)").run(id, field, value.toLowerCase());
}
afterAll(() => db.close());

function search(q: string) {
  const compiled = compileQuery(parseQueryString(q), SCHEMA);
  const rows = db.query<{ id: number }, (string | number)[]>(`SELECT r.id FROM recs r WHERE ${compiled.where} ORDER BY r.id`).all(...compiled.params);
  return { ids: rows.map((r) => r.id), ...compiled };
}

const CASES: [string, string, number[]][] = [
  ["bare word", "ocean", [1, 8, 10]],
  ["bare words are AND-ed", "ocean temperature", [1]],
  ["phrase", '"ocean temperature"', [1]],
  ["phrase keeps order", '"temperature ocean"', []],
  ["OR", "glacier OR coral", [2, 6]],
  ["|| is OR", "ocean || soil", [1, 3, 8, 10]],
  ["NOT", "ocean NOT climate", [1, 8]],
  ["minus", "ocean -sounds", [1, 10]],
  ["minus alone", "-ocean", except(1, 8, 10)],
  ["negations alone", "NOT ocean AND NOT temperature", except(1, 4, 7, 8, 10)],
  ["plus", "+ocean +sounds", [8]],
  ["parentheses", "(ocean OR glacier) AND (survey OR sounds OR retreat)", [2, 8]],
  ["negated group", "temperature -(jane)", [4]],
  ["group of alternatives", "temperature (john OR anomalies)", [4, 7]],
  ["FTS field by alias", "title:ocean", [1, 8]],
  ["FTS field by name", "metadata.description:ocean", [10]],
  ["FTS field group", "creators:(jane AND smith)", [5, 7]],
  ["FTS field prefix", "title:temp*", [1, 7]],
  ["FTS field phrase", 'metadata.creators.person_or_org.name:"Doe, Jane"', [1, 7, 11]],
  ["keyword exact", "resource_type:dataset", [1, 3, 4, 5, 7, 10, 11]],
  ["keyword is case-insensitive", "resource_type:DATASET", [1, 3, 4, 5, 7, 10, 11]],
  ["keyword prefix", "resource_type:image*", [2, 6]],
  ["keyword any value", "language:*", [1, 2, 3, 5, 7, 8, 10, 12]],
  ["keyword by canonical name", "metadata.languages.id:deu", [2, 3]],
  ["keyword OR keyword", "language:eng OR language:spa", [1, 2, 5, 7, 8, 10, 12]],
  ["DOI quoted", 'pids.doi.identifier:"10.1234/ocean.1"', [1]],
  ["DOI quoted with a colon", 'doi:"10.1234/ab:c"', [2]],
  ["DOI unquoted with a colon", "doi:10.1234/ab:c", [2]],
  ["DOI upper-case", "doi:10.1234/REEF.2019", [6]],
  ["DOI with parentheses", "doi:10.1000/(SICI)1234", [5]],
  ["DOI with parentheses in a group", "(doi:10.1000/(SICI)1234)", [5]],
  ["DOIs in a group", "(doi:10.1234/ocean.1 OR doi:10.1234/sound)", [1, 8]],
  ["DOI is exact", "doi:10.1234/ocean", []],
  ["DOI prefix", "doi:10.1234*", [1, 2, 6, 8, 10, 12]],
  ["range inclusive, year upper bound takes the whole year", "publication_date:[2020 TO 2021]", [1, 2, 12]],
  ["range exclusive", "publication_date:{2020 TO 2022}", [2]],
  ["range of one month", "publication_date:[2022-06 TO 2022-06]", [3, 4, 11]],
  ["range of days, last day included", "publication_date:[2022-06-01 TO 2022-06-30]", [3, 4, 11]],
  ["range open below, partial-date upper bound", "publication_date:[* TO 2022-06]", [1, 2, 3, 4, 6, 8, 11, 12]],
  ["range open below, exclusive", "publication_date:{* TO 2022-06}", [1, 2, 6, 8, 12]],
  ["range open above", "publication_date:[2022-07 TO *]", [5, 7, 10]],
  ["range mixed", "publication_date:[2019-12-31 TO 2020}", [6]],
  ["range of days over timestamps", "created:[2024-03-01 TO 2024-03-02]", [5, 7]],
  ["range of timestamps", "created:[2024-03-01T08:30:00 TO 2024-03-02T00:00:00]", [5]],
  ["range open both ends is existence", "publication_date:[* TO *]", except(9)],
  ["range on an integer column", "recid:[3 TO 5]", [3, 4, 5]],
  ["range on a keyword, bounds lower-cased", "resource_type:{AUDIO TO IMAGE-PHOTO}", [1, 3, 4, 5, 7, 10, 11]],
  ["range on a keyword, inclusive", "language:[deu TO eng]", [1, 2, 3, 5, 7, 10, 12]],
  [">=", "publication_date:>=2022-06-30", [4, 5, 7, 10]],
  ["> a date skips the whole day", "publication_date:>2022-06-30", [5, 7, 10]],
  ["<", "publication_date:<2020", [6, 8]],
  ["<= a year includes the year", "publication_date:<=2020", [1, 6, 8, 12]],
  [">= on numbers", "stats.views:>=100", [2, 10]],
  ["< on numbers by alias", "views:<10", [3, 4, 6, 8, 9, 12]],
  ["term on a column", "recid:7", [7]],
  ["term on a date column is its period", "publication_date:2022-06", [3, 4, 11]],
  ["_exists_ on a keyword", "_exists_:doi", [1, 2, 3, 5, 6, 8, 10, 12]],
  ["_exists_ on a column", "_exists_:version", [1, 3, 6, 10, 12]],
  ["_exists_ with words", "_exists_:metadata.version AND ocean", [1, 10]],
  ["NOT _exists_", "NOT _exists_:publication_date", [9]],
  ["_exists_ on an unknown field", "_exists_:nosuchfield", []],
  ["range on an unknown field", "nosuch:[a TO b]", []],
  ["unknown field is full text", "nosuch:ocean", [1, 8, 10]],
  ["field named like an Object property", "constructor:ocean", [1, 8, 10]],
  ["mixed AND with negation", "ocean resource_type:dataset -sounds", [1, 10]],
  ["mixed OR", "soil OR resource_type:software", [3, 12]],
  ["mixed everything", "(ocean OR soil) AND publication_date:[2020 TO *] AND -language:eng", [3]],
  ["malformed: unclosed quote", '"ocean temperature', [1]],
  ["malformed: unclosed group", "ocean (sounds", [8]],
  ["malformed: stray )", "ocean) sounds", [8]],
  ["malformed: unclosed range", "title:[ocean TO", []],
  ["punctuation only: stars", "***", ALL],
  ["punctuation only: minus", "-", ALL],
  ["punctuation only: empty group", "()", ALL],
  ["punctuation only: phrase", '"!!"', ALL],
  ["punctuation only: operators", "&& ||", ALL],
  ["punctuation only: *:*", "*:*", ALL],
  ["empty", "", ALL],
  ["punctuation term dropped from AND", "ocean ***", [1, 8, 10]],
  ["punctuation term dropped from OR", "!!! OR doi:10.1234/sound", [8]],
  ["quotes cannot inject SQL", "title:\"x') OR 1=1 --\" OR doi:\"x' OR '1'='1\"", []],
];

describe("compiled queries on SQLite", () => {
  test.each(CASES)("%s: %s", (_name, q, expected) => {
    const result = search(q);
    expect(result.ids).toEqual(expected);
    // Every value is bound: the SQL text has no string literals at all.
    expect(result.where).not.toMatch(/['"]/);
  });
});

describe("query shape", () => {
  const matches = (where: string) => where.split("MATCH").length - 1;
  const ALL_COLUMNS = "{title description creators}";

  test("full-text terms of one AND share one MATCH, which is the ranking block", () => {
    const r = search("ocean temperature sea");
    expect(matches(r.where)).toBe(1);
    expect(r.rankMatch).toBe(`(${ALL_COLUMNS} : "ocean" AND ${ALL_COLUMNS} : "temperature" AND ${ALL_COLUMNS} : "sea")`);
  });
  test("full text beside keywords still ranks by its block, negations included", () => {
    const r = search("ocean resource_type:dataset -sounds");
    expect(matches(r.where)).toBe(1);
    expect(r.rankMatch).toBe(`(${ALL_COLUMNS} : "ocean" NOT ${ALL_COLUMNS} : "sounds")`);
  });
  test("nested groups of the same operator merge", () => {
    const r = search("ocean (temperature (sea OR buoys)) resource_type:dataset");
    expect(matches(r.where)).toBe(1);
    expect(r.ids).toEqual([1]);
  });
  test("full-text alternatives of one OR share one MATCH", () => {
    const r = search("title:ocean OR creators:doe");
    expect(matches(r.where)).toBe(1);
    expect(r.rankMatch).toBe('(title : "ocean" OR creators : "doe")');
  });
  test("an OR mixing full text and keywords has no ranking block", () => {
    expect(search("ocean OR resource_type:audio").rankMatch).toBeNull();
  });
  test("negations alone are one subtraction and have no ranking block", () => {
    const r = search("-ocean -sounds");
    expect(matches(r.where)).toBe(1);
    expect(r.rankMatch).toBeNull();
    expect(r.ids).toEqual(except(1, 8, 10));
  });
  test("an empty query is no condition", () => {
    expect(compileQuery(null, SCHEMA)).toEqual({ where: "1 = 1", params: [], rankMatch: null, ftsOnly: null });
  });
  test("ftsOnly is the MATCH when the whole query is one full-text condition", () => {
    expect(compileQuery(parseQueryString("ocean temperature"), SCHEMA).ftsOnly).toBe(compileQuery(parseQueryString("ocean temperature"), SCHEMA).rankMatch);
    expect(compileQuery(parseQueryString("ocean temperature"), SCHEMA).ftsOnly).not.toBeNull();
    expect(compileQuery(parseQueryString("-ocean"), SCHEMA).ftsOnly).toBeNull();
    expect(compileQuery(parseQueryString("ocean OR doi:10.1/x"), SCHEMA).ftsOnly).toBeNull();
  });
  test("a partial-date upper bound becomes an exclusive next prefix", () => {
    expect(search("publication_date:[2022-06 TO 2022-09]").params).toEqual(["2022-06", "2022-0:"]);
  });
  test("keyword prefixes are index ranges", () => {
    const r = search("doi:10.1234*");
    expect(r.where).toContain("value >= ? AND value < ?");
    expect(r.params).toEqual(["doi", "10.1234", "10.1235"]);
  });
  test("the terms table's key column is configurable", () => {
    const r = compileQuery(parseQueryString("doi:x"), { ...SCHEMA, keywords: { ...SCHEMA.keywords, keyColumn: "key" } });
    expect(r.where).toBe("r.id IN (SELECT key FROM terms WHERE field = ? AND value = ?)");
  });
});

describe("parser: ranges, comparisons, _exists_, DOIs, escapes", () => {
  const range = (field: string, from: string | null, to: string | null, includeFrom: boolean, includeTo: boolean) => ({ kind: "range", field, from, to, includeFrom, includeTo });
  const term = (field: string | null, value: string, phrase = false, prefix = false) => ({ kind: "term", field, value, phrase, prefix });
  const CASES: [string, unknown][] = [
    ["d:[2020 TO 2021]", range("d", "2020", "2021", true, true)],
    ["d:{a TO b}", range("d", "a", "b", false, false)],
    ["d:[a TO b}", range("d", "a", "b", true, false)],
    ["d:{a TO b]", range("d", "a", "b", false, true)],
    ["d:[2020 TO *]", range("d", "2020", null, true, true)],
    ["d:[* TO *]", range("d", null, null, true, true)],
    ['d:["a b" TO "*"]', range("d", "a b", "*", true, true)],
    ["d:[ 2020-01-01T00:00:00 TO 2020\\]x ]", range("d", "2020-01-01T00:00:00", "2020]x", true, true)],
    ["d:>=2020", range("d", "2020", null, true, true)],
    ["d:>x", range("d", "x", null, false, true)],
    ["d:<=x", range("d", null, "x", true, true)],
    ["d:<x", range("d", null, "x", true, false)],
    ['d:<"a b"', range("d", null, "a b", true, false)],
    ["_exists_:metadata.title", { kind: "exists", field: "metadata.title" }],
    ['pids.doi.identifier:"10.1234/abc"', term("pids.doi.identifier", "10.1234/abc", true)],
    ['doi:"10.1234/ab:c"', term("doi", "10.1234/ab:c", true)],
    ["doi:10.1234/ab:c", term("doi", "10.1234/ab:c")],
    ["(doi:10.1/x(1)) a", { kind: "and", items: [term("doi", "10.1/x(1)"), term(null, "a")] }],
    ["title:foo\\:bar", term("title", "foo:bar")],
    ["title:a\\ b", term("title", "a b")],
    ["foo\\*", term(null, "foo*")],
    ["foo*", term(null, "foo", false, true)],
    ['"say \\"hi\\""', term(null, 'say "hi"', true)],
    ["a d:[1 TO 2] -b", { kind: "and", items: [term(null, "a"), range("d", "1", "2", true, true), { kind: "not", item: term(null, "b") }] }],
    ["(d:>1 OR x)", { kind: "or", items: [range("d", "1", null, false, true), term(null, "x")] }],
    ["title:(a OR b)", { kind: "or", items: [term("title", "a"), term("title", "b")] }],
    ["a:b:c", term("a", "b:c")],
    // Malformed: the plain words.
    ["d:[2020 TO", { kind: "and", items: [term(null, "d"), term(null, "2020"), term(null, "TO")] }],
    ["d:[a b c]", { kind: "and", items: [term(null, "d"), term(null, "a"), term(null, "b"), term(null, "c")] }],
    ["d:>=", term(null, "d")],
    ["_exists_:(a)", { kind: "and", items: [term(null, "exists"), term(null, "a")] }],
    ["d:[", term(null, "d")],
  ];
  test.each(CASES)("%s", (q, expected) => {
    expect(parseQueryString(q)).toEqual(expected as never);
  });
});
