// Query parameters named like Object.prototype's members (`?constructor=1`, `?__proto__=x`) are
// plain parameters on every GET route: never a 5xx, never a search handed to a worker that cannot
// take it (which used to answer 500 and, 10 s later, fail every search on that worker).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp, type Who } from "../helpers/app";
import { createRouteFixture, documentedRoutes, fillPath, type DocumentedRoute, type RouteFixture } from "../helpers/route-fixture";

export const PROTOTYPE_NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf", "__defineGetter__"];

let t: TestApp;
let fixture: RouteFixture;
let routes: DocumentedRoute[];
beforeAll(async () => {
  // Searches on reader workers, as a server runs them: what cannot be sent to a worker shows.
  t = await createTestApp({ SEARCH_READERS: 1 });
  fixture = await createRouteFixture(t);
  routes = (await documentedRoutes(t)).filter((r) => r.method === "GET");
});
afterAll(() => t.close());

const CALLERS: Who[] = ["anonymous", "alice"];

/** The query strings sent to a route, and by whom: each name as a parameter (once and repeated), and as the value of the route's own parameters. */
function queriesFor(route: DocumentedRoute): [query: string, callers: Who[]][] {
  const own = [...new Set([...route.query, "q", "sort", "page", "size", "type", "format", "style"])];
  return PROTOTYPE_NAMES.flatMap((name): [string, Who[]][] => [
    [`${name}=1`, CALLERS],
    [`${name}=1&${name}=2`, CALLERS],
    [own.map((param) => `${param}=${name}`).join("&"), ["anonymous"]],
  ]);
}

test("no route answers a 5xx for a prototype name as a query parameter or value", async () => {
  const failures: string[] = [];
  let sent = 0;
  for (const route of routes) {
    const path = fillPath(route.path, fixture);
    for (const [query, callers] of queriesFor(route)) {
      for (const as of callers) {
        const url = `${path}${path.includes("?") ? "&" : "?"}${query}`;
        const res = await t.call("GET", url, { as });
        sent++;
        if (res.status >= 500) failures.push(`${as} GET ${url}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
  }
  expect(failures).toEqual([]);
  expect(sent).toBeGreaterThan(2000);
});

test("a search with ?constructor=1 answers 200 and the searches after it do too", async () => {
  for (const name of PROTOTYPE_NAMES) {
    const res = await t.call("GET", `/api/records?${name}=1&q=${name}`);
    expect({ name, status: res.status }).toEqual({ name, status: 200 });
  }
  const after = await t.call("GET", "/api/records?q=*");
  expect(after.status).toBe(200);
  expect(after.json.hits.total).toBe(1);
  expect(t.logs.filter((l) => l.startsWith("search stopped"))).toEqual([]);
});
