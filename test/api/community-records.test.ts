// GET /api/communities/{id}/records: the records included in a community (record_communities),
// as the caller may see them, with the community listing's three facets.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { recordCommunitiesTable } from "../../src/db/tables";
import { createTestApp, type TestApp } from "../helpers/app";
import { COMMUNITY_BODY } from "../helpers/communities";
import { publishableDraft, publishRecord } from "../helpers/records";
import { hitIds } from "../helpers/search";

let t: TestApp;
const ids: Record<string, string> = {};
let community = "";

beforeAll(async () => {
  t = await createTestApp();
  const created = await t.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("tidal") });
  expect(created.status).toBe(201);
  community = created.json.id;
  await t.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("other") });
  const include = async (record: { parent: { id: string } }) =>
    await t.services.deps.db.insert(recordCommunitiesTable).values({ parentId: record.parent.id, communityId: community, created: t.clock.now() }).run();
  const open = await publishRecord(t, publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Tide gauges of the estuary" } }));
  t.clock.advance(1000);
  const hidden = await publishRecord(
    t,
    publishableDraft({ access: { record: "restricted", files: "restricted" }, metadata: { ...publishableDraft().metadata, title: "Tide gauge calibration" } }),
  );
  t.clock.advance(1000);
  const outside = await publishRecord(t, publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Tide tables elsewhere" } }));
  await include(open);
  await include(hidden);
  Object.assign(ids, { open: open.id, hidden: hidden.id, outside: outside.id });
  await t.services.records.reindex({ kind: "system" });
});
afterAll(() => t.close());

describe("records of a community", () => {
  test("lists the included records the caller may see, by slug or id, with three facets", async () => {
    const anonymous = await t.call("GET", "/api/communities/tidal/records");
    expect(anonymous.status).toBe(200);
    expect(hitIds(anonymous.json)).toEqual([ids.open]);
    expect(Object.keys(anonymous.json.aggregations)).toEqual(["access_status", "resource_type", "language"]);
    expect(anonymous.json.links.self).toContain(`/api/communities/${community}/records`);
    const owner = await t.call("GET", `/api/communities/${community}/records?sort=oldest`, { as: "alice" });
    expect(hitIds(owner.json)).toEqual([ids.open, ids.hidden]);
    expect(owner.json.aggregations.access_status.buckets.map((b: { key: string }) => b.key).sort()).toEqual(["metadata-only", "restricted"]);
    const q = await t.call("GET", "/api/communities/tidal/records?q=calibration", { as: "alice" });
    expect(hitIds(q.json)).toEqual([ids.hidden]);
  });

  test("a record shows the public communities it is in as parent.communities; {} when none", async () => {
    const record = await t.call("GET", `/api/records/${ids.open}`);
    expect(record.json.parent.communities).toMatchObject({ ids: [community], default: community, entries: [{ id: community, slug: "tidal" }] });
    expect(record.json.parent.communities.entries[0].metadata.title).toBe("Community tidal");
    expect((await t.call("GET", `/api/records/${ids.outside}`)).json.parent.communities).toEqual({});
    const secret = await t.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("secret-tides", { visibility: "restricted" }) });
    await t.services.deps.db
      .insert(recordCommunitiesTable)
      .values({ parentId: (await t.call("GET", `/api/records/${ids.outside}`)).json.parent.id, communityId: secret.json.id, created: t.clock.now() })
      .run();
    expect((await t.call("GET", `/api/records/${ids.outside}`)).json.parent.communities).toEqual({});
  });

  test("another community lists none of them; an unknown one is a 404", async () => {
    expect((await t.call("GET", "/api/communities/other/records")).json.hits.total).toBe(0);
    expect((await t.call("GET", "/api/communities/nowhere/records")).status).toBe(404);
  });
});
