// The SQLite engine's own search machinery: the column copy goes stale and is patched or rebuilt,
// the match cache, and which queries the in-memory path answers. That both paths answer alike is
// the conformance suite's (test/helpers/search-conformance.ts, run in search-conformance.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { recordScope } from "../../src/records/policy";
import { indexedRecord, type IndexedRow } from "../../src/records/search";
import { createSqliteRecordSearch, rowOf } from "../../src/records/search/sqlite";
import { memoryPlan } from "../../src/records/search/sqlite/plan";
import { expandRecordQuery, RECORD_SEARCH_SCHEMA } from "../../src/records/search/sqlite/schema";
import { parseQueryString } from "../../src/search/query-string";
import { createRandom } from "../helpers/random";
import { buildSearchCorpus, labelsOf, randomSearch, searchInput as inputOf, type SearchCorpus } from "../helpers/search-conformance";

let corpus: SearchCorpus;
let ctx: SearchCorpus["ctx"];
let labels: ReturnType<typeof labelsOf>;
beforeAll(async () => {
  corpus = await buildSearchCorpus();
  ctx = corpus.ctx;
  labels = labelsOf(corpus.communities);
});
afterAll(() => ctx.close());

const searchInput = (raw: Record<string, unknown>) => inputOf(corpus, raw);
const createRecordSearch = createSqliteRecordSearch;
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

test("the copy goes stale on an index write, and searches use SQL until it is rebuilt", () => {
  const search = createRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup);
  search.copy.refresh();
  expect(search.copy.current()).not.toBeNull();
  search.rebuild(ctx.clock.now());
  expect(search.copy.current()).toBeNull();
  search.copy.refresh();
  expect(search.copy.current()).not.toBeNull();
});

test("most of the conformance suite's random queries are answered in memory", () => {
  const r = createRandom(20261123);
  let inMemory = 0;
  for (let i = 0; i < 160; i++) {
    const query = randomSearch(r);
    if (memoryPlan(RECORD_SEARCH_SCHEMA, "r.publication_date", expandRecordQuery(ctx.services.deps.db, parseQueryString(str(query.q) ?? "")))) inMemory++;
    r.rand(); // the suite's pick of a scope
  }
  // Most of them the in-memory path answers; the rest compare SQL with itself.
  expect(inMemory).toBeGreaterThan(60);
});

test("a ? wildcard is answered in memory with the terms it expands to", () => {
  const node = expandRecordQuery(ctx.services.deps.db, parseQueryString("oce?n"));
  expect(node).toMatchObject({ kind: "term", expansion: ["ocean"] });
  expect(memoryPlan(RECORD_SEARCH_SCHEMA, "r.publication_date", node)).not.toBeNull();
});

describe("the match cache", () => {
  test("a repeated full-text query reuses its rows, and a rebuild drops them", () => {
    const search = createRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup);
    search.copy.refresh();
    const { input, page } = searchInput({ q: "ocean" });
    const first = search.searchNow(recordScope({ kind: "system" }), input, page);
    const columns = search.copy.current()!;
    expect([...columns.matches.keys()]).toHaveLength(1);
    const again = search.searchNow(recordScope({ kind: "system" }), input, page);
    expect(again).toEqual(first);
    expect(columns.matches.size).toBe(1);
    search.copy.refresh();
    expect(search.copy.current()!.matches.size).toBe(0);
  });
});

// Last in the file: it rewrites index rows of the shared data.
describe("a copy patched by index writes", () => {
  test("index writes are patched into the copy (no rebuild, no SQL fallback), and it still agrees with SQL", () => {
    const db = ctx.services.deps.db;
    const search = createRecordSearch(db, ctx.services.vocabularies.lookup);
    search.copy.refresh();
    const before = search.copy.current()!;
    const rows = db.$client
      .query<Record<string, unknown>, []>("SELECT * FROM records WHERE access_record = 'public' ORDER BY id LIMIT 4")
      .all()
      .map((raw) => indexedRecord(rowOf(raw)));
    expect(rows).toHaveLength(4);
    const [restricted, removed, deleted, copied] = rows as [IndexedRow, IndexedRow, IndexedRow, IndexedRow];
    const parent = { pids: {}, communities: [] };
    const doc = (row: IndexedRow) => row.document as Record<string, any>;
    // A public record becomes restricted (a new key; the old row goes), one leaves the index, one is
    // deleted, a new one arrives with a new facet value, a parent's latest flags move.
    search.indexRecord({ ...restricted, accessRecord: "restricted", document: { ...doc(restricted), access: { ...doc(restricted).access, record: "restricted" } } }, parent);
    search.unindexRecord(removed.id, false);
    search.indexRecord({ ...deleted, deletionStatus: "D" }, parent);
    const metadata = { ...doc(copied).metadata, languages: [{ id: "tlh" }], title: "Patched in zebrafish" };
    search.indexRecord({ ...copied, id: "zzzzz-00001", document: { ...copied.document, metadata } }, parent);
    search.indexLatestFlags(copied.parentId, copied.id);

    const after = search.copy.current();
    // Patched: the same copy object, current at once (a rebuild is throttled for 5 s and would give null).
    expect(after).toBe(before);
    const anonymous = recordScope({ kind: "anonymous" });
    const system = recordScope({ kind: "system" });
    for (const [scope, query] of [
      [anonymous, {}],
      [system, {}],
      [anonymous, { q: "zebrafish" }],
      [system, { q: "zebrafish", allversions: "true" }],
      [anonymous, { language: "tlh" }],
      [system, { sort: "oldest", size: "100" }],
      [anonymous, { q: "ocean", allversions: "true", size: "50" }],
    ] as const) {
      const { input, page } = searchInput(query);
      const viaSql = search.searchNow(scope, input, page, { memory: false, labels });
      expect(search.searchNow(scope, input, page, { labels })).toEqual(viaSql);
    }
    const ids = (scope: typeof anonymous, query: Record<string, unknown>) => {
      const { input, page } = searchInput({ size: "100", allversions: "true", ...query });
      return search.searchNow(scope, input, page, { labels }).hits.map((h) => h.id);
    };
    const all = ids(system, {});
    expect(all).toContain("zzzzz-00001");
    expect(all).not.toContain(removed.id);
    expect(all).not.toContain(deleted.id);
    expect(ids(anonymous, {})).not.toContain(restricted.id);
    expect(ids(anonymous, { language: "tlh" })).toEqual(["zzzzz-00001"]);
  });
});
