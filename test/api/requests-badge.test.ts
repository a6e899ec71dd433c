// The header's badge (requests waiting for the signed-in person's decision: the requests service's
// countAwaitingAction query) and a community's Requests tab (its curation queue, for curators and
// up, the same rule as GET /api/communities/{id}/requests).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectStatus } from "../helpers/app";
import { createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";
import { createDraft, publishableDraft, publishRecord } from "../helpers/records";

let t: CommunitiesTestApp;
let reef: { id: string; slug: string };
let reviewId: string;

const titled = (title: string) => publishableDraft({ metadata: { ...publishableDraft().metadata, title } });
const page = (who: Role, path: string) => t.call("GET", path, { as: who === "anonymous" ? undefined : who, headers: { accept: "text/html" } });
const userOf = (name: string) => ({
  kind: "user" as const,
  userId: t.userIds[name]!,
  isAdmin: name === "admin",
  groupIds: name === "grouped" ? [t.groupId] : [],
  scopes: [],
  tokenId: null,
});
const count = (name: string) => t.services.requests.countAwaitingAction(userOf(name));
/** The badge's number in a page's header, or null without a badge. */
const badgeOf = (html: string) => /class="requests-badge"[^>]*>Requests <span class="count">(\d+)<\/span>/.exec(html)?.[1] ?? null;

beforeAll(async () => {
  t = await createCommunitiesTestApp();
  reef = await t.makeCommunity("reef", { title: "Reef watch" });
  const draft = await createDraft(t, titled("Coral counts"), { as: "alice" });
  expectStatus(await t.call("PUT", `/api/records/${draft.id}/draft/review`, { as: "alice", body: { receiver: { community: reef.id }, type: "community-submission" } }), 200);
  const submitted = await t.call("POST", `/api/records/${draft.id}/draft/actions/submit-review`, { as: "alice", body: {} });
  expectStatus(submitted, 202);
  reviewId = submitted.json.id;
});
afterAll(() => t.close());

describe("the requests waiting for someone's decision", () => {
  test("a review counts for the community's curators, managers and owner; not for its reader, the submitter, others or an administrator", async () => {
    const counts = Object.fromEntries(await Promise.all(["curator", "manager", "owner", "reader", "grouped", "alice", "bob", "admin"].map(async (n) => [n, await count(n)])));
    expect(counts).toEqual({ curator: 1, manager: 1, owner: 1, reader: 0, grouped: 0, alice: 0, bob: 0, admin: 0 });
    expect(await t.services.requests.countAwaitingAction({ kind: "anonymous" } as never)).toBe(0);
  });

  test("an access request counts for the record's owner only: another user's request is not the curator's nor the requester's", async () => {
    const record = await publishRecord(t, { ...titled("Tide gauges"), access: { record: "public", files: "restricted" } }, { as: "bob" });
    expectStatus(await t.call("PUT", `/api/records/${record.id}/access`, { as: "bob", body: { settings: { allow_user_requests: true } } }), 200);
    const asked = await t.call("POST", `/api/records/${record.id}/access/request`, {
      as: "alice",
      body: { permission: "view", email: "alice@example.org", full_name: "Alice", message: "For my thesis", consent_to_share_personal_data: "true" },
    });
    expect(asked.status).toBeLessThan(300);
    expect(await count("bob")).toBe(1);
    expect(await count("alice")).toBe(0);
    expect(await count("curator")).toBe(1);
    // Declined, it waits for nobody.
    const id = String(asked.json.id);
    expectStatus(await t.call("POST", `/api/requests/${id}/actions/decline`, { as: "bob", body: {} }), 200);
    expect(await count("bob")).toBe(0);
  });

  test("the header shows the number to whom it concerns and links to their requests; nothing for others", async () => {
    const curator = await page("curator", "/search");
    expect(badgeOf(curator.text)).toBe("1");
    expect(curator.text).toContain('<a class="requests-badge" href="/me/requests">');
    for (const who of ["reader", "alice", "anonymous"] as Role[]) expect(badgeOf((await page(who, "/search")).text)).toBeNull();
  });
});

describe("a community's Requests tab", () => {
  const TAB = `href="/communities/reef/requests"`;
  const CALLERS: [Role, number][] = [
    ["curator", 200],
    ["manager", 200],
    ["owner", 200],
    ["admin", 200],
    ["reader", 403],
    ["grouped", 403],
    ["alice", 403],
    ["anonymous", 401],
  ];
  for (const [who, status] of CALLERS) {
    test(`${who}: the tab ${status === 200 ? "shown" : "hidden"}, the page -> ${status}`, async () => {
      for (const path of ["/communities/reef", "/communities/reef/members"]) expect((await page(who, path)).text.includes(TAB)).toBe(status === 200);
      const res = await page(who, "/communities/reef/requests");
      expect(res.status).toBe(status);
      expect(res.text.includes("Coral counts")).toBe(status === 200);
      if (status === 200) expect(res.text).toContain(`href="/me/requests/${reviewId}"`);
    });
  }

  test("open and closed, searchable: the queue filters as the dashboard's list does", async () => {
    expect((await page("curator", "/communities/reef/requests?filter=closed")).text.includes("Coral counts")).toBe(false);
    expect((await page("curator", "/communities/reef/requests?filter=all&q=coral")).text.includes("Coral counts")).toBe(true);
    const none = await page("curator", "/communities/reef/requests?q=salinity");
    expect(none.text.includes("Coral counts")).toBe(false);
    expect(none.text).toContain("No requests match this search.");
  });

  test("a restricted community's queue does not exist for outsiders (404), as its other pages", async () => {
    await t.makeCommunity("hidden-reef", { visibility: "restricted" });
    expect((await page("alice", "/communities/hidden-reef/requests")).status).toBe(404);
    expect((await page("curator", "/communities/hidden-reef/requests")).status).toBe(200);
  });
});

describe("the badge counts what the person may decide: the request type's receiverRole", () => {
  test("a membership request counts for the community's managers and owner, not its curators, who may not decide it either", async () => {
    const kelp = await t.makeCommunity("kelp", { title: "Kelp forests" });
    const before = Object.fromEntries(await Promise.all(["curator", "manager", "owner", "reader"].map(async (n) => [n, await count(n)])));
    const asked = await t.call("POST", `/api/communities/${kelp.slug}/membership-requests`, { as: "bob", body: { message: "I dive there" } });
    expectStatus(asked, 201);
    const after = Object.fromEntries(await Promise.all(["curator", "manager", "owner", "reader"].map(async (n) => [n, (await count(n)) - before[n]])));
    expect(after).toEqual({ curator: 0, manager: 1, owner: 1, reader: 0 });
    // The same rule decides the actions: the curator reads it but may not decline; the manager may.
    const id = String(asked.json.id);
    expect(Object.keys((await t.call("GET", `/api/requests/${id}`, { as: "curator" })).json.links.actions)).toEqual([]);
    expect((await t.call("POST", `/api/requests/${id}/actions/decline`, { as: "curator", body: {} })).status).toBe(403);
    expectStatus(await t.call("POST", `/api/requests/${id}/actions/decline`, { as: "manager", body: {} }), 200);
    expect((await count("manager")) - before.manager).toBe(0);
  });

  test("a community submission to the same community counts for its curators", async () => {
    const kelp = await t.makeCommunity("kelp-review", { title: "Kelp review" });
    const before = await count("curator");
    const draft = await createDraft(t, titled("Kelp canopy"), { as: "alice" });
    expectStatus(await t.call("PUT", `/api/records/${draft.id}/draft/review`, { as: "alice", body: { receiver: { community: kelp.id }, type: "community-submission" } }), 200);
    expectStatus(await t.call("POST", `/api/records/${draft.id}/draft/actions/submit-review`, { as: "alice", body: {} }), 202);
    expect((await count("curator")) - before).toBe(1);
  });
});
