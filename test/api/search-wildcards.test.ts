// Record search wildcards and `_exists_` over HTTP (issue 19 item 7): `?` is exactly one character
// and `*` any run, on full text (expanded to the index's terms) and keywords; `_exists_` on
// full-text fields such as metadata.version, which share an FTS5 column with other fields.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { MINIMAL_METADATA, publishRecord } from "../helpers/records";
import { hitNames } from "../helpers/search";

let ctx: TestApp;
const ids: Record<string, string> = {};
const names = hitNames(ids);

/** 1,100 distinct words w0000..w1099: `w0???` expands to 1,000 terms, `w????` to more than the cap. */
const WORD_LIST = Array.from({ length: 1100 }, (_, i) => `w${String(i).padStart(4, "0")}`).join(" ");

const RECORDS: [name: string, metadata: Record<string, unknown>, doi?: string][] = [
  ["volcano", { title: "Volcano monitoring network", version: "1.0", description: "<p>Seismic stations</p>" }, "10.5555/volcano.1"],
  ["volcanic", { title: "Volcanic ash deposits", version: "v2", description: "Ash-fall layers" }],
  ["volcanoes", { title: "Volcanoes of Iceland" }],
  ["lava", { title: "Lava flow models", version: "2.1.0", description: "<p>Flows from a volcano</p>" }, "10.5555/lava.22"],
  ["vulcan", { title: "Vulcan and Hephaestus", description: "El volcán" }],
  ["words", { title: "Word list", description: WORD_LIST }],
];
const ALL = RECORDS.map(([name]) => name);

beforeAll(async () => {
  ctx = await createTestApp();
  for (const [name, metadata, doi] of RECORDS) {
    const body = {
      access: { record: "public", files: "public" },
      files: { enabled: false },
      metadata: { ...MINIMAL_METADATA, ...metadata },
      ...(doi ? { pids: { doi: { identifier: doi, provider: "external" } } } : {}),
    };
    ids[name] = (await publishRecord(ctx, body)).id;
    ctx.clock.advance(60_000);
  }
});
afterAll(() => ctx.close());

/** The names of the records `q` finds, oldest first, after checking the total agrees. */
async function search(q: string): Promise<string[]> {
  const res = await ctx.call("GET", `/api/records?q=${encodeURIComponent(q)}&sort=oldest&size=50`);
  expectStatus(res, 200);
  expect(res.json.hits.total).toBe(res.json.hits.hits.length);
  return names(res.json);
}

describe("wildcards in full text", () => {
  const cases: [string, string, string[]][] = [
    ["? is exactly one character", "volcan?", ["volcano", "lava"]],
    ["? inside a word", "volc?no", ["volcano", "lava"]],
    ["a trailing * is still any run", "volcan*", ["volcano", "volcanic", "volcanoes", "lava", "vulcan"]],
    ["? on a field matches that field only", "metadata.title:volcan?", ["volcano"]],
    ["? on a field's short name, upper case", "title:Volcan?", ["volcano"]],
    ["? matches terms without their diacritics", "v?lcan", ["vulcan"]],
    ["an inner *", "vol*no", ["volcano", "lava"]],
    ["a leading *", "*canoes", ["volcanoes"]],
    ["an escaped ? is no wildcard", "volcan\\?", ["vulcan"]],
    ["a pattern across a separator: its words", "ash-f?ll", ["volcanic"]],
    ["a negated wildcard", "volcan* -volcan?", ["volcanic", "volcanoes", "vulcan"]],
    ["a wildcard matching no term", "zzz?", []],
    ["a negated wildcard matching no term", "-zzz?", ALL],
    ["a wildcard OR a word", "volcan? OR hephaestus", ["volcano", "lava", "vulcan"]],
    ["1,000 expanded terms are within the cap", "w0???", ["words"]],
  ];
  test.each(cases)("%s: %s", async (_name, q, expected) => {
    expect(await search(q)).toEqual(expected);
  });

  test("a wildcard matching more terms than max_clause_count is a 400 saying so", async () => {
    const res = await ctx.call("GET", `/api/records?q=${encodeURIComponent("w????")}`);
    expectStatus(res, 400);
    expect(res.json.errors[0].field).toBe("q");
    expect(res.json.errors[0].messages[0]).toContain("w???? matches more than 1024 terms");
  });
});

describe("wildcards on keyword fields", () => {
  const cases: [string, string, string[]][] = [
    ["? in a DOI", "doi:10.5555/l?va.22", ["lava"]],
    ["? and an inner * in a DOI, any case", "doi:10.5555/VOLC?NO.*", ["volcano"]],
    ["an inner * in a DOI", "pids.doi.identifier:10.5555/*.1", ["volcano"]],
    ["? needs a character", "doi:10.5555/lava.22?", []],
  ];
  test.each(cases)("%s: %s", async (_name, q, expected) => {
    expect(await search(q)).toEqual(expected);
  });
});

describe("_exists_", () => {
  const withVersion = ["volcano", "volcanic", "lava"];
  const cases: [string, string, string[]][] = [
    ["on a full-text field", "_exists_:metadata.version", withVersion],
    ["negated", "NOT _exists_:metadata.version", ALL.filter((n) => !withVersion.includes(n))],
    ["by the short name", "_exists_:version", withVersion],
    ["as field:*", "metadata.version:*", withVersion],
    ["with words", "_exists_:metadata.version AND volcan*", ["volcano", "volcanic", "lava"]],
    ["on the description", "_exists_:metadata.description", ["volcano", "volcanic", "lava", "vulcan", "words"]],
    ["on the title: every record", "_exists_:metadata.title", ALL],
    ["on a nested full-text field", "_exists_:metadata.creators.person_or_org.family_name", ALL],
    ["on a full-text field no record has", "_exists_:metadata.funding.funder.name", []],
    ["on a keyword field", "_exists_:pids.doi.identifier", ["volcano", "lava"]],
    ["on an unknown field: nothing, as OpenSearch on an unmapped field", "_exists_:metadata.nosuchfield", []],
  ];
  test.each(cases)("%s: %s", async (_name, q, expected) => {
    expect(await search(q)).toEqual(expected);
  });

  test("an index written without the presence bits is not complete, and a rebuild restores _exists_", async () => {
    const { services } = ctx;
    expect((await services.records.checkIndex()).complete).toBe(true);
    await services.deps.db.statements.run("UPDATE record_index SET present = 0");
    expect((await services.records.checkIndex()).complete).toBe(false);
    expect(await search("_exists_:metadata.version")).toEqual([]);
    expect(await services.records.reindex({ kind: "system" })).toBe(RECORDS.length);
    expect((await services.records.checkIndex()).complete).toBe(true);
    expect(await search("_exists_:metadata.version")).toEqual(withVersion);
  });
});
