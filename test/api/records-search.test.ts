// Record search over the index: query-string syntax, facets, sorts, paging and visibility, with
// expected ids rather than counts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { MINIMAL_METADATA, publishRecord } from "../helpers/records";
import { hitNames } from "../helpers/search";

let ctx: TestApp;
const ids: Record<string, string> = {};
const hitIds = hitNames(ids);

interface Spec {
  name: string;
  title: string;
  type?: string;
  date?: string;
  language?: string;
  creator?: [string, string];
  orcid?: string;
  description?: string;
  restricted?: boolean;
  as?: "alice" | "bob";
  doi?: string;
}

const SPECS: Spec[] = [
  {
    name: "ocean",
    title: "Ocean temperature measurements",
    type: "dataset",
    date: "2020-05-01",
    language: "eng",
    creator: ["Ada", "Lovelace"],
    orcid: "0000-0002-1825-0097",
    description: "<p>Sea surface temperature from buoys</p>",
    doi: "10.5555/ocean.2020",
  },
  {
    name: "photos",
    title: "Coral reef photographs",
    type: "image-photo",
    date: "2021",
    language: "fra",
    creator: ["Jacques", "Cousteau"],
    description: "Underwater images of the reef",
  },
  { name: "plot", title: "Temperature plot of the Atlantic", type: "image-plot", date: "2022-06-15", language: "eng", creator: ["Marie", "Tharp"] },
  { name: "article", title: "A study of ocean currents", type: "publication-article", date: "2019-11", creator: ["Henry", "Stommel"], description: "Gulf stream dynamics" },
  { name: "secret", title: "Restricted ocean survey", type: "dataset", date: "2023", creator: ["Ada", "Lovelace"], restricted: true },
  { name: "bobs", title: "Glacier melt dataset", type: "dataset", date: "2024-01-01", language: "eng", creator: ["Bob", "Builder"], as: "bob" },
];

async function publishSpec(spec: Spec) {
  const creator = spec.creator ?? ["Ada", "Lovelace"];
  const metadata = {
    ...MINIMAL_METADATA,
    title: spec.title,
    resource_type: { id: spec.type ?? "dataset" },
    publication_date: spec.date ?? "2026-01-01",
    publisher: "Cairn",
    creators: [
      { person_or_org: { type: "personal", given_name: creator[0], family_name: creator[1], identifiers: spec.orcid ? [{ scheme: "orcid", identifier: spec.orcid }] : [] } },
    ],
    ...(spec.language ? { languages: [{ id: spec.language }] } : {}),
    ...(spec.description ? { description: spec.description } : {}),
  };
  const body = {
    access: { record: spec.restricted ? "restricted" : "public", files: spec.restricted ? "restricted" : "public" },
    files: { enabled: false },
    metadata,
    ...(spec.doi ? { pids: { doi: { identifier: spec.doi, provider: "external" } } } : {}),
  };
  ids[spec.name] = (await publishRecord(ctx, body, { as: spec.as })).id;
  ctx.clock.advance(60_000);
}

beforeAll(async () => {
  ctx = await createTestApp();
  for (const spec of SPECS) await publishSpec(spec);
});
afterAll(() => ctx.close());

describe("query-string syntax", () => {
  const cases: [string, string, string[]][] = [
    ["bare words are AND-ed", "q=ocean temperature", ["ocean"]],
    ["a phrase", 'q="coral reef"', ["photos"]],
    ["OR", "q=coral OR glacier&sort=oldest", ["photos", "bobs"]],
    ["NOT", "q=ocean NOT currents", ["ocean"]],
    ["minus", "q=temperature -atlantic", ["ocean"]],
    ["parentheses", "q=(coral OR glacier) AND reef", ["photos"]],
    ["a field by dotted path", "q=metadata.title:atlantic", ["plot"]],
    ["creators by name", 'q=metadata.creators.person_or_org.name:"Tharp, Marie"', ["plot"]],
    ["short field name", "q=creators.name:cousteau", ["photos"]],
    ["trailing wildcard", "q=temp*&sort=oldest", ["ocean", "plot"]],
    ["description text", "q=buoys", ["ocean"]],
    ["keyword: resource type", "q=metadata.resource_type.id:image-photo", ["photos"]],
    ["DOI with a slash, quoted", 'q=pids.doi.identifier:"10.5555/ocean.2020"', ["ocean"]],
    ["DOI by its short name, unquoted", "q=doi:10.5555/OCEAN.2020", ["ocean"]],
    ["ORCID of a creator", 'q=creators.orcid:"0000-0002-1825-0097"', ["ocean"]],
    ["record id", `q=recid:${"$ocean"}`, ["ocean"]],
    ["date range, inclusive", "q=metadata.publication_date:[2020 TO 2021]&sort=oldest", ["ocean", "photos"]],
    ["date range to a month", "q=metadata.publication_date:[2022 TO 2022-06]", ["plot"]],
    ["open range", "q=publication_date:[2022 TO *]&sort=oldest", ["plot", "bobs"]],
    ["comparison", "q=publication_date:<2020&sort=oldest", ["article"]],
    ["_exists_", "q=_exists_:pids.doi.identifier", ["ocean"]],
    ["a query that does not parse is searched as words", 'q=ocean "temperature', ["ocean"]],
  ];
  test.each(cases)("%s", async (_name, query, expected) => {
    const res = await ctx.call("GET", `/api/records?${query.replace("$ocean", ids.ocean!)}`);
    expect(res.status).toBe(200);
    expect(hitIds(res.json)).toEqual(expected);
    expect(res.json.hits.total).toBe(expected.length);
  });

  test.each(["q=%22", "q=(", "q=)))", "q=AND", "q=title:", "q=[1 TO", "q=_exists_:", "q=*:*", "q=%5C", "q=doi:"])("odd query %s never fails", async (query) => {
    const res = await ctx.call("GET", `/api/records?${query}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json.hits.hits)).toBe(true);
  });
});

describe("visibility", () => {
  test.each([
    ["anonymous", ["ocean"]],
    ["bob", ["ocean"]],
    ["alice", ["secret", "ocean"]],
    ["admin", ["secret", "ocean"]],
  ] as const)("%s sees restricted records only where allowed", async (who, expected) => {
    const res = await ctx.call("GET", "/api/records?q=lovelace&sort=newest", { as: who });
    expect(hitIds(res.json)).toEqual([...expected]);
  });

  test("facet counts never include what the caller may not read", async () => {
    const anon = (await ctx.call("GET", "/api/records")).json.aggregations.access_status.buckets;
    expect(anon.find((b: { key: string }) => b.key === "restricted")).toBeUndefined();
    const alice = (await ctx.call("GET", "/api/records", { as: "alice" })).json.aggregations.access_status.buckets;
    expect(alice.find((b: { key: string }) => b.key === "restricted")?.doc_count).toBe(1);
  });
});

describe("sorts", () => {
  test("newest by default, bestmatch with q, sortBy reports it", async () => {
    const all = await ctx.call("GET", "/api/records");
    expect(all.json.sortBy).toBe("newest");
    expect(hitIds(all.json)).toEqual(["bobs", "article", "plot", "photos", "ocean"]);
    const old = await ctx.call("GET", "/api/records?sort=oldest");
    expect(hitIds(old.json)).toEqual(["ocean", "photos", "plot", "article", "bobs"]);
    const best = await ctx.call("GET", "/api/records?q=ocean");
    expect(best.json.sortBy).toBe("bestmatch");
    expect(hitIds(best.json).sort()).toEqual(["article", "ocean"]);
    expect((await ctx.call("GET", "/api/records?sort=bestmatch")).json.sortBy).toBe("newest");
  });

  test("bestmatch weighs the title over the description", async () => {
    const res = await ctx.call("GET", "/api/records?q=reef");
    expect(hitIds(res.json)).toEqual(["photos"]);
    const temp = await ctx.call("GET", "/api/records?q=temperature");
    expect(hitIds(temp.json)[2]).toBeUndefined();
    expect(hitIds(temp.json)).toEqual(expect.arrayContaining(["ocean", "plot"]));
  });

  test("an unknown sort is a 400", async () => {
    const res = await ctx.call("GET", "/api/records?sort=colour");
    expect(res.json).toMatchObject({ status: 400, message: "Invalid querystring parameters.", errors: [{ field: "sort" }] });
  });
});

describe("facets", () => {
  test("aggregations have the spec's shape, with nested resource types and labels", async () => {
    const res = await ctx.call("GET", "/api/records");
    const aggs = res.json.aggregations;
    expect(aggs.access_status).toEqual({
      label: "Access status",
      buckets: [{ key: "metadata-only", doc_count: 5, label: "Metadata-only", is_selected: false }],
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
    });
    const image = aggs.resource_type.buckets.find((b: { key: string }) => b.key === "image");
    expect(image).toEqual({
      key: "image",
      doc_count: 2,
      label: "Image",
      is_selected: false,
      inner: {
        buckets: expect.arrayContaining([
          { key: "image::image-photo", doc_count: 1, label: "Photo", is_selected: false },
          { key: "image::image-plot", doc_count: 1, label: "Plot", is_selected: false },
        ]),
      },
    });
    expect(aggs.language.buckets).toEqual([
      { key: "eng", doc_count: 3, label: "English", is_selected: false },
      { key: "fra", doc_count: 1, label: "French", is_selected: false },
    ]);
  });

  test("filters: values of one facet OR-ed, facets AND-ed; counts ignore the selection", async () => {
    const sub = await ctx.call("GET", "/api/records?resource_type=image::image-photo");
    expect(hitIds(sub.json)).toEqual(["photos"]);
    const parent = await ctx.call("GET", "/api/records?resource_type=image&sort=oldest");
    expect(hitIds(parent.json)).toEqual(["photos", "plot"]);
    const either = await ctx.call("GET", "/api/records?resource_type=image::image-plot&resource_type=publication&sort=oldest");
    expect(hitIds(either.json)).toEqual(["plot", "article"]);
    const both = await ctx.call("GET", "/api/records?resource_type=image&language=eng");
    expect(hitIds(both.json)).toEqual(["plot"]);
    const image = both.json.aggregations.resource_type.buckets.find((b: { key: string }) => b.key === "image");
    expect(image.is_selected).toBe(true);
    expect(image.doc_count).toBe(2);
    expect(both.json.links.self).toContain("resource_type=image");
    expect(both.json.links.self).toContain("language=eng");
  });
});

describe("index upkeep", () => {
  test("a search right after publish finds the record; an edit updates the index", async () => {
    await publishSpec({ name: "fresh", title: "Freshly published volcano data" });
    expect(hitIds((await ctx.call("GET", "/api/records?q=volcano")).json)).toEqual(["fresh"]);
    await ctx.call("POST", `/api/records/${ids.fresh}/draft`, { as: "alice" });
    const body = { files: { enabled: false }, metadata: { ...MINIMAL_METADATA, title: "Renamed earthquake data", publisher: "Cairn" } };
    await ctx.call("PUT", `/api/records/${ids.fresh}/draft`, { as: "alice", body });
    await ctx.call("POST", `/api/records/${ids.fresh}/draft/actions/publish`, { as: "alice" });
    expect((await ctx.call("GET", "/api/records?q=volcano")).json.hits.total).toBe(0);
    expect(hitIds((await ctx.call("GET", "/api/records?q=earthquake")).json)).toEqual(["fresh"]);
  });

  test("reindex rebuilds the same results", async () => {
    const before = (await ctx.call("GET", "/api/records?q=ocean&sort=oldest", { as: "admin" })).json;
    expect(await ctx.services.records.reindex({ kind: "system" })).toBe(Object.keys(ids).length);
    const after = (await ctx.call("GET", "/api/records?q=ocean&sort=oldest", { as: "admin" })).json;
    expect(hitIds(after)).toEqual(hitIds(before));
    expect(after.aggregations).toEqual(before.aggregations);
  });
});

describe("configured sort options", () => {
  test("only the configured sorts are offered; without bestmatch a query sorts by newest", async () => {
    const narrow = await createTestApp({ RDM_SEARCH_SORT_OPTIONS: "newest,oldest" });
    try {
      const refused = await narrow.call("GET", "/api/records?sort=version");
      expect(refused.json).toEqual({ status: 400, message: "Invalid querystring parameters.", errors: [{ field: "sort", messages: ["Must be one of: newest, oldest."] }] });
      expect((await narrow.call("GET", "/api/records?q=ocean")).json.sortBy).toBe("newest");
      expect((await narrow.call("GET", "/api/records?sort=oldest")).json.sortBy).toBe("oldest");
    } finally {
      await narrow.close();
    }
  });
});

describe("ranking cost rules", () => {
  test("single words rank by bm25; a multi-word phrase orders its hits by newest", async () => {
    await publishSpec({ name: "deepTitle", title: "Deep sea vents", description: "Hydrothermal data" });
    await publishSpec({ name: "deepLater", title: "Vent chemistry", description: "Samples from the deep sea floor, deep sea mud and deep sea water" });
    const word = await ctx.call("GET", "/api/records?q=vents");
    expect(hitIds(word.json)).toEqual(["deepTitle"]);
    const ranked = await ctx.call("GET", "/api/records?q=deep");
    expect(ranked.json.sortBy).toBe("bestmatch");
    expect(hitIds(ranked.json)).toEqual(["deepTitle", "deepLater"]);
    const phrase = await ctx.call("GET", '/api/records?q="deep sea"');
    expect(phrase.json.sortBy).toBe("bestmatch");
    expect(hitIds(phrase.json)).toEqual(["deepLater", "deepTitle"]);
  });
});

describe("queries that must not cost more than they say", () => {
  test("a word repeated 400 times is that word once: same hits, same ranking", async () => {
    const once = await ctx.call("GET", "/api/records?q=temperature");
    const repeated = await ctx.call("GET", `/api/records?q=${Array(400).fill("temperature").join("%20")}`);
    expect(repeated.status).toBe(200);
    expect(hitIds(repeated.json)).toEqual(hitIds(once.json));
    expect(repeated.json.hits.total).toBe(once.json.hits.total);
    const ored = await ctx.call("GET", `/api/records?q=${Array(300).fill("ocean").join("%20OR%20")}`);
    expect(hitIds(ored.json)).toEqual(hitIds((await ctx.call("GET", "/api/records?q=ocean")).json));
  });

  test("more than 1,024 distinct clauses is a 400 naming the limit", async () => {
    const words = Array.from({ length: 1100 }, (_, i) => `w${i}`).join("%20");
    const res = await ctx.call("GET", `/api/records?q=${words}`);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      status: 400,
      message: "Invalid querystring parameters.",
      errors: [{ field: "q", messages: ["The query has 1100 clauses; at most 1024 are allowed (max_clause_count)."] }],
    });
    const user = await ctx.call("GET", `/api/user/records?q=${words}`, { as: "alice" });
    expect(user.status).toBe(400);
  });

  test("nesting thousands of groups deep is searched as its words, not a crash", async () => {
    const res = await ctx.call("GET", `/api/records?q=${"(".repeat(5000)}ocean${")".repeat(5000)}`);
    expect(res.status).toBe(200);
    expect(hitIds(res.json)).toEqual(hitIds((await ctx.call("GET", "/api/records?q=ocean")).json));
    const negations = await ctx.call("GET", `/api/records?q=${"NOT%20".repeat(1500)}ocean`);
    expect(negations.status).toBe(200);
  });
});
