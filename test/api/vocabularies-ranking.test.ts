// How vocabulary searches order and count at scale: bm25 for one phrase, shorter entries first for
// several, index order past RANK_LIMIT, and exact totals kept in vocabulary_counts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { RANK_LIMIT } from "../../src/vocabularies/store";
import { createTestApp, type TestApp } from "../helpers/app";
import { hitIds } from "../helpers/search";

let ctx: TestApp;
const BROAD = RANK_LIMIT + 1;

async function* broadNames() {
  for (let i = 0; i < BROAD; i++) yield { entry: { id: `broad-${String(i).padStart(5, "0")}`, given_name: "Common", family_name: `Broadbent${i % 7}` } };
}

beforeAll(async () => {
  ctx = await createTestApp();
  const v = ctx.services.vocabularies;
  await v.importEntries(systemActor, "names", broadNames());
  await v.create(systemActor, "names", { id: "long", given_name: "Ada Augusta", family_name: "Lovelace-Byron King" }, { via: "cli", address: null });
  await v.create(systemActor, "names", { id: "short", given_name: "Ada", family_name: "Lovelace" }, { via: "cli", address: null });
  await v.create(
    systemActor,
    "names",
    { id: "affiliated", given_name: "Grace", family_name: "Hopper", affiliations: [{ name: "Lovelace Institute" }] },
    { via: "cli", address: null },
  );
});
afterAll(() => ctx.close());

describe("ordering", () => {
  test("one phrase is ranked by bm25: a match in the name beats one in an affiliation", async () => {
    const res = await ctx.call("GET", "/api/names?q=lovelace");
    expect(hitIds(res.json)).toEqual(["short", "long", "affiliated"]);
  });

  test("several phrases rank shorter entries first", async () => {
    const res = await ctx.call("GET", "/api/names?suggest=ada%20lov");
    expect(hitIds(res.json)).toEqual(["short", "long"]);
    expect(res.json.sortBy).toBe("bestmatch");
  });

  test(`past ${RANK_LIMIT} matches, bestmatch pages through matches in index order`, async () => {
    const first = await ctx.call("GET", "/api/names?suggest=broad");
    expect(first.json.hits.total).toBe(BROAD);
    expect(hitIds(first.json)).toEqual(Array.from({ length: 10 }, (_, i) => `broad-${String(i).padStart(5, "0")}`));
    const third = await ctx.call("GET", "/api/names?suggest=broad&page=3&size=5");
    expect(hitIds(third.json)).toEqual(["broad-00010", "broad-00011", "broad-00012", "broad-00013", "broad-00014"]);
  });

  test("an explicit sort still applies to a broad match", async () => {
    const res = await ctx.call("GET", "/api/names?q=common&sort=name&size=3");
    expect(res.json.hits.total).toBe(BROAD);
    expect(res.json.hits.hits.map((h: { name: string }) => h.name)).toEqual(["Broadbent0, Common", "Broadbent0, Common", "Broadbent0, Common"]);
  });
});

describe("totals", () => {
  test("the unfiltered total comes from the kept count and follows creates and deletes", async () => {
    const total = async () => (await ctx.call("GET", "/api/names?size=1")).json.hits.total;
    expect(await total()).toBe(BROAD + 3);
    expect((await ctx.call("DELETE", "/api/names/broad-00000", { as: "admin" })).status).toBe(204);
    expect(await total()).toBe(BROAD + 2);
    expect((await ctx.call("POST", "/api/names", { as: "admin", body: { id: "new-one", family_name: "Newcomer" } })).status).toBe(201);
    expect(await total()).toBe(BROAD + 3);
    // Updating an entry changes nothing in the count.
    expect((await ctx.call("PUT", "/api/names/new-one", { as: "admin", body: { family_name: "Renamed" } })).status).toBe(200);
    expect(await total()).toBe(BROAD + 3);
    const counted = (await ctx.services.deps.db.statements.get<{ n: number }>("SELECT count(*) AS n FROM vocabulary_entries WHERE type = 'names'"))!;
    expect(counted.n).toBe(BROAD + 3);
  });
});
