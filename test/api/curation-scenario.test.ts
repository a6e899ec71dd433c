// The curation story end to end, one step per test (they build on each other): a community with a
// closed record policy, a curator who joins by invitation, a submission that is commented on,
// declined, edited and re-submitted, then accepted, published and harvested in the community's set.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mailOutboxTable } from "../../src/db/tables";
import { BASE_URL, expectStatus } from "../helpers/app";
import { COMMUNITY_BODY, createCommunitiesTestApp, type CommunitiesTestApp } from "../helpers/communities";
import { publishableDraft } from "../helpers/records";
import { hitIds } from "../helpers/search";

let t: CommunitiesTestApp;
beforeAll(async () => {
  t = await createCommunitiesTestApp();
});
afterAll(() => t.close());

const MINUTE_MS = 60_000;
const SLUG = "lagoon";
const comment = (content: string) => ({ payload: { content, format: "html" } });
type Event = { type: string; payload: { content?: string; event?: string }; created_by: Record<string, string> };
const timeline = async (requestId: string, as: "alice" | "curator" = "alice"): Promise<Event[]> => {
  const res = await t.call("GET", `/api/requests/${requestId}/timeline?size=100`, { as });
  expectStatus(res, 200);
  return res.json.hits.hits;
};
const mailAbout = async (requestId: string) =>
  (await t.services.deps.db.select().from(mailOutboxTable).orderBy(mailOutboxTable.id).all()).filter((m) => m.topic === `request:${requestId}`).map((m) => m.recipient);

// What the story builds, step by step.
let communityId = "";
let draftId = "";
let firstRequest = "";
let secondRequest = "";

describe("a submission is curated", () => {
  test("1. a user creates a community whose record policy is closed", async () => {
    const body = COMMUNITY_BODY(SLUG, { title: "Lagoon observatory" });
    const res = await t.call("POST", "/api/communities", { as: "owner", body: { ...body, access: { ...body.access, record_policy: "closed" } } });
    expectStatus(res, 201);
    expect(res.json).toMatchObject({ slug: SLUG, access: { visibility: "public", record_policy: "closed" }, metadata: { title: "Lagoon observatory" } });
    communityId = res.json.id;
    const members = await t.call("GET", `/api/communities/${communityId}/members`, { as: "owner" });
    expect(members.json.hits.hits.map((m: any) => [m.member.id, m.role])).toEqual([[String(t.userIds.owner), "owner"]]);
  });

  test("2. the owner invites a curator; the invitee accepts the invitation request", async () => {
    t.clock.advance(MINUTE_MS);
    const invited = await t.call("POST", `/api/communities/${communityId}/invitations`, {
      as: "owner",
      body: { members: [{ type: "user", id: String(t.userIds.curator) }], role: "curator", message: "<p>Would you curate our submissions?</p>" },
    });
    expectStatus(invited, 204);
    const mine = await t.call("GET", "/api/user/requests?type=community-invitation", { as: "curator" });
    expectStatus(mine, 200);
    const invitation = mine.json.hits.hits.find((r: any) => r.topic?.community === communityId);
    expect(invitation).toMatchObject({ type: "community-invitation", status: "submitted", receiver: { user: String(t.userIds.curator) }, created_by: { community: communityId } });
    const accepted = await t.call("POST", `/api/requests/${invitation.id}/actions/accept`, { as: "curator", body: comment("<p>Gladly</p>") });
    expectStatus(accepted, 200);
    expect(accepted.json).toMatchObject({ id: invitation.id, status: "accepted", is_closed: true });
    const members = await t.call("GET", `/api/communities/${communityId}/members`, { as: "owner" });
    const roles = Object.fromEntries(members.json.hits.hits.map((m: any) => [m.member.id, m.role]));
    expect(roles).toEqual({ [String(t.userIds.owner)]: "owner", [String(t.userIds.curator)]: "curator" });
  });

  test("3. a second user makes a publishable draft and asks the community for review (by slug)", async () => {
    t.clock.advance(MINUTE_MS);
    const draft = await t.call("POST", "/api/records", { as: "alice", body: publishableDraft() });
    expectStatus(draft, 201);
    draftId = draft.json.id;
    const review = await t.call("PUT", `/api/records/${draftId}/draft/review`, { as: "alice", body: { receiver: { community: SLUG }, type: "community-submission" } });
    expectStatus(review, 200);
    expect(review.json).toMatchObject({
      type: "community-submission",
      status: "created",
      is_open: false,
      created_by: { user: String(t.userIds.alice) },
      receiver: { community: communityId },
      topic: { record: draftId },
    });
    firstRequest = review.json.id;
    expect(review.json.links.actions.submit).toStartWith(BASE_URL);
  });

  test("4. she submits it with a comment: 202, submitted; the curator and the owner are mailed", async () => {
    t.clock.advance(MINUTE_MS);
    const res = await t.call("POST", `/api/records/${draftId}/draft/actions/submit-review`, { as: "alice", body: comment("<p>Please review</p>") });
    expectStatus(res, 202);
    expect(res.json).toMatchObject({ id: firstRequest, status: "submitted", is_open: true });
    expect([...(await mailAbout(firstRequest))].sort()).toEqual(["curator@example.org", "owner@example.org"]);
    // The draft is locked while it is reviewed.
    expectStatus(await t.call("POST", `/api/records/${draftId}/draft/actions/publish`, { as: "alice" }), 400);
  });

  test("5. the curator reads the request and the draft, and comments back", async () => {
    t.clock.advance(MINUTE_MS);
    const read = await t.call("GET", `/api/requests/${firstRequest}`, { as: "curator" });
    expectStatus(read, 200);
    expect(read.json).toMatchObject({ id: firstRequest, status: "submitted", topic: { record: draftId } });
    expect(Object.keys(read.json.links.actions).sort()).toEqual(["accept", "decline"]);
    const draft = await t.call("GET", `/api/records/${draftId}/draft`, { as: "curator" });
    expectStatus(draft, 200);
    expect(draft.json.metadata.title).toBe("Sea surface temperature 2020-2024");
    const before = (await mailAbout(firstRequest)).length;
    const commented = await t.call("POST", `/api/requests/${firstRequest}/comments`, { as: "curator", body: comment("<p>Which instrument was used?</p>") });
    expectStatus(commented, 201);
    expect(commented.json).toMatchObject({ type: "C", created_by: { user: String(t.userIds.curator) }, payload: { content: "<p>Which instrument was used?</p>" } });
    expect((await mailAbout(firstRequest)).slice(before)).toContain("alice@example.org");
  });

  test("6. the curator declines: the request is declined, the draft stays unpublished, the submitter is mailed", async () => {
    t.clock.advance(MINUTE_MS);
    const before = (await mailAbout(firstRequest)).length;
    const res = await t.call("POST", `/api/requests/${firstRequest}/actions/decline`, { as: "curator", body: comment("<p>Name the instrument, please</p>") });
    expectStatus(res, 200);
    expect(res.json).toMatchObject({ id: firstRequest, status: "declined", is_open: false, is_closed: true });
    expect((await mailAbout(firstRequest)).slice(before)).toContain("alice@example.org");
    const draft = await t.call("GET", `/api/records/${draftId}/draft`, { as: "alice" });
    expectStatus(draft, 200);
    expect(draft.json.is_published).toBe(false);
    const records = await t.call("GET", `/api/communities/${communityId}/records`);
    expect(records.json.hits.total).toBe(0);
  });

  test("7. she edits the draft and submits it again: a new open request", async () => {
    t.clock.advance(MINUTE_MS);
    const body = publishableDraft({ metadata: { ...publishableDraft().metadata, description: "<p>Measured with an Argo float.</p>" } });
    const updated = await t.call("PUT", `/api/records/${draftId}/draft`, { as: "alice", body });
    expectStatus(updated, 200);
    expect(updated.json.metadata.description).toContain("Argo float");
    const res = await t.call("POST", `/api/records/${draftId}/draft/actions/submit-review`, { as: "alice", body: comment("<p>Instrument added</p>") });
    expectStatus(res, 202);
    expect(res.json).toMatchObject({ status: "submitted", is_open: true, receiver: { community: communityId }, topic: { record: draftId } });
    expect(res.json.id).not.toBe(firstRequest);
    secondRequest = res.json.id;
    expect((await t.call("GET", `/api/requests/${firstRequest}`, { as: "alice" })).json.status).toBe("declined");
    expect((await t.call("GET", `/api/records/${draftId}/draft/review`, { as: "alice" })).json.id).toBe(secondRequest);
  });

  test("8. the curator accepts: the record is published into the community", async () => {
    t.clock.advance(MINUTE_MS);
    const res = await t.call("POST", `/api/requests/${secondRequest}/actions/accept`, { as: "curator", body: comment("<p>Thank you!</p>") });
    expectStatus(res, 200);
    expect(res.json).toMatchObject({ id: secondRequest, status: "accepted", is_open: false, is_closed: true });
    const record = await t.call("GET", `/api/records/${draftId}`);
    expectStatus(record, 200);
    expect(record.json).toMatchObject({ id: draftId, is_published: true, metadata: { description: expect.stringContaining("Argo float") } });
    expect(record.json.parent.communities.ids).toEqual([communityId]);
    expect(record.json.parent.communities.default).toBe(communityId);
    expectStatus(await t.call("GET", `/api/records/${draftId}/draft`, { as: "alice" }), 404);
  });

  test("9. the record is among the community's records", async () => {
    for (const id of [communityId, SLUG]) {
      const res = await t.call("GET", `/api/communities/${id}/records`);
      expectStatus(res, 200);
      expect(hitIds(res.json)).toEqual([draftId]);
      expect(res.json.hits.total).toBe(1);
    }
  });

  test("10. and in the community's OAI-PMH set", async () => {
    const xml = await t.oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&set=user-${SLUG}`);
    expect(xml).not.toContain("<error");
    const identifiers = [...xml.matchAll(/<identifier>([^<]*)<\/identifier>/g)].map((m) => m[1]);
    expect(identifiers).toHaveLength(1);
    expect(identifiers[0]).toEndWith(`:${draftId}`);
    expect(xml).toContain(`<setSpec>user-${SLUG}</setSpec>`);
    const elsewhere = await t.oai("verb=ListIdentifiers&metadataPrefix=oai_dc&set=user-nowhere");
    expect(elsewhere).not.toContain(draftId);
  });

  test("11. the second request's timeline shows every step", async () => {
    const events = await timeline(secondRequest, "curator");
    const logs = events.filter((e) => e.type === "L").map((e) => e.payload.event);
    expect(logs).toEqual(["submitted", "accepted"]);
    const comments = events.filter((e) => e.type === "C").map((e) => [e.created_by.user, e.payload.content]);
    expect(comments).toEqual([
      [String(t.userIds.alice), "<p>Instrument added</p>"],
      [String(t.userIds.curator), "<p>Thank you!</p>"],
    ]);
    // The log events are in order, the acceptance last among them.
    const submittedAt = events.findIndex((e) => e.payload.event === "submitted");
    const acceptedAt = events.findIndex((e) => e.payload.event === "accepted");
    expect(submittedAt).toBeLessThan(acceptedAt);
  });

  test("12. the first request's timeline shows the comments and the decline", async () => {
    const events = await timeline(firstRequest);
    const comments = events.filter((e) => e.type === "C").map((e) => e.payload.content);
    expect(comments).toEqual(["<p>Please review</p>", "<p>Which instrument was used?</p>", "<p>Name the instrument, please</p>"]);
    const logs = events.filter((e) => e.type === "L").map((e) => e.payload.event);
    expect(logs).toEqual(["submitted", "declined"]);
    expect(events.find((e) => e.payload.event === "declined")?.created_by).toEqual({ user: String(t.userIds.curator) });
  });
});
