// The requests API, writing: actions with comments, edits, deletion, comments and the timeline,
// bad input as 4xx, the daily expiry on the injected clock, and who gets mail for each event.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { DAY_MS } from "../../src/core/time";
import { hookCalls, type Party } from "../helpers/requests";
import { MINUTE_MS, requestScenarios, setUpRequests, type Fixture } from "../helpers/requests-fixture";

let f: Fixture;
beforeAll(async () => (f = await setUpRequests()));
afterAll(() => f.t.close());
const rows = requestScenarios(() => f);

/** A fresh open review by alice to the ocean community. */
const review = async (title = "A review", submit = true) =>
  (await f.t.requests.createRequest(f.t.actorOf("alice"), { type: "test-review", receiver: { kind: "community", id: f.ocean }, title, submit })).id;
const call = (who: Party, method: string, path: string, body?: unknown) => f.t.callAs(who, method, path, body === undefined ? {} : { body });
/** Recipients of the mail queued about a request, in order. */
const mailTo = async (id: string) => (await f.t.outbox()).filter((m) => m.topic === `request:${id}`).map((m) => m.recipient);
const comment = (content: string) => ({ payload: { content, format: "html" } });

describe("actions", () => {
  test("accept with a comment: 200, the request, log and comment in the timeline, the hook run", async () => {
    const id = await review();
    const res = await call("curator", "POST", `/api/requests/${id}/actions/accept`, comment("<p>Welcome <script>alert(1)</script></p>"));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, status: "accepted", is_open: false, is_closed: true, revision_id: 3, links: { actions: {} } });
    expect(res.headers.get("etag")).toBe('"3"');
    const timeline = (await call("alice", "GET", `/api/requests/${id}/timeline`)).json;
    expect(timeline.hits.hits.map((e: any) => [e.type, e.payload])).toEqual([
      ["L", { event: "submitted" }],
      ["L", { event: "accepted" }],
      ["C", { content: "<p>Welcome </p>", format: "html" }],
    ]);
    expect(hookCalls).toContainEqual({ type: "test-review", action: "accept", request: id });
  });

  test("without a body, with an empty one, or with only other members", async () => {
    for (const body of [undefined, {}, { other: 1 }]) {
      const res = await call("curator", "POST", `/api/requests/${await review()}/actions/decline`, body);
      expect(res.status).toBe(200);
      expect(res.json.status).toBe("declined");
    }
  });

  test("the creator submits a draft, then cancels it", async () => {
    const id = await review("Draft", false);
    expect((await call("alice", "POST", `/api/requests/${id}/actions/submit`)).json).toMatchObject({ status: "submitted", expires_at: "2026-12-22T13:00:00.000000+00:00" });
    expect((await call("alice", "POST", `/api/requests/${id}/actions/cancel`)).json.status).toBe("cancelled");
  });

  const open = () => review();
  test.each([
    ["a state that does not allow it", "alice", "declined", "accept", 400, "The action 'accept' is not possible on a request in the state 'declined' (only in: submitted)."],
    ["the creator accepting", "alice", "open", "accept", 403, "Permission denied."],
    ["the receiver cancelling", "curator", "open", "cancel", 403, "Permission denied."],
    ["expire by a user", "manager", "open", "expire", 403, "Permission denied."],
    ["an administrator", "admin", "open", "accept", 403, "Permission denied."],
    ["no party", "bob", "open", "accept", 403, "Permission denied."],
    ["an unknown action", "curator", "open", "approve", 400, "No action 'approve' on requests; the actions are: submit, accept, decline, cancel, expire."],
    ["anonymous", "anonymous", "open", "accept", 401, undefined],
  ] as const)("%s: %s %s/%s -> %d", async (_name, who, which, action, status, message) => {
    const id = which === "open" ? await open() : f.ids[which]!;
    const res = await call(who, "POST", `/api/requests/${id}/actions/${action}`);
    expect({ status: res.status, body: res.json }).toMatchObject({ status, body: message ? { status, message } : { status } });
    if (which === "open") expect((await f.t.requests.findRequest(id))?.status).toBe("submitted");
  });

  test("a hook that refuses: 400 with its message, nothing changed", async () => {
    const id = (
      await f.t.requests.createRequest(f.t.actorOf("manager"), {
        type: "test-invite",
        createdBy: { kind: "community", id: f.ocean },
        receiver: { kind: "user", id: String(f.t.userIds.bob) },
        payload: { refuse: true },
        submit: true,
      })
    ).id;
    const res = await call("bob", "POST", `/api/requests/${id}/actions/accept`, comment("yes"));
    expect(res.json).toEqual({ status: 400, message: "This invitation cannot be accepted." });
    expect((await call("bob", "GET", `/api/requests/${id}/timeline`)).json.hits.total).toBe(1);
  });

  rows([
    {
      name: "not JSON",
      as: "curator",
      method: "POST",
      url: "/api/requests/{open}/actions/accept",
      rawBody: "{",
      headers: { "content-type": "application/json" },
      status: 400,
      json: { message: "Unable to decode JSON data in request body." },
    },
    { name: "a list", as: "curator", method: "POST", url: "/api/requests/{open}/actions/accept", body: [1], status: 400 },
    {
      name: "payload not an object",
      as: "curator",
      method: "POST",
      url: "/api/requests/{open}/actions/accept",
      body: { payload: "hi" },
      status: 400,
      json: { errors: [{ field: "payload", messages: ["Must be an object, not a string."] }] },
    },
    {
      name: "content not a string",
      as: "curator",
      method: "POST",
      url: "/api/requests/{open}/actions/accept",
      body: { payload: { content: 5 } },
      status: 400,
      json: { errors: [{ field: "payload.content" }] },
    },
    {
      name: "another format",
      as: "curator",
      method: "POST",
      url: "/api/requests/{open}/actions/accept",
      body: { payload: { content: "x", format: "markdown" } },
      status: 400,
      json: { errors: [{ field: "payload.format", messages: ["Must be one of: html."] }] },
    },
    { name: "an unknown request", as: "curator", method: "POST", url: "/api/requests/00000000-0000-4000-8000-000000000000/actions/accept", status: 404 },
    { name: "a text body", as: "curator", method: "POST", url: "/api/requests/{open}/actions/accept", rawBody: "hi", headers: { "content-type": "text/plain" }, status: 415 },
  ]);
});

describe("editing and deleting requests", () => {
  test("the creator edits title and description; read-only members are ignored; revision and ETag move", async () => {
    const id = await review("Before");
    const res = await call("alice", "PUT", `/api/requests/${id}`, { title: "  After ", description: "More words", status: "accepted", id: "x" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, title: "After", description: "More words", status: "submitted", revision_id: 3 });
    expect(res.headers.get("etag")).toBe('"3"');
  });
  test("If-Match of another revision: 412", async () => {
    const res = await f.t.callAs("alice", "PUT", `/api/requests/${await review()}`, { body: { title: "x" }, headers: { "if-match": '"1"' } });
    expect(res.status).toBe(412);
  });
  rows([
    { name: "the receiver", as: "curator", method: "PUT", url: "/api/requests/{open}", body: { title: "Mine" }, status: 403 },
    {
      name: "a closed request",
      as: "alice",
      method: "PUT",
      url: "/api/requests/{declined}",
      body: { title: "Again" },
      status: 400,
      json: { message: "A request in the state 'declined' can no longer be edited (only in: created, submitted)." },
    },
    {
      name: "a title of the wrong type",
      as: "alice",
      method: "PUT",
      url: "/api/requests/{open}",
      body: { title: 5 },
      status: 400,
      json: { errors: [{ field: "title", messages: ["Must be a string, not a number."] }] },
    },
    { name: "a title too long", as: "alice", method: "PUT", url: "/api/requests/{open}", body: { title: "x".repeat(251) }, status: 400, json: { errors: [{ field: "title" }] } },
    { name: "not JSON", as: "alice", method: "PUT", url: "/api/requests/{open}", rawBody: "nope", headers: { "content-type": "application/json" }, status: 400 },
    { name: "anonymous", method: "PUT", url: "/api/requests/{open}", body: { title: "x" }, status: 401 },
    {
      name: "deleting an open request",
      as: "alice",
      method: "DELETE",
      url: "/api/requests/{open}",
      status: 400,
      json: { message: "The action 'delete' is not possible on a request in the state 'submitted' (only in: created)." },
    },
    { name: "deleting someone's draft", as: "bob", method: "DELETE", url: "/api/requests/{draft}", status: 403 },
    { name: "deleting, anonymous", method: "DELETE", url: "/api/requests/{draft}", status: 401 },
  ]);
  test("the creator deletes a draft: 204, then 404", async () => {
    const id = await review("Draft", false);
    const res = await call("alice", "DELETE", `/api/requests/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await call("alice", "GET", `/api/requests/${id}`)).status).toBe(404);
  });
});

describe("comments", () => {
  test("a party comments: 201, the event; it is sanitised; others and administrators may not", async () => {
    const id = await review();
    const res = await call("alice", "POST", `/api/requests/${id}/comments`, comment('<p onclick="x">Data <a href="javascript:x">here</a></p>'));
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: res.json.id,
      type: "C",
      created_by: { user: String(f.t.userIds.alice) },
      payload: { content: "<p>Data <a>here</a></p>", format: "html" },
      created: "2026-11-22T13:00:00.000000+00:00",
      updated: "2026-11-22T13:00:00.000000+00:00",
      revision_id: 1,
      links: { self: `${f.base}/api/requests/${id}/comments/${res.json.id}` },
    });
    expect((await call("curator", "POST", `/api/requests/${id}/comments`, comment("Thanks"))).status).toBe(201);
    expect((await call("bob", "POST", `/api/requests/${id}/comments`, comment("Me too"))).status).toBe(403);
    expect((await call("admin", "POST", `/api/requests/${id}/comments`, comment("Moderator"))).status).toBe(403);
    expect((await call("anonymous", "POST", `/api/requests/${id}/comments`, comment("Hi"))).status).toBe(401);
  });

  rows([
    {
      name: "no payload",
      as: "alice",
      method: "POST",
      url: "/api/requests/{open}/comments",
      body: {},
      status: 400,
      json: { errors: [{ field: "payload", messages: ["Missing data for required field."] }] },
    },
    { name: "no content", as: "alice", method: "POST", url: "/api/requests/{open}/comments", body: { payload: {} }, status: 400, json: { errors: [{ field: "payload.content" }] } },
    {
      name: "only markup",
      as: "alice",
      method: "POST",
      url: "/api/requests/{open}/comments",
      body: comment("<script>x</script>"),
      status: 400,
      json: { errors: [{ field: "payload.content", messages: ["A comment needs some text."] }] },
    },
    { name: "an unknown comment", as: "alice", method: "GET", url: "/api/requests/{open}/comments/00000000-0000-4000-8000-000000000000", status: 404 },
  ]);

  test("read, edit and delete: only the author changes a comment; a deleted one becomes a blank log event", async () => {
    const id = await review();
    const made = (await call("alice", "POST", `/api/requests/${id}/comments`, comment("First"))).json;
    const url = `/api/requests/${id}/comments/${made.id}`;
    expect((await call("curator", "GET", url)).json.payload.content).toBe("First");
    expect((await call("bob", "GET", url)).status).toBe(403);
    f.t.clock.advance(MINUTE_MS);
    const edited = await call("alice", "PUT", url, comment("<b>Second</b>"));
    expect(edited.json).toMatchObject({
      payload: { content: "<b>Second</b>" },
      revision_id: 2,
      updated: "2026-11-22T13:01:00.000000+00:00",
      created: "2026-11-22T13:00:00.000000+00:00",
    });
    expect((await call("curator", "PUT", url, comment("Hijack"))).status).toBe(403);
    expect((await call("curator", "DELETE", url)).status).toBe(403);
    expect((await call("alice", "PUT", url, { payload: { content: [] } })).status).toBe(400);
    expect((await call("alice", "DELETE", url)).status).toBe(204);
    expect((await call("alice", "GET", url)).json).toMatchObject({ id: made.id, type: "L", payload: { event: "comment_deleted", content: "" } });
    expect((await call("alice", "PUT", url, comment("Back"))).json).toMatchObject({
      status: 400,
      message: "Only comments can be changed; this event is a log event ('comment_deleted').",
    });
    f.t.clock.advance(-MINUTE_MS);
  });
});

describe("the timeline", () => {
  test("oldest first by default, newest on request, paged", async () => {
    const id = await review();
    for (const text of ["one", "two", "three"]) {
      f.t.clock.advance(1000);
      await call("alice", "POST", `/api/requests/${id}/comments`, comment(text));
    }
    const all = (await call("curator", "GET", `/api/requests/${id}/timeline`)).json;
    expect(all).toMatchObject({ hits: { total: 4 }, sortBy: "oldest" });
    expect(all.hits.hits.map((e: any) => e.payload.event ?? e.payload.content)).toEqual(["submitted", "one", "two", "three"]);
    const newest = (await call("curator", "GET", `/api/requests/${id}/timeline?sort=newest&size=2&page=2`)).json;
    expect(newest.hits.hits.map((e: any) => e.payload.event ?? e.payload.content)).toEqual(["one", "submitted"]);
    expect(newest.links.prev).toBe(`${f.base}/api/requests/${id}/timeline?sort=newest&page=1&size=2`);
    expect((await call("bob", "GET", `/api/requests/${id}/timeline`)).status).toBe(403);
    expect((await call("anonymous", "GET", `/api/requests/${id}/timeline`)).status).toBe(401);
    expect((await call("alice", "GET", `/api/requests/${id}/timeline?sort=bestmatch`)).status).toBe(400);
  });
});

describe("notifications: the other parties, never the one who acted", () => {
  test("submitting reaches the community's curators, managers and owners", async () => {
    expect((await mailTo(f.ids.open!)).slice(0, 3).sort()).toEqual(["curator@example.org", "manager@example.org", "owner@example.org"]);
  });
  test("accept and decline reach the creator; cancel reaches the receiver", async () => {
    const accepted = await review();
    await call("curator", "POST", `/api/requests/${accepted}/actions/accept`);
    expect((await mailTo(accepted)).slice(3)).toEqual(["alice@example.org"]);
    const cancelled = await review();
    await call("alice", "POST", `/api/requests/${cancelled}/actions/cancel`);
    expect((await mailTo(cancelled)).slice(3).sort()).toEqual(["curator@example.org", "manager@example.org", "owner@example.org"]);
    const subject = (await f.t.outbox()).find((m) => m.topic === `request:${accepted}` && m.recipient === "alice@example.org")!.subject;
    expect(subject).toBe('[Cairn] Request "A review" was accepted');
  });
  test("a comment reaches every other party: a curator's reaches the creator and the other curators", async () => {
    const id = await review();
    await call("curator", "POST", `/api/requests/${id}/comments`, comment("<p>Looks good</p>"));
    const mail = (await f.t.outbox()).filter((m) => m.topic === `request:${id}`).slice(3);
    expect(mail.map((m) => m.recipient).sort()).toEqual(["alice@example.org", "manager@example.org", "owner@example.org"]);
    expect(mail[0]!.body).toContain("Looks good");
  });
  test("a type's own text; an invitation reaches the invited user, the answer the community", async () => {
    const id = f.ids.invite!;
    expect(await mailTo(id)).toEqual(["carol@example.org"]);
    await call("carol", "POST", `/api/requests/${id}/actions/accept`);
    const mail = (await f.t.outbox()).filter((m) => m.topic === `request:${id}`);
    expect(
      mail
        .slice(1)
        .map((m) => m.recipient)
        .sort(),
    ).toEqual(["curator@example.org", "manager@example.org", "owner@example.org"]);
    expect(mail[1]).toMatchObject({ subject: "Invitation accepted", body: `Carol Chen: accepted ${f.base}/requests/${id}` });
  });
});

describe("expiry: the daily job on the injected clock", () => {
  test("the job runs at 00:03", () => expect(f.t.services.jobs.registry.get("requests-expire")?.schedule).toEqual({ dailyAt: "00:03" }));

  test("open requests past expires_at expire once, with a log event by the system and mail to both sides", async () => {
    const id = await review("Old question");
    const fresh = await review("New question");
    f.t.clock.advance(29 * DAY_MS);
    const young = await review("Young");
    f.t.clock.advance(2 * DAY_MS);
    const before = (await f.t.outbox()).length;
    await f.t.services.jobs.runNow(systemActor, "requests-expire");
    for (const expired of [id, fresh]) expect((await f.t.requests.findRequest(expired))?.status).toBe("expired");
    expect((await f.t.requests.findRequest(young))?.status).toBe("submitted");
    const read = (await call("alice", "GET", `/api/requests/${id}`)).json;
    expect(read).toMatchObject({ status: "expired", is_open: false, is_closed: true, is_expired: true, links: { actions: {} } });
    const events = (await call("alice", "GET", `/api/requests/${id}/timeline`)).json.hits.hits;
    expect(events.at(-1)).toMatchObject({ type: "L", payload: { event: "expired" }, created_by: { user: "system" } });
    expect((await mailTo(id)).slice(3).sort()).toEqual(["alice@example.org", "curator@example.org", "manager@example.org", "owner@example.org"]);
    const after = (await f.t.outbox()).length;
    expect(after).toBeGreaterThan(before);
    // Again: nothing left to expire, no more mail.
    const again = await f.t.services.jobs.runNow(systemActor, "requests-expire");
    expect(again.result).toMatchObject({ expired: 0 });
    expect((await f.t.outbox()).length).toBe(after);
    expect((await call("curator", "POST", `/api/requests/${id}/actions/accept`)).status).toBe(400);
    f.t.clock.advance(-31 * DAY_MS);
  });
});

describe("a community being deleted (the communities module's onDelete hook)", () => {
  test("its drafts go and its open requests are cancelled by the system", async () => {
    const draft = (await f.t.requests.createRequest(f.t.actorOf("bob"), { type: "test-review", receiver: { kind: "community", id: f.river } })).id;
    const open = (await f.t.requests.createRequest(f.t.actorOf("bob"), { type: "test-review", receiver: { kind: "community", id: f.river }, submit: true })).id;
    const elsewhere = await review("Another community's");
    await f.t.requests.closeCommunityRequests({ id: f.river }, f.t.clock.now());
    expect(await f.t.requests.findRequest(draft)).toBeNull();
    expect((await f.t.requests.findRequest(open))?.status).toBe("cancelled");
    expect((await f.t.requests.readTimeline(systemActor, open, {})).hits.hits.at(-1)).toMatchObject({ payload: { event: "cancelled" }, created_by: { user: "system" } });
    expect((await f.t.requests.findRequest(elsewhere))?.status).toBe("submitted");
  });
});

describe("for other modules", () => {
  test("updatePayload changes a draft or open request's payload with the next revision; a closed one is refused", async () => {
    const id = await review();
    await f.t.requests.updatePayload(id, { role: "curator" }, f.t.clock.now());
    expect((await f.t.requests.findRequest(id))?.payload).toEqual({ role: "curator" });
    expect((await f.t.requests.presentFor(f.t.actorOf("alice"), id)).revision_id).toBe(3);
    await expect(f.t.requests.updatePayload(f.ids.declined!, {}, f.t.clock.now())).rejects.toThrow("A request in the state 'declined' can no longer be changed.");
  });

  test("findRequests looks up by type, party, topic and openness", async () => {
    const found = await f.t.requests.findRequests({ type: "test-invite", createdBy: { kind: "community", id: f.ocean }, topic: { kind: "community", id: f.ocean } });
    expect(found.map((r) => r.id)).toContain(f.ids.invite!);
    expect((await f.t.requests.findRequests({ receiver: { kind: "user", id: String(f.t.userIds.carol) }, openOnly: true })).map((r) => r.id)).not.toContain(f.ids.invite!);
  });
});
