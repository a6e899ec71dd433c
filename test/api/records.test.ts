// The published-records listing: visibility in SQL, latest versions, paging links.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { recordParentsTable, recordsTable } from "../../src/db/tables";
import { createTestApp, type TestApp } from "../helpers/app";
import { hitIds } from "../helpers/search";

let ctx: TestApp;

/** Stores a record row as publishing will; the listing only reads. */
async function insertRecord(id: string, fields: Partial<typeof recordsTable.$inferInsert>) {
  const now = ctx.clock.now();
  const parentId = fields.parentId ?? `p-${id}`;
  await ctx.services.deps.db
    .insert(recordParentsTable)
    .values({ id: parentId, ownerId: fields.ownerId ?? null, latestId: id, created: now, updated: now })
    .onConflictDoNothing()
    .run();
  await ctx.services.deps.db
    .insert(recordsTable)
    .values({
      id,
      parentId: `p-${id}`,
      isPublished: true,
      isLatest: true,
      accessRecord: "public",
      document: {
        access: { record: fields.accessRecord ?? "public", files: "public", embargo: { active: false, until: null, reason: null } },
        files: { enabled: false },
        metadata: { title: `Title ${id}` },
      },
      created: now,
      updated: now,
      ...fields,
    })
    .run();
  ctx.clock.advance(1000);
}

beforeAll(async () => {
  ctx = await createTestApp();
  const alice = ctx.users.alice.user.id;
  await insertRecord("aaaaa-aaa01", { ownerId: alice });
  await insertRecord("aaaaa-aaa02", { ownerId: alice, accessRecord: "restricted" });
  await insertRecord("aaaaa-aaa04", { ownerId: alice, parentId: "p-aaaaa-aaa01", isLatest: false, versionIndex: 1 });
  await insertRecord("aaaaa-aaa05", { ownerId: ctx.users.bob.user.id });
  // Rows written straight into the table reach searches through `cairn reindex`.
  expect(await ctx.services.records.reindex({ kind: "system" })).toBe(4);
});
afterAll(() => ctx.close());

describe("GET /api/records", () => {
  test.each([
    ["anonymous", ["aaaaa-aaa05", "aaaaa-aaa01"]],
    ["bob", ["aaaaa-aaa05", "aaaaa-aaa01"]],
    ["alice", ["aaaaa-aaa05", "aaaaa-aaa02", "aaaaa-aaa01"]],
    ["admin", ["aaaaa-aaa05", "aaaaa-aaa02", "aaaaa-aaa01"]],
  ] as const)("%s sees only what it may read, newest first", async (who, expected) => {
    const res = await ctx.call("GET", "/api/records", { as: who });
    expect(res.status).toBe(200);
    expect(hitIds(res.json)).toEqual([...expected]);
    expect(res.json.hits.total).toBe(expected.length);
  });

  test("allversions includes older versions", async () => {
    const res = await ctx.call("GET", "/api/records?allversions=true");
    expect(hitIds(res.json)).toEqual(["aaaaa-aaa05", "aaaaa-aaa04", "aaaaa-aaa01"]);
    expect(res.json.links.self).toBe("http://127.0.0.1:5000/api/records?allversions=true&sort=newest&page=1&size=10");
  });

  test("pages carry prev and next links with the effective parameters", async () => {
    const first = await ctx.call("GET", "/api/records?size=1", { as: "alice" });
    expect(hitIds(first.json)).toEqual(["aaaaa-aaa05"]);
    expect(first.json.hits.total).toBe(3);
    expect(first.json.links).toEqual({
      self: "http://127.0.0.1:5000/api/records?sort=newest&page=1&size=1",
      next: "http://127.0.0.1:5000/api/records?sort=newest&page=2&size=1",
    });
    const last = await ctx.call("GET", "/api/records?size=1&page=3", { as: "alice" });
    expect(hitIds(last.json)).toEqual(["aaaaa-aaa01"]);
    expect(last.json.links.next).toBeUndefined();
    expect(last.json.links.prev).toBe("http://127.0.0.1:5000/api/records?sort=newest&page=2&size=1");
    const past = await ctx.call("GET", "/api/records?size=1&page=9", { as: "alice" });
    expect(past.json.hits).toEqual({ hits: [], total: 3 });
  });

  test("hits carry absolute links and the record timestamp format", async () => {
    const res = await ctx.call("GET", "/api/records?size=1");
    const hit = res.json.hits.hits[0];
    expect(hit.links.self).toBe("http://127.0.0.1:5000/api/records/aaaaa-aaa05");
    expect(hit.links.self_html).toBe("http://127.0.0.1:5000/records/aaaaa-aaa05");
    expect(hit.created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(hit.is_published).toBe(true);
    expect(hit.metadata.title).toBe("Title aaaaa-aaa05");
  });
});
