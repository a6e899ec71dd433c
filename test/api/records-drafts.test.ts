// The record/draft state table of the spec, for owner, another user, anonymous and administrator.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isRecordId } from "../../src/records/ids";
import { createTestApp, type TestApp } from "../helpers/app";
import { createDraft, publishableDraft, publishDraft, publishRecord } from "../helpers/records";

let ctx: TestApp;
const BASE = "http://127.0.0.1:5000";

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe("creating drafts", () => {
  test("anonymous callers get 401", async () => {
    const res = await ctx.call("POST", "/api/records", { body: publishableDraft() });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toStartWith("Bearer");
  });

  test("an empty body creates an empty draft that carries its errors", async () => {
    const res = await ctx.call("POST", "/api/records", { as: "alice" });
    expect(res.status).toBe(201);
    const draft = res.json;
    expect(isRecordId(draft.id)).toBe(true);
    expect(draft.id).toMatch(/^[0-9a-z]{5}-[0-9a-z]{3}\d{2}$/);
    expect(draft).toMatchObject({
      is_published: false,
      is_draft: true,
      status: "draft",
      revision_id: 1,
      access: { record: "public", files: "public", embargo: { active: false, until: null, reason: null }, status: "open" },
      files: { enabled: true, default_preview: null, order: [] },
      metadata: {},
      custom_fields: {},
      pids: {},
      versions: { index: 1, is_latest: false, is_latest_draft: true },
      parent: { access: { owned_by: { user: String(ctx.users.alice.user.id) }, links: [] } },
    });
    expect(draft.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
    expect(isRecordId(draft.parent.id)).toBe(true);
    expect(draft.parent.id).not.toBe(draft.id);
    const fields = draft.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["metadata.resource_type", "metadata.title", "metadata.publication_date", "metadata.creators", "files.enabled"]));
    expect(res.headers.get("etag")).toBe('"1"');
  });

  test("{} creates an empty draft too", async () => {
    expect((await ctx.call("POST", "/api/records", { as: "alice", body: {} })).status).toBe(201);
  });

  test("the draft links are absolute and point at draft endpoints", async () => {
    const draft = await createDraft(ctx);
    const id = draft.id;
    expect(draft.links).toMatchObject({
      self: `${BASE}/api/records/${id}/draft`,
      self_html: `${BASE}/uploads/${id}`,
      files: `${BASE}/api/records/${id}/draft/files`,
      latest: `${BASE}/api/records/${id}/versions/latest`,
      latest_html: `${BASE}/records/${id}/latest`,
      versions: `${BASE}/api/records/${id}/versions`,
      publish: `${BASE}/api/records/${id}/draft/actions/publish`,
      access_links: `${BASE}/api/records/${id}/access/links`,
      reserve_doi: `${BASE}/api/records/${id}/draft/pids/doi`,
      record: `${BASE}/api/records/${id}`,
      record_html: `${BASE}/records/${id}`,
    });
    expect(draft.errors).toBeUndefined();
  });

  test("an unknown vocabulary id is a 400 at once", async () => {
    const res = await ctx.call("POST", "/api/records", { as: "alice", body: publishableDraft({ metadata: { resource_type: { id: "no-such-type" }, title: "Xyz" } }) });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].field).toStartWith("metadata.resource_type");
  });

  test("a non-JSON body is a 415", async () => {
    const res = await ctx.call("POST", "/api/records", { as: "alice", rawBody: "title=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
  });
});

describe("reading, updating and deleting drafts", () => {
  test.each([
    ["alice", 200],
    ["admin", 200],
    ["bob", 403],
    ["anonymous", 401],
  ] as const)("GET draft as %s -> %d", async (who, status) => {
    const draft = await createDraft(ctx);
    expect((await ctx.call("GET", `/api/records/${draft.id}/draft`, { as: who })).status).toBe(status);
  });

  test("an unknown draft is a 404", async () => {
    expect((await ctx.call("GET", "/api/records/aaaaa-aaa00/draft", { as: "alice" })).json).toEqual({ status: 404, message: "The draft does not exist." });
  });

  test("PUT replaces the draft and honours If-Match", async () => {
    const draft = await createDraft(ctx);
    const body = publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Renamed dataset" } });
    const stale = await ctx.call("PUT", `/api/records/${draft.id}/draft`, { as: "alice", body, headers: { "if-match": "7" } });
    expect(stale.status).toBe(412);
    expect((await ctx.call("PUT", `/api/records/${draft.id}/draft`, { as: "bob", body })).status).toBe(403);
    const res = await ctx.call("PUT", `/api/records/${draft.id}/draft`, { as: "alice", body, headers: { "if-match": '"1"' } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: draft.id, revision_id: 2, metadata: { title: "Renamed dataset" } });
    expect(res.headers.get("etag")).toBe('"2"');
  });

  test("deleting the draft of an unpublished record removes it", async () => {
    const draft = await createDraft(ctx);
    expect((await ctx.call("DELETE", `/api/records/${draft.id}/draft`, { as: "bob" })).status).toBe(403);
    const res = await ctx.call("DELETE", `/api/records/${draft.id}/draft`, { as: "alice" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await ctx.call("GET", `/api/records/${draft.id}/draft`, { as: "alice" })).status).toBe(404);
    expect((await ctx.call("GET", `/api/records/${draft.id}`, { as: "alice" })).status).toBe(404);
  });
});

describe("publishing", () => {
  test("an incomplete draft is refused with every problem", async () => {
    const draft = await createDraft(ctx, { files: { enabled: false }, metadata: { title: "ab" } });
    const res = await ctx.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "alice" });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("A validation error occurred.");
    const fields = res.json.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["metadata.resource_type", "metadata.title", "metadata.publication_date", "metadata.creators"]));
    expect((await ctx.call("GET", `/api/records/${draft.id}/draft`, { as: "alice" })).json.revision_id).toBe(1);
  });

  test("files enabled without files cannot be published", async () => {
    const draft = await createDraft(ctx, publishableDraft({ files: { enabled: true } }));
    const res = await ctx.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "alice" });
    expect(res.status).toBe(400);
    expect(res.json.errors).toContainEqual({ field: "files.enabled", messages: ["Missing uploaded files. To disable files for this record please mark it as metadata-only."] });
  });

  test("only who manages the draft may publish it", async () => {
    const draft = await createDraft(ctx);
    expect((await ctx.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "bob" })).status).toBe(403);
    expect((await ctx.call("POST", `/api/records/${draft.id}/draft/actions/publish`)).status).toBe(401);
  });

  test("publishing answers 202 with the record; the draft is gone; links point at the record", async () => {
    const draft = await createDraft(ctx);
    const record = await publishDraft(ctx, draft.id);
    expect(record).toMatchObject({
      id: draft.id,
      is_published: true,
      is_draft: false,
      status: "published",
      versions: { index: 1, is_latest: true, is_latest_draft: true },
      metadata: { title: "Sea surface temperature 2020-2024", resource_type: { id: "dataset", title: { en: "Dataset" } } },
      parent: { id: draft.parent.id },
    });
    expect(record.metadata.creators[0].person_or_org.name).toBe("Lovelace, Ada");
    expect(record.links).toMatchObject({
      self: `${BASE}/api/records/${draft.id}`,
      self_html: `${BASE}/records/${draft.id}`,
      files: `${BASE}/api/records/${draft.id}/files`,
      versions: `${BASE}/api/records/${draft.id}/versions`,
      communities: `${BASE}/api/records/${draft.id}/communities`,
      requests: `${BASE}/api/records/${draft.id}/requests`,
      "communities-suggestions": `${BASE}/api/records/${draft.id}/communities-suggestions`,
      self_iiif_manifest: `${BASE}/api/iiif/record:${draft.id}/manifest`,
    });
    expect((await ctx.call("GET", `/api/records/${draft.id}/draft`, { as: "alice" })).status).toBe(404);
    const read = await ctx.call("GET", `/api/records/${draft.id}`);
    expect(read.status).toBe(200);
    expect(read.json.id).toBe(draft.id);
    expect(read.headers.get("etag")).toBe(`"${read.json.revision_id}"`);
  });

  test("a draft id is not a record until published", async () => {
    const draft = await createDraft(ctx);
    expect((await ctx.call("GET", `/api/records/${draft.id}`, { as: "alice" })).json).toEqual({ status: 404, message: "The persistent identifier is not registered." });
  });
});

describe("editing a published record", () => {
  test("POST draft makes an edit draft (the same one twice); publishing it updates the record", async () => {
    const record = await publishRecord(ctx);
    expect((await ctx.call("POST", `/api/records/${record.id}/draft`, { as: "bob" })).status).toBe(403);
    const edit = await ctx.call("POST", `/api/records/${record.id}/draft`, { as: "alice" });
    expect(edit.status).toBe(201);
    expect(edit.json).toMatchObject({ id: record.id, is_published: false, status: "published", metadata: { title: record.metadata.title } });
    const again = await ctx.call("POST", `/api/records/${record.id}/draft`, { as: "alice" });
    expect(again.json.revision_id).toBe(edit.json.revision_id);
    const body = publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Corrected title" } });
    expect((await ctx.call("PUT", `/api/records/${record.id}/draft`, { as: "alice", body })).status).toBe(200);
    expect((await ctx.call("GET", `/api/records/${record.id}`)).json.metadata.title).toBe(record.metadata.title);
    const republished = await publishDraft(ctx, record.id);
    expect(republished).toMatchObject({ id: record.id, metadata: { title: "Corrected title" }, versions: { index: 1, is_latest: true } });
    expect(republished.revision_id).toBe(record.revision_id + 1);
  });

  test("deleting the draft of a published record leaves the record as it was", async () => {
    const record = await publishRecord(ctx);
    await ctx.call("POST", `/api/records/${record.id}/draft`, { as: "alice" });
    const res = await ctx.call("DELETE", `/api/records/${record.id}/draft`, { as: "alice" });
    expect(res.status).toBe(204);
    const read = await ctx.call("GET", `/api/records/${record.id}`);
    expect(read.status).toBe(200);
    expect(read.json.revision_id).toBe(record.revision_id);
  });
});
