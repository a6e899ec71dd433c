// The conformance suite of record search (src/records/search/index.ts): every engine, and every
// path of one, must answer alike. One corpus (records, versions, drafts, restricted records,
// communities, grants); fixed queries under fixed callers and seeded random queries under random
// scopes, each answer compared in full (hits in order, totals, aggregations) with the reference,
// the SQLite engine's SQL path over the same corpus (another engine's corpus is built the same way
// on its own database, its ids named by what they stand for before comparing); and an oracle
// computed here from the stored records (not from any index) for what each scope sees and the
// facet counts, so a scope or a facet broken in the reference itself fails too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Actor } from "../../src/core/actor";
import type { Page } from "../../src/core/paging";
import { recordCommunitiesTable, recordGrantsTable } from "../../src/db/tables";
import { recordScope, type RecordScope } from "../../src/records/policy";
import type { FacetLabels, HarvestFilter, RecordSearch, RecordSearchInput, RecordSearchResult } from "../../src/records/search";
import { createSqliteRecordSearch } from "../../src/records/search/sqlite";
import { createTestApp, type TestApp } from "./app";
import { createRandom } from "./random";
import { MINIMAL_METADATA } from "./records";

type Random = ReturnType<typeof createRandom>;

const TYPES = ["dataset", "image-photo", "image-plot", "publication-article", "software"];
const LANGS = [[], ["eng"], ["fra"], ["eng", "deu"]];
const WORDS = ["ocean", "coral", "glacier", "forest", "river"];

export interface SearchCorpus {
  ctx: TestApp;
  /** Community slug -> id; queries name them `@slug`. `hidden` has no label: its bucket is dropped. */
  communities: Record<string, string>;
}

/**
 * The corpus every implementation is run over: 40 records (some restricted, some with new versions
 * or drafts), three communities, grants. `overrides` configure its app; its engine is SQLite (the
 * reference's, and the one the SQLite engine's tests need, whichever engine the suite runs on)
 * unless `DATABASE_URL` names another.
 */
export async function buildSearchCorpus(overrides: Parameters<typeof createTestApp>[0] = {}): Promise<SearchCorpus> {
  const ctx = await createTestApp({ DATABASE_URL: "", ...overrides });
  // The shipped vocabularies label and validate the records: on a server engine reads do not wait behind their load.
  await ctx.services.ready;
  const COMMUNITIES: Record<string, string> = { reefs: "", tides: "", hidden: "" };
  const records = ctx.services.records;
  const users = [ctx.users.alice, ctx.users.bob];
  for (let i = 0; i < 40; i++) {
    const owner = users[i % 2]!;
    const actor: Actor = { kind: "user", userId: owner.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    const restricted = i % 7 === 0;
    const draft = await records.createDraft(actor, {
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
    await records.publish(actor, draft.id);
    if (i % 9 === 0) {
      ctx.clock.advance(500);
      const next = await records.newVersion(actor, draft.id);
      await records.updateDraft(
        actor,
        next.id,
        { files: { enabled: false }, metadata: { ...MINIMAL_METADATA, title: `${WORDS[i % 5]} second version ${i}`, publisher: "Cairn" } },
        null,
      );
      await records.publish(actor, next.id);
    }
    if (i % 11 === 0) await records.editRecord(actor, draft.id);
  }
  // Parents in none, one or several communities; included after publishing, so every version and draft is re-indexed.
  const alice: Actor = { kind: "user", userId: ctx.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
  for (const slug of Object.keys(COMMUNITIES)) {
    COMMUNITIES[slug] = (
      await ctx.services.communities.createCommunity(alice, {
        slug,
        access: { visibility: "public", member_policy: "open", record_policy: "open" },
        metadata: { title: slug },
      })
    ).id;
  }
  const db = ctx.services.deps.db;
  const parents = await db.statements.all<{ p: string }>("SELECT parent_id AS p FROM records GROUP BY parent_id ORDER BY min(created), parent_id");
  await db.write(async (tx) => {
    for (const [i, { p }] of parents.entries()) {
      const chosen = [i % 3 === 0 && "reefs", i % 4 === 1 && "tides", i % 5 === 2 && "hidden"].filter((c): c is string => Boolean(c));
      for (const slug of chosen) await tx.insert(recordCommunitiesTable).values({ parentId: p, communityId: COMMUNITIES[slug]!, created: ctx.clock.now() }).run();
      if (chosen.length) await records.reindexParent(p);
    }
  });
  // Grants: to bob (one expired), and to the group `staff`; searches list what they open.
  const now = ctx.clock.now();
  const grant = (parentId: string, subjectType: string, subjectId: string, expiresAt: number | null) =>
    db.insert(recordGrantsTable).values({ parentId, subjectType, subjectId, permission: "view", origin: "test", expiresAt, created: now, updated: now }).run();
  for (const [i, { p }] of parents.entries()) {
    if (i % 6 === 1) await grant(p, "user", String(ctx.users.bob.user.id), i % 12 === 1 ? now - 1 : null);
    if (i % 6 === 4) await grant(p, "role", "staff", null);
  }
  return { ctx, communities: COMMUNITIES };
}

export const QUERIES: Record<string, unknown>[] = [
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
  // Integer columns against values that are numbers or not: compared as SQLite's column affinity compares them.
  { q: "versions.index:[2 TO x]", allversions: "true" },
  { q: "versions.index:abc OR glacier", allversions: "true" },
  { q: "versions.index:<abc", allversions: "true", size: "3" },
  { q: "versions.index:? AND stats.all_versions.unique_views:<1e1", allversions: "true" },
  { q: "versions.index:1* AND coral", allversions: "true" },
];

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

export function randomSearch(r: Random): Record<string, unknown> {
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

/** The communities facet's labels: every community but `hidden`, whose bucket must be dropped. */
export const labelsOf =
  (communities: Record<string, string>): FacetLabels =>
  (kind, keys) =>
    new Map(kind === "communities" ? keys.filter((k) => k !== communities.hidden).map((k) => [k, `Community ${k}`]) : []);

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** A query with its `@slug` placeholders replaced by the communities' ids. */
const withIds = (communities: Record<string, string>, value: unknown): unknown =>
  typeof value === "string"
    ? value.replace(/@(\w+)/g, (_, slug: string) => communities[slug] ?? slug)
    : Array.isArray(value)
      ? value.map((v) => withIds(communities, v))
      : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIds(communities, v)]))
        : value;

/** A query's parameters as the search input and page the records service would make of them. */
export function searchInput(corpus: SearchCorpus, raw: Record<string, unknown>): { input: RecordSearchInput; page: Page } {
  const query = withIds(corpus.communities, raw) as Record<string, unknown>;
  const size = Number(str(query.size) ?? 10);
  const pageNo = Number(str(query.page) ?? 1);
  const input = {
    sortOptions: corpus.ctx.config.RDM_SEARCH_SORT_OPTIONS,
    q: str(query.q),
    sort: str(query.sort),
    allversions: query.allversions === "true",
    defaultSort: "newest",
    query,
  };
  return { input, page: { page: pageNo, size, offset: (pageNo - 1) * size } };
}

type Roles = Map<string, "reader" | "curator">;
const user = (userId: number, groupIds: string[] = [], isAdmin = false): Actor => ({ kind: "user", userId, isAdmin, groupIds, scopes: [], tokenId: null });

/** A caller, and its community roles, in a corpus's terms (its users' and communities' ids). */
type ActorOf = (corpus: SearchCorpus) => Actor;
type RolesOf = (corpus: SearchCorpus) => Roles;

/** The callers of the random draws: anonymous, community members, an owner, an administrator, a group member. */
function randomScopes(): [string, ActorOf, RolesOf?][] {
  const usersOf = (corpus: SearchCorpus) => corpus.ctx.users;
  return [
    ["anonymous", () => ({ kind: "anonymous" })],
    // Members see the restricted records of their communities: keys admitted beyond public and own ones.
    [
      "a reader of one community, curator of another",
      (corpus) => user(usersOf(corpus).bob.user.id),
      ({ communities: c }) =>
        new Map([
          [c.reefs!, "reader"],
          [c.hidden!, "curator"],
        ]),
    ],
    ["an owner", (corpus) => user(usersOf(corpus).bob.user.id)],
    ["an administrator", (corpus) => user(usersOf(corpus).admin.user.id, [], true)],
    ["a member of a group", (corpus) => user(usersOf(corpus).alice.user.id, ["curators", "staff"])],
  ];
}

/** What an implementation under test answers; `check` runs after each comparison (e.g. the in-memory path's copy was used). */
export interface SearchUnderTest {
  search(scope: RecordScope, input: RecordSearchInput, page: Page, labels: FacetLabels): Promise<RecordSearchResult> | RecordSearchResult;
  check?(): void | Promise<void>;
  close?(): void | Promise<void>;
}

type Bucket = { key: string; doc_count: number; inner?: { buckets: Bucket[] } };
type Stored = { id: string; parent: string; owner: number | null; access: string; latest: boolean; deleted: boolean; type: string | null; languages: string[] };

/**
 * The oracle: the published records `scope` sees, read from the records and grant tables and
 * decided here by the read rules (records/policy.ts), with no index or engine in between.
 */
async function visibleRecords(corpus: SearchCorpus, scope: RecordScope): Promise<Stored[]> {
  const db = corpus.ctx.services.deps.db;
  const stored = (
    await db.statements.all<{ id: string; parent_id: string; owner_id: number | null; access_record: string; is_latest: number; deletion_status: string; document: string }>(
      "SELECT id, parent_id, owner_id, access_record, is_latest, deletion_status, document FROM records",
    )
  ).map((r): Stored => {
    const m = JSON.parse(r.document).metadata ?? {};
    return {
      id: r.id,
      parent: r.parent_id,
      owner: r.owner_id,
      access: r.access_record,
      latest: r.is_latest === 1,
      deleted: r.deletion_status === "D",
      type: m.resource_type?.id ?? null,
      languages: [...new Set<string>((m.languages ?? []).map((l: { id: string }) => l.id.toLowerCase()))],
    };
  });
  const grants = await db.statements.all<{ parent_id: string; subject_type: string; subject_id: string; expires_at: number | null }>("SELECT * FROM record_grants");
  const included = await db.statements.all<{ parent_id: string; community_id: string }>("SELECT * FROM record_communities");
  return stored.filter((r) => {
    if (r.deleted) return false;
    if (scope.kind === "all") return true;
    if (scope.kind !== "readers") throw new Error("the oracle knows the published listings only");
    if (r.access === "public") return true;
    if (scope.userId === null) return false;
    if (r.owner === scope.userId) return true;
    const granted = grants.some(
      (g) =>
        g.parent_id === r.parent &&
        ((g.subject_type === "user" && g.subject_id === String(scope.userId)) || (g.subject_type === "role" && scope.groupIds.includes(g.subject_id))) &&
        (g.expires_at === null || g.expires_at > scope.now),
    );
    return granted || included.some((i) => i.parent_id === r.parent && scope.communities.includes(i.community_id));
  });
}

/** Records counted by `keysOf`, as a facet's top-level buckets count them. */
function counted(records: Stored[], keysOf: (r: Stored) => string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) for (const k of keysOf(r)) out[k] = (out[k] ?? 0) + 1;
  return out;
}
const bucketCounts = (buckets: Bucket[] | undefined): Record<string, number> => Object.fromEntries((buckets ?? []).map((b) => [b.key, b.doc_count]));
const typeParent = (r: Stored) => (r.type ? [r.type.split("-")[0]!] : []);

/** Filter-only listings the oracle decides: [query, which records it selects]. */
const ORACLE_QUERIES: [Record<string, unknown>, (r: Stored) => boolean][] = [
  [{}, () => true],
  [{ allversions: "true" }, () => true],
  [{ resource_type: "image" }, (r) => typeParent(r).includes("image")],
  [{ language: "eng", allversions: "true" }, (r) => r.languages.includes("eng")],
];

/** How a corpus's records and communities are named whatever their ids: by title (unique in the corpus) and slug. */
async function namesOf(corpus: SearchCorpus): Promise<Map<string, string>> {
  const rows = await corpus.ctx.services.deps.db.statements.all<{ id: string; document: string }>("SELECT id, document FROM records");
  const names = new Map(rows.map((r): [string, string] => [r.id, `record "${JSON.parse(r.document).metadata.title}"`]));
  for (const [slug, id] of Object.entries(corpus.communities)) names.set(id, `community ${slug}`);
  return names;
}

/**
 * An answer with every id named (namesOf): two corpora built alike on two databases answer the
 * same. Buckets of equal counts are ordered by key (facets.ts): by the named key here, as the ids are random.
 */
function named<T>(answer: T, names: Map<string, string>): T {
  const ids = new RegExp([...names.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  return JSON.parse(JSON.stringify(answer), (key, value) => {
    if (typeof value === "string") return value.replace(ids, (id) => names.get(id)!);
    if (key === "buckets" && Array.isArray(value)) return [...(value as Bucket[])].sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return value;
  });
}

export interface ConformanceOptions {
  /**
   * Builds the corpus the implementation searches, on its own database, the same way as the
   * reference's (default: the implementation searches the reference's corpus). Answers are then
   * compared with their ids named (the ids are random), and the corpus is closed after the suite.
   */
  corpus?: () => Promise<SearchCorpus>;
  /**
   * The engine over the implementation's corpus, whose other port calls are then checked too: the
   * OAI-PMH harvest queries against the reference's, and a rebuild (last: it rewrites the index).
   */
  engine?: (corpus: SearchCorpus) => RecordSearch;
}

/** Harvest filters: set patterns (full text, keywords, wildcards, communities, everything, nothing) and datestamp bounds. */
const HARVESTS: HarvestFilter[] = [
  {},
  { patterns: ["ocean"] },
  { patterns: ["oce?n", "resource_type:dataset"] },
  { patterns: ['parent.communities.ids:"@reefs"'] },
  { patterns: ["communities:@tides OR title:glacier"] },
  { patterns: ["_exists_:metadata.version"] },
  { patterns: [""] },
  { patterns: [] },
  { fromMs: Date.UTC(2026, 10, 22, 12, 1), untilMs: Date.UTC(2026, 10, 22, 12, 3) },
];

/**
 * Runs the suite against `makeSearch`'s implementation, over a corpus of its own. The reference
 * is the SQLite engine's SQL path over a SQLite database: the same one (`options.corpus` absent),
 * or, for another engine, a SQLite corpus built the same way as the one the engine searches.
 */
export function runSearchConformance(name: string, makeSearch: (corpus: SearchCorpus) => SearchUnderTest | Promise<SearchUnderTest>, options: ConformanceOptions = {}) {
  describe(`search conformance: ${name}`, () => {
    /** The reference's corpus (SQLite), and the implementation's (the same unless `options.corpus`). */
    let reference: SearchCorpus;
    let corpus: SearchCorpus;
    let impl: SearchUnderTest;
    let labels: FacetLabels;
    let referenceLabels: FacetLabels;
    /** Names of the ids of each corpus, when they are two. */
    let names: { reference: Map<string, string>; corpus: Map<string, string> } | null = null;
    beforeAll(async () => {
      // The reference is SQLite's engine, whichever engine the suite runs on.
      reference = await buildSearchCorpus();
      corpus = options.corpus ? await options.corpus() : reference;
      impl = await makeSearch(corpus);
      labels = labelsOf(corpus.communities);
      referenceLabels = labelsOf(reference.communities);
      if (corpus !== reference) names = { reference: await namesOf(reference), corpus: await namesOf(corpus) };
    });
    afterAll(async () => {
      // The implementation's own corpus first: its database may go with the implementation.
      if (corpus !== reference) await corpus?.ctx.close();
      await impl?.close?.();
      await reference?.ctx.close();
    });

    const scopeOf = (actor: Actor, roles?: Roles) => recordScope(actor, "published", roles, corpus.ctx.clock.now());
    const actorIn = (who: Actor | ActorOf, c: SearchCorpus) => (typeof who === "function" ? who(c) : who);

    /**
     * The reference's answer (ids named when the corpora are two), after checking that the
     * implementation (twice: the second from its caches) gives the same.
     */
    async function expectConforms(who: Actor | ActorOf, query: Record<string, unknown>, rolesOf?: RolesOf): Promise<RecordSearchResult> {
      const engine = createSqliteRecordSearch(reference.ctx.services.deps.db, reference.ctx.services.vocabularies.lookup);
      const asked = searchInput(reference, query);
      const referenceScope = recordScope(actorIn(who, reference), "published", rolesOf?.(reference), reference.ctx.clock.now());
      const answer = await engine.searchNow(referenceScope, asked.input, asked.page, { memory: false, labels: referenceLabels });
      const expected = names ? named(answer, names.reference) : answer;
      const scope = scopeOf(actorIn(who, corpus), rolesOf?.(corpus));
      const { input, page } = searchInput(corpus, query);
      const same = async () => {
        const got = await impl.search(scope, input, page, labels);
        expect(names ? named(got, names.corpus) : got).toEqual(expected);
      };
      await same();
      await same();
      // The hidden community never shows as a bucket.
      expect(answer.aggregations.communities?.buckets.map((b: { key: string }) => b.key) ?? []).not.toContain(reference.communities.hidden);
      await impl.check?.();
      return answer;
    }

    const fixedActors: [string, ActorOf][] = [
      ["anonymous", () => ({ kind: "anonymous" })],
      ["alice", (c) => user(c.ctx.users.alice.user.id)],
      ["admin", () => ({ kind: "system" })],
    ];
    for (const [who, actorOf] of fixedActors) {
      test.each(QUERIES.map((q) => [JSON.stringify(q), q] as const))(`${who}: %s`, async (_label, query) => {
        await expectConforms(actorOf, query);
      });
    }

    test("each scope sees what the read rules give, with the facet counts of what it sees", async () => {
      for (const [who, actorOf, rolesOf] of randomScopes()) {
        const scope = scopeOf(actorOf(corpus), rolesOf?.(corpus));
        const visible = await visibleRecords(corpus, scope);
        for (const [query, selects] of ORACLE_QUERIES) {
          const listed = query.allversions ? visible : visible.filter((r) => r.latest);
          const answer = await impl.search(scope, searchInput(corpus, { ...query, size: "100" }).input, { page: 1, size: 100, offset: 0 }, labels);
          const wanted = listed.filter(selects);
          const context = `${who} ${JSON.stringify(query)}`;
          expect({ context, ids: answer.hits.map((h) => h.id).sort(), total: answer.total }).toEqual({ context, ids: wanted.map((r) => r.id).sort(), total: wanted.length });
          // Counted without the facet filters (InvenioRDM's post_filter).
          const aggregations = answer.aggregations as Record<string, { buckets: Bucket[] } | undefined>;
          expect({ context, types: bucketCounts(aggregations.resource_type?.buckets), languages: bucketCounts(aggregations.language?.buckets) }).toEqual({
            context,
            types: counted(listed, typeParent),
            languages: counted(listed, (r) => r.languages),
          });
        }
      }
    });

    test("the communities facet counts the included parents' latest versions, labelled, the hidden one dropped", async () => {
      const c = reference.communities;
      const all = await expectConforms({ kind: "system" }, {});
      const buckets = all.aggregations.communities!.buckets;
      expect(buckets.map((b: Bucket) => b.key).sort()).toEqual([c.reefs!, c.tides!].sort());
      for (const b of buckets) expect(b.label).toBe(`Community ${b.key}`);
      const reefs = await expectConforms({ kind: "system" }, { communities: "@reefs" });
      expect(reefs.total).toBe(buckets.find((b: Bucket) => b.key === c.reefs)!.doc_count);
      expect(reefs.total).toBeGreaterThan(3);
      expect((await expectConforms({ kind: "system" }, { q: 'parent.communities.ids:"@reefs"' })).total).toBe(reefs.total);
    });

    test("random queries under random scopes give the same hits, totals and facets", async () => {
      const r = createRandom(20261123);
      const scopes = randomScopes();
      const totals = new Set<number>();
      for (let i = 0; i < 160; i++) {
        const query = randomSearch(r);
        const [, actorOf, rolesOf] = r.pick(scopes);
        totals.add((await expectConforms(actorOf, query, rolesOf)).total);
      }
      // The cases are not all empty or all full: they exercise the filters.
      expect(totals.size).toBeGreaterThan(5);
    });

    test("wildcards: a ? wildcard matches one character exactly", async () => {
      const viaWildcard = await expectConforms({ kind: "system" }, { q: "oce?n" });
      expect(viaWildcard.hits).toEqual((await expectConforms({ kind: "system" }, { q: "ocean" })).hits);
      expect(viaWildcard.hits.length).toBeGreaterThan(3);
      expect(viaWildcard.total).toBeGreaterThan(3);
      expect((await expectConforms({ kind: "system" }, { q: "ocea?n" })).total).toBe(0);
    });

    if (options.engine) {
      const engineOf = options.engine;
      /** The harvest answers of an engine over a corpus, its ids named (in order where the order is the harvest's, else sorted by name). */
      async function harvestOf(engine: RecordSearch, c: SearchCorpus, nameMap: Map<string, string> | undefined) {
        const nameOf = (id: string) => nameMap?.get(id) ?? id;
        const byName = <T extends [string, ...unknown[]]>(rows: T[]) => rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        const pages: unknown[] = [];
        for (const raw of HARVESTS) {
          const filter = withIds(c.communities, raw) as HarvestFilter;
          const first = await engine.listHarvestable(filter, null, 5);
          const next = first.length ? await engine.listHarvestable(filter, first[first.length - 1]!, 1000) : [];
          const named = (hits: { id: string; updated: number }[]) => hits.map((h) => [nameOf(h.id), h.updated]);
          pages.push({ filter: raw, first: named(first), next: named(next), count: await engine.countHarvestable(filter) });
        }
        const ids = (await c.ctx.services.deps.db.statements.all<{ id: string }>("SELECT id FROM records")).map((r) => r.id);
        const selected: unknown[] = [];
        for (const raw of HARVESTS) if (raw.patterns) selected.push([raw.patterns, (await engine.selectedRecordIds(ids, withIds(c.communities, raw.patterns) as string[])).size]);
        const rows = byName(
          (await engine.findPublicRecords(ids)).map((r): [string, ...unknown[]] => [
            nameOf(r.id),
            r.accessRecord,
            r.isLatest,
            r.versionIndex,
            r.updated,
            (r.document as { metadata: { title: string } }).metadata.title,
          ]),
        );
        const access = byName(await Promise.all(ids.map(async (id): Promise<[string, string | null]> => [nameOf(id), await engine.indexedAccess(id)])));
        return { pages, selected, rows, access, earliest: await engine.earliestHarvestable() };
      }

      test("OAI-PMH harvest queries select, count and page as the reference's", async () => {
        const expected = await harvestOf(createSqliteRecordSearch(reference.ctx.services.deps.db, reference.ctx.services.vocabularies.lookup), reference, names?.reference);
        expect(await harvestOf(engineOf(corpus), corpus, names?.corpus)).toEqual(expected);
        // The filters select: the counts differ, restricted records are not listed, some are.
        expect(new Set(expected.pages.map((p) => (p as { count: number }).count)).size).toBeGreaterThan(4);
        expect(expected.rows.length).toBeGreaterThan(20);
        expect(expected.rows.every((r) => r[1] === "public")).toBe(true);
        expect(expected.access.some(([, a]) => a === "restricted")).toBe(true);
      });

      // Last: it rewrites the implementation's index (popularity set first must survive it).
      test("a rebuild gives back the same index: every answer, popularity kept, the check complete", async () => {
        const engine = engineOf(corpus);
        const reader = createSqliteRecordSearch(reference.ctx.services.deps.db, reference.ctx.services.vocabularies.lookup);
        // The same parent made popular in both corpora: the third record's.
        for (const [c, search] of [
          [reference, reader],
          [corpus, engine],
        ] as const) {
          const parent = (await c.ctx.services.deps.db.statements.all<{ p: string }>("SELECT parent_id AS p FROM records GROUP BY parent_id ORDER BY min(created), parent_id"))[2]!
            .p;
          await c.ctx.services.deps.db.write(() => search.setPopularity([{ parentId: parent, views: 7, downloads: 3 }]));
        }
        const before = await engine.check();
        expect(await engine.rebuild(corpus.ctx.clock.now(), () => [])).toBe(before.records);
        expect(await engine.check()).toEqual({ ...before, complete: true });
        const popular = await expectConforms({ kind: "system" }, { sort: "mostviewed", size: "3" });
        expect(popular.hits).toHaveLength(3);
        // Not the version sort: its ties go by index key, which a rebuild gives in record id order (random in each corpus).
        for (const query of [...QUERIES, { sort: "mostdownloaded", allversions: "true" }].filter((q) => q.sort !== "version")) await expectConforms({ kind: "system" }, query);
        await expectConforms((c) => user(c.ctx.users.alice.user.id), { q: "study", allversions: "true" });
      });
    }

    test("_exists_ on a full-text field counts the records with a value", async () => {
      const withVersion = (await expectConforms({ kind: "system" }, { q: "_exists_:metadata.version", allversions: "true" })).total;
      const without = (await expectConforms({ kind: "system" }, { q: "NOT _exists_:metadata.version", allversions: "true" })).total;
      expect(withVersion).toBeGreaterThan(5);
      expect(withVersion + without).toBe((await expectConforms({ kind: "system" }, { allversions: "true" })).total);
    });
  });
}
