// The requests status machine: every action from every status by every kind of caller, against a
// test type registered here and a fake community directory; hooks, expiry and creation rules.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor, type Actor } from "../../src/core/actor";
import { HttpError } from "../../src/core/errors";
import { DAY_MS } from "../../src/core/time";
import { userDirectoryOf, type CommunityDirectory } from "../../src/requests/context";
import { createRequestsService, type RequestsService } from "../../src/requests/service";
import type { Role as CommunityRole } from "../../src/communities/roles";
import type { RequestAction, RequestStatus, RequestType } from "../../src/requests/request-type";
import { createTestApp, type TestApp } from "../helpers/app";

const COMMUNITY = "0b6c1f6e-9a51-4c4e-8f4a-1d2c3b4a5e6f";

/** A user asks a community; its curators (and up) answer; the creator submits, cancels and deletes. */
const reviewType: RequestType = {
  id: "machine-test",
  entities: { creator: ["user"], receiver: ["community"], topic: null },
  can: {
    submit: (p) => p.isCreator(),
    cancel: (p) => p.isCreator(),
    delete: (p) => p.isCreator(),
    accept: (p) => p.isReceiver("curator"),
    decline: (p) => p.isReceiver("curator"),
  },
  on: {
    async accept(ctx) {
      hooks.push(`${ctx.request.id}:${ctx.request.status}`);
      if (ctx.request.title === "refuse") throw new HttpError(400, "The hook refused.");
    },
  },
  expiresInDays: 10,
};

type Who = "creator" | "curator" | "manager" | "reader" | "other" | "anonymous" | "admin" | "system";
const WHO: Who[] = ["creator", "curator", "manager", "reader", "other", "anonymous", "admin", "system"];
const STATUSES: RequestStatus[] = ["created", "submitted", "accepted", "declined", "cancelled", "expired"];
const ACTIONS: RequestAction[] = ["submit", "accept", "decline", "cancel", "expire", "delete"];

// The spec's machine (§2.5), written out here rather than imported, so the engine is checked against it.
const FROM: Record<RequestAction, RequestStatus[]> = {
  submit: ["created"],
  accept: ["submitted"],
  decline: ["submitted"],
  cancel: ["submitted"],
  expire: ["submitted"],
  delete: ["created"],
};
const TO: Record<RequestAction, RequestStatus | "deleted"> = {
  submit: "submitted",
  accept: "accepted",
  decline: "declined",
  cancel: "cancelled",
  expire: "expired",
  delete: "deleted",
};
/** Who may run what (when the state allows); the system runs anything the state allows. */
const MAY: Record<Who, RequestAction[]> = {
  creator: ["submit", "cancel", "delete"],
  curator: ["accept", "decline"],
  manager: ["accept", "decline"],
  reader: [],
  other: [],
  anonymous: [],
  admin: [],
  system: ACTIONS,
};
/** Who reads the request at all: a community reader is no party (curators and up act for it); the receiver sees no draft. */
const READS: Record<Who, (status: RequestStatus) => boolean> = {
  creator: () => true,
  curator: (s) => s !== "created",
  manager: (s) => s !== "created",
  reader: () => false,
  other: () => false,
  anonymous: () => false,
  admin: () => true,
  system: () => true,
};

function expected(who: Who, status: RequestStatus, action: RequestAction): number | RequestStatus | "deleted" {
  if (who === "anonymous") return 401;
  if (!READS[who](status)) return 403;
  if (!FROM[action].includes(status)) return 400;
  if (!MAY[who].includes(action)) return 403;
  return TO[action];
}

let ctx: TestApp;
let requests: RequestsService;
const actors = {} as Record<Who, Actor>;
const hooks: string[] = [];
const mails: { to: string; subject: string }[] = [];

beforeAll(async () => {
  ctx = await createTestApp();
  const ids: Record<string, number> = {};
  for (const name of ["curator", "manager", "reader"]) {
    ids[name] = (await ctx.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name })).id;
  }
  const user = (id: number, isAdmin = false): Actor => ({ kind: "user", userId: id, isAdmin, groupIds: [], scopes: [], tokenId: null });
  Object.assign(actors, {
    creator: user(ctx.users.alice.user.id),
    curator: user(ids.curator!),
    manager: user(ids.manager!),
    reader: user(ids.reader!),
    other: user(ctx.users.bob.user.id),
    anonymous: { kind: "anonymous" },
    admin: user(ctx.users.admin.user.id, true),
    system: systemActor,
  });
  const roles = new Map<number, CommunityRole>([
    [ids.curator!, "curator"],
    [ids.manager!, "manager"],
    [ids.reader!, "reader"],
  ]);
  const directory: CommunityDirectory = {
    find: async (key) => (key === COMMUNITY || key === "ocean" ? { id: COMMUNITY, slug: "ocean", title: "Ocean", visibility: "public" } : null),
    rolesOf: async (actor) => new Map(actor.kind === "user" && roles.has(actor.userId) ? [[COMMUNITY, roles.get(actor.userId)!]] : []),
    curatorEmails: async () => ["curator@example.org", "manager@example.org"],
  };
  requests = createRequestsService({
    ...ctx.services.deps,
    communities: directory,
    users: userDirectoryOf(ctx.services.users.findUserById),
    queueMail: async (m) => void mails.push(m),
    types: [reviewType],
  });
});
afterAll(() => ctx.close());

/** A fresh request in `status`, driven there by the system. */
async function requestIn(status: RequestStatus, title = "") {
  const created = await requests.createRequest(actors.creator, { type: reviewType.id, receiver: { kind: "community", id: COMMUNITY }, title });
  const path: Partial<Record<RequestStatus, RequestAction[]>> = {
    submitted: ["submit"],
    accepted: ["submit", "accept"],
    declined: ["submit", "decline"],
    cancelled: ["submit", "cancel"],
    expired: ["submit", "expire"],
  };
  for (const action of path[status] ?? []) await requests.runAction(systemActor, created.id, action);
  return created.id;
}

async function run(who: Who, id: string, action: RequestAction): Promise<number | RequestStatus | "deleted" | "still there"> {
  try {
    if (action === "delete") {
      await requests.deleteRequest(actors[who], id);
      return (await await requests.findRequest(id)) === null ? "deleted" : "still there";
    }
    return (await requests.runAction(actors[who], id, action)).status;
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    throw err;
  }
}

describe("every action from every status by every caller", () => {
  for (const status of STATUSES) {
    for (const action of ACTIONS) {
      for (const who of WHO) {
        const want = expected(who, status, action);
        test(`${status} --${action}--> by ${who}: ${want}`, async () => {
          const id = await requestIn(status);
          expect(await run(who, id, action)).toBe(want);
          // A refused action changes nothing.
          if (typeof want === "number") expect((await await requests.findRequest(id))?.status).toBe(status);
        });
      }
    }
  }
});

describe("the links list exactly the actions the caller may run now", () => {
  const linked = async (who: Who, id: string) => Object.keys((await await requests.readRequest(actors[who], id)).links.actions).sort();
  for (const status of STATUSES) {
    for (const who of ["creator", "curator", "manager", "admin"] as Who[]) {
      if (!READS[who](status)) continue;
      const want = ACTIONS.filter((a) => a !== "delete" && expected(who, status, a) === TO[a]).sort();
      test(`${status}, ${who}: ${want.join(", ") || "none"}`, async () => expect(await linked(who, await requestIn(status))).toEqual(want));
    }
  }
});

describe("transitions", () => {
  test("each writes a log event with the new status, in order", async () => {
    const id = await requestIn("accepted");
    const events = (await requests.readTimeline(actors.creator, id, {})).hits.hits;
    expect(events.map((e) => [e.type, e.payload.event])).toEqual([
      ["L", "submitted"],
      ["L", "accepted"],
    ]);
    expect(events[1]!.created_by).toEqual({ user: "system" });
  });

  test("the accept hook runs in the transaction, with the new status", async () => {
    const id = await requestIn("submitted");
    await requests.runAction(actors.curator, id, "accept");
    expect(hooks).toContain(`${id}:accepted`);
  });

  test("a hook that throws refuses the action and rolls it back (no status, no log)", async () => {
    const id = await requestIn("submitted", "refuse");
    await expect(requests.runAction(actors.manager, id, "accept", { payload: { content: "yes" } })).rejects.toThrow("The hook refused.");
    expect((await requests.findRequest(id))?.status).toBe("submitted");
    expect((await requests.readTimeline(actors.creator, id, {})).hits.total).toBe(1);
  });

  test("submitting starts the type's expiry; a draft has none", async () => {
    const draft = await requestIn("created");
    expect((await requests.findRequest(draft))?.expiresAt).toBeNull();
    const open = await requestIn("submitted");
    expect((await requests.findRequest(open))?.expiresAt).toBe(ctx.clock.now() + 10 * DAY_MS);
  });

  test("an overdue open request takes no answer; the system expires it", async () => {
    const id = await requestIn("submitted");
    ctx.clock.advance(11 * DAY_MS);
    try {
      expect((await requests.readRequest(actors.curator, id)).is_expired).toBe(true);
      expect((await requests.readRequest(actors.curator, id)).links.actions).toEqual({});
      await expect(requests.runAction(actors.curator, id, "accept")).rejects.toThrow(/expired on .*'accept'.*'submitted'/);
      expect((await requests.expireOverdue()).expired).toBeGreaterThanOrEqual(1);
      expect((await requests.findRequest(id))?.status).toBe("expired");
      expect((await requests.expireOverdue()).expired).toBe(0);
    } finally {
      ctx.clock.advance(-11 * DAY_MS);
    }
  });

  test("the 400 names the state and the action", async () => {
    const id = await requestIn("declined");
    await expect(requests.runAction(actors.curator, id, "accept")).rejects.toThrow(
      "The action 'accept' is not possible on a request in the state 'declined' (only in: submitted).",
    );
  });

  test("unknown actions, and delete through the actions endpoint, are 400", async () => {
    const id = await requestIn("created");
    await expect(requests.runAction(actors.creator, id, "approve")).rejects.toThrow(/No action 'approve'/);
    await expect(requests.runAction(actors.creator, id, "delete")).rejects.toThrow(/delete a draft with DELETE/);
  });
});

describe("creation", () => {
  const input = { type: reviewType.id, receiver: { kind: "community" as const, id: "ocean" } };
  test("a community given by slug is stored by id; create-and-submit starts open with one log event", async () => {
    const r = await requests.createRequest(actors.creator, { ...input, submit: true });
    expect(r.receiver).toEqual({ community: COMMUNITY });
    expect(r.status).toBe("submitted");
    expect(r.created_by).toEqual({ user: String(actors.creator.kind === "user" && actors.creator.userId) });
    expect((await requests.readTimeline(actors.creator, r.id, {})).hits.hits.map((e) => e.payload.event)).toEqual(["submitted"]);
  });
  test("numbers count up", async () => {
    const a = Number((await requests.createRequest(actors.creator, input)).number);
    expect(Number((await requests.createRequest(actors.creator, input)).number)).toBe(a + 1);
  });
  test("anonymous: 401; someone else as creator: 403", async () => {
    await expect(requests.createRequest(actors.anonymous, input)).rejects.toThrow(expect.objectContaining({ status: 401 }));
    await expect(requests.createRequest(actors.other, { ...input, createdBy: { kind: "user", id: "1" } })).rejects.toThrow(expect.objectContaining({ status: 403 }));
  });
  test("an unknown type, a wrong party kind or an unknown community: 400 naming the field", async () => {
    await expect(requests.createRequest(actors.creator, { ...input, type: "nope" })).rejects.toThrow(
      expect.objectContaining({ status: 400, errors: [{ field: "type", messages: ["Unknown request type 'nope'."] }] }),
    );
    await expect(requests.createRequest(actors.creator, { ...input, receiver: { kind: "user", id: "1" } })).rejects.toThrow(
      expect.objectContaining({ errors: [{ field: "receiver", messages: ["Must be one of the kinds: community."] }] }),
    );
    await expect(requests.createRequest(actors.creator, { ...input, receiver: { kind: "community", id: "nowhere" } })).rejects.toThrow(
      expect.objectContaining({ errors: [{ field: "receiver", messages: ["No community 'nowhere'."] }] }),
    );
  });
  test("submitting notifies the receiving community's curators", async () => {
    mails.length = 0;
    await requests.createRequest(actors.creator, { ...input, submit: true });
    expect(mails.map((m) => m.to).sort()).toEqual(["curator@example.org", "manager@example.org"]);
  });
});
