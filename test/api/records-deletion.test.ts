// Deleting a published record with a tombstone, and restoring it (InvenioRDM v12+, issue 19 item
// 11): who may, the tombstone's shape, 410/404 on every read path (record, files, archive,
// exports, statistics), search and versions without it, OAI-PMH deleted headers, restore.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { XMLParser } from "fast-xml-parser";
import { createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { createDraft, publishableDraft, publishDraft, publishRecord } from "../helpers/records";

let app: TestApp;
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false });
const oai = async (query: string) => parser.parse((await app.call("GET", `/oai2d?${query}`)).text)["OAI-PMH"];

/** A published public record with one file; returns its id. */
async function recordWithFile(title: string, content = `bytes of ${title}`) {
  const draft = await createDraft(app, publishableDraft({ files: { enabled: true }, metadata: { ...publishableDraft().metadata, title } }), { files: [["data.csv", content]] });
  return (await publishDraft(app, draft.id)).id as string;
}

const deletion = (overrides: Record<string, unknown> = {}) => ({ removal_reason: { id: "spam" }, note: "Advertising, not research data.", ...overrides });

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("who may delete, and what a bad request gets", () => {
  let id: string;
  beforeAll(async () => {
    id = await recordWithFile("Guarded record");
  });

  test.each([
    ["anonymous", 401],
    ["alice", 403], // the owner: only administrators delete published records
    ["bob", 403],
  ] as const)("%s gets %i and the record stays", async (as, status) => {
    expectStatus(await app.call("DELETE", `/api/records/${id}/delete`, { as, body: deletion() }), status);
    expectStatus(await app.call("GET", `/api/records/${id}`), 200);
  });

  test.each([
    ["no reason", {}, "removal_reason.id"],
    ["an unknown reason", { removal_reason: { id: "boredom" } }, "removal_reason.id"],
    ["a reason that is not an id", { removal_reason: "spam" }, "removal_reason.id"],
    ["a note that is not text", { removal_reason: { id: "spam" }, note: 42 }, "note"],
    ["a visibility that is not a boolean", { removal_reason: { id: "spam" }, is_visible: "no" }, "is_visible"],
  ])("%s: 400 naming the field", async (_, body, field) => {
    const res = await app.call("DELETE", `/api/records/${id}/delete`, { as: "admin", body });
    expectStatus(res, 400);
    expect(res.json.errors.map((e: { field: string }) => e.field)).toContain(field);
    expectStatus(await app.call("GET", `/api/records/${id}`), 200);
  });

  test("an unknown record is 404; a draft is not a published record", async () => {
    expectStatus(await app.call("DELETE", "/api/records/xxxxx-00000/delete", { as: "admin", body: deletion() }), 404);
    const draft = await createDraft(app);
    expectStatus(await app.call("DELETE", `/api/records/${draft.id}/delete`, { as: "admin", body: deletion() }), 404);
  });

  test("restoring a record that is not deleted is a conflict", async () => {
    const res = await app.call("POST", `/api/records/${id}/restore`, { as: "admin" });
    expectStatus(res, 409);
    expect(res.json.message).toContain("not deleted");
  });
});

describe("a deleted record", () => {
  let id: string;
  let parentId: string;
  beforeAll(async () => {
    id = await recordWithFile("Volcanic ash samples", "ash,ppm\n1,2\n");
    parentId = (await app.call("GET", `/api/records/${id}`)).json.parent.id;
    expectStatus(await app.call("DELETE", `/api/records/${id}/delete`, { as: "admin", body: deletion({ citation_text: undefined }) }), 204);
  });

  test("reads as 410 with its tombstone, for everyone including its owner", async () => {
    for (const as of ["anonymous", "alice", "bob", "admin"] as const) {
      const res = await app.call("GET", `/api/records/${id}`, { as });
      expectStatus(res, 410);
      expect(res.json.message).toBe("The record has been deleted.");
      expect(res.json.tombstone).toEqual({
        removal_reason: { id: "spam", title: { en: "Spam" } },
        note: "Advertising, not research data.",
        removed_by: { user: String(app.users.admin.user.id) },
        removal_date: "2026-11-22T12:00:00.000000+00:00",
        // No citation text sent: the record's citation in the default style.
        citation_text: expect.stringContaining("Volcanic ash samples"),
        is_visible: true,
      });
    }
  });

  test("administrators still read it with include_deleted, with its deletion status", async () => {
    const res = await app.call("GET", `/api/records/${id}?include_deleted=1`, { as: "admin" });
    expectStatus(res, 200);
    expect(res.json.deletion_status).toEqual({ is_deleted: true, status: "D" });
    expect(res.json.tombstone.removal_reason.id).toBe("spam");
    // Others asking for it get the tombstone all the same.
    expectStatus(await app.call("GET", `/api/records/${id}?include_deleted=1`, { as: "alice" }), 410);
  });

  test.each([
    ["files", (id: string) => `/api/records/${id}/files`],
    ["file", (id: string) => `/api/records/${id}/files/data.csv`],
    ["file content", (id: string) => `/api/records/${id}/files/data.csv/content`],
    ["archive", (id: string) => `/api/records/${id}/files-archive`],
    ["export", (id: string) => `/records/${id}/export/datacite-json`],
    ["versions", (id: string) => `/api/records/${id}/versions`],
    ["latest version", (id: string) => `/api/records/${id}/versions/latest`],
  ])("its %s answer 410", async (_, path) => {
    for (const as of ["anonymous", "alice"] as const) expectStatus(await app.call("GET", path(id), { as }), 410);
  });

  test("its statistics answer 410", async () => {
    const res = await app.call("POST", "/api/stats", { as: "alice", body: { v: { stat: "record-view", params: { recid: id } } } });
    expectStatus(res, 410);
  });

  test("asked by Accept for an export format, it answers 410 too", async () => {
    expectStatus(await app.call("GET", `/api/records/${id}`, { headers: { accept: "application/x-bibtex" } }), 410);
  });

  test("it cannot be edited or versioned", async () => {
    expectStatus(await app.call("POST", `/api/records/${id}/draft`, { as: "alice" }), 410);
    expectStatus(await app.call("POST", `/api/records/${id}/versions`, { as: "alice" }), 410);
  });

  test("it leaves searches, its owner's listing and the statistics", async () => {
    const search = await app.call("GET", `/api/records?q=${encodeURIComponent("volcanic")}`);
    expect(search.json.hits.hits.map((h: { id: string }) => h.id)).not.toContain(id);
    const own = await app.call("GET", "/api/user/records?size=100", { as: "alice" });
    expect(own.json.hits.hits.map((h: { id: string }) => h.id)).not.toContain(id);
    expect((await app.call("GET", `/api/records?q=id:${id}`, { as: "admin" })).json.hits.total).toBe(0);
  });

  test("OAI-PMH reports it as a deleted header", async () => {
    const got = await oai(`verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:127.0.0.1:${id}`);
    expect(got.GetRecord.record.header["@_status"]).toBe("deleted");
    expect(got.GetRecord.record.metadata).toBeUndefined();
    const listed = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc");
    const headers = [listed.ListIdentifiers.header].flat();
    expect(headers.find((h: { identifier: string }) => h.identifier.endsWith(id))?.["@_status"]).toBe("deleted");
  });

  test("a harvest of a set that selected it gets its deleted header, with the set's spec", async () => {
    const set = { name: "Volcanology", spec: "volcanology", search_pattern: "metadata.title:volcanic" };
    expectStatus(await app.call("POST", "/api/oaipmh/sets", { as: "admin", body: set }), 201);
    const listed = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc&set=volcanology");
    const headers = [listed.ListIdentifiers.header].flat();
    expect(headers.map((h: { identifier: string; "@_status"?: string; setSpec: string }) => [h.identifier, h["@_status"], h.setSpec])).toEqual([
      [`oai:127.0.0.1:${id}`, "deleted", "volcanology"],
    ]);
  });

  test("deleting it again is a conflict", async () => {
    const res = await app.call("DELETE", `/api/records/${id}/delete`, { as: "admin", body: deletion() });
    expectStatus(res, 409);
  });

  test("restoring brings back the record, its file bytes, search and OAI metadata", async () => {
    const restored = await app.call("POST", `/api/records/${id}/restore`, { as: "admin" });
    expectStatus(restored, 200);
    expect(restored.json.deletion_status).toEqual({ is_deleted: false, status: "P" });
    expect(restored.json.tombstone).toBeUndefined();
    const read = await app.call("GET", `/api/records/${id}`);
    expectStatus(read, 200);
    expect(read.json.parent.id).toBe(parentId);
    const bytes = await app.call("GET", `/api/records/${id}/files/data.csv/content`);
    expectStatus(bytes, 200);
    expect(bytes.text).toBe("ash,ppm\n1,2\n");
    const search = await app.call("GET", `/api/records?q=${encodeURIComponent("volcanic")}`);
    expect(search.json.hits.hits.map((h: { id: string }) => h.id)).toContain(id);
    const got = await oai(`verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:127.0.0.1:${id}`);
    expect(got.GetRecord.record.header["@_status"]).toBeUndefined();
    expect(got.GetRecord.record.metadata["oai_dc:dc"]["dc:title"]).toBe("Volcanic ash samples");
  });
});

describe("tombstones", () => {
  test("a hidden tombstone reads as 404; the citation text sent is kept", async () => {
    const { id } = await publishRecord(app);
    expectStatus(await app.call("DELETE", `/api/records/${id}/delete`, { as: "admin", body: deletion({ is_visible: false, citation_text: "Lovelace (2026)." }) }), 204);
    const res = await app.call("GET", `/api/records/${id}`);
    expectStatus(res, 404);
    expect(res.json.tombstone).toBeUndefined();
    const admin = await app.call("GET", `/api/records/${id}?include_deleted=true`, { as: "admin" });
    expect(admin.json.tombstone).toMatchObject({ citation_text: "Lovelace (2026).", is_visible: false });
  });
});

describe("versions", () => {
  test("deleting the latest version makes the newest remaining one latest; restoring it gives it back", async () => {
    const v1 = await publishRecord(app);
    const draft = await app.call("POST", `/api/records/${v1.id}/versions`, { as: "alice" });
    expectStatus(draft, 201);
    expectStatus(await app.call("PUT", `/api/records/${draft.json.id}/draft`, { as: "alice", body: publishableDraft() }), 200);
    const v2 = await publishDraft(app, draft.json.id);
    const parent = v1.parent.id;

    expectStatus(await app.call("DELETE", `/api/records/${v2.id}/delete`, { as: "admin", body: deletion({ removal_reason: { id: "duplicate" } }) }), 204);
    const latest = await app.call("GET", `/api/records/${v1.id}/versions/latest`);
    expectStatus(latest, 301);
    expect(latest.headers.get("location")).toEndWith(`/api/records/${v1.id}`);
    expect((await app.call("GET", `/api/records/${parent}`)).headers.get("location")).toEndWith(`/api/records/${v1.id}`);
    const versions = await app.call("GET", `/api/records/${v1.id}/versions`);
    expect(versions.json.hits.hits.map((h: { id: string }) => h.id)).toEqual([v1.id]);
    expect((await app.call("GET", `/api/records/${v1.id}`)).json.versions.is_latest).toBe(true);

    expectStatus(await app.call("POST", `/api/records/${v2.id}/restore`, { as: "admin" }), 200);
    expect((await app.call("GET", `/api/records/${parent}`)).headers.get("location")).toEndWith(`/api/records/${v2.id}`);
    expect((await app.call("GET", `/api/records/${v1.id}`)).json.versions.is_latest).toBe(false);
    const after = await app.call("GET", `/api/records/${v1.id}/versions`);
    expect(after.json.hits.hits.map((h: { id: string }) => h.id).sort()).toEqual([v1.id, v2.id].sort());
  });

  test("an edit draft left open does not publish over a deleted record", async () => {
    const { id } = await publishRecord(app);
    expectStatus(await app.call("POST", `/api/records/${id}/draft`, { as: "alice" }), 201);
    expectStatus(await app.call("DELETE", `/api/records/${id}/delete`, { as: "admin", body: deletion() }), 204);
    expectStatus(await app.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" }), 410);
    expectStatus(await app.call("GET", `/api/records/${id}`), 410);
  });
});

test("published records say they are not deleted", async () => {
  const { id } = await publishRecord(app);
  expect((await app.call("GET", `/api/records/${id}`)).json.deletion_status).toEqual({ is_deleted: false, status: "P" });
  const listed = await app.call("GET", `/api/records?q=id:${id}`);
  expect(listed.json.hits.hits[0].deletion_status).toEqual({ is_deleted: false, status: "P" });
});
