// HEAD on every GET route of the OpenAPI document answers what GET answers (status, content type,
// length), without a body: ids filled in from a published record with a file, a draft, a
// community, a request and the rest of the route fixture.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp, type Who } from "../helpers/app";
import { createRouteFixture, documentedRoutes, fillPath, type DocumentedRoute, type RouteFixture } from "../helpers/route-fixture";

let t: TestApp;
let fixture: RouteFixture;
let routes: DocumentedRoute[];
beforeAll(async () => {
  t = await createTestApp({ SEARCH_READERS: 0 });
  fixture = await createRouteFixture(t);
  routes = (await documentedRoutes(t)).filter((r) => r.method === "GET");
});
afterAll(() => t.close());

const CALLERS: Who[] = ["anonymous", "alice", "admin"];

/** What a client sees of an answer but its body. */
const seen = (res: { status: number; headers: Headers }) => ({
  status: res.status,
  type: res.headers.get("content-type"),
  length: res.headers.get("content-length"),
  disposition: res.headers.get("content-disposition"),
});

test("HEAD answers as GET does on every GET route, with an empty body", async () => {
  expect(routes.length).toBeGreaterThan(60);
  const differences: string[] = [];
  let ok = 0;
  for (const route of routes) {
    const url = fillPath(route.path, fixture);
    for (const as of CALLERS) {
      const get = await t.call("GET", url, { as });
      const head = await t.call("HEAD", url, { as });
      const expected = { ...seen(get), length: get.headers.get("content-length") ?? head.headers.get("content-length"), body: "" };
      const got = { ...seen(head), body: head.text };
      if (JSON.stringify(got) !== JSON.stringify(expected)) differences.push(`${as} HEAD ${url}: ${JSON.stringify(got)}, GET gave ${JSON.stringify(expected)}`);
      else if (get.status < 400) ok++;
    }
  }
  expect(differences).toEqual([]);
  // The fixture's ids reach past the lookups: most routes answer with content, not an error.
  expect(ok).toBeGreaterThan(100);
});

test("HEAD of a files archive gives the ZIP's type and length, nothing else", async () => {
  const url = `/api/records/${fixture.record}/files-archive`;
  const get = await t.call("GET", url);
  const head = await t.call("HEAD", url);
  expect(Number(get.headers.get("content-length"))).toBeGreaterThan(100);
  expect(seen(head)).toEqual({ status: 200, type: "application/zip", length: get.headers.get("content-length"), disposition: `attachment; filename="${fixture.record}.zip"` });
  expect(head.text).toBe("");
  const draft = await t.call("HEAD", `/api/records/${fixture.draft}/draft/files-archive`, { as: "alice" });
  expect({ status: draft.status, type: draft.headers.get("content-type"), body: draft.text }).toEqual({ status: 200, type: "application/zip", body: "" });
});
