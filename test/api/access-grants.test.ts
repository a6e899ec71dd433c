// Grants of a record to users and groups: `/api/records/{id}/access/grants[/{index}]`,
// `/access/users[/{user_id}]` and `/access/groups[/{group_id}]` — who may call each route, the
// shapes, what each permission of the ladder opens (every version, search, drafts), expiry on the
// injected clock, and bad input (never a 5xx).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DAY_MS } from "../../src/core/time";
import { expectStatus } from "../helpers/app";
import { accessScenarios, CALLERS, createAccessTestApp, expectCleanRefusal, FILE_CONTENT, FILE_KEY, type AccessScenario, type AccessTestApp, type Caller } from "../helpers/access";
import { createDraft, publishableDraft, publishDraft } from "../helpers/records";
import { hitIds } from "../helpers/search";

let t: AccessTestApp;
beforeAll(async () => {
  t = await createAccessTestApp();
});
afterAll(() => t.close());

/** A user's id once the app runs; a placeholder in test names before. */
const uid = (name: Caller) => (t ? t.ids[name]! : `{${name}}`);
const gid = () => (t ? t.groupId : "{group}");
const access = (id: string, path = "") => `/api/records/${id}/access${path}`;
const fixture = () => t.sharedRecord();

/** The expected status for each caller of a route that needs `manage`. */
const MANAGE_STATUS: Record<string, number> = { alice: 0, manager: 0, admin: 0, viewer: 403, bob: 403, anonymous: 401 };

/** One row per caller of the six: managers get `ok`, the others 401/403 with the standard body. */
function byCaller(route: Omit<AccessScenario, "as" | "status" | "name">, ok: number, name: string): AccessScenario[] {
  return CALLERS.map((as) => {
    const status = MANAGE_STATUS[as] || ok;
    return {
      ...route,
      name: `${name} (${as})`,
      as,
      status,
      ...(status >= 400 ? { json: { status }, check: undefined } : {}),
    };
  });
}

describe("who may call each grants route (a fresh record shared with the cast per row)", () => {
  accessScenarios(() => t, fixture, [
    ...byCaller({ method: "GET", url: (id) => access(id, "/grants"), check: (b) => expect(b.hits.total).toBe(5) }, 200, "list grants"),
    ...byCaller(
      {
        method: "POST",
        url: (id) => access(id, "/grants"),
        body: () => ({ grants: [{ subject: { type: "user", id: uid("carol") }, permission: "view" }] }),
        check: (b) => expect(b.hits.hits).toEqual([expect.objectContaining({ id: 5, subject: { type: "user", id: uid("carol") }, permission: "view" })]),
      },
      201,
      "create a grant",
    ),
    ...byCaller({ method: "GET", url: (id) => access(id, "/grants/3"), check: (b) => expect(b.subject).toEqual({ type: "user", id: uid("viewer") }) }, 200, "read a grant"),
    ...byCaller(
      {
        method: "PUT",
        url: (id) => access(id, "/grants/3"),
        body: () => ({ subject: { type: "user", id: uid("viewer") }, permission: "preview" }),
        check: (b) => expect(b.permission).toBe("preview"),
      },
      200,
      "replace a grant",
    ),
    ...byCaller({ method: "PATCH", url: (id) => access(id, "/grants/3"), body: { permission: "edit" }, check: (b) => expect(b.permission).toBe("edit") }, 200, "patch a grant"),
    ...byCaller({ method: "DELETE", url: (id) => access(id, "/grants/3") }, 204, "delete a grant"),
    ...byCaller({ method: "GET", url: (id) => access(id, "/users"), check: (b) => expect(b.hits.total).toBe(4) }, 200, "list user grants"),
    ...byCaller({ method: "GET", url: (id) => access(id, `/users/${uid("viewer")}`), check: (b) => expect(b.permission).toBe("view") }, 200, "read a user's grant"),
    ...byCaller(
      { method: "PATCH", url: (id) => access(id, `/users/${uid("viewer")}`), body: { permission: "preview" }, check: (b) => expect(b.permission).toBe("preview") },
      200,
      "patch a user's grant",
    ),
    ...byCaller({ method: "DELETE", url: (id) => access(id, `/users/${uid("viewer")}`) }, 204, "delete a user's grant"),
    ...byCaller(
      { method: "GET", url: (id) => access(id, "/groups"), check: (b) => expect(b.hits.hits.map((g: any) => g.subject)).toEqual([{ type: "role", id: gid() }]) },
      200,
      "list group grants",
    ),
    ...byCaller({ method: "GET", url: (id) => access(id, `/groups/${gid()}`), check: (b) => expect(b.permission).toBe("preview") }, 200, "read a group's grant"),
    ...byCaller(
      { method: "PATCH", url: (id) => access(id, `/groups/${gid()}`), body: { permission: "view" }, check: (b) => expect(b.permission).toBe("view") },
      200,
      "patch a group's grant",
    ),
    ...byCaller({ method: "DELETE", url: (id) => access(id, `/groups/${gid()}`) }, 204, "delete a group's grant"),
  ]);

  test("the other grantees are below manage: 403 on every route", async () => {
    const id = await fixture();
    for (const as of ["editor", "previewer", "grouped", "carol"] as Caller[]) {
      for (const [method, path] of [
        ["GET", "/grants"],
        ["GET", "/grants/0"],
        ["PATCH", "/grants/0"],
        ["GET", "/users"],
        ["GET", "/groups"],
      ]) {
        const res = await t.call(method!, access(id, path), { as, body: method === "PATCH" ? { permission: "manage" } : undefined });
        expect({ as, path, status: res.status, body: res.json }).toEqual({ as, path, status: 403, body: { status: 403, message: "Permission denied." } });
      }
    }
  });
});

describe("shapes", () => {
  test("POST answers 201 with the created grants as a list; origin is set by the server; GET lists every grant by index", async () => {
    const id = await fixture();
    const res = await t.call("POST", access(id, "/grants"), {
      as: "alice",
      body: {
        grants: [
          { subject: { type: "user", id: Number(uid("carol")) }, permission: "view", message: "For the review", notify: true, expires_at: t.dayAfter(10), origin: "ignored" },
          { subject: { type: "role", id: "Lab" }, permission: "edit" },
        ],
      },
    });
    expectStatus(res, 400); // the group has a grant already (shareWithCast): all or nothing
    expect(res.json).toMatchObject({ status: 400, message: "Grant for the specified subject already exists.", errors: [{ field: "grants.1.subject" }] });
    expect((await t.call("GET", access(id, "/grants"), { as: "alice" })).json.hits.total).toBe(5);

    const created = await t.call("POST", access(id, "/grants"), {
      as: "alice",
      body: { grants: [{ subject: { type: "user", id: Number(uid("carol")) }, permission: "view", message: "For the review", notify: true, expires_at: t.dayAfter(10) }] },
    });
    expectStatus(created, 201);
    const grant = { id: 5, subject: { type: "user", id: uid("carol") }, permission: "view", origin: `api:${uid("alice")}`, message: "For the review", expires_at: t.dayAfter(10) };
    expect(created.json).toEqual({ hits: { hits: [grant], total: 1 } });
    const list = await t.call("GET", access(id, "/grants"), { as: "manager" });
    expect(list.json.hits.total).toBe(6);
    expect(list.json.hits.hits[0]).toEqual({ id: 0, subject: { type: "user", id: uid("manager") }, permission: "manage", origin: `api:${uid("alice")}` });
    expect(list.json.hits.hits[5]).toEqual(grant);
    expect((await t.call("GET", access(id, "/grants/5"), { as: "alice" })).json).toEqual(grant);
    expect((await t.call("GET", access(id, `/users/${uid("carol")}`), { as: "alice" })).json).toEqual(grant);
    // notify: the user is mailed.
    const mail = await t.services.deps.db.statements.all<{ recipient: string; subject: string }>("SELECT recipient, subject FROM mail_outbox");
    expect(mail).toContainEqual({ recipient: "carol@example.org", subject: 'You have been granted access to "Sea surface temperature 2020-2024"' });
  });

  test("a group is named by its id or its name, and stored by id; the grant made by a manage grantee has its origin", async () => {
    const id = await t.restrictedRecord();
    expectStatus(await t.call("POST", access(id, "/grants"), { as: "alice", body: { grants: [{ subject: { type: "user", id: uid("manager") }, permission: "manage" }] } }), 201);
    const res = await t.call("POST", access(id, "/grants"), { as: "manager", body: { grants: [{ subject: { type: "role", id: "Lab" }, permission: "view" }] } });
    expectStatus(res, 201);
    expect(res.json.hits.hits[0]).toEqual({ id: 1, subject: { type: "role", id: t.groupId }, permission: "view", origin: `api:${uid("manager")}` });
    expect((await t.call("GET", access(id, "/groups/Lab"), { as: "alice" })).json.subject.id).toBe(t.groupId);
  });

  test("parent.access lists grants to callers who manage the record, [] to everyone else", async () => {
    const id = await fixture();
    for (const as of ["alice", "manager", "admin"] as Caller[]) {
      const res = await t.call("GET", `/api/records/${id}`, { as });
      expect(res.json.parent.access.grants.map((g: any) => g.permission)).toEqual(["manage", "edit", "preview", "view", "preview"]);
    }
    for (const as of ["editor", "previewer", "viewer", "grouped"] as Caller[]) {
      const res = await t.call("GET", `/api/records/${id}`, { as });
      expectStatus(res, 200);
      expect(res.json.parent.access).toMatchObject({ owned_by: { user: uid("alice") }, grants: [], links: [] });
    }
  });

  test("PUT replaces message and expiry (absent: cleared); PATCH changes only what it names", async () => {
    const id = await fixture();
    const patched = await t.call("PATCH", access(id, "/grants/3"), { as: "alice", body: { message: "until the audit", expires_at: t.dayAfter(3) } });
    expect(patched.json).toEqual({
      id: 3,
      subject: { type: "user", id: uid("viewer") },
      permission: "view",
      origin: `api:${uid("alice")}`,
      message: "until the audit",
      expires_at: t.dayAfter(3),
    });
    const put = await t.call("PUT", access(id, "/grants/3"), { as: "alice", body: { subject: { type: "user", id: uid("viewer") }, permission: "preview" } });
    expect(put.json).toEqual({ id: 3, subject: { type: "user", id: uid("viewer") }, permission: "preview", origin: `api:${uid("alice")}` });
    const cleared = await t.call("PATCH", access(id, `/users/${uid("viewer")}`), { as: "alice", body: { expires_at: t.dayAfter(1) } });
    expect(cleared.json.expires_at).toBe(t.dayAfter(1));
    expect((await t.call("PATCH", access(id, `/users/${uid("viewer")}`), { as: "alice", body: { expires_at: null } })).json.expires_at).toBeUndefined();
  });

  test("DELETE removes the grant: the ones after it move up an index", async () => {
    const id = await fixture();
    expectStatus(await t.call("DELETE", access(id, "/grants/1"), { as: "alice" }), 204);
    const list = await t.call("GET", access(id, "/grants"), { as: "alice" });
    expect(list.json.hits.hits.map((g: any) => [g.id, g.permission])).toEqual([
      [0, "manage"],
      [1, "preview"],
      [2, "view"],
      [3, "preview"],
    ]);
    expectStatus(await t.call("GET", access(id, `/users/${uid("editor")}`), { as: "alice" }), 404);
  });
});

describe("what each permission opens", () => {
  const content = (id: string) => `/api/records/${id}/files/${FILE_KEY}/content`;

  test("view: the restricted record and its files, on every version; not the drafts", async () => {
    const id = await t.restrictedRecord();
    expectStatus(await t.call("GET", `/api/records/${id}`, { as: "carol" }), 403);
    expectStatus(await t.call("GET", content(id), { as: "carol" }), 403);
    expectStatus(await t.call("POST", access(id, "/grants"), { as: "alice", body: { grants: [{ subject: { type: "user", id: uid("carol") }, permission: "view" }] } }), 201);
    expectStatus(await t.call("GET", `/api/records/${id}`, { as: "carol" }), 200);
    const file = await t.call("GET", content(id), { as: "carol" });
    expectStatus(file, 200);
    expect(file.text).toBe(FILE_CONTENT);
    // A newer version is shared too (grants live on the parent).
    const v2 = await t.call("POST", `/api/records/${id}/versions`, { as: "alice" });
    expectStatus(v2, 201);
    expectStatus(await t.call("GET", `/api/records/${v2.json.id}/draft`, { as: "carol" }), 403);
    expectStatus(await t.call("POST", `/api/records/${v2.json.id}/draft/actions/files-import`, { as: "alice" }), 201);
    expectStatus(await t.call("PUT", `/api/records/${v2.json.id}/draft`, { as: "alice", body: restrictedBody() }), 200);
    const published = await publishDraft(t, v2.json.id);
    expectStatus(await t.call("GET", `/api/records/${published.id}`, { as: "carol" }), 200);
    expectStatus(await t.call("GET", content(published.id), { as: "carol" }), 200);
    expectStatus(await t.call("GET", content(published.id), { as: "bob" }), 403);
  });

  test("preview opens drafts; edit opens editing; view does neither; a group grant works for its members", async () => {
    const id = await fixture();
    expectStatus(await t.call("POST", `/api/records/${id}/draft`, { as: "alice" }), 201);
    const expected: Record<string, [number, number]> = {
      // [GET the edit draft, PUT the draft]
      viewer: [403, 403],
      previewer: [200, 403],
      grouped: [200, 403],
      editor: [200, 200],
      manager: [200, 200],
      bob: [403, 403],
      anonymous: [401, 401],
    };
    for (const [as, [read, write]] of Object.entries(expected)) {
      const got = await t.call("GET", `/api/records/${id}/draft`, { as: as as Caller });
      const put = await t.call("PUT", `/api/records/${id}/draft`, { as: as as Caller, body: restrictedBody() });
      expect({ as, read: got.status, write: put.status }).toEqual({ as, read, write });
    }
    // New versions: edit and up.
    expectStatus(await t.call("POST", `/api/records/${id}/versions`, { as: "previewer" }), 403);
    expectStatus(await t.call("POST", `/api/records/${id}/versions`, { as: "editor" }), 201);
  });

  test("grants on a draft never published: the parent is shared before the first version", async () => {
    const draft = await createDraft(t, publishableDraft({ access: { record: "restricted", files: "public" } }));
    expectStatus(await t.call("GET", `/api/records/${draft.id}/draft`, { as: "carol" }), 403);
    const res = await t.call("POST", access(draft.id, "/grants"), { as: "alice", body: { grants: [{ subject: { type: "user", id: uid("carol") }, permission: "preview" }] } });
    expectStatus(res, 201);
    expectStatus(await t.call("GET", `/api/records/${draft.id}/draft`, { as: "carol" }), 200);
    expectStatus(await t.call("GET", access(draft.id, "/grants"), { as: "carol" }), 403);
  });

  test("search: a grantee finds the restricted record, others do not; an expired grant stops at the end of its day", async () => {
    const title = "Grant search probe";
    const draft = await createDraft(t, publishableDraft({ access: { record: "restricted", files: "restricted" }, metadata: { ...publishableDraft().metadata, title } }));
    const id = (await publishDraft(t, draft.id)).id;
    const search = async (as: Caller) => hitIds((await t.call("GET", `/api/records?q=${encodeURIComponent(`"${title}"`)}`, { as })).json);
    expect(await search("carol")).toEqual([]);
    const until = t.dayAfter(1);
    expectStatus(
      await t.call("POST", access(id, "/grants"), { as: "alice", body: { grants: [{ subject: { type: "user", id: uid("carol") }, permission: "view", expires_at: until }] } }),
      201,
    );
    expect(await search("carol")).toEqual([id]);
    expect(await search("bob")).toEqual([]);
    expect(await search("anonymous")).toEqual([]);
    // Tomorrow, still open (the grant ends when that day does).
    t.clock.advance(DAY_MS);
    expectStatus(await t.call("GET", `/api/records/${id}`, { as: "carol" }), 200);
    // The first instant after that day: refused everywhere, and still listed to the owner.
    t.clock.set(Date.parse(`${until}T00:00:00Z`) + DAY_MS);
    expectStatus(await t.call("GET", `/api/records/${id}`, { as: "carol" }), 403);
    expectStatus(await t.call("GET", content(id), { as: "carol" }), 403);
    expect(await search("carol")).toEqual([]);
    const listed = await t.call("GET", access(id, "/grants/0"), { as: "alice" });
    expect(listed.json.expires_at).toBe(until);
  });
});

/** A draft body that keeps the record restricted (for PUT .../draft). */
const restrictedBody = () => publishableDraft({ access: { record: "restricted", files: "restricted" }, files: { enabled: true } });

describe("bad input: clear 400s and 404s, never a 5xx", () => {
  const BIG = "x".repeat(100_000);
  const grant = (overrides: Record<string, unknown> = {}) => ({ grants: [{ subject: { type: "user", id: uid("carol") }, permission: "view", ...overrides }] });
  const rows: { name: string; method?: string; path?: string; body?: () => unknown; raw?: string; status: number; message?: string; field?: string }[] = [
    {
      name: "an unknown user",
      body: () => grant({ subject: { type: "user", id: "999999" } }),
      status: 400,
      message: "Could not find the specified subject.",
      field: "grants.0.subject.id",
    },
    { name: "a user id that is not a number", body: () => grant({ subject: { type: "user", id: "carol" } }), status: 400, message: "Could not find the specified subject." },
    { name: "an unknown group", body: () => grant({ subject: { type: "role", id: "No such group" } }), status: 400, message: "Could not find the specified subject." },
    { name: "a system role", body: () => grant({ subject: { type: "system_role", id: "any_user" } }), status: 400, field: "grants.0.subject.type" },
    { name: "a subject with no id", body: () => grant({ subject: { type: "user" } }), status: 400, field: "grants.0.subject.id" },
    { name: "a subject that is a string", body: () => grant({ subject: "carol" }), status: 400, field: "grants.0.subject" },
    { name: "a grant with no subject", body: () => ({ grants: [{ permission: "view" }] }), status: 400, field: "grants.0.subject" },
    { name: "an unknown permission", body: () => grant({ permission: "owner" }), status: 400, field: "grants.0.permission" },
    { name: "a missing permission", body: () => ({ grants: [{ subject: { type: "user", id: uid("carol") } }] }), status: 400, field: "grants.0.permission" },
    {
      name: "a grant to a subject that has one",
      body: () => grant({ subject: { type: "user", id: uid("viewer") } }),
      status: 400,
      message: "Grant for the specified subject already exists.",
    },
    { name: "the same subject twice", body: () => ({ grants: [grant().grants[0], grant().grants[0]] }), status: 400, field: "grants.1.subject" },
    { name: "an expiry today", body: () => grant({ expires_at: t.dayAfter(0) }), status: 400, field: "grants.0.expires_at" },
    { name: "an expiry in the past", body: () => grant({ expires_at: "2020-01-01" }), status: 400, field: "grants.0.expires_at" },
    { name: "an impossible date", body: () => grant({ expires_at: "2027-02-30" }), status: 400, field: "grants.0.expires_at" },
    { name: "a date-time", body: () => grant({ expires_at: "2027-02-01T00:00:00Z" }), status: 400, field: "grants.0.expires_at" },
    { name: "an expiry that is a number", body: () => grant({ expires_at: 1_900_000_000_000 }), status: 400, field: "grants.0.expires_at" },
    { name: "notify as a string", body: () => grant({ notify: "yes" }), status: 400, field: "grants.0.notify" },
    { name: "a 100 KB message", body: () => grant({ message: BIG }), status: 400, field: "grants.0.message" },
    { name: "a 100 KB subject id", body: () => grant({ subject: { type: "user", id: BIG } }), status: 400, field: "grants.0.subject.id" },
    { name: "an unknown field", body: () => grant({ colour: "red" }), status: 400, field: "grants.0.colour" },
    { name: "no grants", body: () => ({ grants: [] }), status: 400, field: "grants" },
    { name: "101 grants", body: () => ({ grants: Array.from({ length: 101 }, () => grant().grants[0]) }), status: 400, field: "grants" },
    { name: "grants not a list", body: () => ({ grants: { subject: {} } }), status: 400, field: "grants" },
    { name: "a grant that is a string", body: () => ({ grants: ["carol"] }), status: 400, field: "grants.0" },
    { name: "no body", status: 400, field: "" },
    { name: "a JSON list", body: () => [grant()], status: 400 },
    { name: "a JSON string", body: () => BIG, status: 400 },
    { name: "null", raw: "null", status: 400 },
    { name: "invalid JSON", raw: "{grants: [", status: 400, message: "Unable to decode JSON data in request body." },
    { name: "deep nesting", raw: "[".repeat(2000) + "]".repeat(2000), status: 400 },
    { name: "PUT that changes the subject", method: "PUT", path: "/grants/3", body: () => ({ subject: { type: "user", id: uid("carol") }, permission: "view" }), status: 400 },
    { name: "PUT without a permission", method: "PUT", path: "/grants/3", body: () => ({ subject: { type: "user", id: uid("viewer") } }), status: 400, field: "permission" },
    { name: "PATCH with a bad permission", method: "PATCH", path: "/grants/3", body: () => ({ permission: ["view"] }), status: 400, field: "permission" },
    { name: "PATCH with a past expiry", method: "PATCH", path: "/grants/3", body: () => ({ expires_at: "2001-01-01" }), status: 400, field: "expires_at" },
    { name: "PATCH a user grant with a 100 KB message", method: "PATCH", path: "/users/{viewer}", body: () => ({ message: BIG }), status: 400, field: "message" },
    { name: "PATCH a grant with a list", method: "PATCH", path: "/grants/3", body: () => [{ permission: "view" }], status: 400 },
    { name: "a grant id past the end", method: "GET", path: "/grants/99", status: 404, message: "No grant found with the given ID." },
    { name: "a negative grant id", method: "PATCH", path: "/grants/-1", body: () => ({ permission: "view" }), status: 404 },
    { name: "a grant id that is a word", method: "DELETE", path: "/grants/first", status: 404 },
    { name: "a 10 KB grant id", method: "GET", path: `/grants/${"9".repeat(10_000)}`, status: 404 },
    { name: "a user without a grant", method: "GET", path: "/users/{carol}", status: 404, message: "No grant found by given user id." },
    { name: "an unknown user id", method: "DELETE", path: "/users/nobody", status: 404 },
    { name: "a group without a grant", method: "PATCH", path: "/groups/unknown", body: () => ({ permission: "view" }), status: 404, message: "No grant found by given group id." },
    { name: "an unknown record", method: "GET", path: "@/api/records/zzzzz-zzzzz/access/grants", status: 404 },
    { name: "a 10 KB record id", method: "POST", path: `@/api/records/${"z".repeat(10_000)}/access/grants`, body: () => grant(), status: 404 },
    { name: "a 100 KB record id (the URL limit)", method: "POST", path: `@/api/records/${"z".repeat(100_000)}/access/grants`, body: () => grant(), status: 431 },
  ];
  let id = "";
  beforeAll(async () => {
    id = await fixture();
  });
  for (const row of rows) {
    test(`${row.name} -> ${row.status}`, async () => {
      const path = (row.path ?? "/grants").replace("{viewer}", uid("viewer")).replace("{carol}", uid("carol"));
      const url = path.startsWith("@") ? path.slice(1) : access(id, path);
      const res = await t.call(row.method ?? "POST", url, {
        as: "alice",
        body: row.body?.(),
        ...(row.raw !== undefined ? { rawBody: row.raw, headers: { "content-type": "application/json" } } : {}),
      });
      expectCleanRefusal(res, row.status);
      if (row.message) expect(res.json.message).toBe(row.message);
      if (row.field) expect(res.json.errors.map((e: any) => e.field)).toContain(row.field);
    });
  }

  test("nothing of the refused bodies was stored", async () => {
    const list = await t.call("GET", access(id, "/grants"), { as: "alice" });
    expect(list.json.hits.hits.map((g: any) => [g.subject.id, g.permission])).toEqual([
      [uid("manager"), "manage"],
      [uid("editor"), "edit"],
      [uid("previewer"), "preview"],
      [uid("viewer"), "view"],
      [t.groupId, "preview"],
    ]);
  });
});
