// Communities: create (the creator owns it), read, update, rename and delete by id or slug, for every
// role; restricted communities invisible to non-members; the directory other engines consume.
import { join } from "node:path";
import { createCommunitiesService } from "../../src/communities/service";
import { createFileStore } from "../../src/storage/file-store";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { systemActor } from "../../src/core/actor";
import { communityMembersTable, featuredCommunitiesTable } from "../../src/db/tables";
import { BASE_URL } from "../helpers/app";
import { COMMUNITY_BODY, createCommunitiesTestApp, roleScenarios, type CommunitiesTestApp, type Role, type RoleScenario } from "../helpers/communities";

let ctx: CommunitiesTestApp;
const app = () => ctx;
const ids: Record<string, string> = {};
const deleted: string[] = [];

const EVERYONE: Role[] = ["anonymous", "alice", "reader", "grouped", "curator", "manager", "owner", "admin"];

/** One row per caller: `expected(role)` gives the status. */
const matrix = (name: string, method: string, url: string, expected: (who: Role) => number, extra: Partial<RoleScenario> = {}): RoleScenario[] =>
  EVERYONE.map((who) => ({ name, method, url, as: who, status: expected(who), ...extra }));

/** Public: anyone reads. Restricted: members and administrators; others see nothing (404). */
const readStatus = (restricted: boolean) => (who: Role) => (restricted && (who === "anonymous" || who === "alice") ? 404 : 200);
/** Owner-only writes: 401 anonymous, 404 where the community is invisible, 403 other callers. */
const ownerStatus = (restricted: boolean, ok: number) => (who: Role) =>
  who === "owner" || who === "admin" ? ok : who === "anonymous" ? 401 : restricted && who === "alice" ? 404 : 403;

beforeAll(async () => {
  ctx = await createCommunitiesTestApp();
  for (const slug of ["pub", "ren-owner", "ren-admin", "del-owner", "del-admin", "del-rollback"]) ids[slug] = (await ctx.makeCommunity(slug)).id;
  ids.res = (await ctx.makeCommunity("res", { visibility: "restricted" })).id;
  ids["del-res"] = (await ctx.makeCommunity("del-res", { visibility: "restricted" })).id;
  await ctx.services.deps.db.insert(featuredCommunitiesTable).values({ communityId: ids["del-owner"]!, startDate: 0, created: 0, updated: 0 }).run();
});
afterAll(() => ctx.close());

describe("create", () => {
  roleScenarios(app, [
    { name: "anonymous", method: "POST", url: "/api/communities", body: COMMUNITY_BODY("anon"), status: 401, responseHeaders: { "www-authenticate": /^Bearer / } },
    { name: "an invalid token", method: "POST", url: "/api/communities", token: "nope", body: COMMUNITY_BODY("anon"), status: 401 },
    {
      name: "any signed-in user",
      method: "POST",
      url: "/api/communities",
      as: "alice",
      body: COMMUNITY_BODY("Alices-Lab", { type: "event" }),
      status: 201,
      json: {
        slug: "alices-lab",
        revision_id: 1,
        created: "2026-11-22T12:00:00.000000+00:00",
        access: { visibility: "public", member_policy: "open", record_policy: "open" },
        metadata: { title: "Community Alices-Lab", type: { id: "event", title: { en: "Event" } } },
        links: { self_html: `${BASE_URL}/communities/alices-lab`, settings_html: `${BASE_URL}/communities/alices-lab/settings` },
      },
      check: (body) => {
        const api = `${BASE_URL}/api/communities/${body.id}`;
        expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(body.links).toEqual({
          self: api,
          self_html: `${BASE_URL}/communities/alices-lab`,
          settings_html: `${BASE_URL}/communities/alices-lab/settings`,
          logo: `${api}/logo`,
          rename: `${api}/rename`,
          members: `${api}/members`,
          public_members: `${api}/members/public`,
          invitations: `${api}/invitations`,
          requests: `${api}/requests`,
          records: `${api}/records`,
          featured: `${api}/featured`,
        });
      },
    },
  ]);

  test("the creator is its only member, as owner, in the same transaction", async () => {
    const found = (await ctx.communities.directory.find("alices-lab"))!;
    const rows = await ctx.services.deps.db.select().from(communityMembersTable).where(eq(communityMembersTable.communityId, found.id)).all();
    expect(rows.map((r) => [r.userId, r.groupId, r.role, r.visible])).toEqual([[ctx.userIds.alice!, null, "owner", true]]);
  });

  test("the system creates communities without an owner", async () => {
    const created = await ctx.communities.createCommunity(systemActor, COMMUNITY_BODY("by-system"));
    expect(await ctx.services.deps.db.select().from(communityMembersTable).where(eq(communityMembersTable.communityId, created.id)).all()).toEqual([]);
  });
});

describe("read by id or slug", () => {
  roleScenarios(app, [
    ...matrix("public by slug", "GET", "/api/communities/pub", readStatus(false)),
    ...matrix("restricted by slug", "GET", "/api/communities/res", readStatus(true)),
    { name: "slug in another case", method: "GET", url: "/api/communities/PUB", status: 200, json: { slug: "pub" } },
    { name: "unknown slug", method: "GET", url: "/api/communities/nothing-here", status: 404, json: { status: 404, message: "The persistent identifier does not exist." } },
    { name: "unknown uuid", method: "GET", url: "/api/communities/2d4b1e60-3c3a-4f0e-9b7e-0b1d6f1a2b3c", as: "admin", status: 404 },
    {
      name: "not found is the same for restricted",
      method: "GET",
      url: "/api/communities/res",
      as: "bob",
      status: 404,
      json: { message: "The persistent identifier does not exist." },
    },
  ]);

  test("by id, for a member of the restricted one", async () => {
    const res = await ctx.call("GET", `/api/communities/${ids.res}`, { as: "grouped" });
    expect(res.status).toBe(200);
    expect(res.json.slug).toBe("res");
    expect((await ctx.call("GET", `/api/communities/${ids.res}`)).status).toBe(404);
  });

  test("zen4R's Accept: application/vnd.inveniordm.v1+json answers JSON", async () => {
    const res = await ctx.call("GET", "/api/communities/pub", { headers: { accept: "application/vnd.inveniordm.v1+json" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/vnd.inveniordm.v1+json");
    expect(res.json.slug).toBe("pub");
  });
});

describe("update", () => {
  const body = (slug: string, title: string, visibility = "public") => COMMUNITY_BODY(slug, { title, visibility });
  roleScenarios(app, [
    ...matrix("public", "PUT", "/api/communities/pub", ownerStatus(false, 200), { body: body("pub", "Updated public") }),
    ...matrix("restricted", "PUT", "/api/communities/res", ownerStatus(true, 200), { body: body("res", "Updated restricted", "restricted") }),
    { name: "unknown", method: "PUT", url: "/api/communities/nothing-here", as: "owner", body: body("nothing-here", "x"), status: 404 },
    {
      name: "the slug changes only by renaming",
      method: "PUT",
      url: "/api/communities/pub",
      as: "owner",
      body: body("pub-2", "x"),
      status: 400,
      json: { errors: [{ field: "slug", messages: ["The ID should be modified through the renaming URL instead."] }] },
    },
    { name: "invalid JSON", method: "PUT", url: "/api/communities/pub", as: "owner", rawBody: "{", headers: { "content-type": "application/json" }, status: 400 },
    { name: "If-Match of another revision", method: "PUT", url: "/api/communities/pub", as: "owner", body: body("pub", "x"), headers: { "if-match": "1" }, status: 412 },
  ]);

  test("an update shows its new fields and revision", async () => {
    const before = (await ctx.call("GET", "/api/communities/pub")).json;
    ctx.clock.advance(60_000);
    const res = await ctx.call("PUT", "/api/communities/pub", {
      as: "owner",
      body: { ...before, metadata: { title: "Ocean", description: "Sea data" } },
      headers: { "if-match": String(before.revision_id) },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      metadata: { title: "Ocean", description: "Sea data" },
      revision_id: before.revision_id + 1,
      created: before.created,
      updated: "2026-11-22T12:01:00.000000+00:00",
    });
  });
});

describe("rename", () => {
  roleScenarios(app, [
    ...matrix("denied", "POST", "/api/communities/pub/rename", (who) => (who === "owner" || who === "admin" ? 400 : ownerStatus(false, 0)(who)), { body: { slug: "pub" } }),
    ...matrix("restricted", "POST", "/api/communities/res/rename", (who) => (who === "owner" || who === "admin" ? 400 : ownerStatus(true, 0)(who)), { body: { slug: "res" } }),
    {
      name: "same slug",
      method: "POST",
      url: "/api/communities/pub/rename",
      as: "owner",
      body: { slug: "PUB" },
      status: 400,
      json: { errors: [{ field: "slug", messages: ["A new ID value is required for the renaming."] }] },
    },
    {
      name: "taken slug",
      method: "POST",
      url: "/api/communities/pub/rename",
      as: "owner",
      body: { slug: "Res" },
      status: 400,
      json: { errors: [{ field: "slug", messages: ["A community with this identifier already exists."] }] },
    },
    {
      name: "no slug",
      method: "POST",
      url: "/api/communities/pub/rename",
      as: "owner",
      body: { metadata: { title: "x" } },
      status: 400,
      json: { errors: [{ field: "slug", messages: ["Missing data for required field."] }] },
    },
    { name: "an invalid slug", method: "POST", url: "/api/communities/pub/rename", as: "owner", body: { slug: "a/b" }, status: 400 },
    {
      name: "the owner",
      method: "POST",
      url: "/api/communities/ren-owner/rename",
      as: "owner",
      body: { ...COMMUNITY_BODY("ren-owner-2"), metadata: { type: "topic" } },
      status: 200,
      json: { slug: "ren-owner-2" },
    },
    { name: "an administrator", method: "POST", url: "/api/communities/ren-admin/rename", as: "admin", body: { slug: "Ren-Admin-2" }, status: 200, json: { slug: "ren-admin-2" } },
    { name: "the old slug is gone", method: "GET", url: "/api/communities/ren-owner", status: 404 },
    { name: "the new slug", method: "GET", url: "/api/communities/ren-owner-2", status: 200, check: (b) => expect(b.links.self_html).toBe(`${BASE_URL}/communities/ren-owner-2`) },
  ]);
});

describe("delete", () => {
  roleScenarios(app, [
    ...matrix("denied on public", "DELETE", "/api/communities/pub", (who) => (who === "owner" || who === "admin" ? 412 : ownerStatus(false, 0)(who)), {
      headers: { "if-match": "99" },
    }),
    ...matrix("denied on restricted", "DELETE", "/api/communities/res", (who) => (who === "owner" || who === "admin" ? 412 : ownerStatus(true, 0)(who)), {
      headers: { "if-match": "99" },
    }),
    { name: "the owner", method: "DELETE", url: "/api/communities/del-owner", as: "owner", status: 204, check: (_b, text) => expect(text).toBe("") },
    { name: "an administrator", method: "DELETE", url: "/api/communities/del-admin", as: "admin", status: 204 },
    { name: "the owner of a restricted one", method: "DELETE", url: "/api/communities/del-res", as: "owner", status: 204 },
    { name: "gone", method: "GET", url: "/api/communities/del-owner", as: "admin", status: 404 },
    { name: "twice", method: "DELETE", url: "/api/communities/del-owner", as: "owner", status: 404 },
  ]);

  /** The same data directory through a communities service with the test's delete hooks. */
  const hooked = () =>
    createCommunitiesService({
      ...ctx.services.deps,
      audit: ctx.services.audit,
      lookup: ctx.services.vocabularies.lookup,
      files: createFileStore(join(ctx.dataDir, "files")),
      onDelete: [
        async (community) => {
          deleted.push(community.slug);
        },
        async (community) => {
          if (community.slug === "del-rollback") throw new Error("refused by a hook");
        },
      ],
    });

  test("members and featured periods go with it; the hooks ran inside", async () => {
    const db = ctx.services.deps.db;
    expect(await db.select().from(communityMembersTable).where(eq(communityMembersTable.communityId, ids["del-owner"]!)).all()).toEqual([]);
    expect(await db.select().from(featuredCommunitiesTable).where(eq(featuredCommunitiesTable.communityId, ids["del-owner"]!)).all()).toEqual([]);
    await ctx.makeCommunity("del-hooked");
    await hooked().deleteCommunity(systemActor, "del-hooked", null, { via: "cli" });
    expect(deleted).toEqual(["del-hooked"]);
  });

  test("a hook that throws rolls the deletion back", async () => {
    await expect(hooked().deleteCommunity(systemActor, "del-rollback", null, { via: "cli" })).rejects.toThrow("refused by a hook");
    expect((await ctx.communities.directory.find("del-rollback"))?.id).toBe(ids["del-rollback"]!);
  });
});

describe("the directory", () => {
  test("find by slug or id; null for none", async () => {
    expect(await ctx.communities.directory.find("RES")).toEqual({
      id: ids.res!,
      slug: "res",
      title: "Updated restricted",
      visibility: "restricted",
      memberPolicy: "open",
      recordPolicy: "open",
      membersVisibility: "public",
      reviewPolicy: "members",
    });
    expect((await ctx.communities.directory.find(ids.pub!))?.slug).toBe("pub");
    expect(await ctx.communities.directory.find("nothing-here")).toBeNull();
  });

  test("rolesOf: direct and through groups, the strongest role; empty for anonymous", async () => {
    const { userIds } = ctx;
    const actor = (userId: number, groupIds: string[] = []) => ({ kind: "user" as const, userId, isAdmin: false, groupIds, scopes: [], tokenId: null });
    expect((await ctx.communities.directory.rolesOf(actor(userIds.owner!))).get(ids.pub!)).toBe("owner");
    expect((await ctx.communities.directory.rolesOf(actor(userIds.curator!))).get(ids.res!)).toBe("curator");
    expect((await ctx.communities.directory.rolesOf(actor(userIds.grouped!, [ctx.groupId]))).get(ids.res!)).toBe("reader");
    expect((await ctx.communities.directory.rolesOf(actor(userIds.bob!))).size).toBe(0);
    expect((await ctx.communities.directory.rolesOf({ kind: "anonymous" })).size).toBe(0);
    // The group, a reader, becomes curator: the stronger of its member's two roles counts.
    await ctx.services.deps.db
      .update(communityMembersTable)
      .set({ role: "curator" })
      .where(and(eq(communityMembersTable.communityId, ids.pub!), eq(communityMembersTable.groupId, ctx.groupId)))
      .run();
    expect((await ctx.communities.directory.rolesOf(actor(userIds.grouped!, [ctx.groupId]))).get(ids.pub!)).toBe("curator");
  });

  test("curatorEmails: curators, managers and owners, directly or through a group", async () => {
    expect((await ctx.communities.directory.curatorEmails(ids.pub!)).sort()).toEqual(["curator@example.org", "grouped@example.org", "manager@example.org", "owner@example.org"]);
    expect((await ctx.communities.directory.curatorEmails(ids.res!)).sort()).toEqual(["curator@example.org", "manager@example.org", "owner@example.org"]);
    expect(await ctx.communities.directory.curatorEmails("nothing")).toEqual([]);
  });
});
