// Administration → Communities over HTTP, and the rules it rests on: a 404 for everyone but
// administrators on every page and form; the search over every community (restricted ones too),
// paged; feature for a period (start and end, the service's 400s beside the fields), remove a period
// and delete, each confirmed, with its effect and its audit entry via web, refused without CSRF.
// The featured API's `end_date`: a period past its end is no longer featured (the featured search
// and the home page). COMMUNITIES_CREATION `administrators`: POST /api/communities is a 403 with a
// clear message for others, and the pages hide and refuse "New community".
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { sessionCookie, sessionCsrf } from "../helpers/accounts";
import { createTestApp, type TestApp } from "../helpers/app";
import { COMMUNITY_BODY } from "../helpers/communities";
import { raw } from "../helpers/sign-in";

const NOT_FOUND = "The requested URL was not found on the server.";
const ADDRESS = "203.0.113.31";
const C = "/administration/communities";
const HOUR = 3_600_000;

let app: TestApp;
let admin: { cookie: string; csrf: string };
let alice: { cookie: string; csrf: string };
/** Community ids: two public ones, a restricted one. */
let ids: { reefs: string; rivers: string; hidden: string };

const session = async (on: TestApp, login: string) => {
  const cookie = await sessionCookie(on, login, `${login}-password`);
  return { cookie, csrf: await sessionCsrf(on, cookie, "/account/settings/profile") };
};
const get = (path: string, who?: { cookie: string }) => raw(app, "GET", path, { cookie: who?.cookie });
const post = (path: string, who: { cookie: string; csrf: string } | null, form: Record<string, string> = {}, csrf = who?.csrf) =>
  raw(app, "POST", path, { cookie: who?.cookie, form: csrf === undefined ? form : { ...form, csrf }, address: ADDRESS });
const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
const notice = (html: string) => /role="status">([^<]*)</.exec(html)?.[1];
const rows = (html: string) => [...html.matchAll(/<tr data-community-id="([^"]+)">/g)].map((m) => m[1]);
/** The entries of `action` that came through the pages (the setup's service calls write theirs via the CLI). */
const auditEntries = async (action: string) => (await app.services.audit.search(systemActor, { action })).entries.filter((e) => e.via === "web");
/** The featured search's slugs. */
const featured = async () => ((await app.call("GET", "/api/communities/featured")).json.hits.hits as { slug: string }[]).map((c) => c.slug);
/** `2026-11-22T13:00` for an offset from the test clock's now. */
const local = (offsetMs: number) => new Date(app.clock.now() + offsetMs).toISOString().slice(0, 16);
const iso = (offsetMs: number) => new Date(app.clock.now() + offsetMs).toISOString();

beforeAll(async () => {
  app = await createTestApp();
  admin = await session(app, "admin");
  alice = await session(app, "alice");
  const make = async (slug: string, visibility = "public") => {
    app.clock.advance(60_000);
    const res = await app.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY(slug, { visibility, title: `The ${slug}` }) });
    expect(res.status).toBe(201);
    return res.json.id as string;
  };
  ids = { reefs: await make("reefs"), rivers: await make("rivers"), hidden: await make("hidden", "restricted") };
});
afterAll(async () => {
  await app.close();
});

describe("the communities screen is a 404 for everyone but administrators", () => {
  test("every page and form", async () => {
    const { id: fid } = (await app.services.communities.createFeatured(systemActor, ids.rivers, { start_date: iso(-HOUR) }, { via: "cli" })) as { id: number };
    const pages = [C, `${C}?q=reefs`, `${C}/${ids.reefs}`, `${C}/${ids.reefs}/delete`, `${C}/${ids.rivers}/featured/${fid}/remove`];
    for (const path of pages) {
      for (const who of [undefined, alice]) {
        const res = await get(path, who);
        expect({ path, status: res.status, found: res.text.includes(NOT_FOUND) }).toEqual({ path, status: 404, found: true });
      }
      expect({ path, status: (await get(path, admin)).status }).toEqual({ path, status: 200 });
    }
    const forms: [string, Record<string, string>][] = [
      [`${C}/${ids.reefs}/featured`, { start: local(0) }],
      [`${C}/${ids.rivers}/featured/${fid}/remove`, {}],
      [`${C}/${ids.reefs}/delete`, {}],
    ];
    for (const [path, form] of forms) {
      for (const who of [null, alice]) expect({ path, status: (await post(path, who, form)).status }).toEqual({ path, status: 404 });
    }
    expect(await featured()).toEqual(["rivers"]);
    expect((await app.call("GET", `/api/communities/${ids.reefs}`)).status).toBe(200);
    await app.services.communities.deleteFeatured(systemActor, ids.rivers, String(fid), { via: "cli" });
  });
});

describe("the search", () => {
  test("every community, restricted ones too, by words, paged", async () => {
    const all = await get(C, admin);
    expect(h1(all.text)).toBe("Communities");
    expect(rows(all.text)).toEqual([ids.hidden, ids.rivers, ids.reefs]);
    expect(all.text).toContain(`<a href="${C}/${ids.hidden}">The hidden</a></th><td>hidden</td><td>restricted</td>`);
    expect(rows((await get(`${C}?q=reefs`, admin)).text)).toEqual([ids.reefs]);
    const first = await get(`${C}?size=2`, admin);
    expect(rows(first.text)).toEqual([ids.hidden, ids.rivers]);
    expect(first.text).toContain("Page 1 of 2 (3 in all)");
    expect(rows((await get(`${C}?size=2&page=2`, admin)).text)).toEqual([ids.reefs]);
  });
});

describe("featured periods", () => {
  test("the API's end_date: a period past its end is no longer featured, in the featured search and on the home page", async () => {
    const res = await app.call("POST", `/api/communities/${ids.reefs}/featured`, { as: "admin", body: { start_date: iso(-HOUR), end_date: iso(HOUR) } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ id: expect.any(Number), start_date: `${local(-HOUR)}:00.000000+00:00`, end_date: `${local(HOUR)}:00.000000+00:00` });
    const plain = await app.call("POST", `/api/communities/${ids.rivers}/featured`, { as: "admin", body: { start_date: iso(-2 * HOUR) } });
    expect(Object.keys(plain.json).sort()).toEqual(["id", "start_date"]);
    expect(await featured()).toEqual(["reefs", "rivers"]);
    expect((await get("/")).text).toContain("The reefs");
    app.clock.advance(2 * HOUR);
    expect(await featured()).toEqual(["rivers"]);
    expect((await get("/")).text).not.toContain("The reefs");
    const bad = await app.call("PUT", `/api/communities/${ids.reefs}/featured/${res.json.id}`, { as: "admin", body: { start_date: iso(0), end_date: iso(-HOUR) } });
    expect({ status: bad.status, errors: bad.json.errors }).toEqual({ status: 400, errors: [{ field: "end_date", messages: ["Must be after the start date."] }] });
    // PUT replaces the period: without an end it is featured again.
    expect((await app.call("PUT", `/api/communities/${ids.reefs}/featured/${res.json.id}`, { as: "admin", body: { start_date: iso(-HOUR) } })).status).toBe(200);
    expect(await featured()).toEqual(["reefs", "rivers"]);
    for (const entry of (await app.services.communities.listFeatured(systemActor, ids.reefs)).hits.hits)
      await app.services.communities.deleteFeatured(systemActor, ids.reefs, String(entry.id), { via: "cli" });
    for (const entry of (await app.services.communities.listFeatured(systemActor, ids.rivers)).hits.hits)
      await app.services.communities.deleteFeatured(systemActor, ids.rivers, String(entry.id), { via: "cli" });
  });

  test("feature from the page: refused without CSRF; bad dates shown beside their fields; then featured for the period and audited", async () => {
    const path = `${C}/${ids.reefs}/featured`;
    expect((await post(path, admin, { start: local(-HOUR), end: local(HOUR) }, "forged")).status).toBe(403);
    const bad = await post(path, admin, { start: local(0), end: local(-HOUR) });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('<p class="field-error" id="field-end_date-error">Must be after the start date.</p>');
    const missing = await post(path, admin, { start: "", end: "" });
    expect(missing.text).toContain('<p class="field-error" id="field-start_date-error">Missing data for required field.</p>');
    const closed = await post(`${C}/${ids.hidden}/featured`, admin, { start: local(0) });
    expect({ status: closed.status, alert: /role="alert">([^<]*)</.exec(closed.text)?.[1] }).toEqual({ status: 400, alert: "The community is not public." });
    expect(await featured()).toEqual([]);

    const done = await post(path, admin, { start: local(-HOUR), end: local(HOUR) });
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `${C}/${ids.reefs}?done=featured` });
    expect(await featured()).toEqual(["reefs"]);
    const page = await get(`${C}/${ids.reefs}?done=featured`, admin);
    expect(notice(page.text)).toBe("The community is featured for that period.");
    expect(page.text).toContain(`<th scope="row">${local(-HOUR).replace("T", " ")} UTC</th><td>${local(HOUR).replace("T", " ")} UTC</td>`);
    // Exactly one entry: the service writes it, the page no longer adds its own.
    expect(await auditEntries("community.feature")).toMatchObject([
      { targetType: "community", targetId: ids.reefs, via: "web", address: ADDRESS, details: { slug: "reefs", end_date: `${local(HOUR)}:00.000000+00:00` } },
    ]);
    app.clock.advance(2 * HOUR);
    expect(await featured()).toEqual([]);
  });

  test("remove a period: a confirmation step, refused without CSRF, then removed and audited", async () => {
    const [period] = (await app.services.communities.listFeatured(systemActor, ids.reefs)).hits.hits as { id: number }[];
    const path = `${C}/${ids.reefs}/featured/${period!.id}/remove`;
    expect((await get(path, admin)).text).toContain("Remove the featured period from");
    expect((await get(`${C}/${ids.reefs}/featured/999999/remove`, admin)).status).toBe(404);
    expect((await post(path, admin, {}, "forged")).status).toBe(403);
    const done = await post(path, admin);
    expect(done.headers.get("location")).toBe(`${C}/${ids.reefs}?done=removed`);
    expect((await app.services.communities.listFeatured(systemActor, ids.reefs)).hits.total).toBe(0);
    expect(await auditEntries("community.unfeature")).toMatchObject([{ targetId: ids.reefs, details: { featured: period!.id }, via: "web", address: ADDRESS }]);
  });
});

describe("delete", () => {
  test("a confirmation step, refused without CSRF, then deleted (a restricted one too) and audited", async () => {
    const path = `${C}/${ids.hidden}/delete`;
    expect((await get(path, admin)).text).toContain("Delete the community The hidden (hidden)?");
    expect((await post(path, admin, {}, "forged")).status).toBe(403);
    const done = await post(path, admin);
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `${C}?done=deleted` });
    expect((await app.call("GET", `/api/communities/${ids.hidden}`, { as: "admin" })).status).toBe(404);
    expect(notice((await get(`${C}?done=deleted`, admin)).text)).toBe("The community was deleted.");
    expect(await auditEntries("community.delete")).toMatchObject([{ targetId: ids.hidden, details: { slug: "hidden" }, via: "web", address: ADDRESS }]);
  });
});

describe("COMMUNITIES_CREATION", () => {
  test("administrators: others get a 403 with a clear message and no New community; administrators create", async () => {
    const closed = await createTestApp({ COMMUNITIES_CREATION: "administrators" });
    try {
      const refused = await closed.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("alices") });
      expect({ status: refused.status, body: refused.json }).toEqual({
        status: 403,
        body: { status: 403, message: "Only administrators may create communities in this repository." },
      });
      expect((await closed.call("POST", "/api/communities", { body: COMMUNITY_BODY("guests") })).status).toBe(401);
      expect((await closed.call("POST", "/api/communities", { as: "admin", body: COMMUNITY_BODY("admins") })).status).toBe(201);
      const aliceCookie = (await session(closed, "alice")).cookie;
      const adminCookie = (await session(closed, "admin")).cookie;
      for (const path of ["/communities", "/"]) {
        expect({ path, shown: (await raw(closed, "GET", path, { cookie: aliceCookie })).text.includes('href="/communities/new"') }).toEqual({ path, shown: false });
        expect({ path, shown: (await raw(closed, "GET", path, { cookie: adminCookie })).text.includes('href="/communities/new"') }).toEqual({ path, shown: true });
      }
      const form = await raw(closed, "GET", "/communities/new", { cookie: aliceCookie });
      expect({ status: form.status, says: form.text.includes("Only administrators may create communities in this repository.") }).toEqual({ status: 403, says: true });
      expect((await raw(closed, "GET", "/communities/new", { cookie: adminCookie })).status).toBe(200);
    } finally {
      await closed.close();
    }
  });

  test("anyone (the default): every signed-in user creates and sees New community", async () => {
    expect((await app.call("POST", "/api/communities", { as: "bob", body: COMMUNITY_BODY("bobs") })).status).toBe(201);
    expect((await get("/communities", alice)).text).toContain('href="/communities/new"');
    expect((await get("/communities/new", alice)).status).toBe(200);
  });
});
