// Community member listings (members, public members): who may list them in public and restricted
// communities, the member JSON and its per-caller permissions, q, sorts, facets and bad input.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BASE_URL } from "../helpers/app";
import { createMembersTestApp, type Caller, type MembersTestApp } from "../helpers/members";

let t: MembersTestApp;
let open: { id: string; slug: string };
let secret: { id: string; slug: string };
beforeAll(async () => {
  t = await createMembersTestApp();
  open = await t.standardCommunity();
  secret = await t.standardCommunity({ visibility: "restricted" });
});
afterAll(() => t.ctx.close());

/** The hits as `user:<name>`/`group:<name>`, in order. */
function names(body: any): string[] {
  return body.hits.hits.map((h: any) => `${h.member.type}:${h.member.name.split(" ")[0].toLowerCase()}`);
}

describe("who may list members", () => {
  const cases: [Caller, number, number][] = [
    // who, public community, restricted community
    ["olivia", 200, 200],
    ["mia", 200, 200],
    ["carl", 200, 200],
    ["rita", 200, 200],
    ["gus", 200, 200],
    ["otto", 403, 404],
    ["anonymous", 401, 404],
    ["admin", 200, 200],
  ];
  for (const [who, pub, restricted] of cases) {
    test(`${who}: members of a public community -> ${pub}, of a restricted one -> ${restricted}`, async () => {
      expect((await t.call(who, "GET", `/api/communities/${open.slug}/members`)).status).toBe(pub);
      expect((await t.call(who, "GET", `/api/communities/${secret.slug}/members`)).status).toBe(restricted);
    });
    const publicListing = who === "otto" || who === "anonymous" ? 404 : 200;
    test(`${who}: public members of a public community -> 200, of a restricted one -> ${publicListing}`, async () => {
      expect((await t.call(who, "GET", `/api/communities/${open.slug}/members/public`)).status).toBe(200);
      expect((await t.call(who, "GET", `/api/communities/${secret.slug}/members/public`)).status).toBe(publicListing);
    });
  }

  test("unknown communities are 404 for everyone", async () => {
    for (const who of ["olivia", "anonymous", "admin"] as const) {
      for (const path of ["members", "members/public"]) {
        const res = await t.call(who, "GET", `/api/communities/no-such-community/${path}`);
        expect(res.status).toBe(404);
        expect(res.json).toEqual({ status: 404, message: "The persistent identifier does not exist." });
      }
    }
  });

  test("the UUID and the slug (any case) both work", async () => {
    expect((await t.call("rita", "GET", `/api/communities/${open.id}/members`)).json.hits.total).toBe(8);
    expect((await t.call("rita", "GET", `/api/communities/${open.slug.toUpperCase()}/members`)).json.hits.total).toBe(8);
  });

  test("an invalid token is 401 even on the public listing", async () => {
    const res = await t.ctx.call("GET", `/api/communities/${open.slug}/members/public`, { token: "nope" });
    expect(res.status).toBe(401);
  });
});

describe("the members listing", () => {
  test("the envelope: by name, aggregations, links with the community id", async () => {
    const res = await t.call("rita", "GET", `/api/communities/${open.slug}/members`);
    expect(res.json.sortBy).toBe("name");
    expect(res.json.links).toEqual({ self: `${BASE_URL}/api/communities/${open.id}/members?sort=name&page=1&size=10` });
    expect(names(res.json)).toEqual(["user:carl", "group:library", "user:max", "user:mia", "user:olivia", "user:oscar", "user:rita", "group:stewards"]);
    expect(res.json.aggregations).toEqual({
      role: {
        label: "Role",
        buckets: [
          { key: "manager", doc_count: 3, label: "Manager", is_selected: false },
          { key: "owner", doc_count: 2, label: "Owner", is_selected: false },
          { key: "reader", doc_count: 2, label: "Reader", is_selected: false },
          { key: "curator", doc_count: 1, label: "Curator", is_selected: false },
        ],
      },
      visibility: {
        label: "Visibility",
        buckets: [
          { key: "true", doc_count: 5, label: "Public", is_selected: false },
          { key: "false", doc_count: 3, label: "Hidden", is_selected: false },
        ],
      },
    });
  });

  test("a user member item, seen by an owner", async () => {
    const res = await t.call("olivia", "GET", `/api/communities/${open.slug}/members?q=oscar`);
    const item = res.json.hits.hits[0];
    expect(item).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      member: {
        type: "user",
        id: String(t.ids.oscar),
        name: "Oscar Example",
        description: "",
        avatar: `${BASE_URL}/api/users/${t.ids.oscar}/avatar.svg`,
      },
      role: "owner",
      visible: false,
      is_current_user: false,
      permissions: { can_leave: false, can_delete: true, can_update_role: true, can_update_visible: false },
      created: "2026-11-22T12:00:00.000000+00:00",
      updated: "2026-11-22T12:00:00.000000+00:00",
      revision_id: 1,
    });
  });

  test("a group member item", async () => {
    const res = await t.call("rita", "GET", `/api/communities/${open.slug}/members?q=library`);
    expect(res.json.hits.hits[0].member).toEqual({
      type: "group",
      id: t.groups.library,
      name: "Library",
      description: "The library",
      avatar: `${BASE_URL}/api/groups/${t.groups.library}/avatar.svg`,
    });
  });

  /** The permissions `who` sees on the item of `target` (q finds it). */
  const permissionsOf = async (who: Caller, target: string, slug = open.slug) => {
    const res = await t.call(who, "GET", `/api/communities/${slug}/members?q=${target}`);
    return { ...res.json.hits.hits[0].permissions, is_current_user: res.json.hits.hits[0].is_current_user };
  };
  const p = (leave: boolean, del: boolean, role: boolean, visible: boolean, self = false) => ({
    can_leave: leave,
    can_delete: del,
    can_update_role: role,
    can_update_visible: visible,
    is_current_user: self,
  });
  const rows: [Caller, string, ReturnType<typeof p>][] = [
    ["olivia", "olivia", p(true, false, false, true, true)],
    ["olivia", "mia", p(false, true, true, true)],
    ["olivia", "carl", p(false, true, true, false)],
    ["mia", "olivia", p(false, false, false, false)],
    ["mia", "max", p(false, true, true, true)],
    ["mia", "mia", p(true, false, false, true, true)],
    ["mia", "stewards", p(false, true, true, true)],
    ["carl", "rita", p(false, false, false, false)],
    ["carl", "carl", p(true, false, false, true, true)],
    ["rita", "rita", p(true, false, false, true, true)],
    ["gus", "rita", p(false, true, true, true)],
    ["admin", "carl", p(false, true, true, true)],
  ];
  for (const [who, target, expected] of rows) {
    test(`${who} sees permissions on ${target}`, async () => expect(await permissionsOf(who, target)).toEqual(expected));
  }

  test("the last owner may not leave, and nobody may remove them", async () => {
    const c = await t.standardCommunity({ owners: 1 });
    expect(await permissionsOf("olivia", "olivia", c.slug)).toEqual(p(false, false, false, true, true));
    expect(await permissionsOf("admin", "olivia", c.slug)).toEqual(p(false, false, false, true));
  });
});

describe("q, sorts and facets", () => {
  const list = async (query: string, who: Caller = "rita") => t.call(who, "GET", `/api/communities/${open.slug}/members?${query}`);
  test("q over full name, username, and group name", async () => {
    // Gus belongs only through his group: he is not listed as a user.
    expect(names((await list("q=ex&sort=name")).json)).toEqual(["user:carl", "user:max", "user:mia", "user:olivia", "user:oscar", "user:rita"]);
    // Her own address matches "ex" too (example.org): the caller's own member ranks first.
    expect(names((await list("q=ex")).json)[0]).toBe("user:rita");
    expect(names((await list("q=stew")).json)).toEqual(["group:stewards"]);
    expect(names((await list("q=mia")).json)).toEqual(["user:mia"]);
    expect((await list("q=mia")).json.sortBy).toBe("bestmatch");
  });

  test("e-mail addresses match only where the caller may read them", async () => {
    expect((await list("q=mia%40example.org", "rita")).json.hits.total).toBe(0);
    expect((await list("q=mia%40example.org", "mia")).json.hits.total).toBe(1);
    expect((await list("q=mia%40example.org", "admin")).json.hits.total).toBe(1);
  });

  test("bestmatch ranks name matches first", async () => {
    const res = await list("q=library");
    expect(names(res.json)).toEqual(["group:library"]);
  });

  test("newest and oldest", async () => {
    const c = await t.addCommunity();
    await t.addMember(c.id, { user: t.ids.olivia }, "owner");
    t.ctx.clock.advance(1000);
    await t.addMember(c.id, { user: t.ids.rita }, "reader");
    t.ctx.clock.advance(1000);
    await t.addMember(c.id, { user: t.ids.carl }, "curator");
    const get = async (sort: string) => names((await t.call("rita", "GET", `/api/communities/${c.slug}/members?sort=${sort}`)).json);
    expect(await get("newest")).toEqual(["user:carl", "user:rita", "user:olivia"]);
    expect(await get("oldest")).toEqual(["user:olivia", "user:rita", "user:carl"]);
    expect(await get("bestmatch")).toEqual(["user:carl", "user:olivia", "user:rita"]);
  });

  test("role and visibility filters; aggregations ignore their own selection", async () => {
    const res = await list("role=owner&role=manager&visibility=true");
    expect(names(res.json)).toEqual(["user:max", "user:mia", "user:olivia"]);
    expect(res.json.aggregations.role.buckets.find((b: any) => b.key === "owner")).toEqual({ key: "owner", doc_count: 2, label: "Owner", is_selected: true });
    expect(res.json.aggregations.role.buckets).toHaveLength(4);
    expect(res.json.links.self).toBe(`${BASE_URL}/api/communities/${open.id}/members?role=owner%2Cmanager&visibility=true&sort=name&page=1&size=10`);
    expect(names((await list("role=curator,reader")).json)).toEqual(["user:carl", "group:library", "user:rita"]);
  });

  test("paging", async () => {
    const first = await list("size=3");
    expect(first.json.hits.total).toBe(8);
    expect(names(first.json)).toEqual(["user:carl", "group:library", "user:max"]);
    expect(first.json.links.next).toBe(`${BASE_URL}/api/communities/${open.id}/members?sort=name&page=2&size=3`);
    const third = await list("size=3&page=3");
    expect(names(third.json)).toEqual(["user:rita", "group:stewards"]);
    expect(third.json.links.prev).toBeDefined();
    expect(third.json.links.next).toBeUndefined();
  });

  const bad: [string, string][] = [
    ["sort=bogus", "sort"],
    ["role=king", "role"],
    ["visibility=maybe", "visibility"],
    ["size=0", "size"],
    ["page=-1", "page"],
    ["size=100000", "size"],
  ];
  for (const [query, field] of bad) {
    test(`bad parameter ${query} is a 400 naming ${field}`, async () => {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.json.errors[0].field).toBe(field);
    });
  }

  test("odd q never fails", async () => {
    for (const q of ['"', "(", "*", "a:b:c", "'; DROP TABLE community_members; --", "x".repeat(5000)]) {
      expect((await list(`q=${encodeURIComponent(q)}`)).status).toBe(200);
    }
  });
});

describe("the public listing", () => {
  test("visible members only, `id` and `member` only, by name", async () => {
    const res = await t.call("anonymous", "GET", `/api/communities/${open.slug}/members/public`);
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(["group:library", "user:max", "user:mia", "user:olivia", "user:rita"]);
    expect(Object.keys(res.json.hits.hits[0]).sort()).toEqual(["id", "member"]);
    expect(res.json.sortBy).toBe("name");
    expect(res.json.aggregations).toBeUndefined();
  });

  test("q does not match e-mail addresses, sort is ignored", async () => {
    const res = await t.call("admin", "GET", `/api/communities/${open.slug}/members/public?q=mia%40example.org&sort=newest`);
    expect(res.json.hits.total).toBe(0);
    expect(res.json.sortBy).toBe("name");
    expect(names((await t.call("anonymous", "GET", `/api/communities/${open.slug}/members/public?q=olivia`)).json)).toEqual(["user:olivia"]);
  });

  test("hidden members do not appear even when searched for", async () => {
    expect((await t.call("anonymous", "GET", `/api/communities/${open.slug}/members/public?q=oscar`)).json.hits.total).toBe(0);
  });
});

describe("bad write bodies never 5xx", () => {
  const path = () => `/api/communities/${open.slug}/members`;
  const cases: [string, string, unknown, string | undefined, string][] = [
    ["invalid JSON", "POST", undefined, "{not json", ""],
    ["a list body", "PUT", undefined, "[1, 2]", ""],
    ["a string body", "DELETE", undefined, '"x"', ""],
    ["no body", "DELETE", undefined, undefined, "members"],
    ["members not a list", "PUT", { members: "rita", role: "reader" }, undefined, "members"],
    ["an empty list", "DELETE", { members: [] }, undefined, "members"],
    ["101 members", "DELETE", { members: Array.from({ length: 101 }, (_, i) => ({ type: "user", id: String(i) })) }, undefined, "members"],
    ["a member not an object", "PUT", { members: [42], role: "reader" }, undefined, "members.0"],
    ["an unknown member type", "PUT", { members: [{ type: "email", id: "x@y.z" }], role: "reader" }, undefined, "members.0.type"],
    ["a member without id", "PUT", { members: [{ type: "user" }], role: "reader" }, undefined, "members.0.id"],
    ["an id that is an object", "DELETE", { members: [{ type: "user", id: { a: 1 } }] }, undefined, "members.0.id"],
    ["an unknown role", "PUT", { members: [{ type: "user", id: "1" }], role: "king" }, undefined, "role"],
    ["a role that is a number", "POST", { members: [{ type: "group", id: "x" }], role: 3 }, undefined, "role"],
    ["a missing role", "POST", { members: [{ type: "group", id: "x" }] }, undefined, "role"],
    ["visible not a boolean", "PUT", { members: [{ type: "user", id: "1" }], visible: "yes" }, undefined, "visible"],
    ["an unknown numeric user", "DELETE", { members: [{ type: "user", id: "123456789012345678901" }] }, undefined, "members.0"],
  ];
  for (const [name, method, body, raw, field] of cases) {
    test(`${name}: ${method} -> 400 naming '${field}'`, async () => {
      const res = await t.call("olivia", method, path(), body, raw);
      expect(res.status).toBe(400);
      if (field) expect(res.json.errors.map((e: any) => e.field)).toContain(field);
    });
  }

  test("a body that is not JSON at all is a 415", async () => {
    const res = await t.ctx.call("PUT", path(), { token: t.tokens.olivia, rawBody: "members=1", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(415);
  });
});
