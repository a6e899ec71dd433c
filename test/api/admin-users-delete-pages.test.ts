// Administration → Users over HTTP, the parts of issue 32's users screen beyond the account actions:
// the delete step (404 for everyone but administrators, the numbers of published records and drafts,
// the choice required, refused without the CSRF token, a community's only owner and the last
// administrator refused as 400 pages, the account gone from the list, audited via web); "send a
// password-reset link"; a user's page listing their records and drafts, communities with their role
// and latest sign-ins; the "created since" filter of the list and of GET /api/users/all.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { pageSession } from "../helpers/accounts";
import { createTestApp, type Caller, type TestApp } from "../helpers/app";
import { COMMUNITY_BODY } from "../helpers/communities";
import { createDraft, publishableDraft, publishRecord } from "../helpers/records";
import { postLogin, raw } from "../helpers/sign-in";

const NOT_FOUND = "The requested URL was not found on the server.";
const ADDRESS = "203.0.113.44";

let app: TestApp;
let admin: { cookie: string; csrf: string };
let alice: { cookie: string; csrf: string };

const session = (login: string) => pageSession(app, login);
const get = (path: string, who?: { cookie: string }) => raw(app, "GET", path, { cookie: who?.cookie });
const post = (path: string, who: { cookie: string; csrf: string } | null, fields: Record<string, string> = {}, csrf = who?.csrf) =>
  raw(app, "POST", path, { cookie: who?.cookie, form: { ...(csrf === undefined ? {} : { csrf }), ...fields }, address: ADDRESS });

const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
const notice = (html: string) => /role="status">([^<]*)</.exec(html)?.[1];
const alerts = (html: string) => [...html.matchAll(/role="alert">([^<]*)</g)].map((m) => m[1]!.trim());
const rowIds = (html: string) => [...html.matchAll(/<tr data-user-id="(\d+)">/g)].map((m) => Number(m[1]));
const cells = (html: string, attribute: string, value: string) => {
  const row = new RegExp(`<tr ${attribute}="${value}">(.*?)</tr>`).exec(html)?.[1];
  return row === undefined ? undefined : [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
};
const auditEntries = async (action: string) => (await app.services.audit.search(systemActor, { action })).entries;

/** A new account with a token to act as it. */
async function person(name: string) {
  const user = await app.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
  const { secret } = await app.services.tokens.createToken(systemActor, { userId: user.id, name: `${name}-token` });
  const caller: Caller = { call: (method, path, options = {}) => app.call(method, path, { ...options, as: undefined, token: secret }) };
  return { id: user.id, caller };
}

beforeAll(async () => {
  app = await createTestApp();
  admin = await session("admin");
  alice = await session("alice");
});
afterAll(() => app.close());

describe("delete a user through the pages", () => {
  test("the step and its form are a 404 for a guest and a signed-in person, with no effect", async () => {
    const victim = await person("victim");
    for (const path of [`/administration/users/${victim.id}/delete`, `/administration/users/${victim.id}/password-reset`]) {
      if (path.endsWith("delete")) {
        for (const res of [await get(path), await get(path, alice)]) expect({ status: res.status, says: res.text.includes(NOT_FOUND) }).toEqual({ status: 404, says: true });
      }
      for (const res of [await post(path, null, { records: "remove" }, ""), await post(path, alice, { records: "remove" })]) {
        expect({ path, status: res.status, says: res.text.includes(NOT_FOUND) }).toEqual({ path, status: 404, says: true });
      }
    }
    expect(await app.services.users.findUserById(victim.id)).not.toBeNull();
    expect(await auditEntries("user.password-reset")).toEqual([]);
  });

  test("keep: the step says what happens to N records and M drafts; no choice is a 400 page; then gone from the list, audited via web", async () => {
    const keeper = await person("keeper");
    await publishRecord(keeper.caller);
    await publishRecord(keeper.caller);
    await createDraft(keeper.caller);
    const step = await get(`/administration/users/${keeper.id}/delete`, admin);
    expect(step.status).toBe(200);
    expect(h1(step.text)).toBe("Delete: keeper@example.org");
    expect(step.text).toContain("its 1 draft (with their files)");
    expect(step.text).toContain("<legend>Their 2 published records</legend>");
    expect([...step.text.matchAll(/<input type="radio" name="records" value="(\w+)"/g)].map((m) => m[1])).toEqual(["keep", "remove"]);

    expect((await post(`/administration/users/${keeper.id}/delete`, admin, { records: "keep" }, "")).status).toBe(403);
    const unchosen = await post(`/administration/users/${keeper.id}/delete`, admin);
    expect(unchosen.status).toBe(400);
    expect(alerts(unchosen.text)).toEqual(["Choose what happens to the published records: keep (under a placeholder owner) or remove (tombstoned as spam)."]);
    expect(await app.services.users.findUserById(keeper.id)).not.toBeNull();

    const done = await post(`/administration/users/${keeper.id}/delete`, admin, { records: "keep" });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/administration/users?deleted=keeper%40example.org");
    const list = await get(done.headers.get("location")!, admin);
    expect(notice(list.text)).toBe("The account keeper@example.org was deleted.");
    expect(rowIds(list.text)).not.toContain(keeper.id);
    expect(await app.services.users.findUserById(keeper.id)).toBeNull();
    const [entry] = await auditEntries("user.delete");
    expect(entry).toMatchObject({ targetId: String(keeper.id), via: "web", address: ADDRESS, details: { records: "keep", published: 2, drafts: 1 } });
    // The deleted account's page is gone too.
    expect((await get(`/administration/users/${keeper.id}`, admin)).status).toBe(404);
  });

  test("the only owner of a community: the step names it, and the delete is a 400 page", async () => {
    const founder = await person("founder");
    expect((await founder.caller.call("POST", "/api/communities", { body: COMMUNITY_BODY("lonely", { title: "Lonely" }) })).status).toBe(201);
    const message = "founder@example.org is the only owner of Lonely (lonely): give each another owner (or delete it) first.";
    expect(alerts((await get(`/administration/users/${founder.id}/delete`, admin)).text)).toEqual([
      "They are the only owner of Lonely (lonely): give each another owner (or delete it) first.",
    ]);
    const refused = await post(`/administration/users/${founder.id}/delete`, admin, { records: "remove" });
    expect({ status: refused.status, alerts: alerts(refused.text) }).toEqual({ status: 400, alerts: [message] });
    expect(await app.services.users.findUserById(founder.id)).not.toBeNull();
  });

  test("the last active administrator: deleting, blocking, deactivating or demoting them is a 400 page", async () => {
    const id = app.users.admin.user.id;
    const LAST = (action: string) => `admin@example.org is the last active administrator: make another account an administrator before you ${action} this one.`;
    const deleted = await post(`/administration/users/${id}/delete`, admin, { records: "keep" });
    expect({ status: deleted.status, alerts: alerts(deleted.text) }).toEqual({ status: 400, alerts: [LAST("delete")] });
    for (const action of ["block", "deactivate", "demote"]) {
      const res = await post(`/administration/users/${id}/${action}`, admin);
      expect({ action, status: res.status, says: res.text.includes(LAST(action)) }).toEqual({ action, status: 400, says: true });
    }
    expect(await app.services.users.findUserById(id)).toMatchObject({ isAdmin: true, active: true, blockedAt: null });
  });
});

describe("a user's page", () => {
  test("send a password-reset link: posted, the notice, the mail in the outbox, audited via web", async () => {
    const bob = app.users.bob.user;
    expect((await post(`/administration/users/${bob.id}/password-reset`, admin, {}, "")).status).toBe(403);
    const res = await post(`/administration/users/${bob.id}/password-reset`, admin);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/administration/users/${bob.id}?done=password-reset`);
    expect(notice((await get(res.headers.get("location")!, admin)).text)).toBe("A password-reset link was sent to the account's e-mail address.");
    const { messages } = await app.services.mail.searchOutbox(systemActor, {});
    expect(messages.filter((m) => m.recipient === "bob@example.org").map((m) => m.body.includes("/lost-password/reset?token="))).toEqual([true]);
    expect((await auditEntries("user.password-reset"))[0]).toMatchObject({ targetId: String(bob.id), via: "web", address: ADDRESS });
  });

  test("lists their records and drafts, their communities with the role, and their latest sign-ins", async () => {
    const carol = await person("carol");
    const record = await publishRecord(carol.caller, publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Carol's kelp survey" } }));
    const draft = await createDraft(carol.caller, publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Carol's draft" } }));
    expect((await carol.caller.call("POST", "/api/communities", { body: COMMUNITY_BODY("kelp", { title: "Kelp watchers" }) })).status).toBe(201);
    app.clock.advance(60_000);
    await postLogin(app, "carol", "carol-password", "/", "198.51.100.8");
    const page = await get(`/administration/users/${carol.id}`, admin);
    expect(page.status).toBe(200);
    expect(cells(page.text, "data-record-id", record.id)).toEqual(["Carol's kelp survey", record.id, "published", expect.stringMatching(/ UTC$/)]);
    expect(page.text).toContain(`<a href="/records/${record.id}">Carol's kelp survey</a>`);
    expect(cells(page.text, "data-record-id", draft.id)?.slice(0, 3)).toEqual(["Carol's draft", draft.id, "draft"]);
    expect(page.text).toContain(`<a href="/uploads/${draft.id}">Carol's draft</a>`);
    expect(cells(page.text, "data-community", "kelp")).toEqual(["Kelp watchers", "owner (the only one)"]);
    const signIns = [...page.text.matchAll(/<tr data-sign-in-id="\d+">(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1]));
    expect(signIns).toEqual([[new Date(app.clock.now()).toISOString().slice(0, 16).replace("T", " ") + " UTC", "password", "198.51.100.8", "—"]]);
  });
});

describe("the created-since filter", () => {
  test("the list and GET /api/users/all show only accounts made on or after the day; a bad date is a 400 naming it", async () => {
    app.clock.advance(3 * 86_400_000);
    const day = new Date(app.clock.now()).toISOString().slice(0, 10);
    const late = await person("latecomer");
    const page = await get(`/administration/users?since=${day}`, admin);
    expect(rowIds(page.text)).toEqual([late.id]);
    expect(page.text).toContain(`<input id="users-since" name="since" type="date" value="${day}"/>`);
    const api = await app.call("GET", `/api/users/all?created_since=${day}`, { as: "admin" });
    expect(api.json.hits.hits.map((u: { id: string }) => Number(u.id))).toEqual([late.id]);
    expect(api.json.links.self).toContain(`created_since=${day}`);
    for (const bad of ["2026-02-30", "yesterday", "2026-1-1"]) {
      const res = await app.call("GET", `/api/users/all?created_since=${bad}`, { as: "admin" });
      expect({ bad, status: res.status, errors: res.json.errors }).toEqual({
        bad,
        status: 400,
        errors: [{ field: "created_since", messages: ["Must be a date (YYYY-MM-DD) or an ISO 8601 date and time."] }],
      });
      const html = await get(`/administration/users?since=${bad}`, admin);
      expect({ bad, status: html.status, says: html.text.includes("created_since: Must be a date") }).toEqual({ bad, status: 400, says: true });
    }
  });
});
