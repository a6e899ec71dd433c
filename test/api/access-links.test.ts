// Secret links of a record: `/api/records/{id}/access/links[/{link_id}]` — who may call each route,
// the link's shape (the token only in the answer that made it), what a token opens as `?token=`
// (record, files, drafts for preview links), revocation and expiry on the injected clock, and bad
// input (never a 5xx).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DAY_MS } from "../../src/core/time";
import { expectStatus } from "../helpers/app";
import { accessScenarios, CALLERS, createAccessTestApp, expectCleanRefusal, FILE_CONTENT, FILE_KEY, type AccessScenario, type AccessTestApp, type Caller } from "../helpers/access";

let t: AccessTestApp;
beforeAll(async () => {
  t = await createAccessTestApp();
});
afterAll(() => t.close());

const uid = (name: Caller) => (t ? t.ids[name]! : `{${name}}`);
const links = (id: string, path = "") => `/api/records/${id}/access/links${path}`;
const content = (id: string) => `/api/records/${id}/files/${FILE_KEY}/content`;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/;

/** Creates a link on `id` as alice; returns its JSON (with the token). */
async function createLink(id: string, body: Record<string, unknown> = { permission: "view" }) {
  const res = await t.call("POST", links(id), { as: "alice", body });
  expectStatus(res, 201);
  return res.json;
}

interface LinkFixture {
  record: string;
  link: string;
}
const fixture = async (): Promise<LinkFixture> => {
  const record = await t.sharedRecord();
  return { record, link: (await createLink(record, { permission: "view", description: "for the reviewers" })).id };
};
const PLACEHOLDER: LinkFixture = { record: "{id}", link: "{link}" };
const MANAGE_STATUS: Record<string, number> = { alice: 0, manager: 0, admin: 0, viewer: 403, bob: 403, anonymous: 401 };

function byCaller(route: Omit<AccessScenario<LinkFixture>, "as" | "status" | "name">, ok: number, name: string): AccessScenario<LinkFixture>[] {
  return CALLERS.map((as) => {
    const status = MANAGE_STATUS[as] || ok;
    return { ...route, name: `${name} (${as})`, as, status, ...(status >= 400 ? { json: { status }, check: undefined } : {}) };
  });
}

describe("who may call each links route (a fresh record with one link per row)", () => {
  accessScenarios(
    () => t,
    fixture,
    [
      ...byCaller({ method: "GET", url: (f) => links(f.record), check: (b) => expect(b.hits.total).toBe(1) }, 200, "list links"),
      ...byCaller({ method: "POST", url: (f) => links(f.record), body: { permission: "preview" }, check: (b) => expect(typeof b.token).toBe("string") }, 201, "create a link"),
      ...byCaller({ method: "GET", url: (f) => links(f.record, `/${f.link}`), check: (b) => expect(b.description).toBe("for the reviewers") }, 200, "read a link"),
      ...byCaller(
        { method: "PATCH", url: (f) => links(f.record, `/${f.link}`), body: { description: "changed" }, check: (b) => expect(b.description).toBe("changed") },
        200,
        "patch a link",
      ),
      ...byCaller({ method: "DELETE", url: (f) => links(f.record, `/${f.link}`) }, 204, "delete a link"),
      // PUT is not a method of links (InvenioRDM: use PATCH), whoever asks.
      ...CALLERS.map((as) => ({
        name: `PUT is not allowed (${as})`,
        as,
        method: "PUT",
        url: (f: LinkFixture) => links(f.record, `/${f.link}`),
        body: { permission: "edit" },
        status: 405,
        check: (b: any) => expect(b.message).toContain("PATCH"),
      })),
    ],
    PLACEHOLDER,
  );
});

describe("shapes", () => {
  test("the token is in the create answer only; lists, reads, patches and parent.access.links never show it", async () => {
    const id = await t.sharedRecord();
    const created = await createLink(id, { permission: "preview", expires_at: t.dayAfter(30), description: "Peer review" });
    expect(Object.keys(created).sort()).toEqual(["created_at", "description", "expires_at", "id", "origin", "permission", "token"]);
    expect(created).toMatchObject({ permission: "preview", expires_at: t.dayAfter(30), description: "Peer review", origin: `api:${uid("alice")}` });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.created_at).toMatch(TIMESTAMP);
    expect(created.created_at.slice(0, 10)).toBe(t.dayAfter(0));
    const { token, ...link } = created;
    expect(token.length).toBeGreaterThan(40);
    expect((await t.call("GET", links(id), { as: "alice" })).json).toEqual({ hits: { hits: [link], total: 1 } });
    expect((await t.call("GET", links(id, `/${link.id}`), { as: "manager" })).json).toEqual(link);
    expect((await t.call("PATCH", links(id, `/${link.id}`), { as: "alice", body: {} })).json).toEqual(link);
    const record = await t.call("GET", `/api/records/${id}`, { as: "alice" });
    expect(record.json.parent.access.links).toEqual([link]);
    expect(record.text).not.toContain(token);
    // Only the hash is stored.
    const stored = await t.services.deps.db.statements.all<{ token_hash: string }>("SELECT token_hash FROM record_links");
    expect(stored.some((r) => r.token_hash.includes(token) || token.includes(r.token_hash))).toBe(false);
    // Callers who do not manage the record see no links.
    for (const as of ["viewer", "previewer", "editor"] as Caller[]) expect((await t.call("GET", `/api/records/${id}`, { as })).json.parent.access.links).toEqual([]);
  });

  test("PATCH changes what it names: permission, expiry (null: none), description", async () => {
    const id = await t.sharedRecord();
    const link = await createLink(id, { permission: "view" });
    const patched = await t.call("PATCH", links(id, `/${link.id}`), { as: "alice", body: { permission: "edit", expires_at: t.dayAfter(2) } });
    expect(patched.json).toMatchObject({ id: link.id, permission: "edit", expires_at: t.dayAfter(2), description: "" });
    expect((await t.call("PATCH", links(id, `/${link.id}`), { as: "alice", body: { expires_at: null, description: "open" } })).json).toMatchObject({
      permission: "edit",
      expires_at: null,
      description: "open",
    });
  });
});

describe("what a token opens", () => {
  test("view link: the restricted record and its files for anyone holding it; not drafts, not other records; revoked: nothing", async () => {
    const id = await t.restrictedRecord();
    const other = await t.restrictedRecord();
    const { token, id: linkId } = await createLink(id);
    expectStatus(await t.call("GET", `/api/records/${id}`), 401);
    const record = await t.call("GET", `/api/records/${id}?token=${token}`);
    expectStatus(record, 200);
    expect(record.json.parent.access.links).toEqual([]);
    const file = await t.call("GET", `${content(id)}?token=${token}`);
    expectStatus(file, 200);
    expect(file.text).toBe(FILE_CONTENT);
    expectStatus(await t.call("GET", `/api/records/${id}/files?token=${token}`), 200);
    // A signed-in stranger with the token reads too.
    expectStatus(await t.call("GET", `/api/records/${id}?token=${token}`, { as: "bob" }), 200);
    // Not the record's drafts (view is below preview), not another record, not the access routes.
    expectStatus(await t.call("POST", `/api/records/${id}/draft`, { as: "alice" }), 201);
    expectStatus(await t.call("GET", `/api/records/${id}/draft?token=${token}`), 401);
    expectStatus(await t.call("GET", `/api/records/${other}?token=${token}`), 401);
    expectStatus(await t.call("GET", `${links(id)}?token=${token}`), 401);
    // A forged or truncated token opens nothing.
    expectStatus(await t.call("GET", `/api/records/${id}?token=${token.slice(0, -2)}xx`), 401);
    expectStatus(await t.call("GET", `/api/records/${id}?token=${token.split(".")[0]}`), 401);
    // Revoked.
    expectStatus(await t.call("DELETE", links(id, `/${linkId}`), { as: "alice" }), 204);
    expectStatus(await t.call("GET", `/api/records/${id}?token=${token}`), 401);
    expectStatus(await t.call("GET", `${content(id)}?token=${token}`), 401);
    expectStatus(await t.call("GET", `/api/records/${id}?token=${token}`, { as: "bob" }), 403);
    expectStatus(await t.call("GET", links(id, `/${linkId}`), { as: "alice" }), 404);
  });

  test("preview link opens the draft; patching it down to view closes the draft again", async () => {
    const id = await t.restrictedRecord();
    expectStatus(await t.call("POST", `/api/records/${id}/draft`, { as: "alice" }), 201);
    const link = await createLink(id, { permission: "preview" });
    expectStatus(await t.call("GET", `/api/records/${id}/draft?token=${link.token}`), 200);
    expectStatus(await t.call("PATCH", links(id, `/${link.id}`), { as: "alice", body: { permission: "view" } }), 200);
    expectStatus(await t.call("GET", `/api/records/${id}/draft?token=${link.token}`), 401);
    expectStatus(await t.call("GET", `/api/records/${id}?token=${link.token}`), 200);
  });

  test("expiry: the link works through the end of its date (UTC), then opens nothing; PATCHing a later date reopens it", async () => {
    const id = await t.restrictedRecord();
    const until = t.dayAfter(1);
    const link = await createLink(id, { permission: "view", expires_at: until });
    expectStatus(await t.call("GET", `/api/records/${id}?token=${link.token}`), 200);
    t.clock.advance(DAY_MS); // on the expiry date itself
    expectStatus(await t.call("GET", `${content(id)}?token=${link.token}`), 200);
    t.clock.set(Date.parse(`${until}T23:59:59.999Z`));
    expectStatus(await t.call("GET", `/api/records/${id}?token=${link.token}`), 200);
    t.clock.advance(1); // the first instant after it
    expectStatus(await t.call("GET", `/api/records/${id}?token=${link.token}`), 401);
    expectStatus(await t.call("GET", `${content(id)}?token=${link.token}`), 401);
    // Still listed to the owner, with its date.
    expect((await t.call("GET", links(id, `/${link.id}`), { as: "alice" })).json.expires_at).toBe(until);
    // A past date cannot be set; a future one reopens it.
    const past = await t.call("PATCH", links(id, `/${link.id}`), { as: "alice", body: { expires_at: until } });
    expectStatus(past, 400);
    expect(past.json.errors).toEqual([{ field: "expires_at", messages: ["Expiration date must be set to the future."] }]);
    expectStatus(await t.call("PATCH", links(id, `/${link.id}`), { as: "alice", body: { expires_at: t.dayAfter(5) } }), 200);
    expectStatus(await t.call("GET", `/api/records/${id}?token=${link.token}`), 200);
  });

  test("a link on a public record with restricted files opens the files", async () => {
    const { createDraft, publishableDraft, publishDraft } = await import("../helpers/records");
    const draft = await createDraft(t, publishableDraft({ access: { record: "public", files: "restricted" }, files: { enabled: true } }), { files: [[FILE_KEY, FILE_CONTENT]] });
    const id = (await publishDraft(t, draft.id)).id;
    expectStatus(await t.call("GET", `/api/records/${id}`), 200);
    expectStatus(await t.call("GET", content(id)), 401);
    const link = await createLink(id);
    expectStatus(await t.call("GET", `${content(id)}?token=${link.token}`), 200);
  });
});

describe("bad input: clear 400s, 404s and 405s, never a 5xx", () => {
  const BIG = "x".repeat(100_000);
  const rows: { name: string; method?: string; link?: string; body?: () => unknown; raw?: string; status: number; message?: string; field?: string }[] = [
    { name: "no permission", body: () => ({}), status: 400, field: "permission" },
    { name: "manage is not a link permission", body: () => ({ permission: "manage" }), status: 400, field: "permission" },
    { name: "a permission that is a list", body: () => ({ permission: ["view"] }), status: 400, field: "permission" },
    { name: "an expiry today", body: () => ({ permission: "view", expires_at: t.dayAfter(0) }), status: 400, field: "expires_at" },
    { name: "an expiry in the past", body: () => ({ permission: "view", expires_at: "2001-09-09" }), status: 400, field: "expires_at" },
    { name: "an impossible date", body: () => ({ permission: "view", expires_at: "2027-13-01" }), status: 400, field: "expires_at" },
    { name: "an expiry that is a number", body: () => ({ permission: "view", expires_at: 20270101 }), status: 400, field: "expires_at" },
    { name: "a 100 KB expiry", body: () => ({ permission: "view", expires_at: BIG }), status: 400, field: "expires_at" },
    { name: "a 100 KB description", body: () => ({ permission: "view", description: BIG }), status: 400, field: "description" },
    { name: "a description that is an object", body: () => ({ permission: "view", description: { en: "x" } }), status: 400, field: "description" },
    { name: "an unknown field", body: () => ({ permission: "view", token: "mine" }), status: 400, field: "token" },
    { name: "no body", status: 400, field: "" },
    { name: "a JSON list", body: () => [{ permission: "view" }], status: 400 },
    { name: "a JSON number", body: () => 7, status: 400 },
    { name: "invalid JSON", raw: '{"permission": ', status: 400, message: "Unable to decode JSON data in request body." },
    { name: "PATCH with a bad permission", method: "PATCH", link: "{link}", body: () => ({ permission: "owner" }), status: 400, field: "permission" },
    { name: "PATCH with a past expiry", method: "PATCH", link: "{link}", body: () => ({ expires_at: "2020-02-02" }), status: 400, message: "A validation error occurred." },
    { name: "PATCH with a list", method: "PATCH", link: "{link}", body: () => [], status: 400 },
    { name: "an unknown link", method: "GET", link: "00000000-0000-4000-8000-000000000000", status: 404, message: "No secret link found with the given ID." },
    { name: "a link id that is not a uuid", method: "PATCH", link: "first", body: () => ({ permission: "view" }), status: 404 },
    { name: "a 10 KB link id", method: "DELETE", link: "z".repeat(10_000), status: 404 },
    { name: "PUT on a link", method: "PUT", link: "{link}", body: () => ({ permission: "view" }), status: 405 },
  ];
  let f: LinkFixture;
  beforeAll(async () => {
    f = await fixture();
  });
  for (const row of rows) {
    test(`${row.name} -> ${row.status}`, async () => {
      const url = row.link === undefined ? links(f.record) : links(f.record, `/${row.link === "{link}" ? f.link : row.link}`);
      const res = await t.call(row.method ?? "POST", url, {
        as: "alice",
        body: row.body?.(),
        ...(row.raw !== undefined ? { rawBody: row.raw, headers: { "content-type": "application/json" } } : {}),
      });
      expectCleanRefusal(res, row.status);
      if (row.message) expect(res.json.message).toBe(row.message);
      if (row.field !== undefined) expect(res.json.errors.map((e: any) => e.field)).toContain(row.field);
    });
  }

  test("an unknown record is a 404 on every links route", async () => {
    for (const [method, path] of [
      ["GET", ""],
      ["POST", ""],
      ["GET", `/${f.link}`],
      ["PATCH", `/${f.link}`],
      ["DELETE", `/${f.link}`],
    ]) {
      const res = await t.call(method!, links("zzzzz-zzzzz", path), { as: "alice", body: method === "GET" || method === "DELETE" ? undefined : { permission: "view" } });
      expectCleanRefusal(res, 404);
    }
  });

  test("a link of another record is not found through this one", async () => {
    const other = await t.restrictedRecord();
    expectCleanRefusal(await t.call("GET", links(other, `/${f.link}`), { as: "alice" }), 404);
    expectCleanRefusal(await t.call("DELETE", links(other, `/${f.link}`), { as: "alice" }), 404);
    expectStatus(await t.call("GET", links(f.record, `/${f.link}`), { as: "alice" }), 200);
  });

  test("a 150-character garbage token and a 300-character one are refused cleanly", async () => {
    for (const token of ["a".repeat(150), "b.".repeat(150), "%00%ff", "..."]) {
      expectCleanRefusal(await t.call("GET", `/api/records/${f.record}?token=${token}`), 401);
    }
  });
});
