// Community member writes: every rule of the spec's list as a row. Each row runs on a fresh
// community with the standard membership and checks the memberships afterwards: the change it
// expects, or nothing at all when the write is refused (all or nothing).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createMembersTestApp, type Caller, type CastName, type MembersTestApp } from "../helpers/members";

let t: MembersTestApp;
beforeAll(async () => {
  t = await createMembersTestApp();
});
afterAll(() => t.ctx.close());

const user = (name: CastName) => ({ type: "user", id: String(t.ids[name]) });
const group = (name: keyof MembersTestApp["groups"]) => ({ type: "group", id: t.groups[name] });

interface Row {
  name: string;
  who: Caller;
  method: "POST" | "PUT" | "DELETE";
  body: () => unknown;
  status: number;
  /** Expected membership changes (`null`: removed); none when refused. */
  changes?: Record<string, string | null>;
  /** Must appear in the error message or its field messages. */
  says?: string;
  owners?: 1 | 2;
  visibility?: "public" | "restricted";
}

function rows(list: Row[]) {
  for (const row of list) {
    test(`${row.name}: ${row.who} ${row.method} -> ${row.status}`, async () => {
      const c = await t.standardCommunity({ owners: row.owners, visibility: row.visibility });
      const before = await t.membership(c.id);
      const res = await t.call(row.who, row.method, `/api/communities/${c.slug}/members`, row.body());
      expect({ status: res.status, body: res.json }).toMatchObject({ status: row.status });
      if (row.status === 204) expect(res.text).toBe("");
      if (row.says) expect(JSON.stringify(res.json)).toContain(row.says);
      const expected: Record<string, string> = { ...before };
      for (const [key, value] of Object.entries(row.changes ?? {})) {
        if (value === null) delete expected[key];
        else expected[key] = value;
      }
      expect(await t.membership(c.id)).toEqual(expected);
    });
  }
}

describe("rule 3: who changes whose role", () => {
  const role = (name: CastName | "stewards" | "library", r: string) => () => ({ members: [name === "stewards" || name === "library" ? group(name) : user(name)], role: r });
  rows([
    { name: "an owner makes a manager owner", who: "olivia", method: "PUT", body: role("mia", "owner"), status: 204, changes: { "user:mia": "owner/visible" } },
    { name: "an owner demotes another owner", who: "olivia", method: "PUT", body: role("oscar", "reader"), status: 204, changes: { "user:oscar": "reader/hidden" } },
    { name: "an owner changes a group's role", who: "olivia", method: "PUT", body: role("library", "curator"), status: 204, changes: { "group:library": "curator/visible" } },
    { name: "an owner cannot change their own role", who: "olivia", method: "PUT", body: role("olivia", "manager"), status: 400, says: "You cannot change your own role." },
    { name: "a manager promotes a reader", who: "mia", method: "PUT", body: role("rita", "curator"), status: 204, changes: { "user:rita": "curator/visible" } },
    { name: "a manager demotes another manager", who: "mia", method: "PUT", body: role("max", "reader"), status: 204, changes: { "user:max": "reader/visible" } },
    { name: "a manager cannot make an owner", who: "mia", method: "PUT", body: role("rita", "owner"), status: 403 },
    { name: "a manager cannot change an owner", who: "mia", method: "PUT", body: role("oscar", "manager"), status: 403 },
    { name: "a manager cannot change their own role", who: "mia", method: "PUT", body: role("mia", "reader"), status: 400, says: "own role" },
    { name: "a curator manages nobody", who: "carl", method: "PUT", body: role("rita", "curator"), status: 403 },
    { name: "a reader manages nobody", who: "rita", method: "PUT", body: role("carl", "reader"), status: 403 },
    { name: "a reader cannot promote themself", who: "rita", method: "PUT", body: role("rita", "owner"), status: 400, says: "own role" },
    { name: "another user", who: "otto", method: "PUT", body: role("rita", "curator"), status: 403 },
    { name: "anonymous", who: "anonymous", method: "PUT", body: role("rita", "curator"), status: 401 },
    { name: "an administrator makes an owner", who: "admin", method: "PUT", body: role("rita", "owner"), status: 204, changes: { "user:rita": "owner/visible" } },
    {
      name: "a role through a group counts (Gus manages via Stewards)",
      who: "gus",
      method: "PUT",
      body: role("rita", "curator"),
      status: 204,
      changes: { "user:rita": "curator/visible" },
    },
    { name: "a manager through a group cannot make owners", who: "gus", method: "PUT", body: role("rita", "owner"), status: 403 },
    {
      name: "all or nothing: one refused member refuses the whole list",
      who: "mia",
      method: "PUT",
      body: () => ({ members: [user("rita"), user("oscar")], role: "curator" }),
      status: 403,
    },
    {
      name: "an unknown member refuses the whole list",
      who: "olivia",
      method: "PUT",
      body: () => ({ members: [user("rita"), { type: "user", id: "999999" }], role: "curator" }),
      status: 400,
      says: "Invalid member",
    },
    { name: "a user who is not a member", who: "olivia", method: "PUT", body: role("otto", "curator"), status: 400, says: "not a member" },
    { name: "Gus is a member only through his group", who: "olivia", method: "PUT", body: role("gus", "curator"), status: 400, says: "not a member" },
    {
      name: "a group by name",
      who: "olivia",
      method: "PUT",
      body: () => ({ members: [{ type: "group", id: "library" }], role: "curator" }),
      status: 204,
      changes: { "group:library": "curator/visible" },
    },
  ]);
});

describe("rule 4: a community always has an owner", () => {
  rows([
    {
      name: "demoting the last owner",
      who: "admin",
      method: "PUT",
      body: () => ({ members: [user("olivia")], role: "manager" }),
      owners: 1,
      status: 400,
      says: "A community must have at least one owner.",
    },
    {
      name: "demoting both owners at once",
      who: "admin",
      method: "PUT",
      body: () => ({ members: [user("olivia"), user("oscar")], role: "reader" }),
      status: 400,
      says: "at least one owner",
    },
    { name: "the last owner cannot leave", who: "olivia", method: "DELETE", body: () => ({ members: [user("olivia")] }), owners: 1, status: 400, says: "at least one owner" },
    { name: "removing both owners at once", who: "admin", method: "DELETE", body: () => ({ members: [user("olivia"), user("oscar")] }), status: 400, says: "at least one owner" },
    { name: "one of two owners leaves", who: "oscar", method: "DELETE", body: () => ({ members: [user("oscar")] }), status: 204, changes: { "user:oscar": null } },
    { name: "an owner removes the other", who: "olivia", method: "DELETE", body: () => ({ members: [user("oscar")] }), status: 204, changes: { "user:oscar": null } },
  ]);
});

describe("rule 5: leaving, and removing others", () => {
  const remove =
    (...names: CastName[]) =>
    () => ({ members: names.map(user) });
  rows([
    { name: "a reader leaves", who: "rita", method: "DELETE", body: remove("rita"), status: 204, changes: { "user:rita": null } },
    { name: "a curator leaves", who: "carl", method: "DELETE", body: remove("carl"), status: 204, changes: { "user:carl": null } },
    { name: "a manager leaves", who: "mia", method: "DELETE", body: remove("mia"), status: 204, changes: { "user:mia": null } },
    { name: "a manager removes a reader", who: "mia", method: "DELETE", body: remove("rita"), status: 204, changes: { "user:rita": null } },
    { name: "a manager removes another manager", who: "mia", method: "DELETE", body: remove("max"), status: 204, changes: { "user:max": null } },
    { name: "a manager cannot remove an owner", who: "mia", method: "DELETE", body: remove("oscar"), status: 403 },
    { name: "a curator cannot remove a reader", who: "carl", method: "DELETE", body: remove("rita"), status: 403 },
    { name: "a reader cannot remove a curator", who: "rita", method: "DELETE", body: remove("carl"), status: 403 },
    { name: "another user", who: "otto", method: "DELETE", body: remove("rita"), status: 403 },
    { name: "another user, restricted community: invisible", who: "otto", method: "DELETE", body: remove("rita"), status: 404, visibility: "restricted" },
    { name: "anonymous", who: "anonymous", method: "DELETE", body: remove("rita"), status: 401 },
    { name: "an administrator removes an owner", who: "admin", method: "DELETE", body: remove("oscar"), status: 204, changes: { "user:oscar": null } },
    { name: "all or nothing", who: "mia", method: "DELETE", body: remove("rita", "olivia"), status: 403 },
    { name: "an owner removes a group", who: "olivia", method: "DELETE", body: () => ({ members: [group("library")] }), status: 204, changes: { "group:library": null } },
    { name: "a manager through a group removes a reader", who: "gus", method: "DELETE", body: remove("rita"), status: 204, changes: { "user:rita": null } },
    { name: "one cannot leave a group's membership as a user", who: "gus", method: "DELETE", body: remove("gus"), status: 400, says: "not a member" },
  ]);
});

describe("rule 6: visibility", () => {
  const visible = (name: CastName | "stewards", v: boolean) => () => ({ members: [name === "stewards" ? group(name) : user(name)], visible: v });
  rows([
    { name: "a reader hides themself", who: "rita", method: "PUT", body: visible("rita", false), status: 204, changes: { "user:rita": "reader/hidden" } },
    { name: "a curator shows themself", who: "carl", method: "PUT", body: visible("carl", true), status: 204, changes: { "user:carl": "curator/visible" } },
    { name: "an owner shows themself", who: "oscar", method: "PUT", body: visible("oscar", true), status: 204, changes: { "user:oscar": "owner/visible" } },
    { name: "a manager hides a reader", who: "mia", method: "PUT", body: visible("rita", false), status: 204, changes: { "user:rita": "reader/hidden" } },
    { name: "an owner hides a manager", who: "olivia", method: "PUT", body: visible("mia", false), status: 204, changes: { "user:mia": "manager/hidden" } },
    { name: "a manager cannot show a hidden curator", who: "mia", method: "PUT", body: visible("carl", true), status: 400, says: "own membership" },
    { name: "an owner cannot show a hidden owner", who: "olivia", method: "PUT", body: visible("oscar", true), status: 400, says: "own membership" },
    { name: "a manager cannot hide an owner", who: "mia", method: "PUT", body: visible("olivia", false), status: 403 },
    { name: "a curator cannot hide a reader", who: "carl", method: "PUT", body: visible("rita", false), status: 403 },
    { name: "a reader cannot hide a curator", who: "rita", method: "PUT", body: visible("carl", false), status: 403 },
    { name: "a manager shows a hidden group", who: "mia", method: "PUT", body: visible("stewards", true), status: 204, changes: { "group:stewards": "manager/visible" } },
    { name: "an administrator shows a hidden member", who: "admin", method: "PUT", body: visible("carl", true), status: 204, changes: { "user:carl": "curator/visible" } },
    {
      name: "role and visibility together",
      who: "olivia",
      method: "PUT",
      body: () => ({ members: [user("rita")], role: "curator", visible: false }),
      status: 204,
      changes: { "user:rita": "curator/hidden" },
    },
    { name: "neither role nor visibility", who: "olivia", method: "PUT", body: () => ({ members: [user("rita")] }), status: 400, says: "Missing fields 'role' and/or 'visible'." },
  ]);
});

describe("rule 1: only groups are added directly", () => {
  const add =
    (members: () => unknown[], role: unknown = "reader", extra: object = {}) =>
    () => ({ members: members(), role, ...extra });
  const ocean = () => [group("ocean")];
  rows([
    { name: "an owner adds a group as owner", who: "olivia", method: "POST", body: add(ocean, "owner"), status: 204, changes: { "group:ocean": "owner/hidden" } },
    { name: "a manager adds a group as manager", who: "mia", method: "POST", body: add(ocean, "manager"), status: 204, changes: { "group:ocean": "manager/hidden" } },
    { name: "a manager cannot add an owner group", who: "mia", method: "POST", body: add(ocean, "owner"), status: 403 },
    { name: "a manager through a group adds a group", who: "gus", method: "POST", body: add(ocean), status: 204, changes: { "group:ocean": "reader/hidden" } },
    { name: "a curator cannot add", who: "carl", method: "POST", body: add(ocean), status: 403 },
    { name: "a reader cannot add", who: "rita", method: "POST", body: add(ocean), status: 403 },
    { name: "another user cannot add", who: "otto", method: "POST", body: add(ocean), status: 403 },
    { name: "anonymous", who: "anonymous", method: "POST", body: add(ocean), status: 401 },
    { name: "an administrator adds", who: "admin", method: "POST", body: add(ocean, "curator"), status: 204, changes: { "group:ocean": "curator/hidden" } },
    { name: "visible on request", who: "olivia", method: "POST", body: add(ocean, "reader", { visible: true }), status: 204, changes: { "group:ocean": "reader/visible" } },
    { name: "by group name", who: "olivia", method: "POST", body: add(() => [{ type: "group", id: "ocean lab" }]), status: 204, changes: { "group:ocean": "reader/hidden" } },
    { name: "users must be invited", who: "olivia", method: "POST", body: add(() => [user("otto")]), status: 400, says: "invite them" },
    { name: "a group and a user: nothing added", who: "olivia", method: "POST", body: add(() => [group("ocean"), user("otto")]), status: 400 },
    {
      name: "an unknown group: nothing added",
      who: "olivia",
      method: "POST",
      body: add(() => [group("ocean"), { type: "group", id: "no-such-group" }]),
      status: 400,
      says: "no-such-group",
    },
    { name: "a group already a member", who: "olivia", method: "POST", body: add(() => [group("ocean"), group("library")]), status: 400, says: "already" },
    { name: "the same group twice", who: "olivia", method: "POST", body: add(() => [group("ocean"), { type: "group", id: "Ocean Lab" }]), status: 400, says: "twice" },
  ]);
});
