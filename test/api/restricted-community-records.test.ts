// A public record in a restricted community: `parent.communities` (ids, default, entries) names the
// community to those who may see it — its members directly or through a group (a record's owner
// only while a member), administrators — on every path that shows a record (the record, its draft,
// its communities, searches, the user's records, versions, the landing page), and to nobody else.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { expectStatus } from "../helpers/app";
import { COMMUNITY_BODY, createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";
import { publishableDraft } from "../helpers/records";
import { hitIds } from "../helpers/search";
import { newUuid } from "../../src/core/ids";
import { communityMembersTable } from "../../src/db/tables";

type Json = any;

let t: CommunitiesTestApp;
let hidden: { id: string; slug: string };
let recid: string;

/** What `parent.communities` shows to those who may see the community. */
const shown = () => ({ ids: [hidden.id], default: hidden.id, entries: [{ id: hidden.id, slug: hidden.slug, access: { visibility: "restricted" } }] });

const addMember = async (who: { userId?: number; groupId?: string }, role = "reader") => {
  const now = t.clock.now();
  await t.services.deps.db
    .insert(communityMembersTable)
    .values({ id: newUuid(), communityId: hidden.id, role, created: now, updated: now, ...who })
    .run();
};

const get = async (path: string, as: Role) => {
  const res = await t.call("GET", path, { as });
  expectStatus(res, 200);
  return res.json;
};
const hitOf = (body: Json, id = recid) => body.hits.hits.find((h: Json) => h.id === id);

beforeAll(async () => {
  t = await createCommunitiesTestApp();
  // alice owns the restricted community and publishes her record into it (a review she accepts herself).
  const created = await t.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("alices-lab", { visibility: "restricted" }) });
  expectStatus(created, 201);
  hidden = created.json;
  const draft = await t.call("POST", "/api/records", { as: "alice", body: publishableDraft() });
  expectStatus(draft, 201);
  recid = draft.json.id;
  expectStatus(await t.call("PUT", `/api/records/${recid}/draft/review`, { as: "alice", body: { receiver: { community: hidden.id }, type: "community-submission" } }), 200);
  const review = await t.call("POST", `/api/records/${recid}/draft/actions/submit-review`, { as: "alice" });
  expectStatus(review, 202);
  expect(review.json.status).toBe("accepted");
  expect((await get(`/api/records/${recid}`, "admin")).access.record).toBe("public");
});
afterAll(() => t.close());

describe("those who may see the restricted community see it on the record", () => {
  test("alice (its owner and the record's): the record, its communities, searches, her listing, versions", async () => {
    expect((await get(`/api/records/${recid}`, "alice")).parent.communities).toMatchObject(shown());
    expect(hitIds(await get(`/api/records/${recid}/communities`, "alice"))).toEqual([hidden.id]);
    expect(hitOf(await get("/api/records?size=100", "alice")).parent.communities).toMatchObject(shown());
    expect(hitOf(await get("/api/user/records?size=100", "alice")).parent.communities).toMatchObject(shown());
    expect(hitOf(await get(`/api/records/${recid}/versions`, "alice")).parent.communities).toMatchObject(shown());
  });

  test("alice's edit draft and the landing page", async () => {
    const edit = await t.call("POST", `/api/records/${recid}/draft`, { as: "alice" });
    expectStatus(edit, 201);
    expect(edit.json.parent.communities).toMatchObject(shown());
    expect((await get(`/api/records/${recid}/draft`, "alice")).parent.communities).toMatchObject(shown());
    expect(hitOf(await get("/api/user/records?size=100", "alice")).parent.communities).toMatchObject(shown());
    expectStatus(await t.call("DELETE", `/api/records/${recid}/draft`, { as: "alice" }), 204);
    const page = await t.call("GET", `/records/${recid}`, { as: "alice", headers: { accept: "text/html" } });
    expectStatus(page, 200);
    expect(page.text).toContain(`/communities/${hidden.slug}`);
  });

  test("an administrator", async () => {
    expect((await get(`/api/records/${recid}`, "admin")).parent.communities).toMatchObject(shown());
    expect(hitIds(await get(`/api/records/${recid}/communities`, "admin"))).toEqual([hidden.id]);
    expect(hitOf(await get("/api/records?size=100", "admin")).parent.communities).toMatchObject(shown());
  });
});

describe("those who may not see it", () => {
  for (const who of ["bob", "anonymous", "reader", "grouped"] as const) {
    test(`${who} (not a member yet) reads the public record without the community`, async () => {
      expect((await get(`/api/records/${recid}`, who)).parent.communities).toEqual({});
      expect(hitIds(await get(`/api/records/${recid}/communities`, who))).toEqual([]);
      expect(hitOf(await get("/api/records?size=100", who)).parent.communities).toEqual({});
      expect(hitOf(await get(`/api/records/${recid}/versions`, who)).parent.communities).toEqual({});
      const page = await t.call("GET", `/records/${recid}`, { as: who, headers: { accept: "text/html" } });
      expectStatus(page, 200);
      expect(page.text).not.toContain(hidden.slug);
      expect(page.text).not.toContain(hidden.id);
    });
  }
});

describe("members added later see it", () => {
  test("a reader added directly, and a member through a group; bob still does not", async () => {
    await addMember({ userId: t.userIds.reader });
    await addMember({ groupId: t.groupId });
    for (const who of ["reader", "grouped"] as const) {
      expect((await get(`/api/records/${recid}`, who)).parent.communities).toMatchObject(shown());
      expect(hitIds(await get(`/api/records/${recid}/communities`, who))).toEqual([hidden.id]);
      expect(hitOf(await get("/api/records?size=100", who)).parent.communities).toMatchObject(shown());
      expect(hitOf(await get(`/api/records/${recid}/versions`, who)).parent.communities).toMatchObject(shown());
    }
    expect((await get(`/api/records/${recid}`, "bob")).parent.communities).toEqual({});
  });
});

test("a record in a public and a restricted community: outsiders see the public one, as the default when the restricted one is", async () => {
  const open = await t.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("alices-open") });
  expectStatus(open, 201);
  t.clock.advance(60_000); // included after the restricted one: that one stays first and the default
  const res = await t.call("POST", `/api/records/${recid}/communities`, { as: "alice", body: { communities: [{ id: open.json.id }] } });
  expectStatus(res, 200);
  expect(res.json.processed[0].request.status).toBe("accepted");
  expect((await get(`/api/records/${recid}`, "alice")).parent.communities).toMatchObject({ ids: [hidden.id, open.json.id], default: hidden.id });
  const bob = (await get(`/api/records/${recid}`, "bob")).parent.communities;
  expect(bob).toMatchObject({ ids: [open.json.id], default: open.json.id });
  expect(bob.entries.map((e: Json) => e.id)).toEqual([open.json.id]);
});

test("a record's owner sees the restricted community while a member of it, and no longer once they leave it", async () => {
  await addMember({ userId: t.users.bob.user.id });
  const draft = await t.call("POST", "/api/records", { as: "bob", body: publishableDraft() });
  expectStatus(draft, 201);
  expectStatus(await t.call("POST", `/api/records/${draft.json.id}/draft/actions/publish`, { as: "bob" }), 202);
  const added = await t.call("POST", `/api/records/${draft.json.id}/communities`, { as: "bob", body: { communities: [{ id: hidden.id }] } });
  expectStatus(added, 200);
  expect(added.json.processed[0].request.status).toBe("accepted");
  expect((await get(`/api/records/${draft.json.id}`, "bob")).parent.communities).toMatchObject(shown());
  await t.services.deps.db
    .delete(communityMembersTable)
    .where(and(eq(communityMembersTable.communityId, hidden.id), eq(communityMembersTable.userId, t.users.bob.user.id)))
    .run();
  expect((await get(`/api/records/${draft.json.id}`, "bob")).parent.communities).toEqual({});
  expect(hitOf(await get("/api/user/records?size=100", "bob"), draft.json.id).parent.communities).toEqual({});
  expect((await get(`/api/records/${draft.json.id}`, "alice")).parent.communities).toMatchObject(shown());
});
