// GET /api/records/{id}/requests (every record's `requests` link): the requests whose topic is the
// record, as the requests engine lets the caller see them, behind the record's own visibility.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BASE_URL, expectStatus } from "../helpers/app";
import { createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";
import { publishableDraft, publishRecord } from "../helpers/records";

let t: CommunitiesTestApp;
let ocean: { id: string };
let river: { id: string };
beforeAll(async () => {
  t = await createCommunitiesTestApp();
  ocean = await t.makeCommunity("ocean");
  river = await t.makeCommunity("river");
});
afterAll(() => t.close());

const publish = (as: Role = "alice", access = { record: "public", files: "public" }) => publishRecord(t, publishableDraft({ access }), { as });

/** Asks `communityId` to include the record, as its owner alice; the request id. */
async function askInclusion(recordId: string, communityId: string): Promise<string> {
  const res = await t.call("POST", `/api/records/${recordId}/communities`, { as: "alice", body: { communities: [{ id: communityId }] } });
  expectStatus(res, 200);
  return res.json.processed[0].request_id;
}

const listed = async (recordId: string, as: Role, query = "") => {
  const res = await t.call("GET", `/api/records/${recordId}/requests${query}`, { as });
  expectStatus(res, 200);
  return res.json;
};
const ids = (body: { hits: { hits: { id: string }[] } }) => body.hits.hits.map((h) => h.id).sort();

describe("GET /api/records/{id}/requests", () => {
  test("the record's requests and only its own, with the engine's envelope; its `requests` link leads here", async () => {
    const record = await publish();
    const other = await publish();
    const toOcean = await askInclusion(record.id, ocean.id);
    const toRiver = await askInclusion(record.id, river.id);
    await askInclusion(other.id, ocean.id);
    expect(record.links.requests).toBe(`${BASE_URL}/api/records/${record.id}/requests`);
    const body = await listed(record.id, "alice");
    expect(ids(body)).toEqual([toOcean, toRiver].sort());
    expect(body.hits.total).toBe(2);
    expect(body.hits.hits[0]).toMatchObject({ type: "community-inclusion", topic: { record: record.id }, created_by: { user: String(t.userIds.alice) } });
    expect(body.links.self).toStartWith(`${BASE_URL}/api/records/${record.id}/requests?`);
    expect(body.aggregations.type.buckets).toEqual([{ key: "community-inclusion", doc_count: 2, label: "Community inclusion", is_selected: false }]);
    // The engine's filters still apply.
    expect(ids(await listed(record.id, "alice", `?receiver=community:${river.id}`))).toEqual([toRiver]);
  });

  test("a caller sees only the requests they may read: the receiving community's curators theirs, others none", async () => {
    const record = await publish();
    const toOcean = await askInclusion(record.id, ocean.id);
    expect(ids(await listed(record.id, "curator"))).toEqual([toOcean]);
    expect(ids(await listed(record.id, "bob"))).toEqual([]);
    expect(ids(await listed(record.id, "admin"))).toEqual([toOcean]);
  });

  test("a review accepted into a community is among the published record's requests", async () => {
    const draft = await t.call("POST", "/api/records", { as: "alice", body: publishableDraft() });
    const id = draft.json.id;
    expectStatus(await t.call("PUT", `/api/records/${id}/draft/review`, { as: "alice", body: { receiver: { community: ocean.id }, type: "community-submission" } }), 200);
    const submitted = await t.call("POST", `/api/records/${id}/draft/actions/submit-review`, { as: "alice" });
    expectStatus(submitted, 202);
    const accepted = await t.call("POST", `/api/requests/${submitted.json.id}/actions/accept`, { as: "curator" });
    expectStatus(accepted, 200);
    const body = await listed(id, "alice");
    expect(body.hits.hits.map((h: { type: string; status: string }) => [h.type, h.status])).toEqual([["community-submission", "accepted"]]);
  });

  test.each([
    ["a public record, anonymous", "public", "anonymous", 401],
    ["a restricted record, another user", "restricted", "bob", 403],
    ["a restricted record, anonymous", "restricted", "anonymous", 401],
  ] as const)("%s (%s, as %s): %d", async (_name, visibility, as, status) => {
    const record = await publish("alice", { record: visibility, files: visibility });
    expect((await t.call("GET", `/api/records/${record.id}/requests`, { as })).status).toBe(status);
  });

  test("an unknown record, or a draft never published, is a 404", async () => {
    expect((await t.call("GET", "/api/records/aaaaa-aaa00/requests", { as: "alice" })).status).toBe(404);
    const draft = await t.call("POST", "/api/records", { as: "alice", body: publishableDraft() });
    expect((await t.call("GET", `/api/records/${draft.json.id}/requests`, { as: "alice" })).status).toBe(404);
  });
});
