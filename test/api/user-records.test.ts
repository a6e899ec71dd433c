// The caller's own listing (/api/user/records): drafts and records, searchable, with the
// is_published facet; drafts never reach public search.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { createDraft, MINIMAL_METADATA, publishDraft } from "../helpers/records";
import { hitNames } from "../helpers/search";

let ctx: TestApp;
const ids: Record<string, string> = {};
const names = hitNames(ids);
const body = (title: string) => ({ files: { enabled: false }, metadata: { ...MINIMAL_METADATA, title, publisher: "Cairn" } });

async function draft(name: string, title: string, as: "alice" | "bob" = "alice") {
  ids[name] = (await createDraft(ctx, body(title), { as })).id;
  ctx.clock.advance(1000);
}
async function publish(name: string, as: "alice" | "bob" = "alice") {
  await publishDraft(ctx, ids[name]!, { as });
  ctx.clock.advance(1000);
}

beforeAll(async () => {
  ctx = await createTestApp();
  await draft("glacier", "Glacier melt draft");
  await draft("ocean", "Ocean salinity record");
  await publish("ocean");
  await draft("edited", "Coral survey");
  await publish("edited");
  await ctx.call("POST", `/api/records/${ids.edited}/draft`, { as: "alice" });
  await ctx.call("PUT", `/api/records/${ids.edited}/draft`, { as: "alice", body: body("Coral survey, corrected") });
  ctx.clock.advance(1000);
  await draft("bobs", "Glacier photos", "bob");
});
afterAll(() => ctx.close());

describe("GET /api/user/records", () => {
  test("lists own drafts and records, newest change first; a record with an open draft shows as the draft", async () => {
    const res = await ctx.call("GET", "/api/user/records", { as: "alice" });
    expect(names(res.json)).toEqual(["edited", "ocean", "glacier"]);
    expect(res.json.hits.hits[0]).toMatchObject({ is_draft: true, metadata: { title: "Coral survey, corrected" } });
    expect(res.json.hits.hits[1]).toMatchObject({ is_published: true });
    expect(res.json.sortBy).toBe("updated-desc");
  });

  test("q searches drafts and records alike", async () => {
    expect(names((await ctx.call("GET", "/api/user/records?q=glacier", { as: "alice" })).json)).toEqual(["glacier"]);
    expect(names((await ctx.call("GET", "/api/user/records?q=corrected", { as: "alice" })).json)).toEqual(["edited"]);
    expect(names((await ctx.call("GET", "/api/user/records?q=glacier", { as: "bob" })).json)).toEqual(["bobs"]);
  });

  test("the is_published facet counts and filters", async () => {
    const res = await ctx.call("GET", "/api/user/records?is_published=true", { as: "alice" });
    expect(names(res.json)).toEqual(["ocean"]);
    expect(res.json.aggregations.is_published.buckets).toEqual([
      { key: "false", doc_count: 2, label: "Unpublished", is_selected: false },
      { key: "true", doc_count: 1, label: "Published", is_selected: true },
    ]);
  });

  test("drafts never appear in public search", async () => {
    const res = await ctx.call("GET", "/api/records?q=glacier OR corrected", { as: "alice" });
    expect(res.json.hits.total).toBe(0);
    expect(names((await ctx.call("GET", "/api/records?q=coral", { as: "alice" })).json)).toEqual(["edited"]);
  });

  test("deleting a draft drops it from the listing; reindex keeps drafts searchable", async () => {
    expect((await ctx.call("DELETE", `/api/records/${ids.glacier}/draft`, { as: "alice" })).status).toBe(204);
    expect(names((await ctx.call("GET", "/api/user/records", { as: "alice" })).json)).toEqual(["edited", "ocean"]);
    await ctx.services.records.reindex({ kind: "system" });
    expect(names((await ctx.call("GET", "/api/user/records?q=corrected", { as: "alice" })).json)).toEqual(["edited"]);
    expect((await ctx.call("GET", "/api/records?q=corrected")).json.hits.total).toBe(0);
  });

  test("needs a signed-in caller", async () => {
    expect((await ctx.call("GET", "/api/user/records")).status).toBe(401);
  });
});
