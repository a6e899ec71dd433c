// Vocabularies over the REST API as the administration's pages and CLI do them: create, update,
// delete, retire and restore an entry, each audited exactly once (via api, the client's address)
// in the change's transaction; POST {entry}/retire and /restore answer the entry with `retired`,
// and refuse a guest (401), a non-administrator (403), an unknown type or entry (404), a repeat
// (409) and a type whose entries are not retired by hand (400), changing nothing and auditing nothing;
// imports (an uploaded dump, ROR's newest release) queued as jobs and audited the same way.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { withClientAddress } from "../../src/core/client-address";
import { VOCABULARY_IMPORT_JOB } from "../../src/vocabularies/import-job";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";
import { rorOrgs } from "../helpers/ror-dump";
import { raw } from "../helpers/sign-in";

const ADDRESS = "198.51.100.23";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

/** A REST call with a bearer token (or none) from ADDRESS, as the server's socket would report it. */
async function api(method: string, path: string, as: "admin" | "alice" | null, json?: unknown, headers: Record<string, string> = {}) {
  const auth: Record<string, string> = as ? { authorization: `Bearer ${app.users[as].token}` } : {};
  const res = await raw(app, method, path, { headers: { ...auth, ...headers }, json, address: ADDRESS });
  return { status: res.status, json: res.text ? JSON.parse(res.text) : null };
}

/** Every vocabulary.* audit entry, oldest first, as [action, target, via, address, actor]. */
async function vocabularyAudit() {
  const { entries } = await app.services.audit.search(systemActor, { targetType: "vocabulary", size: 100 });
  return entries.reverse().map((e) => [e.action, e.targetId, e.via, e.address, e.actorLabel]);
}

const offered = async (q: string) => ((await app.call("GET", `/api/vocabularies/licenses?suggest=${q}&size=50`)).json.hits.hits as { id: string }[]).map((h) => h.id);

describe("an administrator's REST changes are audited exactly once each, via api with the client's address", () => {
  test("create, update, retire, restore, delete", async () => {
    const before = await vocabularyAudit();
    const created = await api("POST", "/api/vocabularies/licenses", "admin", {
      id: "quokka-2.0",
      title: { en: "Quokka Licence 2.0" },
      props: { url: "https://example.org/quokka" },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ id: "quokka-2.0", type: "licenses", revision_id: 1 });

    const updated = await api("PUT", "/api/vocabularies/licenses/quokka-2.0", "admin", { title: { en: "Quokka Licence 2.1" } }, { "if-match": '"1"' });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ title: { en: "Quokka Licence 2.1" }, revision_id: 2 });

    const retired = await api("POST", "/api/vocabularies/licenses/quokka-2.0/retire", "admin");
    expect(retired.status).toBe(200);
    expect(retired.json).toMatchObject({ id: "quokka-2.0", title: { en: "Quokka Licence 2.1" }, revision_id: 3, retired: "2026-11-22T12:00:00.000000+00:00" });
    expect(await offered("quokka")).toEqual([]);
    expect((await app.call("GET", "/api/vocabularies/licenses/quokka-2.0")).json.retired).toBe("2026-11-22T12:00:00.000000+00:00");

    const restored = await api("POST", "/api/vocabularies/licenses/quokka-2.0/restore", "admin");
    expect(restored.status).toBe(200);
    expect(restored.json.retired).toBeUndefined();
    expect(restored.json.revision_id).toBe(4);
    expect(await offered("quokka")).toEqual(["quokka-2.0"]);

    expect((await api("DELETE", "/api/vocabularies/licenses/quokka-2.0", "admin")).status).toBe(204);
    expect((await app.call("GET", "/api/vocabularies/licenses/quokka-2.0")).status).toBe(404);

    const by = ["api", ADDRESS, "admin@example.org"];
    expect((await vocabularyAudit()).slice(before.length)).toEqual([
      ["vocabulary.create", "licenses/quokka-2.0", ...by],
      ["vocabulary.update", "licenses/quokka-2.0", ...by],
      ["vocabulary.retire", "licenses/quokka-2.0", ...by],
      ["vocabulary.restore", "licenses/quokka-2.0", ...by],
      ["vocabulary.delete", "licenses/quokka-2.0", ...by],
    ]);
  });

  test("a directory's own path retires too (subjects at /api/subjects/{id}/retire)", async () => {
    expect((await api("POST", "/api/subjects", "admin", { id: "wombats", scheme: "local", subject: "Wombats" })).status).toBe(201);
    const retired = await api("POST", "/api/subjects/wombats/retire", "admin");
    expect(retired).toMatchObject({ status: 200, json: { id: "wombats", subject: "Wombats", retired: "2026-11-22T12:00:00.000000+00:00" } });
    expect((await app.call("GET", "/api/subjects?q=wombats")).json.hits.total).toBe(0);
    expect((await vocabularyAudit()).at(-1)).toEqual(["vocabulary.retire", "subjects/wombats", "api", ADDRESS, "admin@example.org"]);
  });
});

describe("retire and restore refusals change nothing and audit nothing", () => {
  beforeAll(async () => {
    expect((await api("POST", "/api/vocabularies/licenses", "admin", { id: "numbat-1.0", title: { en: "Numbat Licence" } })).status).toBe(201);
    expect((await api("POST", "/api/vocabularies/licenses", "admin", { id: "bilby-1.0", title: { en: "Bilby Licence" } })).status).toBe(201);
    expect((await api("POST", "/api/vocabularies/licenses/bilby-1.0/retire", "admin")).status).toBe(200);
  });

  test.each([
    ["a guest", null, "/api/vocabularies/licenses/numbat-1.0/retire", 401, "Authentication required: send a valid token as 'Authorization: Bearer <token>'."],
    ["a non-administrator", "alice", "/api/vocabularies/licenses/numbat-1.0/retire", 403, undefined],
    ["a guest restoring", null, "/api/vocabularies/licenses/bilby-1.0/restore", 401, undefined],
    ["a non-administrator restoring", "alice", "/api/vocabularies/licenses/bilby-1.0/restore", 403, undefined],
    ["an unknown type", "admin", "/api/vocabularies/colours/red/retire", 404, "Vocabulary type 'colours' not found."],
    ["an unknown entry", "admin", "/api/vocabularies/licenses/no-such-licence/retire", 404, "The licenses entry 'no-such-licence' does not exist."],
    ["an entry retired already", "admin", "/api/vocabularies/licenses/bilby-1.0/retire", 409, "The licenses entry 'bilby-1.0' is retired already."],
    ["restoring an entry that is not retired", "admin", "/api/vocabularies/licenses/numbat-1.0/restore", 409, "The licenses entry 'numbat-1.0' is not retired."],
    ["a read-only type", "admin", "/api/vocabularies/languages/eng/retire", 400, "The languages vocabulary is read-only: its entries come from the shipped lists or from imports."],
    ["a type edited by labels only", "admin", "/api/vocabularies/resourcetypes/dataset/retire", 400, "Entries of resourcetypes are not retired by hand."],
  ] as const)("%s", async (_who, as, path, status, message) => {
    const before = await vocabularyAudit();
    const res = await api("POST", path, as);
    expect(res.status).toBe(status);
    if (message) expect(res.json.message).toBe(message);
    expect(await vocabularyAudit()).toEqual(before);
    // Nothing changed: the offered entry is still offered, the retired one still retired.
    expect(await offered("numbat")).toEqual(["numbat-1.0"]);
    expect(await offered("bilby")).toEqual([]);
    expect((await app.call("GET", "/api/vocabularies/languages/eng")).json.retired).toBeUndefined();
    expect((await app.call("GET", "/api/vocabularies/resourcetypes/dataset")).json.retired).toBeUndefined();
  });

  test("create, update and delete by a non-administrator are refused (403) without an audit entry", async () => {
    const before = await vocabularyAudit();
    expect((await api("POST", "/api/vocabularies/licenses", "alice", { id: "sneaky-1.0", title: { en: "Sneaky" } })).status).toBe(403);
    expect((await api("PUT", "/api/vocabularies/licenses/numbat-1.0", "alice", { title: { en: "Sneaky" } })).status).toBe(403);
    expect((await api("DELETE", "/api/vocabularies/licenses/numbat-1.0", null)).status).toBe(401);
    expect(await vocabularyAudit()).toEqual(before);
    expect((await app.call("GET", "/api/vocabularies/licenses/numbat-1.0")).json.title).toEqual({ en: "Numbat Licence" });
  });
});

describe("imports over REST: queued as jobs, audited once via api", () => {
  /** POST a dump as the request's body, as a script would. */
  async function uploadDump(as: "admin" | "alice" | null, type: string, name: string, body: string, contentType = "application/octet-stream") {
    const auth: Record<string, string> = as ? { authorization: `Bearer ${app.users[as].token}` } : {};
    const request = withClientAddress(
      new Request(`${BASE_URL}/api/vocabularies/${type}/imports?name=${encodeURIComponent(name)}`, { method: "POST", headers: { ...auth, "content-type": contentType }, body }),
      ADDRESS,
    );
    const response = await app.app.handle(request);
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : null };
  }
  const importJobs = async () => (await app.services.jobs.listJobsNamed(systemActor, VOCABULARY_IMPORT_JOB)).map((j) => j.id);

  test("an uploaded dump is queued (202), imported by the job, and audited as vocabulary.import via api", async () => {
    const before = await vocabularyAudit();
    const res = await uploadDump("admin", "affiliations", "ror_schema_v2.json", JSON.stringify(rorOrgs(2)));
    expect(res.status).toBe(202);
    expect(res.json).toEqual({
      id: expect.any(Number),
      status: "queued",
      type: "affiliations",
      source: "upload",
      folder: expect.any(String),
      file: "dump.json",
      name: "ror_schema_v2.json",
    });
    expect((await vocabularyAudit()).slice(before.length)).toEqual([["vocabulary.import", "affiliations", "api", ADDRESS, "admin@example.org"]]);
    await app.services.worker.drain();
    expect((await app.call("GET", "/api/affiliations/0test0001")).json.name).toBe("Wombat University 01");

    const release = await api("POST", "/api/vocabularies/funders/imports/release", "admin");
    expect(release).toMatchObject({ status: 202, json: { status: "queued", type: "funders", source: "release" } });
    expect((await vocabularyAudit()).at(-1)).toEqual(["vocabulary.import", "funders", "api", ADDRESS, "admin@example.org"]);
    await app.services.jobs.cancelJob(systemActor, release.json.id, { via: "cli" });
  });

  test.each([
    ["a guest", null, "affiliations", "a.json", "application/octet-stream", 401],
    ["a non-administrator", "alice", "affiliations", "a.json", "application/octet-stream", 403],
    ["a type without imports", "admin", "licenses", "a.json", "application/octet-stream", 400],
    ["a name that fits no reader", "admin", "subjects", "subjects.json", "application/octet-stream", 400],
    ["a JSON body instead of the dump", "admin", "affiliations", "a.json", "application/json", 400],
  ] as const)("refused: %s (nothing queued, nothing audited)", async (_what, as, type, name, contentType, status) => {
    const [audit, jobs] = [await vocabularyAudit(), await importJobs()];
    expect((await uploadDump(as, type, name, "{}", contentType)).status).toBe(status);
    expect(await vocabularyAudit()).toEqual(audit);
    expect(await importJobs()).toEqual(jobs);
  });

  test.each([
    ["a guest", null, "funders", 401],
    ["a non-administrator", "alice", "funders", 403],
    ["a type without a publisher's release", "admin", "names", 400],
  ] as const)("the release refused: %s", async (_what, as, type, status) => {
    const [audit, jobs] = [await vocabularyAudit(), await importJobs()];
    expect((await api("POST", `/api/vocabularies/${type}/imports/release`, as)).status).toBe(status);
    expect(await vocabularyAudit()).toEqual(audit);
    expect(await importJobs()).toEqual(jobs);
  });
});
