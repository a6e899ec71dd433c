// Who gets a community's Settings tab and page: the pages ask the communities service
// (`permissionsOf`, the rule its update checks) instead of applying the policy themselves; every
// caller kind on a public community's page, members page and settings page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { anonymous, type Actor } from "../../src/core/actor";
import { createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";

const SLUG = "open-reef";
const SETTINGS_LINK = `href="/communities/${SLUG}/settings"`;
const CALLERS: Role[] = ["anonymous", "alice", "reader", "grouped", "curator", "manager", "owner", "admin"];
/** Owners and administrators update a community; everyone else is refused (a guest asked to sign in). */
const UPDATERS: Role[] = ["owner", "admin"];

let t: CommunitiesTestApp;
let communityId: string;

beforeAll(async () => {
  t = await createCommunitiesTestApp();
  communityId = (await t.makeCommunity(SLUG, { title: "Open Reef" })).id;
});
afterAll(() => t.close());

const page = (who: Role, path: string) => t.call("GET", path, { as: who === "anonymous" ? undefined : who, headers: { accept: "text/html" } });

describe("the Settings tab and page follow the service's answer", () => {
  for (const who of CALLERS) {
    const updates = UPDATERS.includes(who);
    test(`${who}: the tab ${updates ? "shown" : "hidden"} on the community and members pages`, async () => {
      for (const path of [`/communities/${SLUG}`, `/communities/${SLUG}/members`]) {
        const res = await page(who, path);
        expect(res.status).toBe(200);
        expect(res.text.includes(SETTINGS_LINK)).toBe(updates);
      }
    });
    const status = updates ? 200 : who === "anonymous" ? 401 : 403;
    test(`${who}: the settings page -> ${status}`, async () => {
      const res = await page(who, `/communities/${SLUG}/settings`);
      expect(res.status).toBe(status);
      expect(res.text.includes("Save settings")).toBe(updates);
    });
  }

  test("the service answers can_update to owners and administrators only, and 404 where the community is hidden", async () => {
    const user = (name: string, isAdmin = false): Actor => ({ kind: "user", userId: t.userIds[name]!, isAdmin, groupIds: [], scopes: [], tokenId: null });
    const { communities } = t.services;
    expect(await communities.permissionsOf(user("owner"), SLUG)).toEqual({ can_update: true });
    expect(await communities.permissionsOf(user("admin", true), communityId)).toEqual({ can_update: true });
    expect(await communities.permissionsOf(user("manager"), SLUG)).toEqual({ can_update: false });
    expect(await communities.permissionsOf(user("bob"), SLUG)).toEqual({ can_update: false });
    expect(await communities.permissionsOf(anonymous, SLUG)).toEqual({ can_update: false });
    await t.makeCommunity("closed-reef", { visibility: "restricted" });
    await expect(communities.permissionsOf(user("bob"), "closed-reef")).rejects.toThrow(expect.objectContaining({ status: 404 }));
    const res = await page("alice", "/communities/closed-reef/settings");
    expect(res.status).toBe(404);
    expect(res.text.includes("closed-reef")).toBe(false);
  });
});
