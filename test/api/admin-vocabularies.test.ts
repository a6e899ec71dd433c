// Administration → Vocabularies over HTTP: a 404 for everyone but administrators on every page
// and form; the list of vocabularies with their counts; one vocabulary searched and paged; adding,
// editing and retiring entries where the type's rule allows (and 400 where it does not), each
// audited via web; a retired licence no longer offered by the searches new deposits use but still
// read by id; the imports' forms (upload as the request body with the CSRF header, the publisher
// download) queueing jobs, audited as vocabulary.import.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { VOCABULARY_IMPORT_JOB } from "../../src/vocabularies/import-job";
import { pageSession } from "../helpers/accounts";
import { withClientAddress } from "../../src/core/client-address";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";
import { raw } from "../helpers/sign-in";
import { rorOrgs } from "../helpers/ror-dump";

const NOT_FOUND = "The requested URL was not found on the server.";
const ADDRESS = "203.0.113.7";
const V = "/administration/vocabularies";

let app: TestApp;
let admin: { cookie: string; csrf: string };
let alice: { cookie: string; csrf: string };

const session = (login: string) => pageSession(app, login);
const get = (path: string, who?: { cookie: string }) => raw(app, "GET", path, { cookie: who?.cookie });
const post = (path: string, who: { cookie: string; csrf: string } | null, form: Record<string, string> = {}) =>
  raw(app, "POST", path, { cookie: who?.cookie, form: who ? { csrf: who.csrf, ...form } : form, address: ADDRESS });
const upload = async (who: { cookie: string; csrf: string } | null, query: string, body: string, csrf = who?.csrf) => {
  const headers: Record<string, string> = { "content-type": "application/octet-stream", accept: "application/json" };
  if (who) headers.cookie = who.cookie;
  if (csrf) headers["x-csrf-token"] = csrf;
  const request = withClientAddress(new Request(`${BASE_URL}${V}/imports/upload?${query}`, { method: "POST", headers, body }), ADDRESS);
  const response = await app.app.handle(request);
  return { status: response.status, headers: response.headers, text: await response.text() };
};
const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
const notice = (html: string) => /role="status">([^<]*)</.exec(html)?.[1];
const entryIds = (html: string) => [...html.matchAll(/<tr data-entry-id="([^"]+)">/g)].map((m) => m[1]);
const lastAudit = async (action: string) => (await app.services.audit.search(systemActor, { action })).entries[0];
/** What a new deposit is offered: the licence search the deposit form's suggestions call. */
const offered = async (q: string) => ((await app.call("GET", `/api/vocabularies/licenses?suggest=${q}&size=50`)).json.hits.hits as { id: string }[]).map((h) => h.id);

beforeAll(async () => {
  app = await createTestApp();
  admin = await session("admin");
  alice = await session("alice");
});
afterAll(async () => {
  await app.close();
});

describe("the Vocabularies screen is a 404 for everyone but administrators", () => {
  test("pages and forms answer the ordinary 404 to a guest and a signed-in person; nothing changes", async () => {
    const pages = [V, `${V}/licenses`, `${V}/licenses/new`, `${V}/licenses/edit?id=cc-by-4.0`, `${V}/licenses/retire?id=cc-by-4.0`];
    for (const path of pages) {
      for (const res of [await get(path), await get(path, alice), await raw(app, "GET", path, { headers: { authorization: `Bearer ${app.users.alice.token}` } })]) {
        expect({ path, status: res.status, h1: h1(res.text), says: res.text.includes(NOT_FOUND) }).toEqual({ path, status: 404, h1: "Not found", says: true });
      }
      expect((await get(path, admin)).status).toBe(200);
    }
    for (const path of [`${V}/licenses/new`, `${V}/licenses/retire?id=cc-by-4.0`, `${V}/imports/release`]) {
      expect((await post(path, alice, { id: "x-licence", title: "X", type: "funders" })).status).toBe(404);
    }
    expect((await upload(alice, "type=affiliations&name=a.json", "[]")).status).toBe(404);
    expect((await app.call("GET", "/api/vocabularies/licenses/x-licence")).status).toBe(404);
    expect(await offered("cc-by-4.0")).toContain("cc-by-4.0");
    expect(await app.services.jobs.listJobsNamed(systemActor, VOCABULARY_IMPORT_JOB)).toEqual([]);
  });
});

describe("browsing", () => {
  test("the list shows each vocabulary with its entries offered and what may be done by hand", async () => {
    const res = await get(V, admin);
    expect(h1(res.text)).toBe("Vocabularies");
    const row = (type: string) => new RegExp(`<tr data-vocabulary="${type}">(.*?)</tr>`).exec(res.text)?.[1]?.replace(/<[^>]+>/g, "|");
    const licences = (await app.call("GET", "/api/vocabularies/licenses?size=1")).json.hits.total as number;
    expect(licences).toBeGreaterThan(500);
    expect(row("licenses")).toContain(`|${licences.toLocaleString("en")}|`);
    expect(row("licenses")).toContain("add, edit, retire");
    expect(row("resourcetypes")).toContain("Labels editable");
    expect(row("languages")).toContain("Read-only");
    expect(row("affiliations")).toContain("|0|");
  });

  test("a vocabulary's entries are searched and paged with the API's search", async () => {
    const first = await get(`${V}/licenses?q=${encodeURIComponent("id:cc-by-*")}`, admin);
    expect(h1(first.text)).toBe("Vocabulary: licenses");
    const api = (await app.call("GET", `/api/vocabularies/licenses?q=${encodeURIComponent("id:cc-by-*")}&size=25`)).json;
    expect(entryIds(first.text)).toEqual(api.hits.hits.map((h: { id: string }) => h.id));
    expect(first.text).toContain(`Page 1 of ${Math.ceil(api.hits.total / 25)}`);
    const page2 = await get(`${V}/licenses?page=2`, admin);
    const api2 = (await app.call("GET", "/api/vocabularies/licenses?page=2&size=25")).json;
    expect(entryIds(page2.text)).toEqual(api2.hits.hits.map((h: { id: string }) => h.id));
    expect((await get(`${V}/nope`, admin)).status).toBe(404);
  });
});

describe("adding and editing by hand", () => {
  test("a licence is added through the form and audited as vocabulary.create via web", async () => {
    const form = await get(`${V}/licenses/new`, admin);
    expect(h1(form.text)).toBe("Add to licenses");
    const res = await post(`${V}/licenses/new`, admin, {
      id: "wombat-1.0",
      title: "Wombat Licence 1.0",
      description: "Share alike, burrow freely.",
      url: "https://example.org/wombat",
    });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({ status: 303, location: `${V}/licenses?done=added` });
    expect((await app.call("GET", "/api/vocabularies/licenses/wombat-1.0")).json).toMatchObject({
      id: "wombat-1.0",
      title: { en: "Wombat Licence 1.0" },
      description: { en: "Share alike, burrow freely." },
      props: { url: "https://example.org/wombat" },
    });
    expect(await offered("wombat")).toEqual(["wombat-1.0"]);
    expect(await lastAudit("vocabulary.create")).toMatchObject({
      actorLabel: "admin@example.org",
      targetType: "vocabulary",
      targetId: "licenses/wombat-1.0",
      via: "web",
      address: ADDRESS,
    });
  });

  test("an edit keeps what the form does not show, and is audited as vocabulary.update", async () => {
    const before = (await app.call("GET", "/api/vocabularies/licenses/cc-by-4.0")).json;
    const res = await post(`${V}/licenses/edit?id=cc-by-4.0`, admin, {
      title: "Creative Commons Attribution 4.0",
      description: before.description?.en ?? "",
      url: before.props.url,
      revision: String(before.revision_id),
    });
    expect(res.headers.get("location")).toBe(`${V}/licenses?done=updated`);
    const after = (await app.call("GET", "/api/vocabularies/licenses/cc-by-4.0")).json;
    expect(after).toMatchObject({
      title: { ...before.title, en: "Creative Commons Attribution 4.0" },
      props: before.props,
      tags: before.tags,
      revision_id: before.revision_id + 1,
    });
    expect(await lastAudit("vocabulary.update")).toMatchObject({ targetId: "licenses/cc-by-4.0", via: "web" });
    // A stale form (someone saved in between) is refused.
    const stale = await post(`${V}/licenses/edit?id=cc-by-4.0`, admin, { title: "Stale", revision: String(before.revision_id) });
    expect(stale.status).toBe(412);
  });

  test("resource types change their labels only; languages and the other lists are read-only", async () => {
    const before = (await app.call("GET", "/api/vocabularies/resourcetypes/dataset")).json;
    const res = await post(`${V}/resourcetypes/edit?id=dataset`, admin, { title: "Data set", id: "hijack", revision: String(before.revision_id) });
    expect(res.status).toBe(303);
    const after = (await app.call("GET", "/api/vocabularies/resourcetypes/dataset")).json;
    expect(after).toMatchObject({ id: "dataset", title: { ...before.title, en: "Data set" }, props: before.props, tags: before.tags });
    expect((await app.call("GET", "/api/vocabularies/resourcetypes/hijack")).status).toBe(404);

    const refusals: [string, Record<string, string>][] = [
      [`${V}/resourcetypes/new`, { id: "new-type", title: "New" }],
      [`${V}/resourcetypes/retire?id=dataset`, {}],
      [`${V}/languages/new`, { id: "xxx", title: "Xish" }],
      [`${V}/languages/edit?id=eng`, { title: "Englisch" }],
      [`${V}/creatorsroles/edit?id=other`, { title: "Else" }],
    ];
    for (const [path, form] of refusals) expect({ path, status: (await post(path, admin, form)).status }).toEqual({ path, status: 400 });
    expect((await app.call("GET", "/api/vocabularies/languages/eng")).json.title.en).toBe("English");
    expect((await app.call("GET", "/api/vocabularies/resourcetypes/new-type")).status).toBe(404);
    expect((await get(`${V}/languages/edit?id=eng`, admin)).status).toBe(400);
  });

  test("a form without the session's CSRF token is refused with 403", async () => {
    const res = await raw(app, "POST", `${V}/licenses/new`, { cookie: admin.cookie, form: { id: "csrf-less", title: "No" } });
    expect(res.status).toBe(403);
    expect((await app.call("GET", "/api/vocabularies/licenses/csrf-less")).status).toBe(404);
  });
});

describe("retiring", () => {
  test("a retired licence is no longer offered, still resolves by id, shows among the retired, and is offered again after a restore", async () => {
    const countBefore = (await app.call("GET", "/api/vocabularies/licenses?size=1")).json.hits.total as number;
    // A listing without a query reads the table, not the index: the newest licence is the one added above.
    const newest = async () => (await app.call("GET", "/api/vocabularies/licenses?sort=newest&size=1")).json.hits.hits[0].id as string;
    expect(await newest()).toBe("wombat-1.0");
    const confirm = await get(`${V}/licenses/retire?id=wombat-1.0`, admin);
    expect(confirm.text).toContain("Retire Wombat Licence 1.0 (wombat-1.0)?");

    const res = await post(`${V}/licenses/retire?id=wombat-1.0`, admin);
    expect(res.headers.get("location")).toBe(`${V}/licenses?done=retired`);
    expect(await offered("wombat")).toEqual([]);
    expect((await app.call("GET", "/api/vocabularies/licenses?q=wombat")).json.hits.total).toBe(0);
    expect((await app.call("GET", "/api/vocabularies/licenses?size=1")).json.hits.total).toBe(countBefore - 1);
    expect(await newest()).not.toBe("wombat-1.0");
    const read = await app.call("GET", "/api/vocabularies/licenses/wombat-1.0");
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ id: "wombat-1.0", title: { en: "Wombat Licence 1.0" }, retired: "2026-11-22T12:00:00.000000+00:00" });
    // Records that name it still validate against it (the lookup reads by id).
    expect(await app.services.vocabularies.lookup("licenses", "wombat-1.0")).toMatchObject({ id: "wombat-1.0" });
    expect(await lastAudit("vocabulary.retire")).toMatchObject({ targetId: "licenses/wombat-1.0", via: "web", address: ADDRESS });

    const page = await get(`${V}/licenses?done=retired`, admin);
    expect(notice(page.text)).toBe("The entry was retired: new deposits no longer find it.");
    expect(page.text).toContain('<tr data-retired-id="wombat-1.0">');
    expect((await post(`${V}/licenses/retire?id=wombat-1.0`, admin)).status).toBe(409);

    expect((await post(`${V}/licenses/restore?id=wombat-1.0`, admin)).headers.get("location")).toBe(`${V}/licenses?done=restored`);
    expect(await offered("wombat")).toEqual(["wombat-1.0"]);
    expect((await app.call("GET", "/api/vocabularies/licenses/wombat-1.0")).json.retired).toBeUndefined();
    expect(await lastAudit("vocabulary.restore")).toMatchObject({ targetId: "licenses/wombat-1.0", via: "web" });
  });

  test("an edit of a retired entry keeps it retired", async () => {
    await post(`${V}/licenses/retire?id=wombat-1.0`, admin);
    const entry = (await app.call("GET", "/api/vocabularies/licenses/wombat-1.0")).json;
    await post(`${V}/licenses/edit?id=wombat-1.0`, admin, { title: "Wombat Licence 1.1", revision: String(entry.revision_id) });
    expect(await offered("wombat")).toEqual([]);
    expect((await app.call("GET", "/api/vocabularies/licenses/wombat-1.0")).json).toMatchObject({ title: { en: "Wombat Licence 1.1" }, retired: expect.any(String) });
  });
});

describe("imports", () => {
  test("an upload is the request's body with the CSRF header: queued, audited, and shown with its progress and result", async () => {
    const dump = JSON.stringify(rorOrgs(3));
    expect((await upload(admin, "type=affiliations&name=ror.json", dump, "wrong")).status).toBe(403);
    const res = await upload(admin, "type=affiliations&name=ror_schema_v2.json", dump);
    expect(res.status).toBe(201);
    const answer = JSON.parse(res.text) as { job: number; location: string };
    expect(answer.location).toBe(`${V}?done=queued`);
    expect(await lastAudit("vocabulary.import")).toMatchObject({
      targetId: "affiliations",
      details: { job: answer.job, source: "upload", name: "ror_schema_v2.json" },
      via: "web",
      address: ADDRESS,
    });

    const queued = await get(`${V}?done=queued`, admin);
    expect(notice(queued.text)).toBe("The import was queued: refresh the page to follow its progress.");
    expect(queued.text).toContain(`<tr data-import-job="${answer.job}">`);
    await app.services.worker.drain();
    const done = await get(V, admin);
    const row = new RegExp(`<tr data-import-job="${answer.job}">(.*?)</tr>`).exec(done.text)![1]!;
    expect(row).toContain(`aria-label="Progress of job ${answer.job} (vocabulary-import)"`);
    expect(row).toContain("3 created, 0 updated, 0 unchanged, 0 skipped");
    expect((await app.call("GET", "/api/affiliations/0test0002")).json.name).toBe("Wombat University 02");
  });

  test("a name that does not fit the type is refused with a 400 naming the formats", async () => {
    const res = await upload(admin, "type=subjects&name=subjects.json", "[]");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).message).toContain("subjects.json is not a subjects dump: subjects are read from .csv/.jsonl/.yaml rows of {id, scheme, subject}");
  });

  test("the publisher download is queued from its form and audited", async () => {
    const res = await post(`${V}/imports/release`, admin, { type: "funders" });
    expect(res.headers.get("location")).toBe(`${V}?done=queued`);
    const jobs = await app.services.jobs.listJobsNamed(systemActor, VOCABULARY_IMPORT_JOB);
    expect(jobs[0]!.payload).toMatchObject({ type: "funders", source: "release" });
    expect(await lastAudit("vocabulary.import")).toMatchObject({ targetId: "funders", details: { job: jobs[0]!.id, source: "release" }, via: "web" });
    expect((await post(`${V}/imports/release`, admin, { type: "names" })).status).toBe(400);
    await app.services.jobs.cancelJob(systemActor, jobs[0]!.id, { via: "cli" });
  });
});

describe("each action through the pages writes exactly one audit entry, via web", () => {
  /** Every vocabulary.* entry, oldest first, as [action, target, via, address]. */
  const vocabularyAudit = async () =>
    (await app.services.audit.search(systemActor, { targetType: "vocabulary", size: 100 })).entries.reverse().map((e) => [e.action, e.targetId, e.via, e.address]);

  test("add, edit, retire, restore, and both imports", async () => {
    const before = await vocabularyAudit();
    expect((await post(`${V}/subjects/new`, admin, { id: "platypus", scheme: "local", subject: "Platypus" })).status).toBe(303);
    const entry = (await app.call("GET", "/api/subjects/platypus")).json;
    expect((await post(`${V}/subjects/edit?id=platypus`, admin, { scheme: "local", subject: "Platypuses", revision: String(entry.revision_id) })).status).toBe(303);
    expect((await post(`${V}/subjects/retire?id=platypus`, admin)).status).toBe(303);
    expect((await post(`${V}/subjects/restore?id=platypus`, admin)).status).toBe(303);
    expect((await post(`${V}/imports/release`, admin, { type: "affiliations" })).status).toBe(303);
    const uploaded = await upload(admin, "type=affiliations&name=once.json", JSON.stringify(rorOrgs(1)));
    expect(uploaded.status).toBe(201);
    const web = ["web", ADDRESS];
    expect((await vocabularyAudit()).slice(before.length)).toEqual([
      ["vocabulary.create", "subjects/platypus", ...web],
      ["vocabulary.update", "subjects/platypus", ...web],
      ["vocabulary.retire", "subjects/platypus", ...web],
      ["vocabulary.restore", "subjects/platypus", ...web],
      ["vocabulary.import", "affiliations", ...web],
      ["vocabulary.import", "affiliations", ...web],
    ]);
    for (const job of await app.services.jobs.listJobsNamed(systemActor, VOCABULARY_IMPORT_JOB)) {
      if (job.status === "queued") await app.services.jobs.cancelJob(systemActor, job.id, { via: "cli" });
    }
  });

  test("a refused action (a read-only type, a repeat) writes none", async () => {
    const before = await vocabularyAudit();
    expect((await post(`${V}/languages/new`, admin, { id: "yyy", title: "Yish" })).status).toBe(400);
    expect((await post(`${V}/subjects/restore?id=platypus`, admin)).status).toBe(409);
    expect(await vocabularyAudit()).toEqual(before);
  });
});
