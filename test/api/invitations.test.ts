// Invitations: who may invite, list and change them; the request each invitation is; accepting,
// declining, cancelling and expiry through the requests engine's endpoints; bad input never 5xx.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DAY_MS } from "../../src/core/time";
import { BASE_URL } from "../helpers/app";
import { createMembersTestApp, type Caller, type CastName, type MembersTestApp } from "../helpers/members";

let t: MembersTestApp;
beforeAll(async () => {
  t = await createMembersTestApp();
});
afterAll(() => t.ctx.close());

type Community = { id: string; slug: string };
const user = (name: CastName) => ({ type: "user", id: String(t.ids[name]) });
const invite = (c: Community, who: Caller, names: CastName[], role = "reader", extra: object = {}) =>
  t.call(who, "POST", `/api/communities/${c.slug}/invitations`, { members: names.map(user), role, ...extra });
/** The invitations of the user in the community, oldest first. */
const invitationsOf = (c: Community, name: CastName) =>
  t.requests.findRequests({ type: "community-invitation", receiver: { kind: "user", id: String(t.ids[name]) }, topic: { kind: "community", id: c.id } });
const action = (who: Caller, id: string, name: string, body?: unknown) => t.call(who, "POST", `/api/requests/${id}/actions/${name}`, body);

describe("who may invite", () => {
  const rows: [string, Caller, string, number, "public" | "restricted"][] = [
    ["an owner invites an owner", "olivia", "owner", 204, "public"],
    ["a manager invites a manager", "mia", "manager", 204, "public"],
    ["a manager may not invite an owner", "mia", "owner", 403, "public"],
    ["a manager through a group invites", "gus", "curator", 204, "public"],
    ["a curator may not invite", "carl", "reader", 403, "public"],
    ["a reader may not invite", "rita", "reader", 403, "public"],
    ["another user may not invite", "otto", "reader", 403, "public"],
    ["another user, restricted community", "otto", "reader", 404, "restricted"],
    ["anonymous", "anonymous", "reader", 401, "public"],
    ["an administrator invites an owner", "admin", "owner", 204, "public"],
  ];
  for (const [name, who, role, status, visibility] of rows) {
    test(`${name}: ${who} -> ${status}`, async () => {
      const c = await t.standardCommunity({ visibility });
      const res = await invite(c, who, ["otto"], role);
      expect({ status: res.status, body: res.json }).toMatchObject({ status });
      expect(await invitationsOf(c, "otto")).toHaveLength(status === 204 ? 1 : 0);
    });
  }
});

describe("an invitation is a community-invitation request", () => {
  test("from the community to the user about the community, open, expiring in 30 days, with the message", async () => {
    const c = await t.standardCommunity();
    const res = await invite(c, "mia", ["otto"], "curator", { message: '<p>Join <b>us</b></p><script>alert(1)</script><img src="x" onerror="y">' });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const [inv] = await invitationsOf(c, "otto");
    const read = await t.call("otto", "GET", `/api/requests/${inv!.id}`);
    expect(read.json).toMatchObject({
      type: "community-invitation",
      status: "submitted",
      is_open: true,
      title: 'Invitation to join "Community ' + c.slug.slice(2) + '"',
      created_by: { community: c.id },
      receiver: { user: String(t.ids.otto) },
      topic: { community: c.id },
      expires_at: new Date(t.ctx.clock.now() + 30 * DAY_MS).toISOString().replace("Z", "000+00:00"),
    });
    expect(Object.keys(read.json.links.actions).sort()).toEqual(["accept", "decline"]);
    const timeline = await t.call("otto", "GET", `/api/requests/${inv!.id}/timeline`);
    const comment = timeline.json.hits.hits.find((e: any) => e.type === "C");
    expect(comment.payload.content).toBe("<p>Join <b>us</b></p>");
    // The manager sees the invitation too (as the community), and may cancel it.
    expect(Object.keys((await t.call("mia", "GET", `/api/requests/${inv!.id}`)).json.links.actions)).toEqual(["cancel"]);
  });

  test("several users at once: one request each", async () => {
    const c = await t.addCommunity();
    await t.addMember(c.id, { user: t.ids.olivia }, "owner");
    expect((await invite(c, "olivia", ["otto", "rita", "carl"])).status).toBe(204);
    for (const name of ["otto", "rita", "carl"] as const) expect(await invitationsOf(c, name)).toHaveLength(1);
  });
});

describe("what may not be invited: all or nothing", () => {
  const rows: [string, (c: Community) => unknown, string][] = [
    ["a member", () => ({ members: [user("otto"), user("rita")], role: "reader" }), "already a member"],
    ["an unknown user", () => ({ members: [user("otto"), { type: "user", id: "999999" }], role: "reader" }), "No user '999999'"],
    ["a non-numeric user id", () => ({ members: [{ type: "user", id: "otto" }], role: "reader" }), "No user 'otto'"],
    ["a group", () => ({ members: [{ type: "group", id: t.groups.ocean }], role: "reader" }), "Groups cannot be invited"],
    ["an oversized message", () => ({ members: [user("otto")], role: "reader", message: "x".repeat(10_001) }), "At most 10000 characters"],
    ["a message that is not text", () => ({ members: [user("otto")], role: "reader", message: { a: 1 } }), "Not a valid string"],
    ["no role", () => ({ members: [user("otto")] }), "Missing data for required field."],
    ["an unknown role", () => ({ members: [user("otto")], role: "boss" }), "Invalid role"],
    ["no members", () => ({ role: "reader" }), "Missing data"],
  ];
  for (const [name, body, says] of rows) {
    test(`${name} -> 400`, async () => {
      const c = await t.standardCommunity();
      const res = await t.call("olivia", "POST", `/api/communities/${c.slug}/invitations`, body(c));
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json)).toContain(says);
      expect(await invitationsOf(c, "otto")).toHaveLength(0);
    });
  }

  test("invalid JSON -> 400", async () => {
    const c = await t.standardCommunity();
    expect((await t.call("olivia", "POST", `/api/communities/${c.slug}/invitations`, undefined, "{oops")).status).toBe(400);
  });

  test("an open invitation blocks a second one; a declined one does not", async () => {
    const c = await t.standardCommunity();
    await invite(c, "olivia", ["otto"]);
    const again = await invite(c, "mia", ["otto"]);
    expect(again.status).toBe(400);
    expect(again.json.errors[0]).toEqual({ field: "members.0", messages: ["This user already has an open invitation to the community."] });
    expect((await action("otto", (await invitationsOf(c, "otto"))[0]!.id, "decline")).status).toBe(200);
    expect((await invite(c, "mia", ["otto"])).status).toBe(204);
    expect((await invitationsOf(c, "otto")).map((v) => v.status)).toEqual(["declined", "submitted"]);
  });

  test("visible not a boolean -> 400", async () => {
    const c = await t.standardCommunity();
    const res = await invite(c, "olivia", ["otto"], "reader", { visible: "yes" });
    expect(res.status).toBe(400);
    expect(await invitationsOf(c, "otto")).toHaveLength(0);
  });

  test("an administrator may invite visibly", async () => {
    const c = await t.standardCommunity();
    expect((await invite(c, "admin", ["otto"], "reader", { visible: true })).status).toBe(204);
    expect((await action("otto", (await invitationsOf(c, "otto"))[0]!.id, "accept")).status).toBe(200);
    expect((await t.membership(c.id))["user:otto"]).toBe("reader/visible");
  });
});

describe("an invitation offering a visible membership (issue 28)", () => {
  const publicNames = async (c: Community) => {
    const res = await t.call("anonymous", "GET", `/api/communities/${c.slug}/members/public`);
    expect(res.status).toBe(200);
    return res.json.hits.hits.map((h: any) => h.member.name as string);
  };

  for (const who of ["olivia", "mia", "gus"] as const) {
    test(`${who} invites with visible: true; the invitee accepts and is listed publicly`, async () => {
      const c = await t.standardCommunity();
      const res = await invite(c, who, ["otto"], "reader", { visible: true });
      expect({ status: res.status, body: res.json }).toMatchObject({ status: 204 });
      const [inv] = await invitationsOf(c, "otto");
      // Before accepting, the offer shows in the invitations listing; Otto is nowhere in the public one.
      const listed = await t.call("olivia", "GET", `/api/communities/${c.slug}/invitations`);
      expect(listed.json.hits.hits.find((h: any) => h.member.id === String(t.ids.otto))).toMatchObject({ role: "reader", visible: true });
      expect(await publicNames(c)).not.toContain("Otto Example");
      expect((await action("otto", inv!.id, "accept")).status).toBe(200);
      expect((await t.membership(c.id))["user:otto"]).toBe("reader/visible");
      expect(await publicNames(c)).toContain("Otto Example");
    });
  }

  test("declined, the offer makes no membership", async () => {
    const c = await t.standardCommunity();
    expect((await invite(c, "olivia", ["otto"], "reader", { visible: true })).status).toBe(204);
    expect((await action("otto", (await invitationsOf(c, "otto"))[0]!.id, "decline")).status).toBe(200);
    expect((await t.membership(c.id))["user:otto"]).toBeUndefined();
  });

  test("the rule stays for existing memberships: a manager may not make a hidden member visible", async () => {
    const c = await t.standardCommunity();
    const res = await t.call("mia", "PUT", `/api/communities/${c.slug}/members`, { members: [user("carl")], visible: true });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain("You can only set public visibility on your own membership.");
    expect((await t.membership(c.id))["user:carl"]).toBe("curator/hidden");
  });
});

describe("answering through the requests engine", () => {
  async function invited(role = "curator") {
    const c = await t.standardCommunity();
    expect((await invite(c, "mia", ["otto"], role)).status).toBe(204);
    return { c, id: (await invitationsOf(c, "otto"))[0]!.id };
  }

  test("the invitee accepts: a hidden member with the offered role, the id the listing showed", async () => {
    const { c, id } = await invited();
    const listed = (await t.call("mia", "GET", `/api/communities/${c.slug}/invitations`)).json.hits.hits[0];
    const res = await action("otto", id, "accept", { payload: { content: "<p>Thanks!</p>" } });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("accepted");
    expect((await t.membership(c.id))["user:otto"]).toBe("curator/hidden");
    const member = (await t.call("otto", "GET", `/api/communities/${c.slug}/members?q=otto`)).json.hits.hits[0];
    expect(member.id).toBe(listed.id);
    expect(member.is_current_user).toBe(true);
  });

  const refusals: [string, Caller, string, number][] = [
    ["someone else accepts", "rita", "accept", 403],
    ["the inviting manager accepts", "mia", "accept", 403],
    ["an administrator accepts", "admin", "accept", 403],
    ["a curator cancels", "carl", "cancel", 403],
    ["the invitee cancels", "otto", "cancel", 403],
    ["a manager declines", "mia", "decline", 403],
    ["anonymous accepts", "anonymous", "accept", 401],
    ["an unknown action", "otto", "join", 400],
  ];
  for (const [name, who, act, status] of refusals) {
    test(`${name} -> ${status}, nothing changes`, async () => {
      const { c, id } = await invited();
      expect((await action(who, id, act)).status).toBe(status);
      expect((await invitationsOf(c, "otto"))[0]!.status).toBe("submitted");
      expect((await t.membership(c.id))["user:otto"]).toBeUndefined();
    });
  }

  const endings: [string, Caller, string, string][] = [
    ["the invitee declines", "otto", "decline", "declined"],
    ["the inviting manager cancels", "mia", "cancel", "cancelled"],
    ["an owner cancels", "olivia", "cancel", "cancelled"],
    ["a manager through a group cancels", "gus", "cancel", "cancelled"],
  ];
  for (const [name, who, act, status] of endings) {
    test(`${name}: ${status}, no membership, the invitation is closed`, async () => {
      const { c, id } = await invited();
      expect((await action(who, id, act)).status).toBe(200);
      expect((await t.membership(c.id))["user:otto"]).toBeUndefined();
      const item = (await t.call("olivia", "GET", `/api/communities/${c.slug}/invitations`)).json.hits.hits[0];
      expect(item.request).toMatchObject({ status, is_open: false });
      expect(item.permissions).toEqual({ can_cancel: false, can_update_role: false });
      expect((await action("otto", id, "accept")).status).toBe(400);
    });
  }

  test("expiry after 30 days: the daily job closes it, accepting is refused", async () => {
    const { c, id } = await invited();
    t.ctx.clock.advance(30 * DAY_MS - 1000);
    expect((await t.requests.expireOverdue()).expired).toBe(0);
    t.ctx.clock.advance(2000);
    expect((await action("otto", id, "accept")).status).toBe(400);
    expect((await t.requests.expireOverdue()).expired).toBeGreaterThanOrEqual(1);
    expect((await invitationsOf(c, "otto"))[0]!.status).toBe("expired");
    expect((await t.membership(c.id))["user:otto"]).toBeUndefined();
    // An expired invitation no longer blocks a new one.
    expect((await invite(c, "mia", ["otto"])).status).toBe(204);
  });

  test("an invitee who became a member meanwhile cannot accept: 400, still open", async () => {
    const { c, id } = await invited();
    await t.addMember(c.id, { user: t.ids.otto }, "reader");
    const res = await action("otto", id, "accept");
    expect(res.status).toBe(400);
    expect(res.json.message).toContain("already");
    expect((await invitationsOf(c, "otto"))[0]!.status).toBe("submitted");
  });
});

describe("listing invitations", () => {
  let c: Community;
  beforeAll(async () => {
    c = await t.standardCommunity();
    await invite(c, "olivia", ["otto"], "owner");
    t.ctx.clock.advance(1000);
    await t.call("olivia", "POST", `/api/communities/${c.slug}/invitations`, { members: [{ type: "user", id: String(t.ctx.users.alice.user.id) }], role: "reader" });
    t.ctx.clock.advance(1000);
    await t.call("olivia", "POST", `/api/communities/${c.slug}/invitations`, { members: [{ type: "user", id: String(t.ctx.users.bob.user.id) }], role: "curator" });
    const bobs = await t.requests.findRequests({
      type: "community-invitation",
      receiver: { kind: "user", id: String(t.ctx.users.bob.user.id) },
      topic: { kind: "community", id: c.id },
    });
    await t.ctx.call("POST", `/api/requests/${bobs[0]!.id}/actions/decline`, { as: "bob" });
  });

  const who: [Caller, number][] = [
    ["olivia", 200],
    ["mia", 200],
    ["gus", 200],
    ["admin", 200],
    ["carl", 403],
    ["rita", 403],
    ["otto", 403],
    ["anonymous", 401],
  ];
  for (const [caller, status] of who) {
    test(`${caller} -> ${status}`, async () => expect((await t.call(caller, "GET", `/api/communities/${c.slug}/invitations`)).status).toBe(status));
  }

  test("items: as members, with the request and invitation permissions", async () => {
    const res = await t.call("mia", "GET", `/api/communities/${c.slug}/invitations?q=otto`);
    const [item] = res.json.hits.hits;
    const [inv] = await invitationsOf(c, "otto");
    expect(item).toEqual({
      id: inv!.payload.member_id,
      member: { type: "user", id: String(t.ids.otto), name: "Otto Example", description: "", avatar: `${BASE_URL}/api/users/${t.ids.otto}/avatar.svg` },
      role: "owner",
      visible: false,
      is_current_user: false,
      // A manager may cancel (the community's party) but not change an owner invitation.
      permissions: { can_cancel: true, can_update_role: false },
      request: { is_open: true, id: inv!.id, expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/), status: "submitted" },
      created: expect.any(String),
      updated: expect.any(String),
      revision_id: 2,
    });
    const asOwner = (await t.call("olivia", "GET", `/api/communities/${c.slug}/invitations?q=otto`)).json.hits.hits[0];
    expect(asOwner.permissions).toEqual({ can_cancel: true, can_update_role: true });
    const asAdmin = (await t.call("admin", "GET", `/api/communities/${c.slug}/invitations?q=otto`)).json.hits.hits[0];
    expect(asAdmin.permissions).toEqual({ can_cancel: false, can_update_role: true });
  });

  test("by name, aggregations role, status and is_open", async () => {
    const res = await t.call("olivia", "GET", `/api/communities/${c.slug}/invitations`);
    expect(res.json.sortBy).toBe("name");
    expect(res.json.hits.hits.map((h: any) => h.member.name)).toEqual(["alice", "bob", "Otto Example"]);
    expect(res.json.aggregations.status.buckets.map((b: any) => [b.key, b.doc_count])).toEqual([
      ["submitted", 2],
      ["declined", 1],
    ]);
    expect(res.json.aggregations.is_open).toEqual({
      label: "Status",
      buckets: [
        { key: "true", doc_count: 2, label: "Open", is_selected: false },
        { key: "false", doc_count: 1, label: "Closed", is_selected: false },
      ],
    });
    expect(res.json.aggregations.role.buckets.map((b: any) => b.key)).toEqual(["curator", "owner", "reader"]);
  });

  test("filters", async () => {
    const names = async (query: string) => (await t.call("olivia", "GET", `/api/communities/${c.slug}/invitations?${query}`)).json.hits.hits.map((h: any) => h.member.name);
    expect(await names("is_open=false")).toEqual(["bob"]);
    expect(await names("status=submitted&role=owner")).toEqual(["Otto Example"]);
    expect(await names("role=reader,curator&sort=newest")).toEqual(["bob", "alice"]);
    expect((await t.call("olivia", "GET", `/api/communities/${c.slug}/invitations?status=lost`)).status).toBe(400);
    expect((await t.call("olivia", "GET", `/api/communities/${c.slug}/invitations?is_open=maybe`)).status).toBe(400);
  });
});

describe("changing the offered role", () => {
  const put = (c: Community, who: Caller, body: unknown) => t.call(who, "PUT", `/api/communities/${c.slug}/invitations`, body);

  test("an owner changes it; the invitee is told in the timeline; accepting gives the new role", async () => {
    const c = await t.standardCommunity();
    await invite(c, "mia", ["otto"], "reader");
    expect((await put(c, "olivia", { members: [user("otto")], role: "owner" })).status).toBe(204);
    const [inv] = await invitationsOf(c, "otto");
    expect(inv!.payload.role).toBe("owner");
    const timeline = (await t.call("otto", "GET", `/api/requests/${inv!.id}/timeline`)).json.hits.hits;
    expect(timeline.at(-1).payload.content).toBe('<p>You will join as "Owner" (changed from: "Reader").</p>');
    expect((await action("otto", inv!.id, "accept")).status).toBe(200);
    expect((await t.membership(c.id))["user:otto"]).toBe("owner/hidden");
  });

  const rows: [string, Caller, string, string, number][] = [
    ["a manager changes reader to curator", "mia", "reader", "curator", 204],
    ["a manager may not offer owner", "mia", "reader", "owner", 403],
    ["a manager may not change an owner invitation", "mia", "owner", "reader", 403],
    ["a curator may not change", "carl", "reader", "curator", 403],
    ["the invitee may not change", "otto", "reader", "owner", 403],
    ["an administrator changes", "admin", "reader", "manager", 204],
  ];
  for (const [name, who, from, to, status] of rows) {
    test(`${name} -> ${status}`, async () => {
      const c = await t.standardCommunity();
      await invite(c, "olivia", ["otto"], from);
      expect((await put(c, who, { members: [user("otto")], role: to })).status).toBe(status);
      expect((await invitationsOf(c, "otto"))[0]!.payload.role).toBe(status === 204 ? to : from);
    });
  }

  test("users without an open invitation: 400, nothing changes", async () => {
    const c = await t.standardCommunity();
    await invite(c, "olivia", ["otto"]);
    const res = await put(c, "olivia", { members: [user("otto"), user("rita")], role: "curator" });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: "members.1", messages: [`The user '${t.ids.rita}' has no open invitation in this community.`] }]);
    expect((await invitationsOf(c, "otto"))[0]!.payload.role).toBe("reader");
  });

  test("visibility may only be hidden by others; bad bodies are 400", async () => {
    const c = await t.standardCommunity();
    await invite(c, "olivia", ["otto"]);
    expect((await put(c, "olivia", { members: [user("otto")], role: "reader", visible: true })).status).toBe(400);
    expect((await put(c, "olivia", { members: [user("otto")] })).status).toBe(400);
    expect((await put(c, "olivia", { members: [user("otto")], role: 1 })).status).toBe(400);
    expect((await t.call("olivia", "PUT", `/api/communities/${c.slug}/invitations`, undefined, "nope")).status).toBe(400);
  });
});
