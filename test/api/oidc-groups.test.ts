// sync_groups (issue 31 item 2): an OpenID Connect provider's groups claim becomes the person's
// Cairn group memberships, against `oidc-provider` on 127.0.0.1 answering a `groups` claim: groups
// made on first sight, memberships renewed at each sign-in (a group the claim drops ends its synced
// membership, one added by hand stays), a claim left out changes nothing, sync_groups off changes
// nothing, and a community that has the group as a member opens to the person.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { BASE_URL, createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { COMMUNITY_BODY } from "../helpers/communities";
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";
import { cookieValue, raw } from "../helpers/sign-in";

let op: TestOidcProvider;
let t: TestApp;
const SECRET = "cairn-client-secret";
const SCOPES = ["openid", "email", "profile", "groups"];

beforeAll(async () => {
  op = await startOidcProvider([{ client_id: "cairn", client_secret: SECRET, redirect_uris: ["campus", "plain"].map((name) => `${BASE_URL}/oauth/authorized/${name}`) }]);
  t = await createTestApp({
    OIDC_PROVIDERS: [
      { name: "campus", title: "Campus", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, scopes: SCOPES, trust_email: true, sync_groups: true },
      { name: "plain", title: "Plain", issuer: op.issuer, client_id: "cairn", client_secret: SECRET, scopes: SCOPES, trust_email: true },
    ],
  });
  // oidc-provider stamps its tokens with the system's time: Cairn's clock starts there.
  t.clock.set(Date.now());
  op.people.set("gia-sub", { email: "gia@uni.example", email_verified: true, name: "Gia", groups: ["Physics", "Astro Lab"] });
  op.people.set("hal-sub", { email: "hal@uni.example", email_verified: true, name: "Hal", groups: ["Geology"] });
  op.people.set("ivy-sub", { email: "ivy@uni.example", email_verified: true, name: "Ivy", groups: ["Physics"] });
});
afterAll(async () => {
  await t.close();
  await op.close();
});

/** The whole sign-in through `provider` as `login`: the session cookie's secret. */
async function signIn(provider: string, login: string): Promise<string> {
  const start = await raw(t, "GET", `/oauth/login/${provider}`);
  expect(start.status).toBe(302);
  const back = await signInAtProvider(start.headers.get("location")!, login, `${BASE_URL}/oauth/authorized/${provider}`);
  const res = await raw(t, "GET", back.pathname + back.search, { cookie: `cairn_oauth=${cookieValue(start.cookies, "cairn_oauth")}` });
  expect(res.status).toBe(303);
  return cookieValue(res.cookies, "cairn_session")!;
}

/** The names of the groups the session's person is a member of, sorted. */
async function groupsOf(secret: string): Promise<string[]> {
  const session = await t.services.sessions.resolve(secret);
  const all = await t.services.groups.listGroups(systemActor);
  return all
    .filter((g) => session!.actor.groupIds.includes(g.id))
    .map((g) => g.name)
    .sort();
}

const groupNamed = async (name: string) => (await t.services.groups.listGroups(systemActor)).find((g) => g.name === name);

describe("sync_groups", () => {
  let giaId: number;

  test("first sign-in: the claim's groups are made (managed by Cairn) and the person is a member of each", async () => {
    expect(await groupNamed("Physics")).toBeUndefined();
    const secret = await signIn("campus", "gia-sub");
    giaId = (await t.services.sessions.resolve(secret))!.actor.userId;
    expect(await groupsOf(secret)).toEqual(["Astro Lab", "Physics"]);
    const physics = await groupNamed("Physics");
    expect(physics).toMatchObject({ name: "Physics", isManaged: true, description: "" });
    // The groups directory shows them like any group.
    const read = await t.call("GET", `/api/groups/${physics!.id}`, { as: "alice" });
    expectStatus(read, 200);
    expect(read.json).toMatchObject({ id: physics!.id, name: "Physics", is_managed: true });
  });

  test("the next sign-in renews them: a group the claim drops ends its synced membership, a new one is made, one added by hand stays", async () => {
    const editors = await t.services.groups.createGroup(systemActor, { name: "Editors" });
    await t.services.groups.addMember(systemActor, editors.id, giaId);
    op.people.get("gia-sub")!.groups = ["physics", "Chemistry"];
    const secret = await signIn("campus", "gia-sub");
    // "physics" is the group Physics (names are matched whatever their letter case): kept, not made twice.
    expect(await groupsOf(secret)).toEqual(["Chemistry", "Editors", "Physics"]);
    // The group itself stays (others may be members, communities may name it); only the membership ended.
    expect(await groupNamed("Astro Lab")).toBeDefined();
    expect((await t.services.groups.listGroups(systemActor)).filter((g) => g.name.toLowerCase() === "physics")).toHaveLength(1);
  });

  test("a membership added by hand stays when the claim names that group and then drops it", async () => {
    const chemistry = await groupNamed("Chemistry");
    const geology = await t.services.groups.createGroup(systemActor, { name: "Geology" });
    await t.services.groups.addMember(systemActor, geology.id, giaId);
    op.people.get("gia-sub")!.groups = ["Physics", "Chemistry", "Geology"];
    expect(await groupsOf(await signIn("campus", "gia-sub"))).toEqual(["Chemistry", "Editors", "Geology", "Physics"]);
    op.people.get("gia-sub")!.groups = ["Physics"];
    expect(await groupsOf(await signIn("campus", "gia-sub"))).toEqual(["Editors", "Geology", "Physics"]);
    expect(chemistry).toBeDefined();
  });

  test("a synced membership an administrator then adds by hand stays when the claim drops it", async () => {
    const physics = await groupNamed("Physics");
    await t.services.groups.addMember(systemActor, physics!.id, giaId);
    op.people.get("gia-sub")!.groups = [];
    // An empty claim: every synced membership ends; the hand-made ones stay.
    expect(await groupsOf(await signIn("campus", "gia-sub"))).toEqual(["Editors", "Geology", "Physics"]);
  });

  test("a provider that says nothing about groups (no claim) leaves the memberships as they are", async () => {
    const ivy = await signIn("campus", "ivy-sub");
    expect(await groupsOf(ivy)).toEqual(["Physics"]);
    delete op.people.get("ivy-sub")!.groups;
    expect(await groupsOf(await signIn("campus", "ivy-sub"))).toEqual(["Physics"]);
  });

  test("sync_groups off: the claim makes no group and no membership", async () => {
    const before = (await t.services.groups.listGroups(systemActor)).map((g) => g.name).sort();
    op.people.get("hal-sub")!.groups = ["Geology", "Hal's own group"];
    const secret = await signIn("plain", "hal-sub");
    expect(await groupsOf(secret)).toEqual([]);
    expect((await t.services.groups.listGroups(systemActor)).map((g) => g.name).sort()).toEqual(before);
  });
});

describe("a community with the synced group as a member", () => {
  test("opens to the person while the claim names the group, and closes when it stops", async () => {
    op.people.set("jo-sub", { email: "jo@uni.example", email_verified: true, name: "Jo", groups: [] });
    const first = await signIn("campus", "jo-sub");
    const created = await t.call("POST", "/api/communities", { as: "admin", body: COMMUNITY_BODY("institute", { visibility: "restricted" }) });
    expectStatus(created, 201);
    const added = await t.call("POST", `/api/communities/${created.json.id}/members`, {
      as: "admin",
      body: { members: [{ type: "group", id: "Institute Staff" }], role: "reader" },
    });
    // The group does not exist before anyone's claim named it.
    expect(added.status).toBe(400);
    const read = (secret: string) => raw(t, "GET", `/api/communities/${created.json.id}`, { cookie: `cairn_session=${secret}` });
    // A restricted community is not found by whoever may not see it.
    expect((await read(first)).status).toBe(404);

    op.people.get("jo-sub")!.groups = ["Institute Staff"];
    const member = await signIn("campus", "jo-sub");
    expectStatus(
      await t.call("POST", `/api/communities/${created.json.id}/members`, { as: "admin", body: { members: [{ type: "group", id: "Institute Staff" }], role: "reader" } }),
      204,
    );
    const open = await read(member);
    expect(open.status).toBe(200);
    expect(JSON.parse(open.text)).toMatchObject({ id: created.json.id, slug: "institute" });

    op.people.get("jo-sub")!.groups = [];
    expect((await read(await signIn("campus", "jo-sub"))).status).toBe(404);
  });
});
