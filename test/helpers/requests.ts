// A test app for the requests engine and the mail outbox: users in every part a request can give
// them, communities written straight into the tables, and test request types registered here.
import { systemActor, type Actor } from "../../src/core/actor";
import { HttpError } from "../../src/core/errors";
import { newUuid } from "../../src/core/ids";
import type { ConfigKey } from "../../src/config";
import { communitiesTable, communityMembersTable, mailOutboxTable } from "../../src/db/tables";
import type { Role as CommunityRole } from "../../src/communities/roles";
import type { HookContext, RequestType } from "../../src/requests/request-type";
import { createTestApp, type CallOptions } from "./app";

/** Who calls: the app's users, one user per community role, and an outsider. */
export type Party = "anonymous" | "admin" | "alice" | "bob" | "carol" | "owner" | "manager" | "curator" | "reader";

const DEFAULT_MEMBERS: Partial<Record<Party, CommunityRole>> = { owner: "owner", manager: "manager", curator: "curator", reader: "reader" };

/** What the test types' accept hooks did, in order. */
export const hookCalls: { type: string; action: string; request: string }[] = [];
const record = (ctx: HookContext, action: string) => void hookCalls.push({ type: ctx.request.type, action, request: ctx.request.id });

/** A user asks a community (like a membership request or a submission): curators answer. */
export const testReview: RequestType = {
  id: "test-review",
  entities: { creator: ["user"], receiver: ["community"], topic: ["record"] },
  can: {
    submit: (p) => p.isCreator(),
    cancel: (p) => p.isCreator(),
    delete: (p) => p.isCreator(),
    accept: (p) => p.isReceiver("curator"),
    decline: (p) => p.isReceiver("curator"),
  },
  on: { accept: async (ctx) => record(ctx, "accept") },
  expiresInDays: 30,
  defaults: (r) => ({ title: `Review request #${r.number}` }),
};

/** A community asks a user (like an invitation): managers send and cancel, the user answers. */
export const testInvite: RequestType = {
  id: "test-invite",
  entities: { creator: ["community"], receiver: ["user", "email"], topic: ["community"] },
  can: {
    submit: (p) => p.isCreator("manager"),
    cancel: (p) => p.isCreator("manager"),
    delete: (p) => p.isCreator("manager"),
    accept: (p) => p.isReceiver(),
    decline: (p) => p.isReceiver(),
  },
  on: {
    async accept(ctx) {
      record(ctx, "accept");
      if (ctx.request.payload.refuse) throw new HttpError(400, "This invitation cannot be accepted.");
    },
  },
  expiresInDays: 7,
  notification: (n) => ({ subject: `Invitation ${n.event}`, body: `${n.actorName}: ${n.event} ${n.url}` }),
};

/** Between two users, never expiring. */
export const testPlain: RequestType = {
  id: "test-plain",
  entities: { creator: ["user"], receiver: ["user", "group"], topic: null },
  can: { submit: (p) => p.isCreator(), cancel: (p) => p.isCreator(), delete: (p) => p.isCreator(), accept: (p) => p.isReceiver(), decline: (p) => p.isReceiver() },
};

export const TEST_TYPES = [testReview, testInvite, testPlain];

export async function createRequestsTestApp(overrides: Partial<Record<ConfigKey, unknown>> = {}) {
  const ctx = await createTestApp(overrides);
  const { requests, mail } = ctx.services;
  for (const type of TEST_TYPES) requests.registerType(type);
  const { db } = ctx.services.deps;
  const tokens: Record<string, string> = {};
  const userIds: Record<string, number> = { admin: ctx.users.admin.user.id, alice: ctx.users.alice.user.id, bob: ctx.users.bob.user.id };
  for (const name of ["carol", "owner", "manager", "curator", "reader"]) {
    const user = await ctx.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, fullName: name === "carol" ? "Carol Chen" : "" });
    tokens[name] = (await ctx.services.tokens.createToken(systemActor, { userId: user.id, name: `${name}-token` })).secret;
    userIds[name] = user.id;
  }
  const now = ctx.clock.now();
  /** Writes a community with these members (default: the users named owner, manager, curator and reader in those roles). */
  const addCommunity = async (slug: string, visibility: "public" | "restricted" = "public", members: Partial<Record<Party, CommunityRole>> = DEFAULT_MEMBERS) => {
    const id = newUuid();
    await db
      .insert(communitiesTable)
      .values({ id, slug, visibility, memberPolicy: "open", recordPolicy: "open", metadata: { title: `Community ${slug}` }, created: now, updated: now })
      .run();
    for (const [who, role] of Object.entries(members)) {
      await db.insert(communityMembersTable).values({ id: newUuid(), communityId: id, userId: userIds[who]!, role, created: now, updated: now }).run();
    }
    return id;
  };

  const actorOf = (who: Party): Actor =>
    who === "anonymous" ? { kind: "anonymous" } : { kind: "user", userId: userIds[who]!, isAdmin: who === "admin", groupIds: [], scopes: [], tokenId: null };

  /** Calls as one of the parties (a token made here, or the app's own). */
  const callAs = (who: Party, method: string, path: string, options: CallOptions = {}) => {
    if (who in tokens) return ctx.call(method, path, { ...options, token: tokens[who] });
    return ctx.call(method, path, { ...options, as: who as "anonymous" | "admin" | "alice" | "bob" });
  };

  /** The outbox rows, oldest first. */
  const outbox = async () => db.select().from(mailOutboxTable).orderBy(mailOutboxTable.id).all();

  return { ...ctx, requests, mail, userIds, tokens, addCommunity, actorOf, callAs, outbox };
}

export type RequestsTestApp = Awaited<ReturnType<typeof createRequestsTestApp>>;
