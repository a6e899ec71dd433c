// Draft reviews (community-submission requests): PUT/GET/DELETE .../draft/review, submitting with
// submit-review, who may read the draft and the request while it is open, accept (publishes into
// the community), decline, cancel, the community's record policy, and the mail of each step.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mailOutboxTable } from "../../src/db/tables";
import { BASE_URL, expectStatus } from "../helpers/app";
import { COMMUNITY_BODY, createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";
import { createDraft, MINIMAL_METADATA, publishableDraft } from "../helpers/records";
import { hitIds } from "../helpers/search";

let t: CommunitiesTestApp;
/** A public community with an open record policy; alice and bob are not members. */
let ocean: { id: string; slug: string };
/** Another public community, to move a review to. */
let river: { id: string; slug: string };

beforeAll(async () => {
  t = await createCommunitiesTestApp();
  ocean = await t.makeCommunity("ocean");
  river = await t.makeCommunity("river");
});
afterAll(() => t.close());

const UNKNOWN_COMMUNITY = "00000000-0000-4000-8000-000000000000";
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/;

let made = 0;
/** A community of `owner` with the standard members (manager, curator, reader, grouped), with this record policy and visibility. */
async function community(options: { recordPolicy?: "open" | "closed"; visibility?: "public" | "restricted" } = {}): Promise<{ id: string; slug: string }> {
  const slug = `review-${++made}`;
  const created = await t.makeCommunity(slug, { visibility: options.visibility });
  if ((options.recordPolicy ?? "open") === "open") return created;
  const body = COMMUNITY_BODY(slug, { visibility: options.visibility });
  const res = await t.call("PUT", `/api/communities/${created.id}`, { as: "owner", body: { ...body, access: { ...body.access, record_policy: "closed" } } });
  expectStatus(res, 200);
  expect(res.json.access.record_policy).toBe("closed");
  return res.json;
}

/** POST /api/records as `as`; returns the draft id. */
const newDraft = async (as: Role = "alice", body: unknown = publishableDraft()): Promise<string> => (await createDraft(t, body, { as })).id;

const putReview = (draftId: string, community: string, as: Role = "alice") =>
  t.call("PUT", `/api/records/${draftId}/draft/review`, { as, body: { receiver: { community }, type: "community-submission" } });
const getReview = (draftId: string, as: Role = "alice") => t.call("GET", `/api/records/${draftId}/draft/review`, { as });
const comment = (content: string) => ({ payload: { content, format: "html" } });
const submitReview = (draftId: string, as: Role = "alice", body: unknown = comment("<p>Please review</p>")) =>
  t.call("POST", `/api/records/${draftId}/draft/actions/submit-review`, { as, body });
const action = (as: Role, requestId: string, name: string, body?: unknown) => t.call("POST", `/api/requests/${requestId}/actions/${name}`, { as, body });
const readRequest = (requestId: string, as: Role = "alice") => t.call("GET", `/api/requests/${requestId}`, { as });
const statusOf = async (requestId: string) => {
  const res = await readRequest(requestId);
  expectStatus(res, 200);
  return res.json.status as string;
};
const timeline = async (requestId: string, as: Role = "alice") => {
  const res = await t.call("GET", `/api/requests/${requestId}/timeline?size=100`, { as });
  expectStatus(res, 200);
  return res.json.hits.hits as { type: string; payload: Record<string, unknown>; created_by: Record<string, string> }[];
};
const communityRecords = async (communityId: string) => {
  const res = await t.call("GET", `/api/communities/${communityId}/records?size=100`);
  expectStatus(res, 200);
  return hitIds(res.json) as string[];
};
/** The recipients of the mail queued about a request, oldest first. */
const mailAbout = async (requestId: string) =>
  (await t.services.deps.db.select().from(mailOutboxTable).orderBy(mailOutboxTable.id).all()).filter((m) => m.topic === `request:${requestId}`).map((m) => m.recipient);

/** A draft of `as` with a review to `communityId`, submitted (its status checked); the draft and request ids. */
async function submitted(communityId = ocean.id, as: Role = "alice") {
  const draftId = await newDraft(as);
  expectStatus(await putReview(draftId, communityId, as), 200);
  const res = await submitReview(draftId, as);
  expectStatus(res, 202);
  expect(res.json.status).toBe("submitted");
  return { draftId, requestId: res.json.id as string };
}

describe("PUT .../draft/review", () => {
  test("200: the review request, created (not yet open), from the draft's owner to the community about the draft, with absolute links", async () => {
    const draftId = await newDraft();
    const res = await putReview(draftId, ocean.id);
    expectStatus(res, 200);
    const review = res.json;
    expect(review).toMatchObject({
      type: "community-submission",
      status: "created",
      is_open: false,
      is_closed: false,
      is_expired: false,
      created_by: { user: String(t.userIds.alice) },
      receiver: { community: ocean.id },
      topic: { record: draftId },
    });
    expect(typeof review.id).toBe("string");
    expect(review.id.length).toBeGreaterThan(0);
    expect(review.number).toMatch(/^\d+$/);
    expect(typeof review.title).toBe("string");
    expect("expires_at" in review).toBe(true);
    expect(review.created).toMatch(TIMESTAMP);
    expect(review.updated).toMatch(TIMESTAMP);
    expect(Number.isInteger(review.revision_id)).toBe(true);
    expect(review.links.self).toBe(`${BASE_URL}/api/requests/${review.id}`);
    expect(review.links.comments).toBe(`${BASE_URL}/api/requests/${review.id}/comments`);
    expect(review.links.timeline).toBe(`${BASE_URL}/api/requests/${review.id}/timeline`);
    expect(review.links.actions.submit).toStartWith(`${BASE_URL}/api/`);
    for (const link of [review.links.self, review.links.comments, review.links.timeline, review.links.actions.submit]) expect(link).toMatch(/^http/);
    // The request itself reads the same.
    const read = await readRequest(review.id);
    expectStatus(read, 200);
    expect(read.json).toMatchObject({ id: review.id, type: "community-submission", status: "created", topic: { record: draftId } });
  });

  test("the community may be named by its slug: the receiver is its uuid", async () => {
    const draftId = await newDraft();
    const res = await putReview(draftId, ocean.slug);
    expectStatus(res, 200);
    expect(res.json.receiver).toEqual({ community: ocean.id });
  });

  test("a restricted community the caller is a member of: 200", async () => {
    const hidden = await community({ visibility: "restricted" });
    const draftId = await newDraft("reader");
    const res = await putReview(draftId, hidden.id, "reader");
    expectStatus(res, 200);
    expect(res.json.receiver).toEqual({ community: hidden.id });
  });

  const refusals: [name: string, as: Role, body: () => unknown, status: number][] = [
    ["an unknown community (uuid)", "alice", () => ({ receiver: { community: UNKNOWN_COMMUNITY }, type: "community-submission" }), 400],
    ["an unknown community (slug)", "alice", () => ({ receiver: { community: "no-such-community" }, type: "community-submission" }), 400],
    ["no receiver", "alice", () => ({ type: "community-submission" }), 400],
    ["a receiver without a community", "alice", () => ({ receiver: {}, type: "community-submission" }), 400],
    ["another request type", "alice", () => ({ receiver: { community: ocean.id }, type: "community-inclusion" }), 400],
    ["an unknown request type", "alice", () => ({ receiver: { community: ocean.id }, type: "peer-review" }), 400],
    ["another user's draft", "bob", () => ({ receiver: { community: ocean.id }, type: "community-submission" }), 403],
    ["anonymous", "anonymous", () => ({ receiver: { community: ocean.id }, type: "community-submission" }), 401],
  ];
  for (const [name, as, body, status] of refusals) {
    test(`${name}: ${as} -> ${status}, and no review`, async () => {
      const draftId = await newDraft();
      const res = await t.call("PUT", `/api/records/${draftId}/draft/review`, { as, body: body() });
      expectStatus(res, status);
      expect(typeof res.json.message).toBe("string");
      expectStatus(await getReview(draftId), 404);
    });
  }

  test("a restricted community the caller is not a member of: 400 with the same message as an unknown one (not disclosed)", async () => {
    const hidden = await community({ visibility: "restricted" });
    const draftId = await newDraft();
    const unknown = await putReview(draftId, UNKNOWN_COMMUNITY);
    const restricted = await putReview(draftId, hidden.id);
    expectStatus(unknown, 400);
    expectStatus(restricted, 400);
    expect(restricted.json.message.replaceAll(hidden.id, "<id>")).toBe(unknown.json.message.replaceAll(UNKNOWN_COMMUNITY, "<id>"));
    expect(JSON.stringify(restricted.json)).not.toContain(hidden.slug);
    expectStatus(await getReview(draftId), 404);
  });

  test("the edit draft of a published record: 400", async () => {
    const draftId = await newDraft();
    expectStatus(await t.call("POST", `/api/records/${draftId}/draft/actions/publish`, { as: "alice" }), 202);
    expectStatus(await t.call("POST", `/api/records/${draftId}/draft`, { as: "alice" }), 201);
    const res = await putReview(draftId, ocean.id);
    expectStatus(res, 400);
    expect(typeof res.json.message).toBe("string");
    expectStatus(await getReview(draftId), 404);
  });

  test("again while created: 200, replaced by a new request to the new community; the old request is gone", async () => {
    const draftId = await newDraft();
    const first = (await putReview(draftId, ocean.id)).json;
    const second = await putReview(draftId, river.id);
    expectStatus(second, 200);
    expect(second.json).toMatchObject({ status: "created", receiver: { community: river.id }, topic: { record: draftId } });
    expect(second.json.id).not.toBe(first.id);
    expectStatus(await readRequest(first.id), 404);
    const read = await getReview(draftId);
    expectStatus(read, 200);
    expect(read.json).toMatchObject({ id: second.json.id, receiver: { community: river.id } });
  });

  test("again while submitted: 400, the submitted request stays", async () => {
    const { draftId, requestId } = await submitted();
    const res = await putReview(draftId, river.id);
    expectStatus(res, 400);
    const read = await getReview(draftId);
    expectStatus(read, 200);
    expect(read.json).toMatchObject({ id: requestId, status: "submitted", receiver: { community: ocean.id } });
  });
});

describe("GET and DELETE .../draft/review", () => {
  test("GET: 200 with the same request", async () => {
    const draftId = await newDraft();
    const put = await putReview(draftId, ocean.id);
    const res = await getReview(draftId);
    expectStatus(res, 200);
    expect(res.json).toEqual(put.json);
  });

  test("GET on a draft without a review: 404", async () => {
    const res = await getReview(await newDraft());
    expectStatus(res, 404);
    expect(res.json.status).toBe(404);
    expect(typeof res.json.message).toBe("string");
  });

  test("DELETE while created: 204, then GET is a 404 and the request is gone", async () => {
    const draftId = await newDraft();
    const requestId = (await putReview(draftId, ocean.id)).json.id;
    const res = await t.call("DELETE", `/api/records/${draftId}/draft/review`, { as: "alice" });
    expectStatus(res, 204);
    expect(res.text).toBe("");
    expectStatus(await getReview(draftId), 404);
    expectStatus(await readRequest(requestId), 404);
    // The draft itself stays.
    expectStatus(await t.call("GET", `/api/records/${draftId}/draft`, { as: "alice" }), 200);
  });

  test("DELETE once submitted: 400, the review stays open", async () => {
    const { draftId, requestId } = await submitted();
    expectStatus(await t.call("DELETE", `/api/records/${draftId}/draft/review`, { as: "alice" }), 400);
    expect((await getReview(draftId)).json).toMatchObject({ id: requestId, status: "submitted", is_open: true });
  });
});

describe("POST .../draft/actions/submit-review", () => {
  test("202 with the open request; the comment is the first comment on the timeline, beside a log event", async () => {
    const draftId = await newDraft();
    const requestId = (await putReview(draftId, ocean.id)).json.id;
    const res = await submitReview(draftId, "alice", comment("<p>Please review</p>"));
    expectStatus(res, 202);
    expect(res.json).toMatchObject({
      id: requestId,
      type: "community-submission",
      status: "submitted",
      is_open: true,
      is_closed: false,
      created_by: { user: String(t.userIds.alice) },
      receiver: { community: ocean.id },
      topic: { record: draftId },
    });
    const events = await timeline(requestId);
    const comments = events.filter((e) => e.type === "C");
    expect(comments[0]).toMatchObject({ payload: { content: "<p>Please review</p>", format: "html" }, created_by: { user: String(t.userIds.alice) } });
    expect(events.some((e) => e.type === "L")).toBe(true);
    expect(events.filter((e) => e.type === "L").map((e) => e.payload.event)).toContain("submitted");
    expect((await getReview(draftId)).json).toMatchObject({ id: requestId, status: "submitted", is_open: true });
  });

  test("without a body: 202, submitted, no comment", async () => {
    const draftId = await newDraft();
    expectStatus(await putReview(draftId, ocean.id), 200);
    const res = await t.call("POST", `/api/records/${draftId}/draft/actions/submit-review`, { as: "alice" });
    expectStatus(res, 202);
    expect(res.json.status).toBe("submitted");
    expect((await timeline(res.json.id)).filter((e) => e.type === "C")).toEqual([]);
  });

  test("without a review: 404", async () => {
    const res = await submitReview(await newDraft());
    expectStatus(res, 404);
    expect(typeof res.json.message).toBe("string");
  });

  const invalid: [name: string, body: unknown, field: string][] = [
    ["no title", publishableDraft({ metadata: { ...MINIMAL_METADATA, title: undefined, publisher: "Cairn test repository" } }), "metadata.title"],
    ["files enabled but none uploaded", publishableDraft({ files: { enabled: true } }), "files.enabled"],
  ];
  for (const [name, body, field] of invalid) {
    test(`a draft that does not validate (${name}): 400 naming ${field}; the request stays created`, async () => {
      const draftId = await newDraft("alice", body);
      const requestId = (await putReview(draftId, ocean.id)).json.id;
      const res = await submitReview(draftId);
      expectStatus(res, 400);
      expect(Array.isArray(res.json.errors)).toBe(true);
      expect(res.json.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect((await getReview(draftId)).json).toMatchObject({ id: requestId, status: "created", is_open: false });
      expect(await mailAbout(requestId)).toEqual([]);
    });
  }

  test("someone else's draft: 403; anonymous: 401; the review stays created", async () => {
    const draftId = await newDraft();
    expectStatus(await putReview(draftId, ocean.id), 200);
    expectStatus(await submitReview(draftId, "bob"), 403);
    expectStatus(await submitReview(draftId, "curator"), 403);
    expectStatus(await submitReview(draftId, "anonymous"), 401);
    expect((await getReview(draftId)).json.status).toBe("created");
  });
});

describe("while the review is open", () => {
  let draftId = "";
  let requestId = "";
  beforeAll(async () => ({ draftId, requestId } = await submitted()));

  test("the owner may not publish the draft directly: 400", async () => {
    const res = await t.call("POST", `/api/records/${draftId}/draft/actions/publish`, { as: "alice" });
    expectStatus(res, 400);
    expect(typeof res.json.message).toBe("string");
    expectStatus(await t.call("GET", `/api/records/${draftId}/draft`, { as: "alice" }), 200);
    expect(await statusOf(requestId)).toBe("submitted");
  });

  const readers: [who: Role, draft: number, request: number][] = [
    ["curator", 200, 200],
    ["manager", 200, 200],
    ["owner", 200, 200],
    ["admin", 200, 200],
    ["reader", 403, 403],
    ["bob", 403, 403],
    ["anonymous", 401, 401],
  ];
  for (const [who, draftStatus, requestStatus] of readers) {
    test(`${who} reads the draft -> ${draftStatus} and the request -> ${requestStatus}`, async () => {
      const draft = await t.call("GET", `/api/records/${draftId}/draft`, { as: who });
      expectStatus(draft, draftStatus);
      if (draftStatus === 200) expect(draft.json).toMatchObject({ id: draftId, is_published: false });
      const request = await readRequest(requestId, who);
      expectStatus(request, requestStatus);
      if (requestStatus === 200) expect(request.json).toMatchObject({ id: requestId, status: "submitted", topic: { record: draftId } });
    });
  }

  test("the curators see accept and decline among the request's actions, the submitter cancel", async () => {
    expect(Object.keys((await readRequest(requestId, "curator")).json.links.actions).sort()).toEqual(["accept", "decline"]);
    expect(Object.keys((await readRequest(requestId, "alice")).json.links.actions)).toEqual(["cancel"]);
  });
});

describe("actions on a submitted review: who may", () => {
  const callers: Role[] = ["alice", "curator", "manager", "owner", "reader", "bob", "anonymous", "admin"];
  const allowed: Record<string, { who: Role[]; status: string }> = {
    accept: { who: ["curator", "manager", "owner"], status: "accepted" },
    decline: { who: ["curator", "manager", "owner"], status: "declined" },
    cancel: { who: ["alice"], status: "cancelled" },
  };
  for (const [name, rule] of Object.entries(allowed)) {
    for (const who of callers) {
      const ok = rule.who.includes(who);
      const expected = ok ? 200 : who === "anonymous" ? 401 : 403;
      test(`${name} by ${who === "alice" ? "the submitter (alice)" : who} -> ${expected}, then ${ok ? rule.status : "still submitted"}`, async () => {
        const { draftId, requestId } = await submitted();
        const res = await action(who, requestId, name, comment(`<p>${name} by ${who}</p>`));
        expectStatus(res, expected);
        if (ok) expect(res.json).toMatchObject({ id: requestId, status: rule.status, is_open: false, is_closed: true });
        else expect(res.json).toMatchObject({ status: expected });
        expect(await statusOf(requestId)).toBe(ok ? rule.status : "submitted");
        // Only an accepted review publishes the record.
        const draft = await t.call("GET", `/api/records/${draftId}/draft`, { as: "alice" });
        expectStatus(draft, ok && name === "accept" ? 404 : 200);
      });
    }
  }
});

describe("accept, decline, cancel: what follows", () => {
  test("accept publishes the record into the community at once", async () => {
    const { draftId, requestId } = await submitted();
    const res = await action("curator", requestId, "accept", comment("<p>Welcome</p>"));
    expectStatus(res, 200);
    expect(res.json).toMatchObject({ id: requestId, status: "accepted", is_open: false, is_closed: true });
    const record = await t.call("GET", `/api/records/${draftId}`);
    expectStatus(record, 200);
    expect(record.json.id).toBe(draftId);
    expect(record.json.is_published).toBe(true);
    expect(record.json.parent.communities.ids).toContain(ocean.id);
    expect(record.json.parent.communities.default).toBe(ocean.id);
    expect(await communityRecords(ocean.id)).toContain(draftId);
    expect(await communityRecords(ocean.slug)).toContain(draftId);
    const events = await timeline(requestId);
    expect(events.filter((e) => e.type === "L").map((e) => e.payload.event)).toContain("accepted");
    expect(events.filter((e) => e.type === "C").map((e) => e.payload.content)).toContain("<p>Welcome</p>");
    expectStatus(await t.call("GET", `/api/records/${draftId}/draft`, { as: "alice" }), 404);
    expect(await communityRecords(river.id)).not.toContain(draftId);
  });

  test("decline: the draft stays and can be edited; submit-review again opens a new request; the old one stays declined", async () => {
    const { draftId, requestId } = await submitted();
    const res = await action("manager", requestId, "decline", comment("<p>Add a description</p>"));
    expectStatus(res, 200);
    expect(res.json).toMatchObject({ id: requestId, status: "declined", is_open: false, is_closed: true });
    const draft = await t.call("GET", `/api/records/${draftId}/draft`, { as: "alice" });
    expectStatus(draft, 200);
    expect(draft.json.is_published).toBe(false);
    const body = publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Sea surface temperature, revised", description: "Now described." } });
    const updated = await t.call("PUT", `/api/records/${draftId}/draft`, { as: "alice", body });
    expectStatus(updated, 200);
    expect(updated.json.metadata.title).toBe("Sea surface temperature, revised");
    const again = await submitReview(draftId, "alice", comment("<p>Described now</p>"));
    expectStatus(again, 202);
    expect(again.json).toMatchObject({ status: "submitted", is_open: true, receiver: { community: ocean.id }, topic: { record: draftId }, type: "community-submission" });
    expect(again.json.id).not.toBe(requestId);
    expect(await statusOf(requestId)).toBe("declined");
    expect((await getReview(draftId)).json).toMatchObject({ id: again.json.id, status: "submitted" });
    expect((await timeline(again.json.id)).filter((e) => e.type === "C").map((e) => e.payload.content)).toEqual(["<p>Described now</p>"]);
    // Not published by the decline.
    expect(await communityRecords(ocean.id)).not.toContain(draftId);
  });

  test("cancel: the owner can then publish the draft directly, outside the community", async () => {
    const { draftId, requestId } = await submitted();
    const res = await action("alice", requestId, "cancel");
    expectStatus(res, 200);
    expect(res.json).toMatchObject({ id: requestId, status: "cancelled", is_open: false, is_closed: true });
    const published = await t.call("POST", `/api/records/${draftId}/draft/actions/publish`, { as: "alice" });
    expectStatus(published, 202);
    expect(published.json).toMatchObject({ id: draftId, is_published: true });
    const record = (await t.call("GET", `/api/records/${draftId}`)).json;
    expect(record.parent.communities.ids ?? []).not.toContain(ocean.id);
    expect(await communityRecords(ocean.id)).not.toContain(draftId);
    expect(await statusOf(requestId)).toBe("cancelled");
  });

  test("a closed review cannot be acted on again: 400", async () => {
    const { requestId } = await submitted();
    expectStatus(await action("curator", requestId, "decline"), 200);
    expectStatus(await action("curator", requestId, "accept"), 400);
    expect(await statusOf(requestId)).toBe("declined");
  });
});

describe("the community's record policy", () => {
  const published = async (draftId: string, communityId: string) => {
    const record = await t.call("GET", `/api/records/${draftId}`);
    expectStatus(record, 200);
    expect(record.json.is_published).toBe(true);
    expect(record.json.parent.communities.ids).toContain(communityId);
    expect(await communityRecords(communityId)).toContain(draftId);
  };

  for (const member of ["reader", "curator"] as const) {
    test(`open: a member (${member}) submitting is accepted at once, the record published into the community`, async () => {
      const open = await community({ recordPolicy: "open" });
      const draftId = await newDraft(member);
      expectStatus(await putReview(draftId, open.id, member), 200);
      const res = await submitReview(draftId, member);
      expectStatus(res, 202);
      expect(res.json).toMatchObject({ status: "accepted", is_open: false, is_closed: true, receiver: { community: open.id }, topic: { record: draftId } });
      await published(draftId, open.id);
      expectStatus(await t.call("GET", `/api/records/${draftId}/draft`, { as: member }), 404);
    });
  }

  test("open: a non-member submitting waits for review", async () => {
    const open = await community({ recordPolicy: "open" });
    const { draftId, requestId } = await submitted(open.id, "alice");
    expect(await statusOf(requestId)).toBe("submitted");
    expect(await communityRecords(open.id)).not.toContain(draftId);
    expect((await t.call("GET", `/api/records/${draftId}/draft`, { as: "alice" })).json.is_published).toBe(false);
  });

  for (const member of ["owner", "curator", "reader"] as const) {
    test(`closed: even the community's ${member} submitting waits for review`, async () => {
      const closed = await community({ recordPolicy: "closed" });
      const draftId = await newDraft(member);
      expectStatus(await putReview(draftId, closed.id, member), 200);
      const res = await submitReview(draftId, member);
      expectStatus(res, 202);
      expect(res.json).toMatchObject({ status: "submitted", is_open: true });
      expect(await communityRecords(closed.id)).not.toContain(draftId);
      expect((await t.call("GET", `/api/records/${draftId}/draft`, { as: member })).json.is_published).toBe(false);
    });
  }

  test("closed: a curator's accept still publishes", async () => {
    const closed = await community({ recordPolicy: "closed" });
    const { draftId, requestId } = await submitted(closed.id, "alice");
    expectStatus(await action("owner", requestId, "accept"), 200);
    await published(draftId, closed.id);
  });
});

describe("mail", () => {
  test("a submission reaches the community's curators, managers and owners, not its readers nor the submitter", async () => {
    const { requestId } = await submitted();
    expect([...(await mailAbout(requestId))].sort()).toEqual(["curator@example.org", "manager@example.org", "owner@example.org"]);
  });

  test("a review only created (not submitted) sends no mail", async () => {
    const draftId = await newDraft();
    const requestId = (await putReview(draftId, ocean.id)).json.id;
    expect(await mailAbout(requestId)).toEqual([]);
  });

  for (const [name, who] of [
    ["accept", "curator"],
    ["decline", "manager"],
  ] as const) {
    test(`on ${name} the submitter is mailed (not the ${who} who acted)`, async () => {
      const { requestId } = await submitted();
      const before = (await mailAbout(requestId)).length;
      expectStatus(await action(who, requestId, name), 200);
      const after = (await mailAbout(requestId)).slice(before);
      expect(after).toContain("alice@example.org");
      expect(after).not.toContain(`${who}@example.org`);
      expect(after).not.toContain("reader@example.org");
    });
  }
});
