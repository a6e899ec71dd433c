// Access settings and ownership: `PUT /api/records/{id}/access` sets `parent.access.settings`
// (shared by every version) and, with `owned_by`, gives the record — every version and draft — to
// another user, who then manages it while the old owner loses it. Callers, shapes, defaults, and
// bad input (never a 5xx).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectStatus } from "../helpers/app";
import { accessScenarios, createAccessTestApp, expectCleanRefusal, FILE_KEY, type AccessTestApp, type Caller } from "../helpers/access";
import { createDraft, publishableDraft, publishDraft } from "../helpers/records";
import { hitIds } from "../helpers/search";

let t: AccessTestApp;
beforeAll(async () => {
  t = await createAccessTestApp();
});
afterAll(() => t.close());

const uid = (name: Caller) => (t ? t.ids[name]! : `{${name}}`);
const accessUrl = (id: string) => `/api/records/${id}/access`;
const DEFAULTS = { allow_user_requests: false, allow_guest_requests: false, accept_conditions_text: null, secret_link_expiration: 0 };
const SETTINGS = { allow_user_requests: true, allow_guest_requests: true, accept_conditions_text: "<p>Say why</p>", secret_link_expiration: 30 };

describe("defaults", () => {
  test("a new draft and its published record show parent.access with the default settings, the owner, and no grants or links", async () => {
    const draft = await createDraft(t);
    expect(draft.parent.access).toEqual({ owned_by: { user: uid("alice") }, settings: DEFAULTS, grants: [], links: [] });
    const record = await publishDraft(t, draft.id);
    expect(record.parent.access).toEqual({ owned_by: { user: uid("alice") }, settings: DEFAULTS, grants: [], links: [] });
    expect((await t.call("GET", `/api/records/${record.id}`)).json.parent.access.settings).toEqual(DEFAULTS);
  });
});

describe("who may set the settings (a fresh shared record per row)", () => {
  const ok = (as: Caller) => ({
    name: `set settings (${as})`,
    as,
    method: "PUT",
    url: accessUrl,
    body: { settings: SETTINGS },
    status: 200,
    json: { parent: { access: { settings: SETTINGS } } },
  });
  const refused = (as: Caller, status: number) => ({ name: `set settings (${as})`, as, method: "PUT", url: accessUrl, body: { settings: SETTINGS }, status, json: { status } });
  accessScenarios(
    () => t,
    () => t.sharedRecord(),
    [
      ok("alice"),
      ok("manager"),
      ok("admin"),
      refused("editor", 403),
      refused("previewer", 403),
      refused("viewer", 403),
      refused("grouped", 403),
      refused("bob", 403),
      refused("anonymous", 401),
    ],
  );

  test("a refused call changes nothing", async () => {
    const id = await t.sharedRecord();
    for (const as of ["viewer", "bob", "anonymous", "editor"] as Caller[]) await t.call("PUT", accessUrl(id), { as, body: { settings: SETTINGS, owned_by: { user: uid("bob") } } });
    const res = await t.call("GET", `/api/records/${id}`, { as: "alice" });
    expect(res.json.parent.access).toMatchObject({ owned_by: { user: uid("alice") }, settings: DEFAULTS });
  });
});

describe("setting them", () => {
  test("top-level or under settings; named fields change, the others keep their values; every version shows them", async () => {
    const id = await t.sharedRecord();
    const first = await t.call("PUT", accessUrl(id), { as: "alice", body: { allow_user_requests: true, secret_link_expiration: 7 } });
    expectStatus(first, 200);
    expect(first.json).toMatchObject({ id, is_published: true, is_draft: false });
    expect(first.json.parent.access.settings).toEqual({ ...DEFAULTS, allow_user_requests: true, secret_link_expiration: 7 });
    // The JSON of the answer is the caller's: the owner sees the grants.
    expect(first.json.parent.access.grants).toHaveLength(5);
    const second = await t.call("PUT", accessUrl(id), {
      as: "alice",
      body: { settings: { allow_guest_requests: true, accept_conditions_text: '<p onclick="x()">Tell us <b>why</b><script>alert(1)</script></p>' } },
    });
    expect(second.json.parent.access.settings).toEqual({
      allow_user_requests: true,
      allow_guest_requests: true,
      accept_conditions_text: "<p>Tell us <b>why</b></p>",
      secret_link_expiration: 7,
    });
    // The settings live on the parent: a new version shows them.
    const v2 = await t.call("POST", `/api/records/${id}/versions`, { as: "alice" });
    expect(v2.json.parent.access.settings).toEqual(second.json.parent.access.settings);
    // Readers of the record see the settings, not the grants.
    const viewer = await t.call("GET", `/api/records/${id}`, { as: "viewer" });
    expect(viewer.json.parent.access).toMatchObject({ settings: second.json.parent.access.settings, grants: [], links: [] });
    // null clears the conditions; so does an empty text.
    expect((await t.call("PUT", accessUrl(id), { as: "alice", body: { accept_conditions_text: null } })).json.parent.access.settings.accept_conditions_text).toBeNull();
    await t.call("PUT", accessUrl(id), { as: "alice", body: { accept_conditions_text: "<p>x</p>" } });
    expect((await t.call("PUT", accessUrl(id), { as: "alice", body: { accept_conditions_text: "" } })).json.parent.access.settings.accept_conditions_text).toBeNull();
  });

  test("InvenioRDM's parent.access shape is accepted back as read (grants and links in it are ignored)", async () => {
    const id = await t.sharedRecord();
    const read = await t.call("GET", `/api/records/${id}`, { as: "alice" });
    const body = { ...read.json.parent.access, settings: { ...read.json.parent.access.settings, secret_link_expiration: 365 }, grants: [] };
    const res = await t.call("PUT", accessUrl(id), { as: "alice", body });
    expectStatus(res, 200);
    expect(res.json.parent.access.settings.secret_link_expiration).toBe(365);
    expect(res.json.parent.access.grants).toHaveLength(5);
    expect(res.json.parent.access.owned_by).toEqual({ user: uid("alice") });
  });

  test("a draft id (never published) answers with the draft, grants included for its owner", async () => {
    const draft = await createDraft(t);
    expectStatus(
      await t.call("POST", `/api/records/${draft.id}/access/grants`, { as: "alice", body: { grants: [{ subject: { type: "user", id: uid("viewer") }, permission: "preview" }] } }),
      201,
    );
    const res = await t.call("PUT", accessUrl(draft.id), { as: "alice", body: { allow_user_requests: true } });
    expectStatus(res, 200);
    expect(res.json).toMatchObject({ id: draft.id, is_draft: true, is_published: false });
    expect(res.json.parent.access).toMatchObject({ settings: { allow_user_requests: true }, grants: [{ subject: { type: "user", id: uid("viewer") }, permission: "preview" }] });
    expectCleanRefusal(await t.call("PUT", accessUrl(draft.id), { as: "viewer", body: { allow_user_requests: false } }), 403);
  });
});

describe("transferring ownership", () => {
  /** Alice's restricted record with two published versions and an open new-version draft. */
  async function threeVersions() {
    const v1 = await t.restrictedRecord();
    const next = async () => {
      const draft = await t.call("POST", `/api/records/${v1}/versions`, { as: "alice" });
      expectStatus(draft, 201);
      expectStatus(await t.call("POST", `/api/records/${draft.json.id}/draft/actions/files-import`, { as: "alice" }), 201);
      const body = publishableDraft({ access: { record: "restricted", files: "restricted" }, files: { enabled: true } });
      expectStatus(await t.call("PUT", `/api/records/${draft.json.id}/draft`, { as: "alice", body }), 200);
      return draft.json.id as string;
    };
    const v2 = (await publishDraft(t, await next())).id as string;
    const v3 = await next();
    return { v1, v2, v3 };
  }

  test("the new owner manages every version and draft; the old owner loses them; listings follow", async () => {
    const { v1, v2, v3 } = await threeVersions();
    const own = async (as: Caller) => hitIds((await t.call("GET", "/api/user/records?size=100", { as })).json);
    expect(await own("alice")).toEqual(expect.arrayContaining([v2, v3]));
    expect(await own("carol")).toEqual([]);

    const res = await t.call("PUT", accessUrl(v2), { as: "alice", body: { owned_by: { user: uid("carol") } } });
    expectStatus(res, 200);
    expect(res.json.parent.access.owned_by).toEqual({ user: uid("carol") });
    // Alice no longer manages it: the answer shows her no grants (and she cannot read the restricted record any more).
    expect(res.json.parent.access.grants).toEqual([]);
    // The own listings (from the search index) moved with it.
    expect(await own("carol")).toEqual(expect.arrayContaining([v2, v3]));
    const alices = await own("alice");
    for (const id of [v1, v2, v3]) expect(alices).not.toContain(id);

    for (const id of [v1, v2]) {
      const read = await t.call("GET", `/api/records/${id}`, { as: "carol" });
      expectStatus(read, 200);
      expect(read.json.parent.access.owned_by).toEqual({ user: uid("carol") });
      expectStatus(await t.call("GET", `/api/records/${id}`, { as: "alice" }), 403);
    }
    expectStatus(await t.call("GET", `/api/records/${v3}/draft`, { as: "carol" }), 200);
    expectStatus(await t.call("GET", `/api/records/${v3}/draft`, { as: "alice" }), 403);
    expectStatus(await t.call("GET", `/api/records/${v2}/files/${FILE_KEY}/content`, { as: "carol" }), 200);
    // Editing, new versions, publishing and access management pass to carol.
    expectStatus(await t.call("POST", `/api/records/${v2}/draft`, { as: "carol" }), 201);
    expectStatus(await t.call("POST", `/api/records/${v1}/draft`, { as: "alice" }), 403);
    expectStatus(await t.call("POST", `/api/records/${v2}/versions`, { as: "alice" }), 403);
    expectStatus(await t.call("POST", `/api/records/${v2}/versions`, { as: "carol" }), 201);
    expectStatus(await t.call("POST", `/api/records/${v3}/draft/actions/publish`, { as: "carol" }), 202);
    expectCleanRefusal(await t.call("PUT", accessUrl(v2), { as: "alice", body: { allow_user_requests: true } }), 403);
    expectStatus(await t.call("PUT", accessUrl(v2), { as: "carol", body: { allow_user_requests: true } }), 200);
    expectStatus(await t.call("GET", `/api/records/${v2}/access/grants`, { as: "carol" }), 200);
    // Grants stay: the manager grantee still manages it.
    expectStatus(await t.call("GET", `/api/records/${v2}/access/grants`, { as: "admin" }), 200);
  });

  test("a manage grantee may transfer, to itself too; the same owner is a no-op; an administrator may", async () => {
    const id = await t.sharedRecord();
    const same = await t.call("PUT", accessUrl(id), { as: "alice", body: { owned_by: { user: uid("alice") } } });
    expect(same.json.parent.access.owned_by).toEqual({ user: uid("alice") });
    const taken = await t.call("PUT", accessUrl(id), { as: "manager", body: { owned_by: { user: Number(uid("manager")) } } });
    expectStatus(taken, 200);
    expect(taken.json.parent.access.owned_by).toEqual({ user: uid("manager") });
    const back = await t.call("PUT", accessUrl(id), { as: "admin", body: { owned_by: { user: uid("alice") }, settings: { allow_user_requests: true } } });
    expect(back.json.parent.access).toMatchObject({ owned_by: { user: uid("alice") }, settings: { allow_user_requests: true } });
  });

  test("a transfer is refused as a whole when the new owner does not exist: settings in the same body are not written", async () => {
    const id = await t.sharedRecord();
    const res = await t.call("PUT", accessUrl(id), { as: "alice", body: { allow_user_requests: true, owned_by: { user: "999999" } } });
    expectCleanRefusal(res, 400);
    expect(res.json).toMatchObject({ message: "Could not find the specified subject.", errors: [{ field: "owned_by.user" }] });
    expect((await t.call("GET", `/api/records/${id}`, { as: "alice" })).json.parent.access).toMatchObject({ owned_by: { user: uid("alice") }, settings: DEFAULTS });
  });
});

describe("bad input: clear 400s and 404s, never a 5xx", () => {
  const BIG = "x".repeat(100_000);
  const rows: { name: string; body?: unknown; raw?: string; id?: string; status: number; field?: string; message?: string }[] = [
    { name: "a boolean as a string", body: { allow_user_requests: "true" }, status: 400, field: "allow_user_requests" },
    { name: "a boolean as a number", body: { settings: { allow_guest_requests: 1 } }, status: 400, field: "settings.allow_guest_requests" },
    { name: "366 days", body: { secret_link_expiration: 366 }, status: 400, field: "secret_link_expiration" },
    { name: "negative days", body: { secret_link_expiration: -1 }, status: 400, field: "secret_link_expiration" },
    { name: "fractional days", body: { secret_link_expiration: 1.5 }, status: 400, field: "secret_link_expiration" },
    { name: "days as a string", body: { secret_link_expiration: "30" }, status: 400, field: "secret_link_expiration" },
    { name: "days as null", body: { secret_link_expiration: null }, status: 400, field: "secret_link_expiration" },
    { name: "conditions as a number", body: { accept_conditions_text: 5 }, status: 400, field: "accept_conditions_text" },
    { name: "100 KB of conditions", body: { accept_conditions_text: BIG }, status: 400, field: "accept_conditions_text" },
    { name: "settings as a list", body: { settings: [] }, status: 400, field: "settings" },
    { name: "an unknown setting", body: { settings: { allow_everyone: true } }, status: 400, field: "settings.allow_everyone" },
    { name: "an unknown top-level field", body: { colour: "red" }, status: 400, field: "colour" },
    { name: "a 100 KB field name", body: { [BIG]: 1 }, status: 400 },
    { name: "owned_by as a string", body: { owned_by: "3" }, status: 400, field: "owned_by" },
    { name: "owned_by null", body: { owned_by: null }, status: 400, field: "owned_by" },
    { name: "owned_by a list", body: { owned_by: [{ user: "3" }] }, status: 400, field: "owned_by" },
    { name: "owned_by without user", body: { owned_by: { group: "x" } }, status: 400, field: "owned_by.user" },
    { name: "owned_by a user name", body: { owned_by: { user: "carol" } }, status: 400, field: "owned_by.user" },
    { name: "owned_by a 100 KB id", body: { owned_by: { user: "9".repeat(100_000) } }, status: 400, field: "owned_by.user" },
    { name: "owned_by an unknown user", body: { owned_by: { user: "424242" } }, status: 400, message: "Could not find the specified subject." },
    { name: "every problem at once", body: { allow_user_requests: "x", secret_link_expiration: 1000, owned_by: 1 }, status: 400 },
    { name: "no body", status: 400, field: "" },
    { name: "a JSON list", body: [], status: 400 },
    { name: "a JSON string", body: BIG, status: 400 },
    { name: "invalid JSON", raw: "{settings:", status: 400, message: "Unable to decode JSON data in request body." },
    { name: "deep nesting", raw: '{"settings":' + "[".repeat(2000) + "]".repeat(2000) + "}", status: 400 },
    { name: "an unknown record", id: "zzzzz-zzzzz", body: { allow_user_requests: true }, status: 404 },
    { name: "a 10 KB record id", id: "z".repeat(10_000), body: { allow_user_requests: true }, status: 404 },
  ];
  let id = "";
  beforeAll(async () => {
    id = await t.sharedRecord();
  });
  for (const row of rows) {
    test(`${row.name} -> ${row.status}`, async () => {
      const res = await t.call("PUT", accessUrl(row.id ?? id), {
        as: "alice",
        body: row.body,
        ...(row.raw !== undefined ? { rawBody: row.raw, headers: { "content-type": "application/json" } } : {}),
      });
      expectCleanRefusal(res, row.status);
      if (row.message) expect(res.json.message).toBe(row.message);
      if (row.field !== undefined) expect(res.json.errors.map((e: any) => e.field)).toContain(row.field);
    });
  }

  test("nothing of the refused bodies was stored", async () => {
    const res = await t.call("GET", `/api/records/${id}`, { as: "alice" });
    expect(res.json.parent.access).toMatchObject({ owned_by: { user: uid("alice") }, settings: DEFAULTS });
  });

  test("other methods on /access are 405", async () => {
    for (const method of ["GET", "POST", "PATCH", "DELETE"])
      expectCleanRefusal(await t.call(method, accessUrl(id), { as: "alice", body: method === "GET" || method === "DELETE" ? undefined : {} }), 405);
  });
});
