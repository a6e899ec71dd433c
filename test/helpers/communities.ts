// A test app with communities and their members in every role: owner, manager, curator, reader
// (a reader through a group), another user, anonymous and an administrator, each with a token.
import { expect, test } from "bun:test";
import { createTestApp, expectStatus, type CallOptions } from "./app";
import type { Scenario } from "./scenarios";
import { systemActor } from "../../src/core/actor";
import { newUuid } from "../../src/core/ids";
import { communityMembersTable } from "../../src/db/tables";

/** Who calls: the app's users plus one user per community role. */
export type Role = "anonymous" | "admin" | "alice" | "bob" | "owner" | "manager" | "curator" | "reader" | "grouped";

export const COMMUNITY_BODY = (slug: string, overrides: { visibility?: string; title?: string; type?: string; description?: string } = {}) => ({
  slug,
  access: { visibility: overrides.visibility ?? "public", member_policy: "open", record_policy: "open" },
  metadata: {
    title: overrides.title ?? `Community ${slug}`,
    ...(overrides.description ? { description: overrides.description } : {}),
    ...(overrides.type ? { type: { id: overrides.type } } : {}),
  },
});

export async function createCommunitiesTestApp() {
  const ctx = await createTestApp();
  const communities = ctx.services.communities;
  const oai = async (query: string) => (await ctx.call("GET", `/oai2d?${query}`)).text;
  const tokens: Record<string, string> = {};
  const userIds: Record<string, number> = { admin: ctx.users.admin.user.id, alice: ctx.users.alice.user.id, bob: ctx.users.bob.user.id };
  for (const name of ["owner", "manager", "curator", "reader", "grouped"]) {
    const user = await ctx.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
    tokens[name] = (await ctx.services.tokens.createToken(systemActor, { userId: user.id, name: `${name}-token` })).secret;
    userIds[name] = user.id;
  }
  const group = await ctx.services.groups.createGroup(systemActor, { name: "Readers", description: "Read restricted communities" });
  await ctx.services.groups.addMember(systemActor, group.id, userIds.grouped!);

  /** Calls as one of the roles (a token of a user made here, or the app's own). */
  function call(method: string, path: string, options: Omit<CallOptions, "as"> & { as?: Role } = {}) {
    const { as, ...rest } = options;
    if (as && tokens[as]) return ctx.call(method, path, { ...rest, token: tokens[as] });
    return ctx.call(method, path, { ...rest, as: as as CallOptions["as"] });
  }

  /** Creates a community as `owner` and makes manager, curator and reader members (the reader directly, `grouped` through its group). */
  async function makeCommunity(slug: string, overrides: Parameters<typeof COMMUNITY_BODY>[1] = {}) {
    const res = await call("POST", "/api/communities", { as: "owner", body: COMMUNITY_BODY(slug, overrides) });
    expectStatus(res, 201);
    const id: string = res.json.id;
    const now = ctx.clock.now();
    const member = async (role: string, who: { userId?: number; groupId?: string }) =>
      ctx.services.deps.db
        .insert(communityMembersTable)
        .values({ id: newUuid(), communityId: id, role, created: now, updated: now, ...who })
        .run();
    await member("manager", { userId: userIds.manager });
    await member("curator", { userId: userIds.curator });
    await member("reader", { userId: userIds.reader });
    await member("reader", { groupId: group.id });
    return res.json;
  }

  return { ...ctx, call, communities, oai, userIds, groupId: group.id, makeCommunity };
}

export type CommunitiesTestApp = Awaited<ReturnType<typeof createCommunitiesTestApp>>;

export interface RoleScenario extends Omit<Scenario, "as"> {
  as?: Role;
}

/** Scenario tables (as test/helpers/scenarios.ts) whose callers are community roles. */
export function roleScenarios(app: () => CommunitiesTestApp, rows: RoleScenario[]) {
  for (const row of rows) {
    test(`${row.name}: ${row.as ?? "anonymous"} ${row.method} ${row.url} -> ${row.status}`, async () => {
      const res = await app().call(row.method, row.url, row);
      expect({ status: res.status, body: res.json ?? res.text }).toMatchObject({ status: row.status });
      if (row.json !== undefined) expect(res.json).toMatchObject(row.json as object);
      for (const [name, value] of Object.entries(row.responseHeaders ?? {})) {
        if (value instanceof RegExp) expect(res.headers.get(name) ?? "").toMatch(value);
        else expect(res.headers.get(name)).toBe(value);
      }
      row.check?.(res.json, res.text);
    });
  }
}
