// The REST side of "every administrator action is audited whichever way it came": tombstone,
// restore and owner change of records, featured periods and deletion of communities, OAI-PMH sets —
// each through the API writes exactly one entry (via api, the client's address, the target); a
// refused call writes none; an owner acting on their own record or community is not administration
// and writes none.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { withClientAddress } from "../../src/core/client-address";
import { BASE_URL, createTestApp, expectStatus, type TestApp, type Who } from "../helpers/app";
import { COMMUNITY_BODY } from "../helpers/communities";
import { publishRecord } from "../helpers/records";

const ADDRESS = "198.51.100.44";
let app: TestApp;

/** A call as `as` from ADDRESS (as the server's socket would report it). */
async function api(method: string, path: string, as: Who, body?: unknown) {
  const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
  if (as !== "anonymous") headers.authorization = `Bearer ${app.users[as].token}`;
  const request = new Request(BASE_URL + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = await app.app.handle(withClientAddress(request, ADDRESS));
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

const entries = async (action: string, targetId?: string) => (await app.services.audit.search(systemActor, { action, targetId, size: "100" })).entries;
const total = async () => (await app.services.audit.search(systemActor, {})).total;
const iso = (offsetMs: number) => new Date(app.clock.now() + offsetMs).toISOString();

/** Runs `refused` calls and expects each status and no audit entry written by any of them. */
async function expectRefusedUnaudited(calls: [() => Promise<{ status: number }>, number][]) {
  const before = await total();
  for (const [call, status] of calls) expect((await call()).status).toBe(status);
  expect(await total()).toBe(before);
}

const community = async (slug: string, as: Who = "alice") => {
  app.clock.advance(1000);
  const res = await app.call("POST", "/api/communities", { as, body: COMMUNITY_BODY(slug) });
  expectStatus(res, 201);
  return res.json.id as string;
};

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("records", () => {
  test("tombstone and restore: one entry each, via api from the client's address; refusals write none", async () => {
    const id = (await publishRecord(app)).id as string;
    await expectRefusedUnaudited([
      [() => api("DELETE", `/api/records/${id}/delete`, "alice", { removal_reason: { id: "spam" } }), 403],
      [() => api("DELETE", `/api/records/${id}/delete`, "anonymous", { removal_reason: { id: "spam" } }), 401],
      [() => api("DELETE", `/api/records/${id}/delete`, "admin", { removal_reason: { id: "boredom" } }), 400],
    ]);
    expectStatus(await api("DELETE", `/api/records/${id}/delete`, "admin", { removal_reason: { id: "spam" }, note: "Advertising." }), 204);
    expect(await entries("record.tombstone", id)).toMatchObject([
      { actorId: app.users.admin.user.id, targetType: "record", targetId: id, via: "api", address: ADDRESS, details: { reason: "spam", note: "Advertising.", is_visible: true } },
    ]);
    await expectRefusedUnaudited([
      [() => api("DELETE", `/api/records/${id}/delete`, "admin", { removal_reason: { id: "spam" } }), 409],
      [() => api("POST", `/api/records/${id}/restore`, "bob"), 403],
    ]);
    expectStatus(await api("POST", `/api/records/${id}/restore`, "admin"), 200);
    expect(await entries("record.restore", id)).toMatchObject([{ targetType: "record", targetId: id, via: "api", address: ADDRESS, details: { reason: "spam" } }]);
  });

  test("owner: an administrator moving someone else's record writes one entry with both owners", async () => {
    const { alice, bob, admin } = app.users;
    const id = (await publishRecord(app)).id as string;
    expectStatus(await api("PUT", `/api/records/${id}/access`, "admin", { owned_by: { user: String(bob.user.id) } }), 200);
    expect(await entries("record.owner", id)).toMatchObject([
      { actorId: admin.user.id, targetType: "record", targetId: id, via: "api", address: ADDRESS, details: { from: alice.user.id, to: bob.user.id, draft: false } },
    ]);
  });

  test("owner: a person giving away their own record, and an administrator their own, are not administration: no entry", async () => {
    const { bob, alice } = app.users;
    const own = (await publishRecord(app)).id as string;
    const before = await total();
    expectStatus(await api("PUT", `/api/records/${own}/access`, "alice", { owned_by: { user: String(bob.user.id) } }), 200);
    const admins = (await publishRecord(app, undefined, { as: "admin" })).id as string;
    const afterPublish = await total();
    expectStatus(await api("PUT", `/api/records/${admins}/access`, "admin", { owned_by: { user: String(alice.user.id) } }), 200);
    expect(await total()).toBe(afterPublish);
    expect(afterPublish).toBe(before);
    // A settings change without a new owner is no owner change either.
    expectStatus(await api("PUT", `/api/records/${admins}/access`, "admin", { allow_user_requests: true }), 200);
    expect(await entries("record.owner", own)).toEqual([]);
    expect(await entries("record.owner", admins)).toEqual([]);
  });
});

describe("communities", () => {
  test("a featured period created, changed and removed: one entry each with its dates; refusals write none", async () => {
    const id = await community("parity-reefs");
    await expectRefusedUnaudited([
      [() => api("POST", `/api/communities/${id}/featured`, "alice", { start_date: iso(0) }), 403],
      [() => api("POST", `/api/communities/${id}/featured`, "admin", { start_date: "not a date" }), 400],
    ]);
    const created = await api("POST", `/api/communities/${id}/featured`, "admin", { start_date: iso(0), end_date: iso(3_600_000) });
    expectStatus(created, 201);
    const fid = created.json.id as number;
    expect(await entries("community.feature", id)).toMatchObject([
      {
        targetType: "community",
        targetId: id,
        via: "api",
        address: ADDRESS,
        details: { slug: "parity-reefs", featured: fid, start_date: created.json.start_date, end_date: created.json.end_date },
      },
    ]);
    const changed = await api("PUT", `/api/communities/${id}/featured/${fid}`, "admin", { start_date: iso(60_000) });
    expectStatus(changed, 200);
    const [latest, ...older] = await entries("community.feature", id);
    expect(older.length).toBe(1);
    expect(latest).toMatchObject({
      via: "api",
      address: ADDRESS,
      details: { featured: fid, start_date: changed.json.start_date, end_date: null, previous: { start_date: created.json.start_date, end_date: created.json.end_date } },
    });
    await expectRefusedUnaudited([[() => api("DELETE", `/api/communities/${id}/featured/${fid}`, "bob"), 403]]);
    expectStatus(await api("DELETE", `/api/communities/${id}/featured/${fid}`, "admin"), 204);
    expect(await entries("community.unfeature", id)).toMatchObject([{ via: "api", address: ADDRESS, details: { featured: fid, start_date: changed.json.start_date } }]);
  });

  test("delete: an administrator deleting someone's community writes one entry; its owner deleting it writes none", async () => {
    const theirs = await community("parity-rivers");
    await expectRefusedUnaudited([[() => api("DELETE", `/api/communities/${theirs}`, "bob"), 403]]);
    expectStatus(await api("DELETE", `/api/communities/${theirs}`, "admin"), 204);
    expect(await entries("community.delete", theirs)).toMatchObject([{ actorId: app.users.admin.user.id, via: "api", address: ADDRESS, details: { slug: "parity-rivers" } }]);

    const own = await community("parity-lakes");
    const before = await total();
    expectStatus(await api("DELETE", `/api/communities/${own}`, "alice"), 204);
    expect(await total()).toBe(before);
  });
});

describe("OAI-PMH sets", () => {
  test("create, update, delete: one entry each; refusals write none", async () => {
    const body = { spec: "parity", name: "Parity", search_pattern: "metadata.title:parity" };
    await expectRefusedUnaudited([
      [() => api("POST", "/api/oaipmh/sets", "alice", body), 403],
      [() => api("POST", "/api/oaipmh/sets", "admin", { ...body, spec: "no spaces allowed" }), 400],
    ]);
    const created = await api("POST", "/api/oaipmh/sets", "admin", body);
    expectStatus(created, 201);
    const id = String(created.json.id);
    expect(await entries("oai-set.create", id)).toMatchObject([
      { targetType: "oai-set", targetId: id, via: "api", address: ADDRESS, details: { spec: "parity", name: "Parity", search_pattern: "metadata.title:parity" } },
    ]);
    await expectRefusedUnaudited([[() => api("PUT", `/api/oaipmh/sets/${id}`, "bob", { name: "X", search_pattern: "x" }), 403]]);
    expectStatus(await api("PUT", `/api/oaipmh/sets/${id}`, "admin", { name: "Parity 2", search_pattern: "metadata.title:parity2" }), 200);
    expect(await entries("oai-set.update", id)).toMatchObject([{ via: "api", address: ADDRESS, details: { spec: "parity", name: "Parity 2", previous: { name: "Parity" } } }]);
    await expectRefusedUnaudited([[() => api("DELETE", `/api/oaipmh/sets/${id}`, "alice"), 403]]);
    expectStatus(await api("DELETE", `/api/oaipmh/sets/${id}`, "admin"), 204);
    expect(await entries("oai-set.delete", id)).toMatchObject([{ via: "api", address: ADDRESS, details: { spec: "parity", name: "Parity 2" } }]);
  });
});
