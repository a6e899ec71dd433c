// GET /api/records/{id} is served by a direct route (core/http.ts `direct`) that Bun's router hands
// the request to without the framework. Its answers must be the framework route's, byte for byte:
// every case below goes both ways on the same app and compares status, headers and body; then
// over real HTTP, what only the router decides (dot segments, other methods, HEAD).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { startServer, type RunningServer } from "../../src/server/serve";
import { BASE_URL, createTestApp, expectStatus, type TestApp, type Who } from "../helpers/app";
import { freePort, raw } from "../helpers/cli";
import { publishableDraft, publishRecord } from "../helpers/records";

let t: TestApp;
type Ids = Record<"public" | "restricted" | "deleted" | "parent", string>;
const ids: Ids = { public: "", restricted: "", deleted: "", parent: "" };
let linkToken = "";

beforeAll(async () => {
  t = await createTestApp();
  const pub = await publishRecord(t, publishableDraft({ metadata: { ...publishableDraft().metadata, title: "Ocean heat content, 1990-2025" } }));
  ids.public = pub.id;
  ids.parent = pub.parent.id;
  ids.restricted = (await publishRecord(t, publishableDraft({ access: { record: "restricted", files: "restricted" } }))).id;
  ids.deleted = (await publishRecord(t)).id;
  expectStatus(await t.call("DELETE", `/api/records/${ids.deleted}/delete`, { as: "admin", body: { removal_reason: { id: "spam" } } }), 204);
  const link = await t.call("POST", `/api/records/${ids.restricted}/access/links`, { as: "alice", body: { permission: "view" } });
  expectStatus(link, 201);
  linkToken = link.json.token;
});
afterAll(() => t.close());

/** The peer Bun's router passes: no address, as in-process calls have none. */
const peer = { requestIP: () => null } as unknown as Parameters<TestApp["directRoutes"]["/api/records/:id"]>[1];

interface Case {
  name: string;
  path: (ids: Ids) => string;
  as?: Who;
  headers?: Record<string, string>;
  status: number;
}

const CASES: Case[] = [
  { name: "a public record, anonymous", path: (i) => `/api/records/${i.public}`, status: 200 },
  { name: "the same, pretty-printed", path: (i) => `/api/records/${i.public}?prettyprint=1`, status: 200 },
  { name: "the same, by its owner's token", path: (i) => `/api/records/${i.public}`, as: "alice", status: 200 },
  { name: "a restricted record, anonymous", path: (i) => `/api/records/${i.restricted}`, status: 401 },
  { name: "a restricted record, another user", path: (i) => `/api/records/${i.restricted}`, as: "bob", status: 403 },
  { name: "a restricted record, its owner", path: (i) => `/api/records/${i.restricted}`, as: "alice", status: 200 },
  { name: "a restricted record through a secret link", path: (i) => `/api/records/${i.restricted}?token=${linkToken}`, status: 200 },
  { name: "an invalid token", path: (i) => `/api/records/${i.public}`, headers: { authorization: "Bearer not-a-token" }, status: 401 },
  { name: "an unknown id", path: () => `/api/records/abcde-12345`, status: 404 },
  { name: "a parent id (redirect to the latest version)", path: (i) => `/api/records/${i.parent}`, status: 302 },
  { name: "a deleted record", path: (i) => `/api/records/${i.deleted}`, status: 410 },
  { name: "a deleted record, administrator with include_deleted", path: (i) => `/api/records/${i.deleted}?include_deleted=1`, as: "admin", status: 200 },
  { name: "an export chosen by Accept", path: (i) => `/api/records/${i.public}`, headers: { accept: "application/x-bibtex" }, status: 200 },
  { name: "an export chosen by ?style=", path: (i) => `/api/records/${i.public}?style=apa`, headers: { accept: "text/x-bibliography" }, status: 200 },
  { name: "an Accept nothing answers", path: (i) => `/api/records/${i.public}`, headers: { accept: "image/png" }, status: 406 },
  { name: "a vendor JSON type", path: (i) => `/api/records/${i.public}`, headers: { accept: "application/vnd.inveniordm.v1+json" }, status: 200 },
  { name: "a cross-origin request", path: (i) => `/api/records/${i.public}`, headers: { origin: "https://example.org" }, status: 200 },
  { name: "a host not served here", path: (i) => `/api/records/${i.public}`, headers: { host: "evil.example" }, status: 400 },
];

function requestOf(c: Case) {
  const headers: Record<string, string> = { ...c.headers };
  if (c.as && c.as !== "anonymous") headers.authorization = `Bearer ${t.users[c.as].token}`;
  return () => new Request(BASE_URL + c.path(ids), { headers });
}

async function answer(response: Response | Promise<Response>) {
  const r = await response;
  return { status: r.status, headers: [...r.headers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), body: await r.text() };
}

describe("the direct route answers what the framework's route answers", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const make = requestOf(c);
    const framework = await answer(t.app.handle(make()));
    const request = make();
    const id = new URL(request.url).pathname.split("/").pop()!;
    const direct = await answer(t.directRoutes["/api/records/:id"](Object.assign(request, { params: { id } }), peer));
    expect(framework.status).toBe(c.status);
    expect(direct).toEqual(framework);
    if (c.status === 200 && !c.headers?.accept) expect(JSON.parse(direct.body).id).toBe(id === ids.parent ? ids.public : id);
  });
});

describe("over HTTP: what the router decides", () => {
  let server: RunningServer;
  let base = "";
  beforeAll(async () => {
    server = await startServer(loadConfig({ flags: { DATA_DIR: t.dataDir, HTTP: true, PORT: freePort(), BASE_URL: "http://127.0.0.1" }, env: {} }), () => {});
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.stop());

  test("a record read is the same JSON as in process, with its ETag, Link and security headers", async () => {
    const r = await fetch(`${base}/api/records/${ids.public}`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { id: string; metadata: { title: string }; revision_id: number };
    expect(body.id).toBe(ids.public);
    expect(body.metadata.title).toBe("Ocean heat content, 1990-2025");
    expect(r.headers.get("etag")).toBe(`"${body.revision_id}"`);
    expect(r.headers.get("link")).toContain(`rel="cite-as"`);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("content-type")).toStartWith("application/json");
  });

  test("dot segments, raw or percent-encoded, are refused, not resolved", async () => {
    for (const path of ["/api/records/%2e%2e", "/api/records/%2E", "/api/records/..", "/api/records/%2e%2e?x=1"]) {
      const r = await raw(server.port, "GET", path);
      expect({ path, status: r.status }).toEqual({ path, status: 400 });
      expect(JSON.parse(r.body).message).toContain("'.' or '..' segment");
    }
  });

  test("other methods and HEAD take the framework's way", async () => {
    const post = await fetch(`${base}/api/records/${ids.public}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toContain("GET");
    const head = await fetch(`${base}/api/records/${ids.public}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toMatch(/^"\d+"$/);
    expect(await head.text()).toBe("");
  });

  test("an id that is not plain (percent-escapes) goes to the framework and is still answered", async () => {
    const r = await fetch(`${base}/api/records/abcde%2D12345`);
    expect(r.status).toBe(404);
    expect(((await r.json()) as { status: number }).status).toBe(404);
  });
});
