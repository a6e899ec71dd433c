// Versions, redirects, visibility of restricted records, the caller's records, embargo lifting,
// and the deposit sequence of the InvenioRDM documentation followed through links.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { publishableDraft, publishRecord } from "../helpers/records";

let ctx: TestApp;
const BASE = "http://127.0.0.1:5000";
const path = (url: string) => url.slice(BASE.length);

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe("versions", () => {
  test("a new version copies the metadata but not the date or version label; one open at a time", async () => {
    const v1 = await publishRecord(ctx, publishableDraft({ metadata: { ...publishableDraft().metadata, version: "v1.0" } }));
    expect((await ctx.call("POST", `/api/records/${v1.id}/versions`, { as: "bob" })).status).toBe(403);
    const res = await ctx.call("POST", `/api/records/${v1.id}/versions`, { as: "alice" });
    expect(res.status).toBe(201);
    const draft = res.json;
    expect(draft.id).not.toBe(v1.id);
    expect(draft).toMatchObject({ status: "new_version_draft", versions: { index: 2, is_latest: false, is_latest_draft: true }, parent: { id: v1.parent.id }, pids: {} });
    expect(draft.metadata.title).toBe(v1.metadata.title);
    expect(draft.metadata.publication_date).toBeUndefined();
    expect(draft.metadata.version).toBeUndefined();
    expect((await ctx.call("POST", `/api/records/${v1.id}/versions`, { as: "alice" })).json.id).toBe(draft.id);

    const refused = await ctx.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "alice" });
    expect(refused.status).toBe(400);
    expect(refused.json.errors.map((e: { field: string }) => e.field)).toContain("metadata.publication_date");
    const body = publishableDraft({ metadata: { ...draft.metadata, publication_date: "2026-11-20", version: "v2.0" } });
    expect((await ctx.call("PUT", `/api/records/${draft.id}/draft`, { as: "alice", body })).status).toBe(200);
    const v2 = (await ctx.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "alice" })).json;
    expect(v2.versions).toEqual({ index: 2, is_latest: true, is_latest_draft: true });

    const old = (await ctx.call("GET", `/api/records/${v1.id}`)).json;
    expect(old.versions).toEqual({ index: 1, is_latest: false, is_latest_draft: false });
    const list = await ctx.call("GET", `/api/records/${v1.id}/versions`);
    expect(list.json.hits.hits.map((h: { id: string }) => h.id)).toEqual([v2.id, v1.id]);
    expect(list.json.hits.total).toBe(2);
    expect(list.json.sortBy).toBe("version");

    const latest = await ctx.call("GET", `/api/records/${v1.id}/versions/latest`);
    expect(latest.status).toBe(301);
    expect(latest.headers.get("location")).toBe(`${BASE}/api/records/${v2.id}`);
    const parent = await ctx.call("GET", `/api/records/${v1.parent.id}`);
    expect(parent.status).toBe(302);
    expect(parent.headers.get("location")).toBe(`${BASE}/api/records/${v2.id}`);

    const search = await ctx.call("GET", "/api/records?size=100");
    const ids = search.json.hits.hits.map((h: { id: string }) => h.id);
    expect(ids).toContain(v2.id);
    expect(ids).not.toContain(v1.id);
    const all = await ctx.call("GET", "/api/records?size=100&allversions=true");
    expect(all.json.hits.hits.map((h: { id: string }) => h.id)).toEqual(expect.arrayContaining([v1.id, v2.id]));
    const hit = search.json.hits.hits.find((h: { id: string }) => h.id === v2.id);
    expect(hit).toMatchObject({ published: true, status: "published", conceptid: v1.parent.id, access: { owned_by: [{ user: ctx.users.alice.user.id }] } });
  });
});

describe("restricted records", () => {
  test("are readable only by who manages them, and never listed for others", async () => {
    const record = await publishRecord(ctx, publishableDraft({ access: { record: "restricted", files: "restricted" } }));
    expect(record.access.status).toBe("restricted");
    expect((await ctx.call("GET", `/api/records/${record.id}`)).status).toBe(401);
    expect((await ctx.call("GET", `/api/records/${record.id}`, { as: "bob" })).json).toEqual({ status: 403, message: "Permission denied." });
    expect((await ctx.call("GET", `/api/records/${record.id}`, { as: "alice" })).status).toBe(200);
    expect((await ctx.call("GET", `/api/records/${record.id}`, { as: "admin" })).status).toBe(200);
    const listed = async (who: "anonymous" | "bob" | "alice") =>
      (await ctx.call("GET", "/api/records?size=100", { as: who })).json.hits.hits.some((h: { id: string }) => h.id === record.id);
    expect(await listed("anonymous")).toBe(false);
    expect(await listed("bob")).toBe(false);
    expect(await listed("alice")).toBe(true);
  });

  test("an embargo is lifted by the daily job once it ends, and only then", async () => {
    const until = "2026-11-25";
    const record = await publishRecord(ctx, publishableDraft({ access: { record: "public", files: "restricted", embargo: { active: true, until, reason: "Patent pending" } } }));
    expect(record.access).toMatchObject({ files: "restricted", embargo: { active: true, until }, status: "embargoed" });
    expect((await ctx.services.records.liftExpiredEmbargoes()).lifted).toBe(0);
    ctx.clock.set("2026-11-25T00:02:00Z");
    const run = await ctx.services.jobs.runNow({ kind: "system" }, "embargo-lift");
    expect(run.status).toBe("succeeded");
    const after = (await ctx.call("GET", `/api/records/${record.id}`)).json;
    expect(after.access).toMatchObject({ record: "public", files: "public", embargo: { active: false, until, reason: "Patent pending" }, status: "metadata-only" });
    expect((await ctx.services.records.liftExpiredEmbargoes()).lifted).toBe(0);
  });

  test("an embargo needs something restricted and an end date", async () => {
    const res = await ctx.call("POST", "/api/records", { as: "alice", body: publishableDraft({ access: { record: "public", files: "public", embargo: { active: true } } }) });
    expect(res.status).toBe(201);
    expect(res.json.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(["access.embargo.until", "access.embargo"]));
  });
});

describe("the caller's records", () => {
  test("GET /api/user/records lists own drafts and records only", async () => {
    const draft = (await ctx.call("POST", "/api/records", { as: "bob", body: publishableDraft() })).json;
    ctx.clock.advance(1000);
    const record = await publishRecord(ctx, publishableDraft(), { as: "bob" });
    const res = await ctx.call("GET", "/api/user/records", { as: "bob" });
    expect(res.status).toBe(200);
    expect(res.json.hits.hits.map((h: { id: string }) => h.id)).toEqual([record.id, draft.id]);
    expect(res.json.hits.total).toBe(2);
    expect((await ctx.call("GET", "/api/user/records")).status).toBe(401);
  });
});

describe("the deposit sequence of the InvenioRDM docs, following links", () => {
  test("create, update, publish, edit, publish again, new version, publish", async () => {
    const headers = { accept: "application/vnd.inveniordm.v1+json, application/json" };
    const created = await ctx.call("POST", "/api/records", {
      as: "alice",
      headers,
      body: { access: { record: "public", files: "public" }, files: { enabled: false }, metadata: {} },
    });
    expect(created.status).toBe(201);
    const updated = await ctx.call("PUT", path(created.json.links.self), { as: "alice", headers, body: publishableDraft() });
    expect(updated.status).toBe(200);
    expect(updated.json.errors).toBeUndefined();
    const first = await ctx.call("POST", path(updated.json.links.publish), { as: "alice", headers });
    expect(first.status).toBe(202);
    expect(first.json.is_published).toBe(true);
    const edit = await ctx.call("POST", path(first.json.links.draft), { as: "alice", headers });
    expect(edit.status).toBe(201);
    const changed = await ctx.call("PUT", path(edit.json.links.self), {
      as: "alice",
      headers,
      body: publishableDraft({ metadata: { ...publishableDraft().metadata, description: "<p>Now with a <b>description</b></p>" } }),
    });
    expect(changed.status).toBe(200);
    const second = await ctx.call("POST", path(changed.json.links.publish), { as: "alice", headers });
    expect(second.status).toBe(202);
    expect(second.json.metadata.description).toBe("<p>Now with a <b>description</b></p>");
    const versions = await ctx.call("POST", path(second.json.links.versions), { as: "alice", headers });
    expect(versions.status).toBe(201);
    const v2body = publishableDraft({ metadata: { ...versions.json.metadata, publication_date: "2026-11-21" } });
    const v2draft = await ctx.call("PUT", path(versions.json.links.self), { as: "alice", headers, body: v2body });
    expect(v2draft.status).toBe(200);
    const v2 = await ctx.call("POST", path(v2draft.json.links.publish), { as: "alice", headers });
    expect(v2.status).toBe(202);
    expect(v2.json).toMatchObject({ versions: { index: 2, is_latest: true }, parent: { id: first.json.parent.id } });
    const latest = await ctx.call("GET", path(first.json.links.latest));
    expect(latest.headers.get("location")).toBe(v2.json.links.self);
  });
});
