// A community's `access` as current InvenioRDM answers it (issue 28): members_visibility and
// review_policy with their defaults and effects, record_policy under its InvenioRDM name
// record_submission_policy, and bad values of each refused with field errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectStatus } from "../helpers/app";
import { COMMUNITY_BODY, createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";
import { createDraft, publishRecord } from "../helpers/records";

let t: CommunitiesTestApp;
beforeAll(async () => {
  t = await createCommunitiesTestApp();
});
afterAll(() => t.close());

let made = 0;
/** A body of a fresh slug whose `access` is the spec's three fields with `access` merged over them. */
function body(access: Record<string, unknown> = {}, drop: string[] = []) {
  const b = COMMUNITY_BODY(`acc-${++made}`);
  const merged: Record<string, unknown> = { ...b.access, ...access };
  for (const key of drop) delete merged[key];
  return { ...b, access: merged };
}
const create = (b: unknown, as: Role = "owner") => t.call("POST", "/api/communities", { as, body: b });
const update = (id: string, b: unknown, as: Role = "owner") => t.call("PUT", `/api/communities/${id}`, { as, body: b });

/** A community of `owner` with the standard members (manager, curator, reader, grouped reader) and this access. */
async function community(access: Record<string, unknown> = {}) {
  const created = await t.makeCommunity(`acc-${++made}`);
  const res = await update(created.id, { slug: created.slug, metadata: created.metadata, access: { ...created.access, ...access } });
  expectStatus(res, 200);
  return res.json as { id: string; slug: string; access: Record<string, string> };
}

describe("the fields and their defaults", () => {
  test("only the spec's fields, record_policy open: every field answered, review_policy members, members_visibility public", async () => {
    const res = await create(body());
    expectStatus(res, 201);
    const access = {
      visibility: "public",
      members_visibility: "public",
      member_policy: "open",
      record_policy: "open",
      record_submission_policy: "open",
      review_policy: "members",
    };
    expect(res.json.access).toEqual(access);
    expect((await t.call("GET", `/api/communities/${res.json.id}`)).json.access).toEqual(access);
    const listed = await t.call("GET", `/api/communities?q=slug:${res.json.slug}`);
    expect(listed.json.hits.hits.find((h: any) => h.id === res.json.id)?.access).toEqual(access);
  });

  test("record_policy closed: review_policy closed (InvenioRDM's default)", async () => {
    const res = await create(body({ record_policy: "closed" }));
    expectStatus(res, 201);
    expect(res.json.access).toMatchObject({ record_policy: "closed", record_submission_policy: "closed", review_policy: "closed", members_visibility: "public" });
  });

  test("every field given is stored and answered", async () => {
    const res = await create(body({ members_visibility: "restricted", review_policy: "open", record_policy: "closed" }));
    expectStatus(res, 201);
    expect(res.json.access).toEqual({
      visibility: "public",
      members_visibility: "restricted",
      member_policy: "open",
      record_policy: "closed",
      record_submission_policy: "closed",
      review_policy: "open",
    });
  });

  test("an update replaces access as a whole: what it leaves out takes the defaults again", async () => {
    const c = await community({ members_visibility: "restricted", review_policy: "open" });
    expect(c.access).toMatchObject({ members_visibility: "restricted", review_policy: "open" });
    const res = await update(c.id, { ...body(), slug: c.slug });
    expectStatus(res, 200);
    expect(res.json.access).toMatchObject({ members_visibility: "public", review_policy: "members" });
  });
});

describe("record_policy under either name", () => {
  const rows: [string, Record<string, unknown>, string[], string][] = [
    ["only record_submission_policy", { record_submission_policy: "closed" }, ["record_policy"], "closed"],
    ["only record_policy", { record_policy: "closed" }, [], "closed"],
    ["both, equal", { record_policy: "closed", record_submission_policy: "closed" }, [], "closed"],
  ];
  for (const [name, access, drop, expected] of rows) {
    test(`create, ${name}: both answered`, async () => {
      const res = await create(body(access, drop));
      expectStatus(res, 201);
      expect(res.json.access).toMatchObject({ record_policy: expected, record_submission_policy: expected });
    });
    test(`update, ${name}: both answered`, async () => {
      const c = await community();
      expect(c.access.record_policy).toBe("open");
      const res = await update(c.id, { ...body(access, drop), slug: c.slug });
      expectStatus(res, 200);
      expect(res.json.access).toMatchObject({ record_policy: expected, record_submission_policy: expected });
    });
  }

  test("create, both differing: 400 naming record_submission_policy", async () => {
    const res = await create(body({ record_policy: "open", record_submission_policy: "closed" }));
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: "access.record_submission_policy", messages: ["Must equal access.record_policy: both name the record submission policy."] }]);
  });

  test("update, both differing: 400 and nothing changes", async () => {
    const c = await community();
    const res = await update(c.id, { ...body({ record_policy: "closed", record_submission_policy: "open" }), slug: c.slug });
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: any) => e.field)).toEqual(["access.record_submission_policy"]);
    expect((await t.call("GET", `/api/communities/${c.id}`, { as: "owner" })).json.access.record_policy).toBe("open");
  });

  test("neither: 400, record_policy missing", async () => {
    const res = await create(body({}, ["record_policy"]));
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: "access.record_policy", messages: ["Missing data for required field."] }]);
  });
});

describe("bad values: 400 with the field", () => {
  const rows: [string, Record<string, unknown>, string, string][] = [
    ["members_visibility hidden", { members_visibility: "hidden" }, "access.members_visibility", "Must be one of: public, restricted."],
    ["members_visibility a boolean", { members_visibility: true }, "access.members_visibility", "Must be one of: public, restricted."],
    ["review_policy curators", { review_policy: "curators" }, "access.review_policy", "Must be one of: open, closed, members."],
    ["review_policy a number", { review_policy: 1 }, "access.review_policy", "Must be one of: open, closed, members."],
    ["record_submission_policy restricted", { record_submission_policy: "restricted" }, "access.record_submission_policy", "Must be one of: open, closed."],
  ];
  for (const [name, access, field, message] of rows) {
    test(`create, ${name}`, async () => {
      const res = await create(body(access));
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field, messages: [message] }]);
    });
    test(`update, ${name}`, async () => {
      const c = await community();
      const res = await update(c.id, { ...body(access), slug: c.slug });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field, messages: [message] }]);
    });
  }

  test("several at once: each reported", async () => {
    const res = await create(body({ members_visibility: "x", review_policy: "y" }));
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: any) => e.field).sort()).toEqual(["access.members_visibility", "access.review_policy"]);
  });
});

describe("members_visibility: who lists the public members", () => {
  const listing = (id: string, as?: Role) => t.call("GET", `/api/communities/${id}/members/public`, { as });
  const expected: [Role | undefined, number][] = [
    [undefined, 401],
    ["alice", 403],
    ["reader", 200],
    ["grouped", 200],
    ["curator", 200],
    ["owner", 200],
    ["admin", 200],
  ];

  for (const [as, status] of expected) {
    test(`restricted: ${as ?? "anonymous"} -> ${status}`, async () => {
      const c = await community({ members_visibility: "restricted" });
      const res = await listing(c.id, as);
      expect({ status: res.status, body: res.json }).toMatchObject({ status });
      if (status === 200) expect(res.json.hits.total).toBeGreaterThan(0);
    });
  }

  test("the community's members page tells others that only members see them, instead of failing", async () => {
    const c = await community({ members_visibility: "restricted" });
    const page = await t.call("GET", `/communities/${c.slug}/members`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Only the community's members can see who its members are.");
  });

  test("public (the default): anyone lists them; restricting and opening again follows", async () => {
    const c = await community();
    expect((await listing(c.id)).status).toBe(200);
    expect((await listing(c.id, "alice")).status).toBe(200);
    expectStatus(await update(c.id, { slug: c.slug, metadata: { title: "Closed doors" }, access: { ...c.access, members_visibility: "restricted" } }), 200);
    expect((await listing(c.id, "alice")).status).toBe(403);
    expectStatus(await update(c.id, { slug: c.slug, metadata: { title: "Open doors" }, access: { ...c.access, members_visibility: "public" } }), 200);
    expect((await listing(c.id, "alice")).status).toBe(200);
  });
});

describe("review_policy: whose submissions skip review", () => {
  /** A draft of `as` submitted for review to the community; the review's status after submitting. */
  async function submitDraft(communityId: string, as: Role) {
    const draft = await createDraft(t, undefined, { as });
    expectStatus(await t.call("PUT", `/api/records/${draft.id}/draft/review`, { as, body: { receiver: { community: communityId }, type: "community-submission" } }), 200);
    const res = await t.call("POST", `/api/records/${draft.id}/draft/actions/submit-review`, { as, body: { payload: { content: "<p>Please</p>", format: "html" } } });
    expectStatus(res, 202);
    return res.json.status as string;
  }

  /** A record published by `as`, then asked into the community; the inclusion request's status. */
  async function includeRecord(communityId: string, as: Role) {
    const record = await publishRecord(t, undefined, { as });
    const res = await t.call("POST", `/api/records/${record.id}/communities`, { as, body: { communities: [{ id: communityId }] } });
    expectStatus(res, 200);
    return res.json.processed[0].request.status as string;
  }

  // InvenioRDM's can_include_directly: closed nobody, open the curating roles, members any member.
  const matrix: ["open" | "closed" | "members", Role, "accepted" | "submitted"][] = [
    ["closed", "owner", "submitted"],
    ["closed", "curator", "submitted"],
    ["closed", "reader", "submitted"],
    ["closed", "alice", "submitted"],
    ["open", "owner", "accepted"],
    ["open", "manager", "accepted"],
    ["open", "curator", "accepted"],
    ["open", "reader", "submitted"],
    ["open", "grouped", "submitted"],
    ["open", "alice", "submitted"],
    ["members", "curator", "accepted"],
    ["members", "reader", "accepted"],
    ["members", "grouped", "accepted"],
    ["members", "alice", "submitted"],
  ];
  for (const [policy, as, status] of matrix) {
    test(`${policy}: a draft review by ${as} is ${status}`, async () => {
      const c = await community({ review_policy: policy });
      expect(c.access.review_policy).toBe(policy);
      expect(await submitDraft(c.id, as)).toBe(status);
    });
    test(`${policy}: an inclusion by ${as} is ${status}`, async () => {
      const c = await community({ review_policy: policy });
      expect(await includeRecord(c.id, as)).toBe(status);
    });
  }

  test("an administrator who is no member is reviewed, whatever the policy", async () => {
    const c = await community({ review_policy: "members" });
    expect(await submitDraft(c.id, "admin")).toBe("submitted");
  });

  test("the record policy no longer decides once review_policy is given: closed record policy, open review policy", async () => {
    const c = await community({ record_policy: "closed", record_submission_policy: "closed", review_policy: "open" });
    expect(await submitDraft(c.id, "curator")).toBe("accepted");
    expect(await submitDraft(c.id, "reader")).toBe("submitted");
  });

  test("require_review asks for review even where the policy would let the curator in", async () => {
    const c = await community({ review_policy: "open" });
    const record = await publishRecord(t, undefined, { as: "curator" });
    const res = await t.call("POST", `/api/records/${record.id}/communities`, { as: "curator", body: { communities: [{ id: c.id, require_review: true }] } });
    expectStatus(res, 200);
    expect(res.json.processed[0].request.status).toBe("submitted");
  });
});
