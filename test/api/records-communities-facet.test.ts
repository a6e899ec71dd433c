// Records in communities through search: the `communities` facet of /api/records and
// /api/user/records (buckets labelled by title, a restricted community's bucket only for its
// members and administrators, its filter matching nothing for others), `parent.communities.ids`
// queries over every version, and the OAI-PMH sets of public communities listing their records.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { recordCommunitiesTable } from "../../src/db/tables";
import { and, eq } from "drizzle-orm";
import { createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";
import { publishableDraft, publishDraft, publishRecord } from "../helpers/records";
import { hitNames } from "../helpers/search";
import { expectXsdValid } from "../helpers/xml-validate";

let ctx: CommunitiesTestApp;
/** Record name -> id (`a1`, `a2` are two versions of one parent). */
const ids: Record<string, string> = {};
/** Community slug -> id. */
const communities: Record<string, string> = {};
const parents: Record<string, string> = {};
const oaiAnswers: string[] = [];

/** Includes a record's parent in communities, as the inclusion endpoints will: in one transaction, then re-indexed. */
async function include(record: string, ...slugs: string[]) {
  await ctx.services.deps.db.write(async (tx) => {
    for (const slug of slugs) await tx.insert(recordCommunitiesTable).values({ parentId: parents[record]!, communityId: communities[slug]!, created: ctx.clock.now() }).run();
    await ctx.services.records.reindexParent(parents[record]!);
  });
}

async function exclude(record: string, slug: string) {
  await ctx.services.deps.db.write(async (tx) => {
    await tx
      .delete(recordCommunitiesTable)
      .where(and(eq(recordCommunitiesTable.parentId, parents[record]!), eq(recordCommunitiesTable.communityId, communities[slug]!)))
      .run();
    await ctx.services.records.reindexParent(parents[record]!);
  });
}

async function publish(name: string, title: string, restricted = false) {
  ctx.clock.advance(1000);
  const access = restricted ? { record: "restricted", files: "restricted" } : undefined;
  const record = await publishRecord(ctx, publishableDraft({ ...(access ? { access } : {}), metadata: { ...publishableDraft().metadata, title } }));
  ids[name] = record.id;
  parents[name] = record.parent.id;
}

beforeAll(async () => {
  ctx = await createCommunitiesTestApp();
  for (const [slug, title, visibility] of [
    ["ocean", "Ocean Observatory", "public"],
    ["coral", "Coral Watch", "public"],
    ["secret", "Secret Lab", "restricted"],
  ] as const) {
    communities[slug] = (await ctx.makeCommunity(slug, { title, visibility })).id;
  }
  await publish("a1", "Tides first version");
  await publish("b", "Buoys");
  await publish("c", "Coral reefs");
  await publish("d", "Deep sea, restricted", true);
  await publish("e", "Estuary, in no community");
  await publish("f", "Fjords, only in the restricted community");
  // A second version of a, and an unpublished new-version draft of b: the parent's communities show on both.
  ctx.clock.advance(1000);
  const next = await ctx.call("POST", `/api/records/${ids.a1}/versions`, { as: "alice" });
  expect(next.status).toBe(201);
  await ctx.call("PUT", `/api/records/${next.json.id}/draft`, {
    as: "alice",
    body: publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Tides second version" } }),
  });
  ids.a2 = (await publishDraft(ctx, next.json.id)).id;
  parents.a2 = parents.a1!;
  ctx.clock.advance(1000);
  const draft = await ctx.call("POST", `/api/records/${ids.b}/versions`, { as: "alice" });
  expect(draft.status).toBe(201);
  ids.bDraft = draft.json.id;

  await include("a1", "ocean", "secret");
  await include("b", "ocean");
  await include("c", "coral");
  await include("d", "ocean");
  await include("f", "secret");
});
afterAll(async () => {
  await expectXsdValid("oai-pmh", ...oaiAnswers);
  await ctx.close();
});

const names = (body: any) => hitNames(ids)(body).sort();
const buckets = (body: any) => body.aggregations.communities.buckets.map((b: any) => [b.key, b.doc_count, b.label, b.is_selected]);
const get = async (url: string, as: Role = "anonymous") => {
  const res = await ctx.call("GET", url, { as });
  expect({ status: res.status, body: res.json }).toMatchObject({ status: 200 });
  return res.json;
};

describe("the communities facet", () => {
  test("buckets of the public communities, labelled by title, counted over the latest visible versions", async () => {
    const body = await get("/api/records");
    expect(body.aggregations.communities.label).toBe("Communities");
    expect(buckets(body)).toEqual([
      [communities.ocean, 2, "Ocean Observatory", false],
      [communities.coral, 1, "Coral Watch", false],
    ]);
    // The owner sees its restricted record d too, but not the restricted community it is not a member of.
    expect(buckets(await get("/api/records", "alice"))).toEqual([
      [communities.ocean, 3, "Ocean Observatory", false],
      [communities.coral, 1, "Coral Watch", false],
    ]);
  });

  test("a restricted community's bucket: for its members (directly or through a group) and administrators only", async () => {
    for (const who of ["reader", "grouped", "owner"] as const) {
      expect(buckets(await get("/api/records", who))).toContainEqual([communities.secret, 2, "Secret Lab", false]);
    }
    const admin = await get("/api/records", "admin");
    expect(buckets(admin)).toEqual([
      [communities.ocean, 3, "Ocean Observatory", false],
      [communities.secret, 2, "Secret Lab", false],
      [communities.coral, 1, "Coral Watch", false],
    ]);
    for (const who of ["anonymous", "alice", "bob"] as const) {
      expect(buckets(await get("/api/records", who)).map((b: unknown[]) => b[0])).not.toContain(communities.secret);
    }
  });

  test("?communities= filters to the community's records; several values are OR-ed; the selection is echoed", async () => {
    const ocean = await get(`/api/records?communities=${communities.ocean}`);
    expect(names(ocean)).toEqual(["a2", "b"]);
    expect(ocean.hits.total).toBe(2);
    expect(buckets(ocean)).toContainEqual([communities.ocean, 2, "Ocean Observatory", true]);
    // Counts stay those of the query without the facet filter (post_filter).
    expect(buckets(ocean)).toContainEqual([communities.coral, 1, "Coral Watch", false]);
    expect(ocean.links.self).toContain(`communities=${communities.ocean}`);
    expect(names(await get(`/api/records?communities=${communities.ocean},${communities.coral}`))).toEqual(["a2", "b", "c"]);
    expect(names(await get(`/api/records?communities=${communities.ocean}`, "alice"))).toEqual(["a2", "b", "d"]);
    expect(names(await get(`/api/records?communities=${communities.ocean!.toUpperCase()}`))).toEqual(["a2", "b"]);
    expect(names(await get(`/api/records?communities=${communities.coral}&q=reefs`))).toEqual(["c"]);
  });

  test("filtering by a restricted community matches nothing for who may not read it, and its records for members", async () => {
    for (const who of ["anonymous", "alice", "bob"] as const) {
      const body = await get(`/api/records?communities=${communities.secret}`, who);
      expect(body.hits.total).toBe(0);
      expect(body.hits.hits).toEqual([]);
    }
    // OR-ed with a readable one, only the readable one's records count.
    expect(names(await get(`/api/records?communities=${communities.secret},${communities.coral}`, "alice"))).toEqual(["c"]);
    expect(names(await get(`/api/records?communities=${communities.secret}`, "reader"))).toEqual(["a2", "f"]);
    expect(names(await get(`/api/records?communities=${communities.secret}`, "admin"))).toEqual(["a2", "f"]);
  });

  test("the owner's listing has the facet too, and drafts carry their parent's communities", async () => {
    const own = await get(`/api/user/records?communities=${communities.ocean}`, "alice");
    expect(names(own)).toContain("bDraft");
    expect(names(own)).not.toContain("c");
    expect(buckets(own)).toContainEqual([communities.coral, 1, "Coral Watch", false]);
  });

  test("the community records listing keeps its three facets", async () => {
    const body = await get("/api/communities/ocean/records");
    expect(Object.keys(body.aggregations)).toEqual(["access_status", "resource_type", "language"]);
  });

  test("a removal is re-indexed: the bucket and the filter follow", async () => {
    await exclude("b", "ocean");
    try {
      expect(names(await get(`/api/records?communities=${communities.ocean}`))).toEqual(["a2"]);
      // Equal counts order by key (ids are random): compared as a set.
      expect(new Set(buckets(await get("/api/records")))).toEqual(
        new Set([
          [communities.coral, 1, "Coral Watch", false],
          [communities.ocean, 1, "Ocean Observatory", false],
        ]),
      );
    } finally {
      await include("b", "ocean");
    }
    expect(names(await get(`/api/records?communities=${communities.ocean}`))).toEqual(["a2", "b"]);
  });
});

describe("query strings on parent.communities.ids", () => {
  test("the field and its alias select the community's records", async () => {
    expect(names(await get(`/api/records?q=${encodeURIComponent(`parent.communities.ids:"${communities.ocean}"`)}`))).toEqual(["a2", "b"]);
    expect(names(await get(`/api/records?q=${encodeURIComponent(`communities:"${communities.coral}"`)}`))).toEqual(["c"]);
    expect(names(await get(`/api/records?q=${encodeURIComponent(`-parent.communities.ids:"${communities.ocean}"`)}`))).toEqual(["c", "e", "f"]);
  });

  test("every version of a parent carries its communities (allversions)", async () => {
    const all = await get(`/api/records?allversions=true&q=${encodeURIComponent(`parent.communities.ids:"${communities.ocean}"`)}`);
    expect(names(all)).toEqual(["a1", "a2", "b"]);
    expect(names(await get(`/api/records?allversions=true&communities=${communities.ocean}`))).toEqual(["a1", "a2", "b"]);
    expect(buckets(await get("/api/records?allversions=true"))).toEqual([
      [communities.ocean, 3, "Ocean Observatory", false],
      [communities.coral, 1, "Coral Watch", false],
    ]);
  });

  test("a rebuilt index gives the same answers (the rebuild reads the communities in bulk)", async () => {
    const before = await get("/api/records?allversions=true", "admin");
    await ctx.services.records.reindex({ kind: "system" });
    const after = await get("/api/records?allversions=true", "admin");
    expect(buckets(after)).toEqual(buckets(before));
    expect(names(await get(`/api/records?allversions=true&communities=${communities.ocean}`))).toEqual(["a1", "a2", "b"]);
    expect(names(await get(`/api/user/records?communities=${communities.ocean}`, "alice"))).toContain("bDraft");
  });
});

describe("OAI-PMH sets of communities", () => {
  const oai = async (query: string) => {
    const text = await ctx.oai(query);
    oaiAnswers.push(text);
    return text;
  };
  /** Record id -> set specs of each header. */
  const headers = (xml: string) =>
    Object.fromEntries(
      [...xml.matchAll(/<header>([\s\S]*?)<\/header>/g)].map((m) => [
        m[1]!.match(/<identifier>oai:[^:]+:([^<]+)<\/identifier>/)![1]!,
        [...m[1]!.matchAll(/<setSpec>([^<]+)<\/setSpec>/g)].map((s) => s[1]),
      ]),
    );
  const named = (byId: Record<string, unknown>) => Object.keys(byId).map((id) => Object.keys(ids).find((n) => ids[n] === id) ?? id);

  test("ListIdentifiers with set=user-<slug> lists exactly the public records included, every version", async () => {
    const xml = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc&set=user-ocean");
    const found = headers(xml);
    expect(named(found).sort()).toEqual(["a1", "a2", "b"]);
    // The restricted community has no set: a's headers name only the public one.
    expect(found[ids.a1!]).toEqual(["user-ocean"]);
    expect(found[ids.b!]).toEqual(["user-ocean"]);
    expect(named(headers(await oai("verb=ListIdentifiers&metadataPrefix=oai_dc&set=user-coral")))).toEqual(["c"]);
  });

  test("ListRecords with the set, and the headers of an unfiltered harvest, show the setSpec", async () => {
    const xml = await oai("verb=ListRecords&metadataPrefix=oai_dc&set=user-coral");
    expect(named(headers(xml))).toEqual(["c"]);
    expect(xml).toContain("<dc:title>Coral reefs</dc:title>");
    const all = headers(await oai("verb=ListIdentifiers&metadataPrefix=oai_dc"));
    expect(all[ids.c!]).toEqual(["user-coral"]);
    expect(all[ids.e!]).toEqual([]);
    expect(all[ids.f!]).toEqual([]);
    expect(all[ids.d!]).toBeUndefined();
  });

  test("a restricted community has no set", async () => {
    const sets = await oai("verb=ListSets");
    expect([...sets.matchAll(/<setSpec>([^<]+)<\/setSpec>/g)].map((m) => m[1])).toEqual(["user-coral", "user-ocean"]);
    expect(await oai("verb=ListIdentifiers&metadataPrefix=oai_dc&set=user-secret")).toContain('<error code="noRecordsMatch">');
  });
});
