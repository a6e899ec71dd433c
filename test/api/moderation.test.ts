// Moderation of new accounts (issue 32, ACCOUNTS_MODERATION=first-publish): an account neither
// verified nor an administrator has its publications held in one open `user-moderation` request
// (topic: the account; receiver: the administrators), the drafts not public, not searchable, not
// harvested, shown to their owner as awaiting moderation. Approving — by accepting the request, by
// POST /api/users/{id}/approve, or by `cairn users approve` — publishes them and verifies the
// account (its next publication goes straight through); blocking — by declining the request or by
// POST /api/users/{id}/block — blocks the account and tombstones what it published (reason spam),
// the held drafts staying unpublished. Administrators and verified accounts are never held; with
// moderation off nothing changes. Refusals: other users and the owner cannot act on the request.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { cairn } from "../helpers/cli";
import { createDraft, publishableDraft } from "../helpers/records";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ACCOUNTS_MODERATION: "first-publish" });
});
afterAll(() => t.close());

let made = 0;
/** A fresh account with a token (each test its own). */
async function person(app: TestApp = t) {
  const name = `person${++made}`;
  const user = await app.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
  const { secret } = await app.services.tokens.createToken(systemActor, { userId: user.id, name: "token" });
  return { id: user.id, name, email: user.email, token: secret };
}
type Person = Awaited<ReturnType<typeof person>>;

const titled = (title: string) => publishableDraft({ metadata: { ...publishableDraft().metadata, title } });

/** A draft of `who` with this title; its id. */
async function draftOf(who: Person, title: string, app: TestApp = t): Promise<string> {
  const res = await app.call("POST", "/api/records", { token: who.token, body: titled(title) });
  expectStatus(res, 201);
  return res.json.id;
}

const publish = (id: string, token: string, app: TestApp = t) => app.call("POST", `/api/records/${id}/draft/actions/publish`, { token });

/** The account's open user-moderation requests (the engine's view, payload included). */
const openRequests = (userId: number) => t.services.requests.findRequests({ type: "user-moderation", topic: { kind: "user", id: String(userId) }, openOnly: true });

/** POST /api/requests/{id}/actions/{action} with a token. */
const act = (requestId: string, action: string, token?: string) => t.call("POST", `/api/requests/${requestId}/actions/${action}`, { token });

const adminToken = () => t.users.admin.token;
const publicStatus = async (id: string) => (await t.call("GET", `/api/records/${id}`)).status;
const verifiedAt = async (id: number) => (await t.services.users.findUserById(id))!.verifiedAt;
/** The outbox's mail about the request: [recipient, subject], oldest first. */
const mailAbout = async (requestId: string) =>
  (await t.services.mail.searchOutbox(systemActor, { size: 100 })).messages
    .filter((m) => m.topic === `request:${requestId}`)
    .map((m) => [m.recipient, m.subject])
    .reverse();
const auditOf = async (id: number) =>
  (await t.services.audit.search(systemActor, { targetId: String(id) })).entries.map((e) => ({ action: e.action, via: e.via, details: e.details }));

/** A new account's first draft published, held: the 202 answer and its open request. */
async function held(who: Person, title: string) {
  const id = await draftOf(who, title);
  const res = await publish(id, who.token);
  expectStatus(res, 202);
  const [request] = await openRequests(who.id);
  return { id, res, request: request! };
}

describe("a new account's first publication is held", () => {
  test("202 with the draft awaiting moderation; not public, not searched, not harvested; one open request for the account", async () => {
    const p = await person();
    const { id, res, request } = await held(p, "Held upload one");
    expect(res.json).toMatchObject({ id, is_published: false, is_draft: true, status: "awaiting_moderation", links: { self: `http://127.0.0.1:5000/api/records/${id}/draft` } });
    expect(await publicStatus(id)).toBe(404);
    expect((await t.call("GET", "/api/records?q=%22Held%20upload%20one%22")).json.hits.total).toBe(0);
    expect((await t.call("GET", "/api/records?q=%22Held%20upload%20one%22", { token: adminToken() })).json.hits.total).toBe(0);
    const oai = await t.call("GET", `/oai2d?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:127.0.0.1:${id}`);
    expect(oai.text).toContain('code="idDoesNotExist"');
    // The owner sees the state on the draft and in their uploads.
    expect((await t.call("GET", `/api/records/${id}/draft`, { token: p.token })).json.status).toBe("awaiting_moderation");
    const mine = await t.call("GET", "/api/user/records", { token: p.token });
    expect(mine.json.hits.hits.map((h: any) => [h.id, h.status])).toEqual([[id, "awaiting_moderation"]]);
    expect(request).toMatchObject({
      type: "user-moderation",
      status: "submitted",
      createdBy: { kind: "user", id: String(p.id) },
      receiver: { kind: "group", id: "administration-moderation" },
      topic: { kind: "user", id: String(p.id) },
      payload: { drafts: [id] },
    });
    expect(await verifiedAt(p.id)).toBeNull();
    // The administrators are told (the only administrator of this app).
    expect(await mailAbout(request.id)).toEqual([["admin@example.org", "[Cairn] A new account awaits moderation"]]);

    // A second publication joins the same request; publishing the held draft again changes nothing.
    const second = await draftOf(p, "Held upload two");
    expect((await publish(second, p.token)).json.status).toBe("awaiting_moderation");
    expectStatus(await publish(id, p.token), 202);
    const open = await openRequests(p.id);
    expect(open.map((r) => [r.id, r.payload])).toEqual([[request.id, { drafts: [id, second] }]]);
  });

  test("administrators see the request in the requests search; other users do not; the owner reads it without actions", async () => {
    const p = await person();
    const { request } = await held(p, "Held upload seen");
    const listed = await t.call("GET", `/api/requests?type=user-moderation&q=${encodeURIComponent(request.title)}&size=100`, { token: adminToken() });
    expectStatus(listed, 200);
    const mine = listed.json.hits.hits.find((h: any) => h.id === request.id);
    expect(mine).toMatchObject({ type: "user-moderation", status: "submitted", topic: { user: String(p.id) }, receiver: { group: "administration-moderation" } });
    expect(Object.keys(mine.links.actions).sort()).toEqual(["accept", "decline"]);
    const other = await person();
    expect((await t.call("GET", "/api/requests?type=user-moderation", { token: other.token })).json.hits.total).toBe(0);
    expectStatus(await t.call("GET", `/api/requests/${request.id}`, { token: other.token }), 403);
    const own = await t.call("GET", `/api/requests/${request.id}`, { token: p.token });
    expectStatus(own, 200);
    expect(own.json.links.actions).toEqual({});
  });

  test("refusals: another user (403), the owner accepting or declining their own (403), anonymous (401); nothing changes", async () => {
    const p = await person();
    const { id, request } = await held(p, "Held upload refused");
    const other = await person();
    expectStatus(await act(request.id, "accept", other.token), 403);
    expectStatus(await act(request.id, "accept", p.token), 403);
    expectStatus(await act(request.id, "decline", p.token), 403);
    expectStatus(await act(request.id, "cancel", p.token), 403);
    expectStatus(await act(request.id, "accept"), 401);
    expect((await openRequests(p.id)).map((r) => r.id)).toEqual([request.id]);
    expect(await publicStatus(id)).toBe(404);
    expect(await verifiedAt(p.id)).toBeNull();
  });
});

describe("approve: each way in publishes the held drafts and verifies the account", () => {
  /** After approval: the drafts public, the request accepted, the account verified, its next publication direct. */
  async function expectApproved(p: Person, ids: string[], requestId: string) {
    for (const id of ids) expect(await publicStatus(id)).toBe(200);
    expect((await t.services.requests.findRequest(requestId))!.status).toBe("accepted");
    expect(await verifiedAt(p.id)).toBe(t.clock.now());
    const next = await publish(await draftOf(p, "Published at once"), p.token);
    expectStatus(next, 202);
    expect(next.json).toMatchObject({ is_published: true, status: "published" });
    expect(await openRequests(p.id)).toEqual([]);
  }

  test("accepting the request (the administrator, over the requests API); audited as user.approve via api", async () => {
    const p = await person();
    const { id, request } = await held(p, "Approved by accept");
    const second = await draftOf(p, "Approved by accept, second");
    await publish(second, p.token);
    const res = await act(request.id, "accept", adminToken());
    expectStatus(res, 200);
    expect(res.json).toMatchObject({ status: "accepted", is_closed: true });
    await expectApproved(p, [id, second], request.id);
    expect((await mailAbout(request.id)).at(-1)).toEqual([p.email, "[Cairn] Your account was approved"]);
    expect(await auditOf(p.id)).toEqual([{ action: "user.approve", via: "api", details: { email: p.email } }]);
  });

  test("POST /api/users/{id}/approve resolves the open request; audited once with it", async () => {
    const p = await person();
    const { id, request } = await held(p, "Approved by the users API");
    const res = await t.call("POST", `/api/users/${p.id}/approve`, { token: adminToken() });
    expectStatus(res, 200);
    await expectApproved(p, [id], request.id);
    expect(await auditOf(p.id)).toEqual([{ action: "user.approve", via: "api", details: { email: p.email, moderation_request: request.id } }]);
  });

  test("cairn users approve resolves the open request", async () => {
    const p = await person();
    const { id, request } = await held(p, "Approved by the CLI");
    const run = cairn(["users", "approve", "--login", p.name, "--data", t.dataDir], {}, { clock: t.clock });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    for (const draft of [id]) expect(await publicStatus(draft)).toBe(200);
    expect((await t.services.requests.findRequest(request.id))!.status).toBe("accepted");
    expect(await verifiedAt(p.id)).not.toBeNull();
    expect(await auditOf(p.id)).toEqual([{ action: "user.approve", via: "cli", details: { email: p.email, moderation_request: request.id } }]);
    const next = await publish(await draftOf(p, "After the CLI"), p.token);
    expect(next.json.is_published).toBe(true);
  });

  test("a held draft edited into an unpublishable one stays a draft; the account is approved all the same", async () => {
    const p = await person();
    const { id, request } = await held(p, "Held then broken");
    const broken = await t.call("PUT", `/api/records/${id}/draft`, { token: p.token, body: publishableDraft({ metadata: { title: "x" } }) });
    expectStatus(broken, 200);
    expectStatus(await act(request.id, "accept", adminToken()), 200);
    expect(await publicStatus(id)).toBe(404);
    expect((await t.call("GET", `/api/records/${id}/draft`, { token: p.token })).json.status).toBe("draft");
    expect(await verifiedAt(p.id)).not.toBeNull();
  });
});

describe("block: the account is blocked and what it published is tombstoned (reason spam)", () => {
  /** A record of `p` published by an administrator (never held), public. */
  async function publishedFor(p: Person, title: string) {
    const id = await draftOf(p, title);
    const res = await publish(id, adminToken());
    expect(res.json).toMatchObject({ is_published: true });
    return id;
  }

  async function expectBlocked(p: Person, publishedId: string, heldId: string, requestId: string) {
    expect((await t.services.users.findUserById(p.id))!.blockedAt).toBe(t.clock.now());
    expectStatus(await t.call("GET", "/api/user/records", { token: p.token }), 403);
    const gone = await t.call("GET", `/api/records/${publishedId}`);
    expectStatus(gone, 410);
    expect(gone.json.tombstone).toMatchObject({ removal_reason: { id: "spam", title: { en: "Spam" } }, note: "The account that published it was blocked by an administrator." });
    expect(await publicStatus(heldId)).toBe(404);
    expect((await t.services.requests.findRequest(requestId))!.status).toBe("declined");
  }

  test("declining the request; audited as user.block via api", async () => {
    const p = await person();
    const publishedId = await publishedFor(p, "Spam published by the admin");
    const { id, request } = await held(p, "Spam held");
    expectStatus(await act(request.id, "decline", adminToken()), 200);
    await expectBlocked(p, publishedId, id, request.id);
    expect(await auditOf(p.id)).toEqual([{ action: "user.block", via: "api", details: { email: p.email, tombstoned: 1, closed_requests: 0 } }]);
  });

  test("POST /api/users/{id}/block declines the open request", async () => {
    const p = await person();
    const publishedId = await publishedFor(p, "More spam");
    const { id, request } = await held(p, "More spam held");
    expectStatus(await t.call("POST", `/api/users/${p.id}/block`, { token: adminToken() }), 200);
    await expectBlocked(p, publishedId, id, request.id);
    expect(await auditOf(p.id)).toEqual([{ action: "user.block", via: "api", details: { email: p.email, moderation_request: request.id, tombstoned: 1, closed_requests: 0 } }]);
  });
});

describe("who is never held", () => {
  test("an administrator's own publication, and an administrator publishing a new account's draft", async () => {
    const own = await createDraft(t, titled("The admin's own"), { as: "admin" });
    expect((await publish(own.id, adminToken())).json).toMatchObject({ is_published: true });
    const p = await person();
    const id = await draftOf(p, "Published for them");
    expect((await publish(id, adminToken())).json).toMatchObject({ is_published: true });
    expect(await openRequests(p.id)).toEqual([]);
  });

  test("an account approved before its first publication", async () => {
    const p = await person();
    expectStatus(await t.call("POST", `/api/users/${p.id}/approve`, { token: adminToken() }), 200);
    const res = await publish(await draftOf(p, "Verified first"), p.token);
    expect(res.json).toMatchObject({ is_published: true, status: "published" });
    expect(await openRequests(p.id)).toEqual([]);
  });
});

describe("ACCOUNTS_MODERATION=off (the default)", () => {
  test("a new account publishes directly; blocking it tombstones nothing", async () => {
    const off = await createTestApp();
    try {
      const p = await person(off);
      const id = await draftOf(p, "Not moderated", off);
      const res = await publish(id, p.token, off);
      expectStatus(res, 202);
      expect(res.json).toMatchObject({ is_published: true, status: "published" });
      expect((await off.call("GET", `/api/records/${id}`)).status).toBe(200);
      expect((await off.services.requests.findRequests({ type: "user-moderation" })).length).toBe(0);
      expectStatus(await off.call("POST", `/api/users/${p.id}/block`, { token: off.users.admin.token }), 200);
      expect((await off.call("GET", `/api/records/${id}`)).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
