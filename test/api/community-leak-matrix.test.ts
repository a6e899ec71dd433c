// The community leak matrix: a restricted community with members in every role, a former member, an
// invitation, a membership request, a logo and a (public) record submitted into it, asked by every
// kind of caller on every path that sends something of it — the community, its members (full and
// public), invitations, membership requests, records, requests and their timelines, the logo,
// OAI-PMH sets, the pages, and every search and facet (records' communities facet and filter, the
// record's communities, community search, user communities). Each cell asserts the exact status and
// whether the community's id, slug and title are in the body. The rule under test is one:
// communities/policy.ts (readableCommunitiesFilter and canSeeCommunity).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { anonymous, systemActor, type Actor } from "../../src/core/actor";
import { canSeeCommunity, readableCommunitiesFilter } from "../../src/communities/policy";
import { communitiesTable, communityMembersTable } from "../../src/db/tables";
import { newUuid } from "../../src/core/ids";
import { expectStatus } from "../helpers/app";
import { COMMUNITY_BODY, createCommunitiesTestApp, type CommunitiesTestApp } from "../helpers/communities";
import { png } from "../helpers/images";
import { publishableDraft } from "../helpers/records";

type Caller = "anonymous" | "stranger" | "otherMember" | "reader" | "grouped" | "curator" | "manager" | "owner" | "former" | "admin";
const CALLERS: Caller[] = ["anonymous", "stranger", "otherMember", "reader", "grouped", "curator", "manager", "owner", "former", "admin"];
/** Who sees the community: its members in any role (directly or through a group) and administrators. */
const SEES: Caller[] = ["reader", "grouped", "curator", "manager", "owner", "admin"];
/** Its members: those who list it among their communities (administrators see it but do not belong to it). */
const MEMBERS: Caller[] = ["reader", "grouped", "curator", "manager", "owner"];
/** Who manages members (invitations, membership requests). */
const MANAGERS: Caller[] = ["manager", "owner", "admin"];
/** Who acts for the community in the requests engine, and reads its requests. */
const CURATORS: Caller[] = ["curator", "manager", "owner", "admin"];

const SLUG = "zebra-enclave";
const TITLE = "Zebrafinch Enclave";

let t: CommunitiesTestApp;
let community: { id: string };
let recid: string;
let submission: string;
const extraTokens: Record<string, string> = {};

/** Calls as one of the matrix's callers: `stranger` is bob, `otherMember` alice (who owns another community). */
function call(who: Caller, method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}) {
  if (who === "former") return t.call(method, path, { ...options, token: extraTokens.former });
  const as = who === "stranger" ? "bob" : who === "otherMember" ? "alice" : who;
  return t.call(method, path, { ...options, as });
}
const page = (who: Caller, path: string) => call(who, "GET", path, { headers: { accept: "text/html" } });

/** Which of the community's id, slug and title a body names. */
const mentions = (text: string) => ({ id: text.includes(community.id), slug: text.includes(SLUG), title: text.includes(TITLE) });
const all = (shown: boolean) => ({ id: shown, slug: shown, title: shown });
const nothing = all(false);

/** A refusal that tells nothing of the community: the status, and neither its id, slug nor title. */
function expectRefused(res: { status: number; text: string; json: unknown }, status: number) {
  expectStatus(res, status);
  expect(mentions(res.text)).toEqual(nothing);
}

async function newUser(name: string) {
  const user = await t.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
  extraTokens[name] = (await t.services.tokens.createToken(systemActor, { userId: user.id, name })).secret;
  return user.id;
}

beforeAll(async () => {
  t = await createCommunitiesTestApp();
  const formerId = await newUser("former");
  t.userIds.former = formerId;
  await newUser("applicant");
  const inviteeId = await newUser("invitee");
  // Public while the applicant asks to join (nobody outside may ask a restricted one), restricted after.
  const made = await t.makeCommunity(SLUG, { title: TITLE });
  community = made;
  const now = t.clock.now();
  await t.services.deps.db.insert(communityMembersTable).values({ id: newUuid(), communityId: community.id, userId: formerId, role: "reader", created: now, updated: now }).run();
  expectStatus(await t.call("POST", `/api/communities/${community.id}/membership-requests`, { token: extraTokens.applicant, body: { message: "Let me in" } }), 201);
  const invited = await t.call("POST", `/api/communities/${community.id}/invitations`, {
    as: "manager",
    body: { members: [{ type: "user", id: String(inviteeId) }], role: "reader" },
  });
  expectStatus(invited, 204);
  expectStatus(await t.call("PUT", `/api/communities/${community.id}/logo`, { as: "owner", rawBody: png(4, 4), headers: { "content-type": "application/octet-stream" } }), 200);
  const restricted = await t.call("PUT", `/api/communities/${community.id}`, {
    as: "owner",
    body: { slug: SLUG, metadata: made.metadata, access: { ...made.access, visibility: "restricted" } },
  });
  expectStatus(restricted, 200);
  // The former member leaves through the API: removed, it is an outsider like any other.
  expectStatus(await t.call("DELETE", `/api/communities/${community.id}/members`, { as: "owner", body: { members: [{ type: "user", id: String(formerId) }] } }), 204);
  // alice belongs to another community (she owns it).
  expectStatus(await t.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("alices-garden", { title: "Alice's garden" }) }), 201);
  // A public record of the owner, in the community through a review it accepts at once (review_policy: members).
  const draft = await t.call("POST", "/api/records", { as: "owner", body: publishableDraft() });
  expectStatus(draft, 201);
  recid = draft.json.id;
  expectStatus(await t.call("PUT", `/api/records/${recid}/draft/review`, { as: "owner", body: { receiver: { community: community.id }, type: "community-submission" } }), 200);
  const review = await t.call("POST", `/api/records/${recid}/draft/actions/submit-review`, { as: "owner" });
  expectStatus(review, 202);
  expect(review.json.status).toBe("accepted");
  submission = review.json.id;
});
afterAll(() => t.close());

describe("the community and its members", () => {
  for (const who of CALLERS) {
    const sees = SEES.includes(who);
    test(`${who}: the community by id and slug, the logo, the records of it ${sees ? "answered" : "404"}`, async () => {
      for (const key of [community.id, SLUG]) {
        const res = await call(who, "GET", `/api/communities/${key}`);
        if (sees) {
          expectStatus(res, 200);
          expect(res.json).toMatchObject({ id: community.id, slug: SLUG, metadata: { title: TITLE }, access: { visibility: "restricted" } });
        } else expectRefused(res, 404);
      }
      const logo = await call(who, "GET", `/api/communities/${community.id}/logo`);
      if (sees) {
        expect(logo.status).toBe(200);
        expect(logo.headers.get("content-type")).toBe("image/png");
      } else expectRefused(logo, 404);
      const records = await call(who, "GET", `/api/communities/${community.id}/records`);
      if (sees) {
        expectStatus(records, 200);
        expect(records.json.hits.hits.map((h: { id: string }) => h.id)).toEqual([recid]);
        expect(mentions(records.text)).toEqual(all(true));
      } else expectRefused(records, 404);
    });

    test(`${who}: the members listings ${sees ? "answered" : "404"}`, async () => {
      for (const path of ["members", "members/public"]) {
        const res = await call(who, "GET", `/api/communities/${community.id}/${path}`);
        if (sees) {
          expectStatus(res, 200);
          // Owner, manager, curator, reader and the Readers group (the former member is gone).
          expect(res.json.hits.total).toBe(path === "members" ? 5 : 5);
          expect(res.text).not.toContain("former");
        } else expectRefused(res, 404);
      }
    });

    const manages = MANAGERS.includes(who);
    const status = manages ? 200 : sees ? 403 : 404;
    test(`${who}: invitations and membership requests -> ${status}`, async () => {
      for (const [path, name] of [
        ["invitations", "invitee"],
        ["membership-requests", "applicant"],
      ] as const) {
        const res = await call(who, "GET", `/api/communities/${community.id}/${path}`);
        if (manages) {
          expectStatus(res, 200);
          expect(res.json.hits.total).toBe(1);
          expect(res.text).toContain(name);
        } else expectRefused(res, status);
      }
    });
  }
});

describe("its requests", () => {
  for (const who of CALLERS) {
    const curates = CURATORS.includes(who);
    const inbox = who === "anonymous" ? 401 : curates ? 200 : SEES.includes(who) ? 403 : 404;
    test(`${who}: the community's requests -> ${inbox}`, async () => {
      const res = await call(who, "GET", `/api/communities/${community.id}/requests`);
      if (inbox === 200) {
        expectStatus(res, 200);
        // Those it receives: the submission and the membership request (the invitation it sends).
        expect(res.json.hits.hits.map((h: { type: string }) => h.type).sort()).toEqual(["community-membership-request", "community-submission"]);
        expect(mentions(res.text)).toMatchObject({ id: true });
      } else if (inbox === 404) {
        // Word for word the answer for a community that does not exist (the key echoed is the caller's own).
        expect(res.status).toBe(404);
        expect(res.json).toEqual({ status: 404, message: `No community '${community.id}'.` });
      } else expectRefused(res, inbox);
    });

    // The submission's parties: its creator (the owner) and the community's curators and up; administrators read all.
    const party = curates;
    const read = who === "anonymous" ? 401 : party ? 200 : 403;
    test(`${who}: the submission request and its timeline -> ${read}`, async () => {
      for (const path of [`/api/requests/${submission}`, `/api/requests/${submission}/timeline`]) {
        const res = await call(who, "GET", path);
        if (party) {
          expectStatus(res, 200);
          if (!path.endsWith("timeline")) expect(res.json.receiver).toEqual({ community: community.id });
        } else expectRefused(res, read);
      }
    });

    test(`${who}: /api/requests ${who === "anonymous" ? "-> 401" : curates ? "lists the community's requests" : "names no request of it"}`, async () => {
      const res = await call(who, "GET", "/api/requests?size=100");
      if (who === "anonymous") return expectRefused(res, 401);
      expectStatus(res, 200);
      // The membership request's title names the community; the listing links it by id.
      expect(mentions(res.text)).toEqual({ id: curates, slug: false, title: curates });
    });
  }
});

describe("its records and every search", () => {
  for (const who of CALLERS) {
    const sees = SEES.includes(who);
    test(`${who}: the record's parent.communities and its communities listing ${sees ? "name" : "leave out"} the community`, async () => {
      const record = await call(who, "GET", `/api/records/${recid}`);
      expectStatus(record, 200);
      expect(record.json.parent.communities.ids ?? []).toEqual(sees ? [community.id] : []);
      expect(mentions(record.text)).toEqual(all(sees));
      const listing = await call(who, "GET", `/api/records/${recid}/communities`);
      expectStatus(listing, 200);
      expect(listing.json.hits.total).toBe(sees ? 1 : 0);
      expect(mentions(listing.text)).toEqual(all(sees));
    });

    test(`${who}: records search: the hit, the communities facet and ?communities= ${sees ? "show" : "hide"} it`, async () => {
      const res = await call(who, "GET", `/api/records?q=id:${recid}`);
      expectStatus(res, 200);
      expect(res.json.hits.total).toBe(1);
      const buckets = res.json.aggregations.communities.buckets as { key: string; label: string }[];
      expect(buckets).toEqual(sees ? [expect.objectContaining({ key: community.id, label: TITLE })] : []);
      expect(mentions(res.text)).toEqual(sees ? all(true) : nothing);
      const filtered = await call(who, "GET", `/api/records?communities=${community.id}`);
      expectStatus(filtered, 200);
      expect(filtered.json.hits.total).toBe(sees ? 1 : 0);
      expect(mentions(filtered.text)).toMatchObject({ slug: sees, title: sees });
    });

    test(`${who}: community search ${sees ? "finds" : "does not find"} it; featured never lists it`, async () => {
      for (const q of [SLUG, "Zebrafinch"]) {
        const res = await call(who, "GET", `/api/communities?q=${q}`);
        expectStatus(res, 200);
        expect(res.json.hits.total).toBe(sees ? 1 : 0);
        expect(mentions(res.text)).toMatchObject({ id: sees, title: sees });
      }
      const featured = await call(who, "GET", "/api/communities/featured");
      expectStatus(featured, 200);
      expect(mentions(featured.text)).toEqual(nothing);
      const periods = await call(who, "GET", `/api/communities/${community.id}/featured`);
      // Featured periods are the administrators' alone, checked before the community is looked up.
      if (who === "admin") expectStatus(periods, 200);
      else expectRefused(periods, who === "anonymous" ? 401 : 403);
    });

    const member = MEMBERS.includes(who);
    test(`${who}: user communities ${who === "anonymous" ? "-> 401" : member ? "list it, with its visibility bucket" : "leave it out"}`, async () => {
      const res = await call(who, "GET", "/api/user/communities");
      if (who === "anonymous") return expectRefused(res, 401);
      expectStatus(res, 200);
      expect(res.json.hits.hits.map((h: { id: string }) => h.id).includes(community.id)).toBe(member);
      const buckets = res.json.aggregations.visibility.buckets as { key: string }[];
      expect(buckets.some((b) => b.key === "restricted")).toBe(member);
      expect(mentions(res.text)).toEqual(all(member));
    });
  }

  for (const who of CALLERS.filter((c) => c !== "anonymous")) {
    const sees = SEES.includes(who);
    test(`${who}: choosing it for a draft's review ${sees ? "accepted" : "refused as a community that does not exist"}`, async () => {
      const draft = await call(who, "POST", "/api/records", { body: publishableDraft() });
      expectStatus(draft, 201);
      const res = await call(who, "PUT", `/api/records/${draft.json.id}/draft/review`, { body: { receiver: { community: community.id }, type: "community-submission" } });
      if (sees) {
        expectStatus(res, 200);
        expect(res.json.receiver).toEqual({ community: community.id });
      } else {
        expectStatus(res, 400);
        expect(res.json.errors).toEqual([{ field: "receiver.community", messages: [`No community '${community.id}'.`] }]);
        expect(mentions(res.text)).toMatchObject({ slug: false, title: false });
      }
      expectStatus(await call(who, "DELETE", `/api/records/${draft.json.id}/draft`), 204);
    });
  }

  test("OAI-PMH: no set for it, for any caller, and its set name selects nothing", async () => {
    for (const who of CALLERS) {
      const sets = await call(who, "GET", "/oai2d?verb=ListSets");
      expectStatus(sets, 200);
      expect(sets.text).toContain("user-alices-garden");
      expect(mentions(sets.text)).toEqual(nothing);
      const records = await call(who, "GET", `/oai2d?verb=ListIdentifiers&metadataPrefix=oai_dc&set=user-${SLUG}`);
      expect(records.text).not.toContain(recid);
      expect(mentions(records.text)).toMatchObject({ id: false, title: false });
    }
  });
});

test("the rule's two renderings agree: the SQL filter and the predicate, for every caller and community", async () => {
  const { db } = t.services.deps;
  const directory = t.services.communities.directory;
  const user = (who: string, groupIds: string[] = []): Actor => ({ kind: "user", userId: t.userIds[who]!, isAdmin: who === "admin", groupIds, scopes: [], tokenId: null });
  const actors: Actor[] = [
    anonymous,
    systemActor,
    user("grouped", [t.groupId]),
    ...["bob", "alice", "reader", "curator", "manager", "owner", "former", "admin"].map((who) => user(who)),
  ];
  const every = await db.select().from(communitiesTable).all();
  expect(every.map((c) => c.visibility).sort()).toEqual(["public", "restricted"]);
  for (const actor of actors) {
    const bySql = (await db.select({ id: communitiesTable.id }).from(communitiesTable).where(readableCommunitiesFilter(actor)).all()).map((c) => c.id).sort();
    const roles = await directory.rolesOf(actor);
    const byPredicate = every
      .filter((c) => canSeeCommunity(actor, c, roles))
      .map((c) => c.id)
      .sort();
    expect(byPredicate).toEqual(bySql);
    expect(byPredicate.includes(community.id)).toBe(actor.kind === "system" || (actor.kind === "user" && !["bob", "alice", "former"].some((w) => t.userIds[w] === actor.userId)));
  }
});

describe("the pages", () => {
  for (const who of CALLERS) {
    const sees = SEES.includes(who);
    test(`${who}: the community's page and its members page ${sees ? "shown" : "404"}`, async () => {
      for (const path of [`/communities/${SLUG}`, `/communities/${SLUG}/members`]) {
        const res = await page(who, path);
        if (sees) {
          expect(res.status).toBe(200);
          expect(res.text).toContain(TITLE);
        } else {
          expect(res.status).toBe(404);
          expect(mentions(res.text)).toMatchObject({ id: false, title: false });
        }
      }
    });

    // Anonymous callers too get the 404 (a public community's settings page asks them to sign in).
    const settings = who === "owner" || who === "admin" ? 200 : sees ? 403 : 404;
    test(`${who}: the settings page -> ${settings}`, async () => {
      const res = await page(who, `/communities/${SLUG}/settings`);
      expect(res.status).toBe(settings);
      expect(mentions(res.text).title).toBe(settings === 200);
    });

    test(`${who}: the communities list page, the record's landing page and my communities ${sees ? "show" : "leave out"} it`, async () => {
      const list = await page(who, "/communities?q=Zebrafinch");
      expect(list.status).toBe(200);
      // The card's logo is linked by the community's id.
      expect(mentions(list.text)).toEqual(all(sees));
      const landing = await page(who, `/records/${recid}`);
      expect(landing.status).toBe(200);
      expect(mentions(landing.text)).toMatchObject({ slug: sees, title: sees });
      const mine = await page(who, "/me/communities");
      if (who === "anonymous") expect(mine.status).toBe(303);
      else {
        expect(mine.status).toBe(200);
        expect(mentions(mine.text)).toMatchObject({ slug: MEMBERS.includes(who), title: MEMBERS.includes(who) });
      }
    });
  }
});
