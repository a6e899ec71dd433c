// The in-memory search path must give exactly what the SQL path gives: hits in order, totals and
// aggregations, for every kind of caller (the scope's two renderings), facet selection (the
// communities facet too, with a bucket the labels drop), sort and page: fixed cases, and random
// queries under random scopes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Actor } from "../../src/core/actor";
import { recordScope } from "../../src/records/policy";
import { writeTransaction } from "../../src/db/connection";
import { recordCommunitiesTable, recordGrantsTable } from "../../src/db/tables";
import { createRecordSearch, indexedRecord, rowOf, type FacetLabels, type IndexedRow, type RecordSearchInput } from "../../src/records/search";
import { memoryPlan } from "../../src/records/search/plan";
import { expandRecordQuery, RECORD_SEARCH_SCHEMA } from "../../src/records/search/schema";
import { parseQueryString } from "../../src/search/query-string";
import { createRandom } from "../helpers/random";
import { createTestApp, type TestApp } from "../helpers/app";

type Random = ReturnType<typeof createRandom>;
import { MINIMAL_METADATA } from "../helpers/records";

let ctx: TestApp;
const TYPES = ["dataset", "image-photo", "image-plot", "publication-article", "software"];
const LANGS = [[], ["eng"], ["fra"], ["eng", "deu"]];
const WORDS = ["ocean", "coral", "glacier", "forest", "river"];
/** Community slug -> id; queries name them `@slug`. `hidden` has no label: its bucket is dropped. */
const COMMUNITIES: Record<string, string> = { reefs: "", tides: "", hidden: "" };
const labels: FacetLabels = (kind, keys) => new Map(kind === "communities" ? keys.filter((k) => k !== COMMUNITIES.hidden).map((k) => [k, `Community ${k}`]) : []);

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
        // Full-text fields some records have: `_exists_` on them.
        ...(i % 3 === 0 ? { version: `v${i}` } : {}),
        ...(i % 4 === 1 ? { description: `<p>Sediment ${WORDS[(i * 2) % 5]} cores</p>` } : {}),
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
  // Parents in none, one or several communities; included after publishing, so every version and draft is re-indexed.
  const alice: Actor = { kind: "user", userId: ctx.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
  for (const slug of Object.keys(COMMUNITIES)) {
    COMMUNITIES[slug] = ctx.services.communities.createCommunity(alice, {
      slug,
      access: { visibility: "public", member_policy: "open", record_policy: "open" },
      metadata: { title: slug },
    }).id;
  }
  const db = ctx.services.deps.db;
  const parents = db.$client.query<{ p: string }, []>("SELECT DISTINCT parent_id AS p FROM records ORDER BY created, parent_id").all();
  writeTransaction(db, () =>
    parents.forEach(({ p }, i) => {
      const chosen = [i % 3 === 0 && "reefs", i % 4 === 1 && "tides", i % 5 === 2 && "hidden"].filter((c): c is string => Boolean(c));
      for (const slug of chosen) db.insert(recordCommunitiesTable).values({ parentId: p, communityId: COMMUNITIES[slug]!, created: ctx.clock.now() }).run();
      if (chosen.length) records.reindexParent(p);
    }),
  );
  // Grants: to bob (one expired), and to the group `staff`; searches list what they open.
  const now = ctx.clock.now();
  const grant = (parentId: string, subjectType: string, subjectId: string, expiresAt: number | null) =>
    db.insert(recordGrantsTable).values({ parentId, subjectType, subjectId, permission: "view", origin: "test", expiresAt, created: now, updated: now }).run();
  parents.forEach(({ p }, i) => {
    if (i % 6 === 1) grant(p, "user", String(ctx.users.bob.user.id), i % 12 === 1 ? now - 1 : null);
    if (i % 6 === 4) grant(p, "role", "staff", null);
  });
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
  { communities: "@reefs" },
  { communities: ["@tides", "@hidden"], q: "study" },
  { communities: "@hidden", resource_type: "image", allversions: "true" },
  { q: 'parent.communities.ids:"@tides" OR ocean' },
  { q: 'communities:"@reefs"', communities: "@tides" },
  { q: "oce?n" },
  { q: "title:gl?cier OR c*l", sort: "bestmatch" },
  { q: "?iver -stud?" },
  { q: "zzz?" },
  { q: "_exists_:metadata.version" },
  { q: "NOT _exists_:metadata.description AND river" },
  { q: "metadata.version:* OR sed?ment" },
];

/** A query with its `@slug` placeholders replaced by the communities' ids. */
const withIds = (value: unknown): unknown =>
  typeof value === "string"
    ? value.replace(/@(\w+)/g, (_, slug: string) => COMMUNITIES[slug] ?? slug)
    : Array.isArray(value)
      ? value.map(withIds)
      : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIds(v)]))
        : value;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

function searchInput(raw: Record<string, unknown>): { input: RecordSearchInput; page: { page: number; size: number; offset: number } } {
  const query = withIds(raw) as Record<string, unknown>;
  const size = Number(str(query.size) ?? 10);
  const pageNo = Number(str(query.page) ?? 1);
  const input = {
    sortOptions: ctx.config.RDM_SEARCH_SORT_OPTIONS,
    q: str(query.q),
    sort: str(query.sort),
    allversions: query.allversions === "true",
    defaultSort: "newest",
    query,
  };
  return { input, page: { page: pageNo, size, offset: (pageNo - 1) * size } };
}

/** The SQL path's answer, after checking that the in-memory path (fresh, then from its match cache) gives the same. */
function expectPathsAgree(actor: Actor, query: Record<string, unknown>, roles?: Map<string, "reader" | "curator">) {
  const search = createRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup);
  search.copy.refresh();
  const scope = recordScope(actor, "published", roles, ctx.clock.now());
  const { input, page } = searchInput(query);
  const viaSql = search.searchNow(scope, input, page, { memory: false, labels });
  expect(search.searchNow(scope, input, page, { labels })).toEqual(viaSql);
  // Again, now from the cached rows of the same full-text condition.
  expect(search.searchNow(scope, input, page, { labels })).toEqual(viaSql);
  // The hidden community never shows as a bucket.
  expect(viaSql.aggregations.communities?.buckets.map((b: { key: string }) => b.key) ?? []).not.toContain(COMMUNITIES.hidden);
  expect(search.copy.current()).not.toBeNull();
  return viaSql;
}

describe("the in-memory path agrees with SQL", () => {
  for (const [who, actorOf] of actors) {
    test.each(queries.map((q) => [JSON.stringify(q), q] as const))(`${who}: %s`, (_label, query) => {
      expectPathsAgree(actorOf(), query);
    });
  }

  test("the communities facet counts the included parents' latest versions, labelled, the hidden one dropped", () => {
    const all = expectPathsAgree({ kind: "system" }, {});
    const buckets = all.aggregations.communities!.buckets;
    expect(buckets.map((b) => b.key).sort()).toEqual([COMMUNITIES.reefs!, COMMUNITIES.tides!].sort());
    for (const b of buckets) expect(b.label).toBe(`Community ${b.key}`);
    const reefs = expectPathsAgree({ kind: "system" }, { communities: "@reefs" });
    expect(reefs.total).toBe(buckets.find((b) => b.key === COMMUNITIES.reefs)!.doc_count);
    expect(reefs.total).toBeGreaterThan(3);
    expect(expectPathsAgree({ kind: "system" }, { q: 'parent.communities.ids:"@reefs"' }).total).toBe(reefs.total);
  });

  test("the copy goes stale on an index write, and searches use SQL until it is rebuilt", () => {
    const search = createRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup);
    search.copy.refresh();
    expect(search.copy.current()).not.toBeNull();
    search.rebuild(ctx.clock.now());
    expect(search.copy.current()).toBeNull();
    search.copy.refresh();
    expect(search.copy.current()).not.toBeNull();
  });
});

const TERMS = [
  ...WORDS,
  "study",
  "second",
  "version",
  "oce*",
  "gla*",
  '"second version"',
  '"ocean study"',
  "title:coral",
  "description:river",
  "nothingmatches",
  "Cairn",
  // `?` and inner `*` wildcards: expanded to the index's terms, the same for both paths.
  "oce?n",
  "?iver",
  "c*l",
  "s*d?",
  "v?",
  "title:gl?cier",
  "description:?ediment",
  "zz?",
];
const NON_TEXT = [
  "publication_date:[2012 TO 2018]",
  "publication_date:{2014 TO *]",
  "publication_date:<2016-05",
  "_exists_:metadata.publication_date",
  "resource_type:dataset",
  "resource_type.id:software",
  "language:eng",
  "access.record:restricted",
  "versions.index:2",
  "created:[2026-11-22 TO 2026-11-23]",
  'parent.communities.ids:"@reefs"',
  "communities:@tides",
  "_exists_:metadata.version",
  "_exists_:metadata.description",
  "_exists_:title",
  "metadata.version:*",
];

function randomQuery(r: Random, depth = 0): string {
  const roll = r.rand();
  if (depth < 2 && roll < 0.3) {
    const items = Array.from({ length: 2 + Math.floor(r.rand() * 2) }, () => randomQuery(r, depth + 1));
    return `(${items.join(r.pick([" AND ", " OR ", " "]))})`;
  }
  if (roll < 0.4) return `-${randomQuery(r, depth + 1)}`;
  return r.rand() < 0.75 ? r.pick(TERMS) : r.pick(NON_TEXT);
}

function randomSearch(r: Random): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  if (r.rand() < 0.85) query.q = randomQuery(r);
  if (r.rand() < 0.3) query.resource_type = r.pick(["image", "dataset", "image::image-photo", ["software", "publication"]]);
  if (r.rand() < 0.25) query.language = r.pick(["eng", "fra", "deu,eng"]);
  if (r.rand() < 0.2) query.access_status = r.pick(["open", "restricted", "metadata-only"]);
  if (r.rand() < 0.25) query.communities = r.pick(["@reefs", "@tides", "@hidden", "@reefs,@tides", ["@tides", "@hidden"]]);
  if (r.rand() < 0.5) query.sort = r.pick(["bestmatch", "newest", "oldest", "updated-desc", "updated-asc", "version", "mostviewed", "mostdownloaded"]);
  if (r.rand() < 0.3) query.allversions = "true";
  if (r.rand() < 0.3) {
    query.size = String(1 + Math.floor(r.rand() * 8));
    query.page = String(1 + Math.floor(r.rand() * 3));
  }
  return query;
}

describe("random scopes over random queries", () => {
  const bob = (): Actor => ({ kind: "user", userId: ctx.users.bob.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null });
  const scopes: [string, () => Actor, (() => Map<string, "reader" | "curator">)?][] = [
    ["anonymous", () => ({ kind: "anonymous" })],
    // Members see the restricted records of their communities: keys admitted beyond public and own ones.
    [
      "a reader of one community, curator of another",
      bob,
      () =>
        new Map([
          [COMMUNITIES.reefs!, "reader"],
          [COMMUNITIES.hidden!, "curator"],
        ]),
    ],
    ["an owner", () => ({ kind: "user", userId: ctx.users.bob.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null })],
    ["an administrator", () => ({ kind: "user", userId: ctx.users.admin.user.id, isAdmin: true, groupIds: [], scopes: [], tokenId: null })],
    ["a member of a group", () => ({ kind: "user", userId: ctx.users.alice.user.id, isAdmin: false, groupIds: ["curators", "staff"], scopes: [], tokenId: null })],
  ];
  test("both renderings of every scope give the same hits, totals and facets", () => {
    const r = createRandom(20261123);
    const totals = new Set<number>();
    let inMemory = 0;
    for (let i = 0; i < 160; i++) {
      const query = randomSearch(r);
      if (memoryPlan(RECORD_SEARCH_SCHEMA, "r.publication_date", expandRecordQuery(ctx.services.deps.db, parseQueryString(str(query.q) ?? "")))) inMemory++;
      const [, actorOf, rolesOf] = r.pick(scopes);
      const answer = expectPathsAgree(actorOf(), query, rolesOf?.());
      totals.add(answer.total);
    }
    // The cases are not all empty or all full: they exercise the filters.
    expect(totals.size).toBeGreaterThan(5);
    // Most of them the in-memory path answers; the rest compare SQL with itself.
    expect(inMemory).toBeGreaterThan(60);
  });
});

describe("wildcards", () => {
  test("a ? wildcard is answered in memory with the terms it expands to, one character exactly", () => {
    const node = expandRecordQuery(ctx.services.deps.db, parseQueryString("oce?n"));
    expect(node).toMatchObject({ kind: "term", expansion: ["ocean"] });
    expect(memoryPlan(RECORD_SEARCH_SCHEMA, "r.publication_date", node)).not.toBeNull();
    const viaWildcard = expectPathsAgree({ kind: "system" }, { q: "oce?n" });
    expect(viaWildcard.hits).toEqual(expectPathsAgree({ kind: "system" }, { q: "ocean" }).hits);
    expect(viaWildcard.hits.length).toBeGreaterThan(3);
    expect(viaWildcard.total).toBeGreaterThan(3);
    expect(expectPathsAgree({ kind: "system" }, { q: "ocea?n" }).total).toBe(0);
  });
  test("_exists_ on a full-text field counts the records with a value", () => {
    const withVersion = expectPathsAgree({ kind: "system" }, { q: "_exists_:metadata.version", allversions: "true" }).total;
    const without = expectPathsAgree({ kind: "system" }, { q: "NOT _exists_:metadata.version", allversions: "true" }).total;
    expect(withVersion).toBeGreaterThan(5);
    expect(withVersion + without).toBe(expectPathsAgree({ kind: "system" }, { allversions: "true" }).total);
  });
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
