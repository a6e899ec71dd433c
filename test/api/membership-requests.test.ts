// Membership requests: asking to join a community whose member policy is open, who may list them
// and set the role they give, and accepting, declining and cancelling through the requests engine.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createMembersTestApp, type Caller, type CastName, type MembersTestApp } from "../helpers/members";

let t: MembersTestApp;
beforeAll(async () => {
  t = await createMembersTestApp();
});
afterAll(() => t.ctx.close());

type Community = { id: string; slug: string };
const ask = (c: Community, who: Caller, body?: unknown) => t.call(who, "POST", `/api/communities/${c.slug}/membership-requests`, body);
const requestsOf = (c: Community, name: CastName) =>
  t.requests.findRequests({ type: "community-membership-request", createdBy: { kind: "user", id: String(t.ids[name]) }, receiver: { kind: "community", id: c.id } });
const action = (who: Caller, id: string, name: string) => t.call(who, "POST", `/api/requests/${id}/actions/${name}`);

describe("asking to join", () => {
  test("a signed-in user: 201 with the request, from the user to the community", async () => {
    const c = await t.standardCommunity();
    const res = await ask(c, "otto", { message: "<p>I work on <i>seals</i></p><script>x</script>" });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      type: "community-membership-request",
      status: "submitted",
      is_open: true,
      expires_at: null,
      created_by: { user: String(t.ids.otto) },
      receiver: { community: c.id },
      topic: { community: c.id },
    });
    expect(Object.keys(res.json.links.actions)).toEqual(["cancel"]);
    const timeline = (await t.call("otto", "GET", `/api/requests/${res.json.id}/timeline`)).json.hits.hits;
    expect(timeline.find((e: any) => e.type === "C").payload.content).toBe("<p>I work on <i>seals</i></p>");
    // The community's managers see it with accept and decline.
    expect(Object.keys((await t.call("mia", "GET", `/api/requests/${res.json.id}`)).json.links.actions).sort()).toEqual(["accept", "decline"]);
  });

  const refusals: [string, Caller, { visibility?: "public" | "restricted"; memberPolicy?: "open" | "closed" }, number, string][] = [
    ["a closed member policy", "otto", { memberPolicy: "closed" }, 400, "member policy is closed"],
    ["a member", "rita", {}, 400, "already a member"],
    ["a member through a group", "gus", {}, 400, "already a member"],
    ["anonymous", "anonymous", {}, 401, ""],
    ["a restricted community the caller cannot see", "otto", { visibility: "restricted" }, 404, ""],
  ];
  for (const [name, who, options, status, says] of refusals) {
    test(`${name} -> ${status}`, async () => {
      const c = await t.standardCommunity(options);
      const res = await ask(c, who);
      expect(res.status).toBe(status);
      if (says) expect(res.json.message).toContain(says);
    });
  }

  test("one open request at a time; after a decline another", async () => {
    const c = await t.standardCommunity();
    expect((await ask(c, "otto")).status).toBe(201);
    const again = await ask(c, "otto");
    expect(again.status).toBe(400);
    expect(again.json.message).toContain("already asked");
    expect((await action("mia", (await requestsOf(c, "otto"))[0]!.id, "decline")).status).toBe(200);
    expect((await ask(c, "otto")).status).toBe(201);
  });

  test("an open invitation comes first; and an open request blocks an invitation", async () => {
    const c = await t.standardCommunity();
    await t.call("mia", "POST", `/api/communities/${c.slug}/invitations`, { members: [{ type: "user", id: String(t.ids.otto) }], role: "reader" });
    expect((await ask(c, "otto")).json.message).toContain("open invitation");
    const d = await t.standardCommunity();
    await ask(d, "otto");
    const inv = await t.call("mia", "POST", `/api/communities/${d.slug}/invitations`, { members: [{ type: "user", id: String(t.ids.otto) }], role: "reader" });
    expect(inv.status).toBe(400);
    expect(JSON.stringify(inv.json)).toContain("membership request");
  });

  test("bad bodies never 5xx", async () => {
    const c = await t.standardCommunity();
    expect((await ask(c, "otto", { message: "x".repeat(10_001) })).status).toBe(400);
    expect((await ask(c, "otto", { message: 12 })).status).toBe(400);
    expect((await t.call("otto", "POST", `/api/communities/${c.slug}/membership-requests`, undefined, "{bad")).status).toBe(400);
    expect((await t.call("otto", "POST", `/api/communities/${c.slug}/membership-requests`, undefined, "[]")).status).toBe(400);
    expect(await requestsOf(c, "otto")).toHaveLength(0);
  });
});

describe("answering", () => {
  async function asked(role?: string) {
    const c = await t.standardCommunity();
    const id = (await ask(c, "otto")).json.id as string;
    if (role)
      expect((await t.call("olivia", "PUT", `/api/communities/${c.slug}/membership-requests`, { members: [{ type: "user", id: String(t.ids.otto) }], role })).status).toBe(204);
    return { c, id };
  }

  test("a manager accepts: a hidden reader", async () => {
    const { c, id } = await asked();
    expect((await action("mia", id, "accept")).status).toBe(200);
    expect((await t.membership(c.id))["user:otto"]).toBe("reader/hidden");
    expect((await t.call("otto", "GET", `/api/communities/${c.slug}/members`)).status).toBe(200);
  });

  test("the role a manager set first is given", async () => {
    const { c, id } = await asked("curator");
    expect((await action("max", id, "accept")).status).toBe(200);
    expect((await t.membership(c.id))["user:otto"]).toBe("curator/hidden");
  });

  test("an owner role is given only by an owner", async () => {
    const { c, id } = await asked("owner");
    expect((await action("mia", id, "accept")).status).toBe(403);
    expect((await t.membership(c.id))["user:otto"]).toBeUndefined();
    expect((await action("olivia", id, "accept")).status).toBe(200);
    expect((await t.membership(c.id))["user:otto"]).toBe("owner/hidden");
  });

  const rows: [string, Caller, string, number, string][] = [
    ["a curator may not accept", "carl", "accept", 403, "submitted"],
    ["the requester may not accept", "otto", "accept", 403, "submitted"],
    ["an administrator is no party", "admin", "accept", 403, "submitted"],
    ["a manager declines", "mia", "decline", 200, "declined"],
    ["a manager through a group declines", "gus", "decline", 200, "declined"],
    ["the requester cancels", "otto", "cancel", 200, "cancelled"],
    ["a manager may not cancel", "mia", "cancel", 403, "submitted"],
  ];
  for (const [name, who, act, status, after] of rows) {
    test(`${name} -> ${status}`, async () => {
      const { c, id } = await asked();
      expect((await action(who, id, act)).status).toBe(status);
      expect((await requestsOf(c, "otto"))[0]!.status as string).toBe(after);
      expect((await t.membership(c.id))["user:otto"]).toBeUndefined();
    });
  }

  test("a requester who became a member meanwhile: accepting is a 400 and changes nothing", async () => {
    const { c, id } = await asked();
    await t.addMember(c.id, { user: t.ids.otto }, "curator");
    expect((await action("mia", id, "accept")).status).toBe(400);
    expect((await requestsOf(c, "otto"))[0]!.status).toBe("submitted");
    expect((await t.membership(c.id))["user:otto"]).toBe("curator/visible");
  });
});

describe("listing and changing the role", () => {
  test("who may list", async () => {
    const c = await t.standardCommunity();
    await ask(c, "otto");
    for (const [who, status] of [
      ["olivia", 200],
      ["mia", 200],
      ["admin", 200],
      ["carl", 403],
      ["rita", 403],
      ["otto", 403],
      ["anonymous", 401],
    ] as [Caller, number][]) {
      expect({ who, status: (await t.call(who, "GET", `/api/communities/${c.slug}/membership-requests`)).status }).toEqual({ who, status });
    }
  });

  test("items and permissions", async () => {
    const c = await t.standardCommunity();
    const id = (await ask(c, "otto")).json.id;
    const res = await t.call("mia", "GET", `/api/communities/${c.slug}/membership-requests`);
    expect(res.json.hits.total).toBe(1);
    expect(res.json.hits.hits[0]).toMatchObject({
      id,
      member: { type: "user", id: String(t.ids.otto), name: "Otto Example" },
      role: "reader",
      visible: false,
      permissions: { can_accept: true, can_decline: true, can_update_role: true },
      request: { id, status: "submitted", is_open: true, expires_at: null },
    });
    expect(res.json.aggregations.status.buckets).toEqual([{ key: "submitted", doc_count: 1, label: "Submitted", is_selected: false }]);
  });

  const rows: [string, Caller, string, number][] = [
    ["a manager sets curator", "mia", "curator", 204],
    ["a manager may not set owner", "mia", "owner", 403],
    ["a curator may not change", "carl", "manager", 403],
    ["an owner sets owner", "olivia", "owner", 204],
  ];
  for (const [name, who, role, status] of rows) {
    test(`${name} -> ${status}`, async () => {
      const c = await t.standardCommunity();
      await ask(c, "otto");
      const res = await t.call(who, "PUT", `/api/communities/${c.slug}/membership-requests`, { members: [{ type: "user", id: String(t.ids.otto) }], role });
      expect(res.status).toBe(status);
      expect((await requestsOf(c, "otto"))[0]!.payload.role).toBe(status === 204 ? role : "reader");
    });
  }

  test("a user without an open request: 400", async () => {
    const c = await t.standardCommunity();
    const res = await t.call("olivia", "PUT", `/api/communities/${c.slug}/membership-requests`, { members: [{ type: "user", id: String(t.ids.otto) }], role: "curator" });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].messages[0]).toContain("no open membership request");
  });
});
