// Published records in communities (community-inclusion requests): POST/GET/PUT/DELETE
// /api/records/{id}/communities, communities-suggestions, DELETE /api/communities/{id}/records,
// auto-acceptance by the record policy, inclusion through the parent (all versions), the user's
// requests, and what a restricted record or community shows to whom.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectStatus } from "../helpers/app";
import { COMMUNITY_BODY, createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";
import { publishableDraft, publishRecord } from "../helpers/records";
import { hitIds } from "../helpers/search";

const UNKNOWN_COMMUNITY = "00000000-0000-4000-8000-000000000000";

type Community = { id: string; slug: string };
type Json = any;

/** The calls these tests make, against one app. */
function helpers(app: () => CommunitiesTestApp) {
  let made = 0;
  const call: CommunitiesTestApp["call"] = (...args) => app().call(...args);

  /** A community of `owner` with the standard members, with this record policy and visibility. */
  async function community(options: { recordPolicy?: "open" | "closed"; visibility?: "public" | "restricted"; prefix?: string } = {}): Promise<Community> {
    const slug = `${options.prefix ?? "inc"}-${++made}`;
    const created = await app().makeCommunity(slug, { visibility: options.visibility });
    if ((options.recordPolicy ?? "open") === "open") return created;
    const body = COMMUNITY_BODY(slug, { visibility: options.visibility });
    const res = await call("PUT", `/api/communities/${created.id}`, { as: "owner", body: { ...body, access: { ...body.access, record_policy: "closed" } } });
    expectStatus(res, 200);
    expect(res.json.access.record_policy).toBe("closed");
    return res.json;
  }

  /** A record published by `as`; returns it. */
  const published = (as: Role = "alice", body: unknown = publishableDraft()): Promise<Json> => publishRecord(app(), body, { as });

  const add = (recid: string, communities: unknown[], as: Role = "alice") =>
    call("POST", `/api/records/${recid}/communities`, { as, body: { communities: communities.map((c) => (typeof c === "string" ? { id: c } : c)) } });
  const action = (as: Role, requestId: string, name: string, body?: unknown) => call("POST", `/api/requests/${requestId}/actions/${name}`, { as, body });

  /** Includes the record in the communities (the curator accepting what waits); checks each is in. */
  async function include(recid: string, communityIds: string[], as: Role = "alice") {
    const res = await add(recid, communityIds, as);
    expectStatus(res, 200);
    expect(res.json.processed).toHaveLength(communityIds.length);
    for (const p of res.json.processed) if (p.request.status === "submitted") expectStatus(await action("curator", p.request_id, "accept"), 200);
    // The community's records as its owner sees them (parent.communities shows only public communities).
    for (const id of communityIds) expect(await communityRecords(id)).toContain(recid);
    return res.json;
  }

  const record = async (recid: string, as: Role = "alice") => {
    const res = await call("GET", `/api/records/${recid}`, { as });
    expectStatus(res, 200);
    return res.json;
  };
  const communityIdsOf = async (recid: string, as: Role = "alice"): Promise<string[]> => (await record(recid, as)).parent.communities.ids ?? [];
  const communityRecords = async (communityId: string, query = "") => {
    const res = await call("GET", `/api/communities/${communityId}/records?size=100${query}`, { as: "owner" });
    expectStatus(res, 200);
    return hitIds(res.json) as string[];
  };
  const statusOf = async (requestId: string, as: Role = "alice") => {
    const res = await call("GET", `/api/requests/${requestId}`, { as });
    expectStatus(res, 200);
    return res.json.status as string;
  };
  return { call, community, published, add, action, include, record, communityIdsOf, communityRecords, statusOf };
}

let t: CommunitiesTestApp;
const h = helpers(() => t);
/** Public, record policy open; alice and bob are not members. */
let ocean: Community;
let river: Community;
beforeAll(async () => {
  t = await createCommunitiesTestApp();
  ocean = await h.community({ prefix: "ocean" });
  river = await h.community({ prefix: "river" });
});
afterAll(() => t.close());

describe("POST /api/records/{id}/communities", () => {
  test("the record's owner, not a member: 200, a submitted community-inclusion request; a curator's accept includes the record", async () => {
    const rec = await h.published();
    const res = await h.add(rec.id, [ocean.id]);
    expectStatus(res, 200);
    expect(res.json.errors).toEqual([]);
    expect(res.json.processed).toHaveLength(1);
    const [entry] = res.json.processed;
    expect(entry).toMatchObject({
      community_id: ocean.id,
      request_id: entry.request.id,
      request: {
        type: "community-inclusion",
        status: "submitted",
        is_open: true,
        created_by: { user: String(t.userIds.alice) },
        receiver: { community: ocean.id },
        topic: { record: rec.id },
      },
    });
    expect(typeof entry.request_id).toBe("string");
    expect(await h.communityIdsOf(rec.id)).not.toContain(ocean.id);
    expect(await h.communityRecords(ocean.id)).not.toContain(rec.id);

    const accepted = await h.action("curator", entry.request_id, "accept");
    expectStatus(accepted, 200);
    expect(accepted.json).toMatchObject({ id: entry.request_id, status: "accepted" });
    const after = await h.record(rec.id, "bob");
    expect(after.parent.communities.ids).toEqual([ocean.id]);
    expect(after.parent.communities.default).toBe(ocean.id);
    expect(await h.communityRecords(ocean.id)).toContain(rec.id);
  });

  test("a slug names the community: community_id is its uuid", async () => {
    const rec = await h.published();
    const res = await h.add(rec.id, [river.slug]);
    expectStatus(res, 200);
    expect(res.json.processed[0]).toMatchObject({ community_id: river.id, request: { receiver: { community: river.id } } });
  });

  test("several communities at once: one request each", async () => {
    const rec = await h.published();
    const res = await h.add(rec.id, [ocean.id, river.id]);
    expectStatus(res, 200);
    expect(res.json.processed.map((p: Json) => p.community_id).sort()).toEqual([ocean.id, river.id].sort());
    const requestIds = res.json.processed.map((p: Json) => p.request_id);
    expect(new Set(requestIds).size).toBe(2);
  });

  test("a curator may decline: the record is not included", async () => {
    const rec = await h.published();
    const requestId = (await h.add(rec.id, [ocean.id])).json.processed[0].request_id;
    expectStatus(await h.action("curator", requestId, "decline"), 200);
    expect(await h.statusOf(requestId)).toBe("declined");
    expect(await h.communityIdsOf(rec.id)).not.toContain(ocean.id);
  });

  describe("auto-acceptance", () => {
    for (const member of ["curator", "reader", "manager", "owner"] as const) {
      test(`open record policy, the caller a member (${member}): accepted and included at once`, async () => {
        const rec = await h.published(member);
        const res = await h.add(rec.id, [ocean.id], member);
        expectStatus(res, 200);
        expect(res.json.processed[0]).toMatchObject({ community_id: ocean.id, request: { status: "accepted", type: "community-inclusion" } });
        expect(await h.communityIdsOf(rec.id, member)).toContain(ocean.id);
        expect(await h.communityRecords(ocean.id)).toContain(rec.id);
      });
    }

    test("require_review: true keeps a member's inclusion for review", async () => {
      const rec = await h.published("curator");
      const res = await h.add(rec.id, [{ id: ocean.id, require_review: true }], "curator");
      expectStatus(res, 200);
      expect(res.json.processed[0].request.status).toBe("submitted");
      expect(await h.communityIdsOf(rec.id, "curator")).not.toContain(ocean.id);
    });

    test("closed record policy: even the community's owner waits for review", async () => {
      const closed = await h.community({ recordPolicy: "closed" });
      const rec = await h.published("owner");
      const res = await h.add(rec.id, [closed.id], "owner");
      expectStatus(res, 200);
      expect(res.json.processed[0].request.status).toBe("submitted");
      expect(await h.communityIdsOf(rec.id, "owner")).not.toContain(closed.id);
      expectStatus(await h.action("curator", res.json.processed[0].request_id, "accept"), 200);
      expect(await h.communityIdsOf(rec.id, "owner")).toContain(closed.id);
    });

    test("an administrator adds someone's record: 200, submitted (not a member)", async () => {
      const rec = await h.published();
      const res = await h.add(rec.id, [ocean.id], "admin");
      expectStatus(res, 200);
      expect(res.json.processed[0]).toMatchObject({ community_id: ocean.id, request: { status: "submitted" } });
    });
  });

  describe("who may", () => {
    const refused: [Role, number][] = [
      ["bob", 403],
      ["curator", 403],
      ["reader", 403],
      ["anonymous", 401],
    ];
    for (const [who, status] of refused) {
      test(`${who}, who does not manage alice's record -> ${status}`, async () => {
        const rec = await h.published();
        const res = await h.add(rec.id, [ocean.id], who);
        expectStatus(res, status);
        expect(typeof res.json.message).toBe("string");
        expect(await h.communityIdsOf(rec.id)).not.toContain(ocean.id);
      });
    }
  });

  describe("the list of communities", () => {
    const bodies: [string, () => unknown][] = [
      ["no entries", () => ({ communities: [] })],
      ["more than 10", () => ({ communities: Array.from({ length: 11 }, (_, i) => ({ id: i === 0 ? ocean.id : `missing-${i}` })) })],
      ["a duplicated id", () => ({ communities: [{ id: ocean.id }, { id: ocean.id }] })],
      ["no communities member", () => ({})],
      ["communities not a list", () => ({ communities: { id: ocean.id } })],
    ];
    for (const [name, body] of bodies) {
      test(`${name}: 400, nothing included`, async () => {
        // The curator's own record: anything processed would be included at once.
        const rec = await h.published("curator");
        const res = await h.call("POST", `/api/records/${rec.id}/communities`, { as: "curator", body: body() });
        expectStatus(res, 400);
        expect(typeof res.json.message).toBe("string");
        expect(await h.communityIdsOf(rec.id, "curator")).toEqual([]);
      });
    }
  });

  describe("entries that cannot be processed", () => {
    test("an unknown community beside a known one: 200, the known processed, the unknown in errors as given", async () => {
      const rec = await h.published();
      const res = await h.add(rec.id, [ocean.id, UNKNOWN_COMMUNITY]);
      expectStatus(res, 200);
      expect(res.json.processed.map((p: Json) => p.community_id)).toEqual([ocean.id]);
      expect(res.json.errors).toHaveLength(1);
      expect(res.json.errors[0]).toMatchObject({ community: UNKNOWN_COMMUNITY });
      expect(typeof res.json.errors[0].message).toBe("string");
      expect(res.json.errors[0].message.length).toBeGreaterThan(0);
    });

    test("only unknown communities: 400 with the errors listed", async () => {
      const rec = await h.published();
      const res = await h.add(rec.id, [UNKNOWN_COMMUNITY, "no-such-community"]);
      expectStatus(res, 400);
      expect(res.json.errors.map((e: Json) => e.community).sort()).toEqual([UNKNOWN_COMMUNITY, "no-such-community"].sort());
      for (const e of res.json.errors) expect(typeof e.message).toBe("string");
    });

    test("a community the record is already in: an error entry", async () => {
      const rec = await h.published("curator");
      await h.include(rec.id, [ocean.id], "curator");
      const alone = await h.add(rec.id, [ocean.id], "curator");
      expectStatus(alone, 400);
      expect(alone.json.errors).toEqual([expect.objectContaining({ community: ocean.id })]);
      const mixed = await h.add(rec.id, [ocean.id, river.id], "curator");
      expectStatus(mixed, 200);
      expect(mixed.json.processed.map((p: Json) => p.community_id)).toEqual([river.id]);
      expect(mixed.json.errors).toEqual([expect.objectContaining({ community: ocean.id, message: expect.any(String) })]);
    });

    test("a community with an open inclusion request for the record: an error entry, no second request", async () => {
      const rec = await h.published();
      const first = await h.add(rec.id, [ocean.id]);
      expectStatus(first, 200);
      const again = await h.add(rec.id, [ocean.id]);
      expectStatus(again, 400);
      expect(again.json.errors).toEqual([expect.objectContaining({ community: ocean.id, message: expect.any(String) })]);
      expect(await h.statusOf(first.json.processed[0].request_id)).toBe("submitted");
    });

    test("a restricted community the caller is not a member of counts as unknown", async () => {
      const hidden = await h.community({ visibility: "restricted" });
      const rec = await h.published();
      const res = await h.add(rec.id, [hidden.id, UNKNOWN_COMMUNITY]);
      expectStatus(res, 400);
      const [forHidden, forUnknown] = [hidden.id, UNKNOWN_COMMUNITY].map((id) => res.json.errors.find((e: Json) => e.community === id));
      expect(forHidden.message.replaceAll(hidden.id, "<id>")).toBe(forUnknown.message.replaceAll(UNKNOWN_COMMUNITY, "<id>"));
    });
  });
});

describe("through the parent: every version", () => {
  test("a version published after the inclusion is in the community too (allversions lists both)", async () => {
    const v1 = await h.published();
    await h.include(v1.id, [ocean.id]);
    const draft = await t.call("POST", `/api/records/${v1.id}/versions`, { as: "alice" });
    expectStatus(draft, 201);
    const body = publishableDraft({ metadata: { ...draft.json.metadata, publication_date: "2026-11-20" } });
    expectStatus(await t.call("PUT", `/api/records/${draft.json.id}/draft`, { as: "alice", body }), 200);
    const v2 = await t.call("POST", `/api/records/${draft.json.id}/draft/actions/publish`, { as: "alice" });
    expectStatus(v2, 202);
    expect(v2.json.parent.id).toBe(v1.parent.id);
    const read = await h.record(v2.json.id, "bob");
    expect(read.parent.communities.ids).toContain(ocean.id);
    expect(read.parent.communities.default).toBe(ocean.id);
    const all = await h.communityRecords(ocean.id, "&allversions=true");
    expect(all).toContain(v1.id);
    expect(all).toContain(v2.json.id);
    const latest = await h.communityRecords(ocean.id);
    expect(latest).toContain(v2.json.id);
    expect(latest).not.toContain(v1.id);
  });
});

describe("OAI-PMH: joining and leaving a community is a change harvesters see", () => {
  const setIds = async (slug: string, from: string) => {
    const xml = await t.oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&set=user-${slug}&from=${from}`);
    return [...xml.matchAll(/<identifier>oai:[^:]+:([^<]+)<\/identifier>/g)].map((m) => m[1]);
  };
  test("a harvest of the set from the day of the inclusion lists the record; from the day of its removal, as leaving the set", async () => {
    const rec = await h.published();
    const created = rec.updated;
    t.clock.advance(2 * 86_400_000);
    const day = new Date(t.clock.now()).toISOString().slice(0, 10);
    await h.include(rec.id, [river.id]);
    expect(await setIds(river.slug, day)).toContain(rec.id);
    // The record's `updated` moved with it: its parent changed.
    expect((await h.record(rec.id)).updated).not.toBe(created);
    t.clock.advance(2 * 86_400_000);
    const later = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(await setIds(river.slug, later)).not.toContain(rec.id);
    expectStatus(await t.call("DELETE", `/api/records/${rec.id}/communities`, { as: "alice", body: { communities: [{ id: river.id }] } }), 200);
    // Gone from the set: a harvest of the set no longer lists it, and the whole repository's shows it modified.
    expect(await setIds(river.slug, "2000-01-01")).not.toContain(rec.id);
    const all = await t.oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&from=${later}`);
    expect(all).toContain(rec.id);
  });
});

describe("GET /api/records/{id}/communities", () => {
  let recid = "";
  let hidden: Community;
  beforeAll(async () => {
    hidden = await h.community({ visibility: "restricted" });
    // The curator is a member of all three: its inclusions are accepted at once.
    recid = (await h.published("curator")).id;
    await h.include(recid, [ocean.id, river.id, hidden.id], "curator");
  });

  const rows: [Role, string[]][] = [
    ["anonymous", ["ocean", "river"]],
    ["bob", ["ocean", "river"]],
    ["reader", ["ocean", "river", "hidden"]],
    ["grouped", ["ocean", "river", "hidden"]],
    ["curator", ["ocean", "river", "hidden"]],
  ];
  for (const [who, names] of rows) {
    test(`${who} sees ${names.join(", ")}`, async () => {
      const res = await t.call("GET", `/api/records/${recid}/communities`, { as: who });
      expectStatus(res, 200);
      const byName: Record<string, Community> = { ocean, river, hidden };
      const expected = names.map((n) => byName[n]!.id).sort();
      expect([...hitIds(res.json)].sort()).toEqual(expected);
      expect(res.json.hits.total).toBe(names.length);
      const first = res.json.hits.hits.find((c: Json) => c.id === ocean.id);
      expect(first).toMatchObject({ id: ocean.id, slug: ocean.slug, metadata: { title: `Community ${ocean.slug}` }, access: { visibility: "public" } });
    });
  }

  test("a record in no community: an empty envelope", async () => {
    const rec = await h.published();
    const res = await t.call("GET", `/api/records/${rec.id}/communities`);
    expectStatus(res, 200);
    expect(res.json.hits).toEqual({ hits: [], total: 0 });
  });

  test("an unknown record: 404", async () => {
    expectStatus(await t.call("GET", "/api/records/zzzzz-zzzzz/communities"), 404);
  });
});

describe("PUT /api/records/{id}/communities: the default community", () => {
  test("changes parent.communities.default; a community the record is not in is a 400", async () => {
    const rec = await h.published();
    await h.include(rec.id, [ocean.id, river.id]);
    const res = await t.call("PUT", `/api/records/${rec.id}/communities`, { as: "alice", body: { default: river.id } });
    expectStatus(res, 200);
    expect((await h.record(rec.id)).parent.communities.default).toBe(river.id);
    const back = await t.call("PUT", `/api/records/${rec.id}/communities`, { as: "alice", body: { default: ocean.slug } });
    expectStatus(back, 200);
    expect((await h.record(rec.id)).parent.communities.default).toBe(ocean.id);
    const elsewhere = await h.community();
    const refused = await t.call("PUT", `/api/records/${rec.id}/communities`, { as: "alice", body: { default: elsewhere.id } });
    expectStatus(refused, 400);
    expect(typeof refused.json.message).toBe("string");
    const unknown = await t.call("PUT", `/api/records/${rec.id}/communities`, { as: "alice", body: { default: UNKNOWN_COMMUNITY } });
    expectStatus(unknown, 400);
    const after = await h.record(rec.id);
    expect(after.parent.communities.default).toBe(ocean.id);
    expect(after.parent.communities.ids.sort()).toEqual([ocean.id, river.id].sort());
  });
});

describe("DELETE /api/records/{id}/communities", () => {
  const removers: [string, Role][] = [
    ["the record's owner", "alice"],
    ["the community's curator", "curator"],
    ["the community's manager", "manager"],
    ["the community's owner", "owner"],
  ];
  for (const [name, who] of removers) {
    test(`${name} removes it: 200, gone from parent.communities and the community's records`, async () => {
      const rec = await h.published();
      await h.include(rec.id, [ocean.id, river.id]);
      const res = await t.call("DELETE", `/api/records/${rec.id}/communities`, { as: who, body: { communities: [{ id: ocean.id }] } });
      expectStatus(res, 200);
      expect(res.json.errors ?? []).toEqual([]);
      expect(await h.communityIdsOf(rec.id)).toEqual([river.id]);
      expect(await h.communityRecords(ocean.id)).not.toContain(rec.id);
      expect(await h.communityRecords(river.id)).toContain(rec.id);
    });
  }

  for (const who of ["reader", "bob"] as const) {
    test(`${who} may not remove it (403, or a 400 with an errors entry); it stays`, async () => {
      const rec = await h.published();
      await h.include(rec.id, [ocean.id]);
      const res = await t.call("DELETE", `/api/records/${rec.id}/communities`, { as: who, body: { communities: [{ id: ocean.id }] } });
      expect([400, 403]).toContain(res.status);
      expect(res.json.status).toBe(res.status);
      if (res.status === 400) expect(res.json.errors).toEqual([expect.objectContaining({ community: ocean.id })]);
      expect(await h.communityIdsOf(rec.id)).toEqual([ocean.id]);
    });
  }

  test("anonymous: 401; it stays", async () => {
    const rec = await h.published();
    await h.include(rec.id, [ocean.id]);
    expectStatus(await t.call("DELETE", `/api/records/${rec.id}/communities`, { body: { communities: [{ id: ocean.id }] } }), 401);
    expect(await h.communityIdsOf(rec.id)).toEqual([ocean.id]);
  });

  test("none removed (a community the record is not in): 400 with the errors", async () => {
    const rec = await h.published();
    await h.include(rec.id, [ocean.id]);
    const res = await t.call("DELETE", `/api/records/${rec.id}/communities`, { as: "alice", body: { communities: [{ id: river.id }] } });
    expectStatus(res, 400);
    expect(res.json.errors).toEqual([expect.objectContaining({ community: river.id })]);
    expect(await h.communityIdsOf(rec.id)).toEqual([ocean.id]);
  });

  test("one removed, one not: 200 with an errors entry for the other", async () => {
    const rec = await h.published();
    await h.include(rec.id, [ocean.id]);
    const res = await t.call("DELETE", `/api/records/${rec.id}/communities`, { as: "alice", body: { communities: [{ id: ocean.id }, { id: UNKNOWN_COMMUNITY }] } });
    expectStatus(res, 200);
    expect(res.json.errors).toEqual([expect.objectContaining({ community: UNKNOWN_COMMUNITY })]);
    expect(await h.communityIdsOf(rec.id)).toEqual([]);
  });

  test("more than 10 or none: 400, nothing removed", async () => {
    const rec = await h.published();
    await h.include(rec.id, [ocean.id]);
    const eleven = [{ id: ocean.id }, ...Array.from({ length: 10 }, (_, i) => ({ id: `missing-${i}` }))];
    for (const communities of [eleven, []]) {
      const res = await t.call("DELETE", `/api/records/${rec.id}/communities`, { as: "alice", body: { communities } });
      expectStatus(res, 400);
    }
    expect(await h.communityIdsOf(rec.id)).toEqual([ocean.id]);
  });

  test("removing the default community: it is no longer the default", async () => {
    const rec = await h.published();
    await h.include(rec.id, [ocean.id, river.id]);
    expectStatus(await t.call("PUT", `/api/records/${rec.id}/communities`, { as: "alice", body: { default: ocean.id } }), 200);
    expectStatus(await t.call("DELETE", `/api/records/${rec.id}/communities`, { as: "alice", body: { communities: [{ id: ocean.id }] } }), 200);
    const after = await h.record(rec.id);
    expect(after.parent.communities.ids).toEqual([river.id]);
    expect(after.parent.communities.default).not.toBe(ocean.id);
  });
});

describe("DELETE /api/communities/{id}/records", () => {
  for (const who of ["curator", "manager", "owner", "admin"] as const) {
    test(`${who}: 200, the record leaves the community`, async () => {
      const rec = await h.published();
      await h.include(rec.id, [ocean.id, river.id]);
      const res = await t.call("DELETE", `/api/communities/${ocean.id}/records`, { as: who, body: { records: [{ id: rec.id }] } });
      expectStatus(res, 200);
      expect(res.json.errors ?? []).toEqual([]);
      expect(await h.communityRecords(ocean.id)).not.toContain(rec.id);
      expect(await h.communityIdsOf(rec.id)).toEqual([river.id]);
    });
  }

  for (const [who, status] of [
    ["reader", 403],
    ["bob", 403],
    ["alice", 403],
    ["anonymous", 401],
  ] as const) {
    test(`${who} -> ${status}, the record stays`, async () => {
      const rec = await h.published();
      await h.include(rec.id, [ocean.id]);
      const res = await t.call("DELETE", `/api/communities/${ocean.id}/records`, { as: who, body: { records: [{ id: rec.id }] } });
      expectStatus(res, status);
      expect(await h.communityRecords(ocean.id)).toContain(rec.id);
    });
  }

  test("by slug, several records: all leave", async () => {
    const a = await h.published();
    const b = await h.published();
    await h.include(a.id, [ocean.id]);
    await h.include(b.id, [ocean.id]);
    const res = await t.call("DELETE", `/api/communities/${ocean.slug}/records`, { as: "curator", body: { records: [{ id: a.id }, { id: b.id }] } });
    expectStatus(res, 200);
    const listed = await h.communityRecords(ocean.id);
    expect(listed).not.toContain(a.id);
    expect(listed).not.toContain(b.id);
  });

  test("a record not in the community beside one that is: 200 with an errors entry", async () => {
    const a = await h.published();
    const outside = await h.published();
    await h.include(a.id, [ocean.id]);
    const res = await t.call("DELETE", `/api/communities/${ocean.id}/records`, { as: "curator", body: { records: [{ id: a.id }, { id: outside.id }] } });
    expectStatus(res, 200);
    expect(res.json.errors).toHaveLength(1);
    expect(JSON.stringify(res.json.errors[0])).toContain(outside.id);
    expect(await h.communityRecords(ocean.id)).not.toContain(a.id);
  });

  test("more than 10: 400, nothing removed", async () => {
    const rec = await h.published();
    await h.include(rec.id, [ocean.id]);
    const records = [{ id: rec.id }, ...Array.from({ length: 10 }, (_, i) => ({ id: `zzzzz-0000${i}` }))];
    const res = await t.call("DELETE", `/api/communities/${ocean.id}/records`, { as: "curator", body: { records } });
    expectStatus(res, 400);
    expect(await h.communityRecords(ocean.id)).toContain(rec.id);
  });
});

describe("a restricted record in a community", () => {
  test("readable by the community's members once included; 403 for others, 401 anonymous", async () => {
    const rec = await h.published("alice", publishableDraft({ access: { record: "restricted", files: "restricted" } }));
    expectStatus(await t.call("GET", `/api/records/${rec.id}`, { as: "reader" }), 403);
    await h.include(rec.id, [ocean.id]);
    for (const who of ["reader", "grouped", "curator", "manager", "owner"] as const) {
      const res = await t.call("GET", `/api/records/${rec.id}`, { as: who });
      expectStatus(res, 200);
      expect(res.json.id).toBe(rec.id);
    }
    expectStatus(await t.call("GET", `/api/records/${rec.id}`, { as: "bob" }), 403);
    expectStatus(await t.call("GET", `/api/records/${rec.id}`), 401);
  });
});

describe("a restricted community's inclusion requests", () => {
  test("are invisible to non-members: the request itself and the requests search", async () => {
    const hidden = await h.community({ visibility: "restricted", recordPolicy: "closed" });
    const rec = await h.published("reader");
    const res = await h.add(rec.id, [hidden.id], "reader");
    expectStatus(res, 200);
    const requestId = res.json.processed[0].request_id;
    expect(res.json.processed[0].request.status).toBe("submitted");
    for (const who of ["bob", "alice"] as const) {
      const read = await t.call("GET", `/api/requests/${requestId}`, { as: who });
      expect([403, 404]).toContain(read.status);
      const search = await t.call("GET", "/api/requests?size=100", { as: who });
      expectStatus(search, 200);
      expect(hitIds(search.json)).not.toContain(requestId);
    }
    // Its members do see it.
    const curator = await t.call("GET", "/api/requests?size=100", { as: "curator" });
    expect(hitIds(curator.json)).toContain(requestId);
    expectStatus(await t.call("GET", `/api/requests/${requestId}`, { as: "curator" }), 200);
  });
});

describe("with an app of their own", () => {
  let u: CommunitiesTestApp;
  const hu = helpers(() => u);
  beforeAll(async () => {
    u = await createCommunitiesTestApp();
  });
  afterAll(() => u.close());

  test("communities-suggestions?membership=true: the caller's communities that do not include the record yet", async () => {
    const a = await hu.community({ prefix: "a" });
    const b = await hu.community({ prefix: "b" });
    const hiddenMine = await hu.community({ prefix: "h", visibility: "restricted" });
    const alices = await u.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("alices") });
    expectStatus(alices, 201);
    const rec = await hu.published("curator");
    await hu.include(rec.id, [a.id], "curator");
    const res = await u.call("GET", `/api/records/${rec.id}/communities-suggestions?membership=true`, { as: "curator" });
    expectStatus(res, 200);
    const ids = hitIds(res.json) as string[];
    expect([...ids].sort()).toEqual([b.id, hiddenMine.id].sort());
    expect(ids).not.toContain(alices.json.id);
    expect(ids).not.toContain(a.id);
    expect(res.json.hits.total).toBe(2);
    expect(res.json.hits.hits.find((c: Json) => c.id === b.id)).toMatchObject({ id: b.id, slug: b.slug });
  });

  test("GET /api/user/requests lists the submitter's reviews and inclusions, with type and status facets", async () => {
    const c = await hu.community({ prefix: "req" });
    // A review: alice's draft submitted to c.
    const draft = await u.call("POST", "/api/records", { as: "alice", body: publishableDraft() });
    expectStatus(draft, 201);
    expectStatus(await u.call("PUT", `/api/records/${draft.json.id}/draft/review`, { as: "alice", body: { receiver: { community: c.id }, type: "community-submission" } }), 200);
    const review = await u.call("POST", `/api/records/${draft.json.id}/draft/actions/submit-review`, { as: "alice" });
    expectStatus(review, 202);
    // Two inclusions: one waiting, one accepted.
    const waiting = await hu.add((await hu.published()).id, [c.id]);
    const accepted = await hu.add((await hu.published()).id, [c.id]);
    expectStatus(waiting, 200);
    expectStatus(accepted, 200);
    expectStatus(await hu.action("curator", accepted.json.processed[0].request_id, "accept"), 200);

    const res = await u.call("GET", "/api/user/requests?size=100", { as: "alice" });
    expectStatus(res, 200);
    const ids = [review.json.id, waiting.json.processed[0].request_id, accepted.json.processed[0].request_id];
    expect([...hitIds(res.json)].sort()).toEqual([...ids].sort());
    expect(res.json.hits.total).toBe(3);
    const buckets = (facet: string) =>
      Object.fromEntries(res.json.aggregations[facet].buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count])) as Record<string, number>;
    expect(buckets("type")).toEqual({ "community-submission": 1, "community-inclusion": 2 });
    expect(buckets("status")).toEqual({ submitted: 2, accepted: 1 });
    // Bob has none of them.
    const bob = await u.call("GET", "/api/user/requests", { as: "bob" });
    expect(hitIds(bob.json)).toEqual([]);
  });
});
