// A test app with the members and requests routes (mounted here until app.ts wires them), a cast
// of users with tokens, and communities and memberships inserted straight into the tables.
import { systemActor } from "../../src/core/actor";
import { newUuid } from "../../src/core/ids";
import type { Role } from "../../src/communities/roles";
import { createTestApp } from "./app";

/** The cast: who holds which role in a standard community (see STANDARD_MEMBERS). */
export const CAST = ["olivia", "oscar", "mia", "max", "carl", "rita", "gus", "otto"] as const;
export type CastName = (typeof CAST)[number];
export type Caller = CastName | "admin" | "anonymous";

export async function createMembersTestApp() {
  const ctx = await createTestApp();
  const { members, requests } = ctx.services;

  const { db } = ctx.services.deps;
  const ids = {} as Record<CastName, number>;
  const tokens = {} as Record<CastName, string>;
  for (const name of CAST) {
    const full = name[0]!.toUpperCase() + name.slice(1);
    const user = await ctx.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, fullName: `${full} Example`, visibility: "public" });
    ids[name] = user.id;
    tokens[name] = (await ctx.services.tokens.createToken(systemActor, { userId: user.id, name: "t" })).secret;
  }
  const stewards = await ctx.services.groups.createGroup(systemActor, { name: "Stewards", description: "Data stewards" });
  const library = await ctx.services.groups.createGroup(systemActor, { name: "Library", description: "The library" });
  const ocean = await ctx.services.groups.createGroup(systemActor, { name: "Ocean Lab", description: "Marine science" });
  await ctx.services.groups.addMember(systemActor, stewards.id, ids.gus);
  const groups = { stewards: stewards.id, library: library.id, ocean: ocean.id };

  const tokenOf = (who: Caller) => (who === "anonymous" ? undefined : who === "admin" ? ctx.users.admin.token : tokens[who]);
  const call = (who: Caller, method: string, path: string, body?: unknown, rawBody?: string) => {
    const token = tokenOf(who);
    return ctx.call(method, path, { body, rawBody, ...(token ? { token } : {}), ...(rawBody !== undefined ? { headers: { "content-type": "application/json" } } : {}) });
  };

  let n = 0;
  /** Inserts a community; returns its id and slug. */
  async function addCommunity(options: { visibility?: "public" | "restricted"; memberPolicy?: "open" | "closed"; title?: string } = {}) {
    const id = newUuid();
    const slug = `c-${++n}`;
    const now = ctx.clock.now();
    await db.statements.run("INSERT INTO communities (id, slug, visibility, member_policy, record_policy, metadata, created, updated) VALUES (?, ?, ?, ?, 'open', ?, ?, ?)", [
      id,
      slug,
      options.visibility ?? "public",
      options.memberPolicy ?? "open",
      JSON.stringify({ title: options.title ?? `Community ${n}` }),
      now,
      now,
    ]);
    return { id, slug };
  }

  async function addMember(communityId: string, who: { user?: number; group?: string }, role: Role, visible = true) {
    const now = ctx.clock.now();
    const id = newUuid();
    await db.statements.run("INSERT INTO community_members (id, community_id, user_id, group_id, role, visible, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
      id,
      communityId,
      who.user ?? null,
      who.group ?? null,
      role,
      visible ? 1 : 0,
      now,
      now,
    ]);
    return id;
  }

  /** The standard membership: two owners, two managers, a curator, a reader, Stewards (Gus's group) managing, Library reading. */
  async function standardCommunity(options: { visibility?: "public" | "restricted"; memberPolicy?: "open" | "closed"; owners?: 1 | 2 } = {}) {
    const c = await addCommunity(options);
    await addMember(c.id, { user: ids.olivia }, "owner", true);
    if (options.owners !== 1) await addMember(c.id, { user: ids.oscar }, "owner", false);
    await addMember(c.id, { user: ids.mia }, "manager", true);
    await addMember(c.id, { user: ids.max }, "manager", true);
    await addMember(c.id, { user: ids.carl }, "curator", false);
    await addMember(c.id, { user: ids.rita }, "reader", true);
    await addMember(c.id, { group: groups.stewards }, "manager", false);
    await addMember(c.id, { group: groups.library }, "reader", true);
    return c;
  }

  /** The community's memberships as `user:<name>` / `group:<name>` -> `role/visible|hidden`, to compare before and after. */
  async function membership(communityId: string): Promise<Record<string, string>> {
    const names = new Map<number, string>(CAST.map((c) => [ids[c], c]));
    const groupNames = new Map(Object.entries(groups).map(([k, v]) => [v, k]));
    const rows = await db.statements.all<{ user_id: number | null; group_id: string | null; role: string; visible: number }>(
      "SELECT user_id, group_id, role, visible FROM community_members WHERE community_id = ?",
      [communityId],
    );
    return Object.fromEntries(
      rows.map((r) => [
        r.user_id !== null ? `user:${names.get(r.user_id) ?? r.user_id}` : `group:${groupNames.get(r.group_id!) ?? r.group_id}`,
        `${r.role}/${r.visible ? "visible" : "hidden"}`,
      ]),
    );
  }

  return { ctx, members, requests, ids, tokens, groups, call, addCommunity, addMember, standardCommunity, membership };
}

export type MembersTestApp = Awaited<ReturnType<typeof createMembersTestApp>>;
