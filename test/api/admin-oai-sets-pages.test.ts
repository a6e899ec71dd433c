// Administration → OAI-PMH sets over HTTP: a 404 for everyone but administrators on every page and
// form; the list searched (and the REST listing's `q`) and paged; create, edit (the spec fixed) and
// delete (confirmed) over the OAI sets service, each with its effect and its audit entry via web,
// refused without CSRF; the service's 400 shown beside the fields with the values kept.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { pageSession } from "../helpers/accounts";
import { createTestApp, type TestApp } from "../helpers/app";
import { raw } from "../helpers/sign-in";

const NOT_FOUND = "The requested URL was not found on the server.";
const ADDRESS = "203.0.113.41";
const S = "/administration/oai-sets";

let app: TestApp;
let admin: { cookie: string; csrf: string };
let alice: { cookie: string; csrf: string };
let physics: number;

const session = (login: string) => pageSession(app, login);
const get = (path: string, who?: { cookie: string }) => raw(app, "GET", path, { cookie: who?.cookie });
const post = (path: string, who: { cookie: string; csrf: string } | null, form: Record<string, string> = {}, csrf = who?.csrf) =>
  raw(app, "POST", path, { cookie: who?.cookie, form: csrf === undefined ? form : { ...form, csrf }, address: ADDRESS });
const notice = (html: string) => /role="status">([^<]*)</.exec(html)?.[1];
const rows = (html: string) => [...html.matchAll(/<tr data-set-id="(\d+)">/g)].map((m) => Number(m[1]));
/** The entries of `action` that came through the pages (the setup's service calls write theirs via the CLI). */
const auditEntries = async (action: string) => (await app.services.audit.search(systemActor, { action })).entries.filter((e) => e.via === "web");
const setBody = (spec: string, name: string) => ({ spec, name, search_pattern: `metadata.subjects.subject:${spec}`, description: `About ${name}` });

beforeAll(async () => {
  app = await createTestApp();
  admin = await session("admin");
  alice = await session("alice");
  physics = (await app.services.oai.createSet(systemActor, setBody("physics", "Physics"), { via: "cli" })).id;
  await app.services.oai.createSet(systemActor, setBody("chemistry", "Chemistry"), { via: "cli" });
  await app.services.oai.createSet(systemActor, setBody("biology", "Marine biology"), { via: "cli" });
});
afterAll(async () => {
  await app.close();
});

describe("the OAI-PMH sets screen is a 404 for everyone but administrators", () => {
  test("every page and form", async () => {
    for (const path of [S, `${S}?q=physics`, `${S}/new`, `${S}/${physics}`, `${S}/${physics}/delete`]) {
      for (const who of [undefined, alice]) {
        const res = await get(path, who);
        expect({ path, status: res.status, found: res.text.includes(NOT_FOUND) }).toEqual({ path, status: 404, found: true });
      }
      expect({ path, status: (await get(path, admin)).status }).toEqual({ path, status: 200 });
    }
    const forms: [string, Record<string, string>][] = [
      [`${S}/new`, setBody("geology", "Geology")],
      [`${S}/${physics}`, { name: "Renamed", search_pattern: "x" }],
      [`${S}/${physics}/delete`, {}],
    ];
    for (const [path, form] of forms) for (const who of [null, alice]) expect({ path, status: (await post(path, who, form)).status }).toEqual({ path, status: 404 });
    const listed = await app.services.oai.listSets(systemActor, { size: "50" });
    expect(listed.hits.hits.map((s) => [s.spec, s.name]).sort()).toEqual([
      ["biology", "Marine biology"],
      ["chemistry", "Chemistry"],
      ["physics", "Physics"],
    ]);
  });
});

describe("the list", () => {
  test("by name, searched by words of the name, spec or description, paged; the REST listing takes q too", async () => {
    const all = await get(S, admin);
    expect(/<h1>([^<]*)<\/h1>/.exec(all.text)?.[1]).toBe("OAI-PMH sets");
    expect(all.text).toContain(`<a href="${S}/${physics}">Physics</a></th><td>physics</td><td><code>metadata.subjects.subject:physics</code></td>`);
    expect(rows(all.text).length).toBe(3);
    expect(rows((await get(`${S}?q=marine`, admin)).text).length).toBe(1);
    expect(rows((await get(`${S}?q=phys`, admin)).text)).toEqual([physics]);
    expect((await get(`${S}?q=nothing`, admin)).text).toContain("No sets match.");
    const first = await get(`${S}?size=2`, admin);
    expect(rows(first.text).length).toBe(2);
    expect(first.text).toContain("Page 1 of 2 (3 in all)");
    expect(rows((await get(`${S}?size=2&page=2`, admin)).text)).toEqual([physics]);
    const rest = await app.call("GET", "/api/oaipmh/sets?q=chem", { as: "admin" });
    expect({ total: rest.json.hits.total, specs: rest.json.hits.hits.map((s: { spec: string }) => s.spec), self: rest.json.links.self }).toEqual({
      total: 1,
      specs: ["chemistry"],
      self: expect.stringContaining("q=chem"),
    });
  });
});

describe("create, edit, delete", () => {
  test("create: refused without CSRF; the service's messages beside the fields with the values kept; then created and audited", async () => {
    expect((await post(`${S}/new`, admin, setBody("geology", "Geology"), "forged")).status).toBe(403);
    const bad = await post(`${S}/new`, admin, { name: "Geology", spec: "physics", search_pattern: "", description: "Rocks" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(`<p class="field-error" id="field-spec-error">A set with the spec 'physics' exists already.</p>`);
    expect(bad.text).toContain('<p class="field-error" id="field-search_pattern-error">');
    expect(bad.text).toContain('value="Geology"');
    expect(bad.text).toContain(">Rocks</textarea>");
    const done = await post(`${S}/new`, admin, setBody("geology", "Geology"));
    expect(done.status).toBe(303);
    const created = (await app.services.oai.listSets(systemActor, { size: "50" })).hits.hits.find((s) => s.spec === "geology")!;
    expect(created).toMatchObject({ name: "Geology", search_pattern: "metadata.subjects.subject:geology", description: "About Geology" });
    expect(done.headers.get("location")).toBe(`${S}/${created.id}?done=created`);
    expect(notice((await get(`${S}/${created.id}?done=created`, admin)).text)).toBe("The set was created.");
    expect(await auditEntries("oai-set.create")).toMatchObject([
      { targetType: "oai-set", targetId: String(created.id), details: { spec: "geology" }, via: "web", address: ADDRESS },
    ]);
  });

  test("edit: the spec shown, not editable; refused without CSRF; a 400 beside the field; then saved and audited", async () => {
    const page = await get(`${S}/${physics}`, admin);
    expect(page.text).toContain("Spec: <code>physics</code>");
    expect(page.text).not.toContain('name="spec"');
    expect((await post(`${S}/${physics}`, admin, { name: "Renamed", search_pattern: "x" }, "forged")).status).toBe(403);
    const bad = await post(`${S}/${physics}`, admin, { name: "", search_pattern: "metadata.subjects.subject:physics", description: "" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('<p class="field-error" id="field-name-error">');
    const done = await post(`${S}/${physics}`, admin, { name: "Physics and astronomy", search_pattern: "metadata.subjects.subject:physics OR astronomy", description: "Stars" });
    expect(done.headers.get("location")).toBe(`${S}/${physics}?done=saved`);
    expect(await app.services.oai.readSet(systemActor, String(physics))).toMatchObject({
      spec: "physics",
      name: "Physics and astronomy",
      search_pattern: "metadata.subjects.subject:physics OR astronomy",
      description: "Stars",
    });
    expect(await auditEntries("oai-set.update")).toMatchObject([
      { targetId: String(physics), details: { spec: "physics", name: "Physics and astronomy", previous: { name: "Physics" } }, via: "web", address: ADDRESS },
    ]);
  });

  test("delete: a confirmation step, refused without CSRF, then deleted and audited", async () => {
    expect((await get(`${S}/${physics}/delete`, admin)).text).toContain("Delete the OAI-PMH set Physics and astronomy (physics)?");
    expect((await post(`${S}/${physics}/delete`, admin, {}, "forged")).status).toBe(403);
    const done = await post(`${S}/${physics}/delete`, admin);
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({ status: 303, location: `${S}?done=deleted` });
    expect((await app.call("GET", `/api/oaipmh/sets/${physics}`, { as: "admin" })).status).toBe(404);
    expect(notice((await get(`${S}?done=deleted`, admin)).text)).toBe("The set was deleted.");
    expect(await auditEntries("oai-set.delete")).toMatchObject([{ targetId: String(physics), details: { spec: "physics" }, via: "web", address: ADDRESS }]);
  });
});
