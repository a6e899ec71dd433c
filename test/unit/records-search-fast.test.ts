// The SQLite engine's own search machinery: the column copy goes stale and is patched or rebuilt,
// the match cache, and which queries the in-memory path answers. That both paths answer alike is
// the conformance suite's (test/helpers/search-conformance.ts, run in search-conformance.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { recordScope, type RecordScope } from "../../src/records/policy";
import { indexedRecord, type IndexedRow } from "../../src/records/search";
import { onSqlite } from "../../src/db/sqlite/connection";
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

test("the copy goes stale on an index write, and searches use SQL until it is rebuilt", async () => {
  const search = createRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup);
  await search.copy.refresh();
  expect(await search.copy.current()).not.toBeNull();
  await search.rebuild(ctx.clock.now());
  expect(await search.copy.current()).toBeNull();
  await search.copy.refresh();
  expect(await search.copy.current()).not.toBeNull();
});

/** A query expanded on the index's own connection (the engine's wildcard expansion). */
const expandOnIndex = (q: string) => onSqlite(ctx.services.deps.db, (s) => expandRecordQuery(s, parseQueryString(q)));

test("most of the conformance suite's random queries are answered in memory", async () => {
  const r = createRandom(20261123);
  let inMemory = 0;
  for (let i = 0; i < 160; i++) {
    const query = randomSearch(r);
    if (memoryPlan(RECORD_SEARCH_SCHEMA, "r.publication_date", await expandOnIndex(str(query.q) ?? ""))) inMemory++;
    r.rand(); // the suite's pick of a scope
  }
  // Most of them the in-memory path answers; the rest compare SQL with itself.
  expect(inMemory).toBeGreaterThan(60);
});

test("a ? wildcard is answered in memory with the terms it expands to", async () => {
  const node = await expandOnIndex("oce?n");
  expect(node).toMatchObject({ kind: "term", expansion: ["ocean"] });
  expect(memoryPlan(RECORD_SEARCH_SCHEMA, "r.publication_date", node)).not.toBeNull();
});

describe("the match cache", () => {
  test("a repeated full-text query reuses its rows, and a rebuild drops them", async () => {
    const search = createRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup);
    await search.copy.refresh();
    const { input, page } = searchInput({ q: "ocean" });
    const first = await search.searchNow(recordScope({ kind: "system" }), input, page);
    const columns = (await search.copy.current())!;
    expect([...columns.matches.keys()]).toHaveLength(1);
    const again = await search.searchNow(recordScope({ kind: "system" }), input, page);
    expect(again).toEqual(first);
    expect(columns.matches.size).toBe(1);
    await search.copy.refresh();
    expect((await search.copy.current())!.matches.size).toBe(0);
  });
});

// Last in the file: it rewrites index rows of the shared data.
describe("a copy patched by index writes", () => {
  test("index writes are patched into the copy (no rebuild, no SQL fallback), and it still agrees with SQL", async () => {
    const db = ctx.services.deps.db;
    const search = createRecordSearch(db, ctx.services.vocabularies.lookup);
    await search.copy.refresh();
    const before = (await search.copy.current())!;
    const rows = (await db.statements.all<Record<string, unknown>>("SELECT * FROM records WHERE access_record = 'public' ORDER BY id LIMIT 4")).map((raw) =>
      indexedRecord(rowOf(raw)),
    );
    expect(rows).toHaveLength(4);
    const [restricted, removed, deleted, copied] = rows as [IndexedRow, IndexedRow, IndexedRow, IndexedRow];
    const parent = { pids: {}, communities: [] };
    const doc = (row: IndexedRow) => row.document as Record<string, any>;
    // A public record becomes restricted (a new key; the old row goes), one leaves the index, one is
    // deleted, a new one arrives with a new facet value, a parent's latest flags move.
    await search.indexRecord({ ...restricted, accessRecord: "restricted", document: { ...doc(restricted), access: { ...doc(restricted).access, record: "restricted" } } }, parent);
    await search.unindexRecord(removed.id, false);
    await search.indexRecord({ ...deleted, deletionStatus: "D" }, parent);
    const metadata = { ...doc(copied).metadata, languages: [{ id: "tlh" }], title: "Patched in zebrafish" };
    await search.indexRecord({ ...copied, id: "zzzzz-00001", document: { ...copied.document, metadata } }, parent);
    await search.indexLatestFlags(copied.parentId, copied.id);

    const after = await search.copy.current();
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
      // The administrators' listings with deleted records (records/policy.ts everythingScope).
      [{ kind: "everything", drafts: false, deleted: "with" } as RecordScope, { q: "zebrafish", allversions: "true" }],
      [{ kind: "everything", drafts: false, deleted: "without" } as RecordScope, { sort: "oldest", size: "100" }],
      [{ kind: "everything", drafts: false, deleted: "only" } as RecordScope, {}],
    ] as const) {
      const { input, page } = searchInput(query);
      const viaSql = await search.searchNow(scope, input, page, { memory: false, labels });
      expect(await search.searchNow(scope, input, page, { labels })).toEqual(viaSql);
    }
    const ids = async (scope: typeof anonymous, query: Record<string, unknown>) => {
      const { input, page } = searchInput({ size: "100", allversions: "true", ...query });
      return (await search.searchNow(scope, input, page, { labels })).hits.map((h) => h.id);
    };
    const all = await ids(system, {});
    expect(all).toContain("zzzzz-00001");
    expect(all).not.toContain(removed.id);
    expect(all).not.toContain(deleted.id);
    expect(await ids(anonymous, {})).not.toContain(restricted.id);
    expect(await ids(anonymous, { language: "tlh" })).toEqual(["zzzzz-00001"]);
  });
});
