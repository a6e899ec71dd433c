// The in-memory search path must give exactly what the SQL path gives: hits in order, totals and
// aggregations, for every kind of caller (visibility), facet selection, sort and page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Actor } from "../../src/core/actor";
import { createFacetCache } from "../../src/records/facet-cache";
import { searchRecordIndex } from "../../src/records/search";
import { createTestApp, type TestApp } from "../helpers/app";
import { MINIMAL_METADATA } from "../helpers/records";

let ctx: TestApp;
const TYPES = ["dataset", "image-photo", "image-plot", "publication-article", "software"];
const LANGS = [[], ["eng"], ["fra"], ["eng", "deu"]];
const WORDS = ["ocean", "coral", "glacier", "forest", "river"];

beforeAll(async () => {
  ctx = await createTestApp();
  const records = ctx.services.records;
  const users = [ctx.users.alice, ctx.users.bob];
  for (let i = 0; i < 40; i++) {
    const owner = users[i % 2]!;
    const actor: Actor = { kind: "user", userId: owner.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    const restricted = i % 7 === 0;
    const draft = records.createDraft(actor, {
      access: { record: restricted ? "restricted" : "public", files: restricted ? "restricted" : "public" },
      files: { enabled: false },
      metadata: {
        ...MINIMAL_METADATA,
        title: `${WORDS[i % 5]} ${WORDS[(i * 3) % 5]} study ${i}`,
        resource_type: { id: TYPES[i % TYPES.length]! },
        publication_date: [`${2010 + (i % 15)}`, `${2010 + (i % 15)}-0${1 + (i % 9)}`, `${2010 + (i % 15)}-0${1 + (i % 9)}-1${i % 10}`, `${2010 + (i % 15)}/2026`][i % 4]!,
        languages: LANGS[i % LANGS.length]!.map((id) => ({ id })),
        publisher: "Cairn",
      },
    });
    ctx.clock.advance(1000 + ((i * 7919) % 5000));
    records.publish(actor, draft.id);
    if (i % 9 === 0) {
      ctx.clock.advance(500);
      const next = records.newVersion(actor, draft.id);
      records.updateDraft(actor, next.id, { files: { enabled: false }, metadata: { ...MINIMAL_METADATA, title: `${WORDS[i % 5]} second version ${i}`, publisher: "Cairn" } }, null);
      records.publish(actor, next.id);
    }
    if (i % 11 === 0) records.editRecord(actor, draft.id);
  }
});
afterAll(() => ctx.close());

const actors: [string, () => Actor][] = [
  ["anonymous", () => ({ kind: "anonymous" })],
  ["alice", () => ({ kind: "user", userId: ctx.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null })],
  ["admin", () => ({ kind: "system" })],
];
const queries: Record<string, unknown>[] = [
  {},
  { q: "ocean" },
  { q: "coral glacier" },
  { q: '"second version"' },
  { q: "nothingmatches" },
  { q: "((" },
  { resource_type: "image" },
  { resource_type: ["image::image-plot", "software"], language: "eng" },
  { q: "study", access_status: "restricted" },
  { q: "study", sort: "oldest", page: "2", size: "7" },
  { sort: "version" },
  { sort: "updated-asc", allversions: "true" },
  { q: "river", sort: "bestmatch" },
  { q: "study", sort: "bestmatch", size: "5" },
  { q: "metadata.publication_date:[2012 TO 2016]" },
  { q: "publication_date:[2014-03 TO 2020-05]", sort: "oldest" },
  { q: "publication_date:{2014 TO 2020}" },
  { q: "publication_date:>=2021" },
  { q: "publication_date:<2013-05" },
  { q: "ocean AND publication_date:[2015 TO *]" },
  { q: "study AND publication_date:[2011 TO 2019] AND publication_date:<2015", resource_type: "image" },
  { q: "_exists_:metadata.publication_date" },
  { q: "publication_date:[2012 TO 2016] OR coral" },
];

describe("the in-memory path agrees with SQL", () => {
  for (const [who, actorOf] of actors) {
    test.each(queries.map((q) => [JSON.stringify(q), q] as const))(`${who}: %s`, (_label, query) => {
      const db = ctx.services.deps.db;
      const lookup = ctx.services.vocabularies.lookup;
      const cache = createFacetCache(db);
      cache.refresh();
      const str = (v: unknown) => (typeof v === "string" ? v : undefined);
      const size = Number(str(query.size) ?? 10);
      const pageNo = Number(str(query.page) ?? 1);
      const page = { page: pageNo, size, offset: (pageNo - 1) * size };
      const input = {
        sortOptions: ctx.config.RDM_SEARCH_SORT_OPTIONS,
        q: str(query.q),
        sort: str(query.sort),
        allversions: query.allversions === "true",
        defaultSort: "newest",
        query,
      };
      const viaSql = searchRecordIndex(db, actorOf(), input, page, lookup);
      const viaMemory = searchRecordIndex(db, actorOf(), input, page, lookup, cache);
      expect(viaMemory).toEqual(viaSql);
      // Again, now from the cached rows of the same full-text condition.
      expect(searchRecordIndex(db, actorOf(), input, page, lookup, cache)).toEqual(viaSql);
      expect(cache.current()).not.toBeNull();
    });
  }

  test("the copy goes stale on an index write, and searches use SQL until it is rebuilt", () => {
    const cache = createFacetCache(ctx.services.deps.db);
    cache.refresh();
    expect(cache.current()).not.toBeNull();
    ctx.services.records.reindex({ kind: "system" });
    expect(cache.current()).toBeNull();
    cache.refresh();
    expect(cache.current()).not.toBeNull();
  });
});

describe("the match cache", () => {
  test("a repeated full-text query reuses its rows, and a rebuild drops them", () => {
    const db = ctx.services.deps.db;
    const cache = createFacetCache(db);
    cache.refresh();
    const input = { sortOptions: ctx.config.RDM_SEARCH_SORT_OPTIONS, q: "ocean", defaultSort: "newest", query: { q: "ocean" } };
    const page = { page: 1, size: 10, offset: 0 };
    const first = searchRecordIndex(db, { kind: "system" }, input, page, ctx.services.vocabularies.lookup, cache);
    const columns = cache.current()!;
    expect([...columns.matches.keys()]).toHaveLength(1);
    const again = searchRecordIndex(db, { kind: "system" }, input, page, ctx.services.vocabularies.lookup, cache);
    expect(again).toEqual(first);
    expect(columns.matches.size).toBe(1);
    cache.refresh();
    expect(cache.current()!.matches.size).toBe(0);
  });
});
