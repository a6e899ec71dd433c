// Administration → Records and drafts over HTTP: a 404 for everyone but administrators on every page
// and form; the search over everything (published, restricted, drafts, deleted) with its status
// filter, query, facets and paging, and the REST search's `include_deleted` for administrators only;
// tombstone (a reason from the removal reasons, a note) and restore after a confirmation step, a new
// owner; each with its effect and its audit entry via web; the CSRF refusals; the service's 400s
// shown beside the fields.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { anonymous, systemActor, type Actor } from "../../src/core/actor";
import { pageSession } from "../helpers/accounts";
import { createTestApp, type TestApp } from "../helpers/app";
import { createDraft, publishableDraft, publishRecord, MINIMAL_METADATA } from "../helpers/records";
import { raw } from "../helpers/sign-in";

const NOT_FOUND = "The requested URL was not found on the server.";
const ADDRESS = "203.0.113.21";
const R = "/administration/records";

let app: TestApp;
let admin: { cookie: string; csrf: string };
let alice: { cookie: string; csrf: string };
/** Alice's public record, her restricted one, her unpublished draft, Bob's deleted record. */
let ids: { open: string; closed: string; draft: string; gone: string };

const session = (login: string) => pageSession(app, login);
const get = (path: string, who?: { cookie: string }) => raw(app, "GET", path, { cookie: who?.cookie });
const post = (path: string, who: { cookie: string; csrf: string } | null, form: Record<string, string> = {}, csrf = who?.csrf) =>
  raw(app, "POST", path, { cookie: who?.cookie, form: csrf === undefined ? form : { ...form, csrf }, address: ADDRESS });

const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
const notice = (html: string) => /role="status">([^<]*)</.exec(html)?.[1];
/** The rows of the list: [id, status]. */
const rows = (html: string) => [...html.matchAll(/<tr data-record-id="([^"]+)" data-status="([^"]+)">/g)].map((m) => [m[1], m[2]]);
const listed = async (query: string) => rows((await get(`${R}${query}`, admin)).text);
const sorted = (pairs: (string | undefined)[][]) => pairs.map((p) => p.join(":")).sort();
const auditEntries = async (action: string, targetId?: string) => (await app.services.audit.search(systemActor, { action, targetId })).entries;
const body = (title: string, record = "public") => publishableDraft({ access: { record, files: "public" }, metadata: { ...MINIMAL_METADATA, title, publisher: "Cairn" } });

beforeAll(async () => {
  app = await createTestApp();
  admin = await session("admin");
  alice = await session("alice");
  const open = (await publishRecord(app, body("Plankton counts in the North Sea"))).id;
  app.clock.advance(60_000);
  const closed = (await publishRecord(app, body("Restricted interviews", "restricted"))).id;
  app.clock.advance(60_000);
  const draft = (await createDraft(app, body("Unfinished glacier survey"))).id;
  app.clock.advance(60_000);
  const gone = (await publishRecord(app, body("Spam upload"), { as: "bob" })).id;
  await app.services.records.deleteRecord(systemActor, gone, { removal_reason: { id: "spam" } }, { via: "cli" });
  ids = { open, closed, draft, gone };
});
afterAll(async () => {
  await app.close();
});

describe("the records screen is a 404 for everyone but administrators", () => {
  test("every page: the ordinary 404 for a guest and a signed-in person; the page for an administrator", async () => {
    const pages = [R, `${R}?status=deleted`, `${R}/${ids.open}`, `${R}/${ids.draft}?draft=1`, `${R}/${ids.open}/tombstone`, `${R}/${ids.gone}/restore`, `${R}/${ids.open}/owner`];
    for (const path of pages) {
      for (const [who, res] of [
        ["guest", await get(path)],
        ["alice", await get(path, alice)],
      ] as const) {
        expect({ path, who, status: res.status, found: res.text.includes(NOT_FOUND) }).toEqual({ path, who, status: 404, found: true });
      }
      expect({ path, status: (await get(path, admin)).status }).toEqual({ path, status: 200 });
    }
  });

  test("every form: a 404 for a guest and for a signed-in person with a valid CSRF token, with no effect", async () => {
    const forms: [string, Record<string, string>][] = [
      [`${R}/${ids.open}/tombstone`, { reason: "spam", note: "x" }],
      [`${R}/${ids.gone}/restore`, {}],
      [`${R}/${ids.open}/owner`, { owner: "alice@example.org" }],
    ];
    for (const [path, form] of forms) {
      expect({ path, status: (await post(path, null, form)).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await post(path, alice, form)).status }).toEqual({ path, status: 404 });
    }
    const open = await app.services.records.readRecord(systemActor, ids.open);
    expect(open.deletion_status).toEqual({ is_deleted: false, status: "P" });
    expect((await app.services.records.readRecord(systemActor, ids.gone, { includeDeleted: true })).deletion_status.is_deleted).toBe(true);
  });
});

describe("the search over everything", () => {
  test("every record and draft, deleted ones too, with their owner, status and access", async () => {
    const res = await get(R, admin);
    expect(h1(res.text)).toBe("Records and drafts");
    expect(sorted(rows(res.text))).toEqual(
      sorted([
        [ids.open, "published"],
        [ids.closed, "published"],
        [ids.draft, "draft"],
        [ids.gone, "deleted"],
      ]),
    );
    const row = new RegExp(`<tr data-record-id="${ids.closed}"[^>]*>(.*?)</tr>`).exec(res.text)![1]!;
    expect([...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""))).toEqual([
      "Restricted interviews",
      ids.closed,
      "alice@example.org",
      "published",
      "restricted",
    ]);
    expect(res.text).toContain(`<a href="${R}/${ids.draft}?draft=1">Unfinished glacier survey</a>`);
  });

  test("the status filter, the query, a facet and paging; an unknown status is a 400 naming the parameter", async () => {
    expect(await listed("?status=deleted")).toEqual([[ids.gone, "deleted"]]);
    expect(await listed("?status=draft")).toEqual([[ids.draft, "draft"]]);
    expect(sorted(await listed("?status=published"))).toEqual(
      sorted([
        [ids.open, "published"],
        [ids.closed, "published"],
      ]),
    );
    expect(await listed("?q=plankton")).toEqual([[ids.open, "published"]]);
    expect(await listed("?access_status=restricted")).toEqual([[ids.closed, "published"]]);
    const first = await get(`${R}?size=3`, admin);
    expect(rows(first.text).length).toBe(3);
    expect(first.text).toContain("Page 1 of 2 (4 in all)");
    expect(first.text).toContain(`href="${R}?size=3&amp;page=2"`);
    const second = await get(`${R}?size=3&page=2`, admin);
    expect(rows(second.text).length).toBe(1);
    const bad = await get(`${R}?status=lost`, admin);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("status: Must be one of: published, draft, deleted.");
  });

  test("the service's listing refuses anyone but administrators: 401 anonymous, 403 a person", async () => {
    const person: Actor = { kind: "user", userId: app.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    for (const [who, actor, status] of [
      ["anonymous", anonymous, 401],
      ["alice", person, 403],
    ] as const) {
      const error = await app.services.records.searchEverything(actor, {}).then(
        () => null,
        (e: { status?: number }) => e,
      );
      expect({ who, status: error?.status }).toEqual({ who, status });
    }
    expect((await app.services.records.searchEverything(systemActor, { status: "deleted" })).hits.total).toBe(1);
  });

  test("the REST search's include_deleted lists deleted records to administrators only", async () => {
    const hitsOf = async (who: "admin" | "alice") =>
      ((await app.call("GET", "/api/records?include_deleted=1&size=50", { as: who })).json.hits.hits as { id: string }[]).map((h) => h.id).sort();
    expect(await hitsOf("admin")).toEqual([ids.open, ids.closed, ids.gone].sort());
    expect(await hitsOf("alice")).toEqual([ids.open, ids.closed].sort());
    const plain = (await app.call("GET", "/api/records?size=50", { as: "admin" })).json;
    expect(plain.hits.hits.map((h: { id: string }) => h.id).sort()).toEqual([ids.open, ids.closed].sort());
  });
});

describe("the actions", () => {
  test("tombstone: a confirmation step with the removal reasons, refused without CSRF, a missing reason shown beside its field, then tombstoned and audited", async () => {
    const path = `${R}/${ids.open}/tombstone`;
    const step = await get(path, admin);
    expect(step.text).toContain(`Tombstone the record ${ids.open}?`);
    expect(step.text).toContain('<option value="spam">Spam</option>');
    for (const csrf of ["", "forged", alice.csrf]) {
      const refused = await post(path, admin, { reason: "spam" }, csrf);
      expect({ csrf, status: refused.status }).toEqual({ csrf, status: 403 });
    }
    const missing = await post(path, admin, { reason: "", note: "kept" });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('<p class="field-error" id="field-removal_reason-id-error">A removal reason is required');
    expect(missing.text).toContain(">kept</textarea>");
    expect((await app.services.records.readRecord(systemActor, ids.open)).deletion_status.is_deleted).toBe(false);

    const done = await post(path, admin, { reason: "duplicate", note: "Same as another one." });
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `${R}/${ids.open}?done=tombstoned` });
    const record = await app.services.records.readRecord(systemActor, ids.open, { includeDeleted: true });
    expect(record.deletion_status).toEqual({ is_deleted: true, status: "D" });
    expect(record.tombstone).toMatchObject({ removal_reason: { id: "duplicate" }, note: "Same as another one.", removed_by: { user: String(app.users.admin.user.id) } });
    expect((await app.call("GET", `/api/records/${ids.open}`)).status).toBe(410);
    const page = await get(`${R}/${ids.open}?done=tombstoned`, admin);
    expect(notice(page.text)).toBe("The record was tombstoned.");
    expect(page.text).toContain("<dt>Note</dt><dd>Same as another one.</dd>");
    // Exactly one entry: the service writes it, the page no longer adds its own.
    const entries = await auditEntries("record.tombstone", ids.open);
    expect(entries.length).toBe(1);
    expect(entries[0]).toMatchObject({
      actorId: app.users.admin.user.id,
      targetType: "record",
      targetId: ids.open,
      via: "web",
      address: ADDRESS,
      details: { reason: "duplicate", note: "Same as another one.", is_visible: true },
    });
  });

  test("restore: a confirmation step, refused without CSRF, then restored and audited", async () => {
    const path = `${R}/${ids.gone}/restore`;
    expect((await get(path, admin)).text).toContain(`Restore the record ${ids.gone}?`);
    expect((await post(path, admin, {}, "forged")).status).toBe(403);
    expect((await app.call("GET", `/api/records/${ids.gone}`)).status).toBe(410);
    const done = await post(path, admin);
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `${R}/${ids.gone}?done=restored` });
    expect((await app.call("GET", `/api/records/${ids.gone}`)).status).toBe(200);
    expect(await auditEntries("record.restore")).toMatchObject([{ targetId: ids.gone, via: "web", address: ADDRESS }]);
    // Not deleted any more: a second restore is the service's 409.
    expect((await post(path, admin)).status).toBe(409);
  });

  test("a new owner: by e-mail for a record, by id for a draft; an unknown account shown beside the field; audited with both owners", async () => {
    const { alice: a, bob: b } = app.users;
    const unknown = await post(`${R}/${ids.closed}/owner`, admin, { owner: "nobody@example.org" });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain(`<p class="field-error" id="field-owned_by-user-error">No account with the e-mail address or id 'nobody@example.org'.</p>`);
    expect((await post(`${R}/${ids.closed}/owner`, admin, { owner: "bob@example.org" }, "forged")).status).toBe(403);

    const done = await post(`${R}/${ids.closed}/owner`, admin, { owner: "bob@example.org" });
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `${R}/${ids.closed}?done=owner` });
    expect((await app.services.records.readRecord(systemActor, ids.closed)).parent.access.owned_by).toEqual({ user: String(b.user.id) });
    expect(notice((await get(`${R}/${ids.closed}?done=owner`, admin)).text)).toBe("The record has a new owner.");

    const draft = await post(`${R}/${ids.draft}/owner?draft=1`, admin, { owner: String(b.user.id) });
    expect(draft.headers.get("location")).toBe(`${R}/${ids.draft}?done=owner&draft=1`);
    expect((await app.services.records.readDraft(systemActor, ids.draft)).parent.access.owned_by).toEqual({ user: String(b.user.id) });
    const entries = await auditEntries("record.owner");
    expect(entries.map((e) => [e.targetId, e.details.from, e.details.to, e.details.draft, e.via, e.address])).toEqual(
      expect.arrayContaining([
        [ids.closed, a.user.id, b.user.id, false, "web", ADDRESS],
        [ids.draft, a.user.id, b.user.id, true, "web", ADDRESS],
      ]),
    );
    expect(entries.length).toBe(2);
  });
});
