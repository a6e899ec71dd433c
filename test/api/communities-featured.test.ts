// Featured communities on the injected clock: administrators set featured periods of public
// communities; the featured search shows those whose latest period has begun, newest first.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DAY_MS, HOUR_MS } from "../../src/core/time";
import { BASE_URL } from "../helpers/app";
import { COMMUNITY_BODY, createCommunitiesTestApp, roleScenarios, type CommunitiesTestApp, type Role, type RoleScenario } from "../helpers/communities";

let ctx: CommunitiesTestApp;
const app = () => ctx;
/** Featured entry ids by name. */
const entry: Record<string, number> = {};
let start = 0;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

async function feature(slug: string, at: number, name: string) {
  const res = await ctx.call("POST", `/api/communities/${slug}/featured`, { as: "admin", body: { start_date: iso(at) } });
  expect(res.status).toBe(201);
  entry[name] = res.json.id;
}

beforeAll(async () => {
  ctx = await createCommunitiesTestApp();
  start = ctx.clock.now();
  for (const slug of ["alpha", "beta", "gamma", "turned"]) await ctx.makeCommunity(slug, { title: `Featured ${slug}` });
  await ctx.makeCommunity("delta", { title: "Delta event", type: "event" });
  await ctx.makeCommunity("hidden", { visibility: "restricted" });
  await feature("alpha", start - 2 * DAY_MS, "alpha");
  await feature("beta", start - DAY_MS, "beta");
  await feature("gamma", start + DAY_MS, "gamma");
  await feature("delta", start - 3 * DAY_MS, "delta-old");
  await feature("delta", start - HOUR_MS, "delta");
  await feature("turned", start - 4 * DAY_MS, "turned");
  // Featured while public, then made restricted: never shown again.
  expect((await ctx.call("PUT", "/api/communities/turned", { as: "owner", body: COMMUNITY_BODY("turned", { visibility: "restricted" }) })).status).toBe(200);
});
afterAll(() => ctx.close());

const slugs = (body: any) => body.hits.hits.map((h: any) => h.slug);
const slugsAre =
  (...expected: string[]) =>
  (body: any) =>
    expect(slugs(body)).toEqual(expected);
const EVERYONE: Role[] = ["anonymous", "alice", "reader", "curator", "manager", "owner", "admin"];
/** The system_process need: 401 anonymous, 403 any other user, whatever their community role. */
const adminOnly = (ok: number) => (who: Role) => (who === "admin" ? ok : who === "anonymous" ? 401 : 403);

describe("the featured search", () => {
  roleScenarios(app, [
    ...EVERYONE.map((who): RoleScenario => ({
      name: "started periods of public communities, latest period first",
      method: "GET",
      url: "/api/communities/featured",
      as: who,
      status: 200,
      json: { sortBy: "featured", hits: { total: 3 }, links: { self: `${BASE_URL}/api/communities/featured?sort=featured&page=1&size=10` } },
      check: slugsAre("delta", "beta", "alpha"),
    })),
    {
      name: "a sort option is not taken",
      method: "GET",
      url: "/api/communities/featured?sort=oldest",
      status: 200,
      json: { sortBy: "featured" },
      check: slugsAre("delta", "beta", "alpha"),
    },
    { name: "q", method: "GET", url: "/api/communities/featured?q=featured", status: 200, check: slugsAre("beta", "alpha") },
    {
      name: "type",
      method: "GET",
      url: "/api/communities/featured?type=event",
      status: 200,
      check: (b) => (slugsAre("delta")(b), expect(b.aggregations.type.buckets).toEqual([{ key: "event", doc_count: 1, label: "Event", is_selected: true }])),
    },
    {
      name: "paging",
      method: "GET",
      url: "/api/communities/featured?size=1&page=2",
      status: 200,
      json: { hits: { total: 3 }, links: { next: `${BASE_URL}/api/communities/featured?sort=featured&page=3&size=1` } },
      check: slugsAre("beta"),
    },
    { name: "bad paging", method: "GET", url: "/api/communities/featured?page=-1", status: 400 },
  ]);

  test("a period in the future shows once the clock reaches it", async () => {
    ctx.clock.set(start + DAY_MS - 1);
    expect(slugs((await ctx.call("GET", "/api/communities/featured")).json)).toEqual(["delta", "beta", "alpha"]);
    ctx.clock.set(start + DAY_MS);
    expect(slugs((await ctx.call("GET", "/api/communities/featured")).json)).toEqual(["gamma", "delta", "beta", "alpha"]);
    ctx.clock.set(start);
  });
});

describe("featured entries of a community", () => {
  const body = { start_date: "2026-11-20T10:00:00.000000Z" };
  roleScenarios(app, [
    ...EVERYONE.map((who): RoleScenario => ({ name: "create", method: "POST", url: "/api/communities/beta/featured", as: who, body, status: adminOnly(201)(who) })),
    ...EVERYONE.map((who): RoleScenario => ({ name: "list", method: "GET", url: "/api/communities/alpha/featured", as: who, status: adminOnly(200)(who) })),
    {
      name: "the created entry",
      method: "POST",
      url: "/api/communities/alpha/featured",
      as: "admin",
      body: { start_date: "2026-12-24T18:30:00.250000Z" },
      status: 201,
      check: (b) => expect(b).toEqual({ id: expect.any(Number), start_date: "2026-12-24T18:30:00.250000+00:00" }),
    },
    {
      name: "the list",
      method: "GET",
      url: "/api/communities/delta/featured",
      as: "admin",
      status: 200,
      check: (b) =>
        expect(b).toEqual({
          hits: {
            hits: [
              { id: entry.delta, start_date: "2026-11-22T11:00:00.000000+00:00" },
              { id: entry["delta-old"], start_date: "2026-11-19T12:00:00.000000+00:00" },
            ],
            total: 2,
          },
        }),
    },
    {
      name: "a restricted community",
      method: "POST",
      url: "/api/communities/hidden/featured",
      as: "admin",
      body,
      status: 400,
      json: { errors: [{ field: "community_id", messages: ["The community is not public."] }] },
    },
    { name: "an unknown community", method: "POST", url: "/api/communities/nothing/featured", as: "admin", body, status: 404 },
    {
      name: "no start_date",
      method: "POST",
      url: "/api/communities/beta/featured",
      as: "admin",
      body: {},
      status: 400,
      json: { errors: [{ field: "start_date", messages: ["Missing data for required field."] }] },
    },
    ...[
      ["not a date", "yesterday"],
      ["month 13", "2026-13-01T00:00:00.000000Z"],
      ["30 February", "2026-02-30T00:00:00Z"],
      ["hour 24", "2026-11-20T24:00:00Z"],
      ["a date only", "2026-11-20"],
      ["a number", 1763600000000],
      ["a list", ["2026-11-20T10:00:00Z"]],
      ["an offset of 25 hours", "2026-11-20T10:00:00+25:00"],
    ].map(([name, value]): RoleScenario => ({
      name: `start_date: ${name}`,
      method: "POST",
      url: "/api/communities/beta/featured",
      as: "admin",
      body: { start_date: value },
      status: 400,
      json: { errors: [{ field: "start_date" }] },
    })),
    ...[
      ["without fraction", "2026-11-20T10:00:00Z", "2026-11-20T10:00:00.000000+00:00"],
      ["without zone (UTC)", "2026-11-20 10:00", "2026-11-20T10:00:00.000000+00:00"],
      ["with an offset", "2026-11-20T12:00:00.5+02:00", "2026-11-20T10:00:00.500000+00:00"],
    ].map(([name, value, shown]): RoleScenario => ({
      name: `start_date ${name}`,
      method: "POST",
      url: "/api/communities/beta/featured",
      as: "admin",
      body: { start_date: value },
      status: 201,
      json: { start_date: shown },
    })),
  ]);
});

describe("update and delete an entry", () => {
  const url = () => `/api/communities/alpha/featured/${entry.alpha}`;
  test("who may update", async () => {
    for (const who of EVERYONE) {
      const res = await ctx.call("PUT", url(), { as: who, body: { start_date: iso(start - 5 * DAY_MS) } });
      expect({ who, status: res.status }).toEqual({ who, status: adminOnly(200)(who) });
    }
  });

  test("moving a period to the future takes the community out of the search", async () => {
    const res = await ctx.call("PUT", url(), { as: "admin", body: { start_date: iso(start + 10 * DAY_MS) } });
    expect(res.json).toEqual({ id: entry.alpha, start_date: "2026-12-02T12:00:00.000000+00:00" });
    expect(slugs((await ctx.call("GET", "/api/communities/featured")).json)).not.toContain("alpha");
  });

  roleScenarios(app, [
    { name: "bad start_date", method: "PUT", url: "/api/communities/beta/featured/2", as: "admin", body: { start_date: "soon" }, status: 400 },
    { name: "an entry of another community", method: "PUT", url: "/api/communities/gamma/featured/1", as: "admin", body: { start_date: iso(start) }, status: 404 },
    { name: "an unknown entry", method: "DELETE", url: "/api/communities/beta/featured/99999", as: "admin", status: 404 },
    { name: "not a number", method: "DELETE", url: "/api/communities/beta/featured/abc", as: "admin", status: 404 },
    ...EVERYONE.filter((w) => w !== "admin").map((who): RoleScenario => ({
      name: "delete denied",
      method: "DELETE",
      url: "/api/communities/delta/featured/5",
      as: who,
      status: adminOnly(204)(who),
    })),
  ]);

  test("deleting the latest started period falls back to the previous one", async () => {
    expect((await ctx.call("DELETE", `/api/communities/delta/featured/${entry.delta}`, { as: "admin" })).status).toBe(204);
    const body = (await ctx.call("GET", "/api/communities/featured")).json;
    expect(slugs(body)).toEqual(["beta", "delta"]);
  });
});
