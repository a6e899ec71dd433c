// Vocabulary search on PostgreSQL against SQLite's: the same entries, written through the same
// service on both engines, answer the same ids in the same order and the same totals for every
// kind of query (suggest, q with fields, prefixes, wildcards, phrases, negations, tags, sorts,
// paging), and both indexes follow edits, retirements and deletions alike.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { systemActor } from "../../src/core/actor";
import { createLinks } from "../../src/core/links";
import { ManualClock } from "../../src/core/time";
import type { DatabasePort } from "../../src/db/port";
import { createPostgresPort } from "../../src/db/postgres/port";
import { openDatabase } from "../../src/db/sqlite/connection";
import { shippedVocabularies } from "../../src/vocabularies/fixtures";
import { createVocabulariesService, type VocabulariesService } from "../../src/vocabularies/service";
import { hitIds } from "../helpers/search";
import { freshPostgresDatabase, type TestDatabase } from "../helpers/postgres";

const BASE = "http://127.0.0.1:5000";
const cli = { via: "cli" as const, address: null };
const config = loadConfig({ flags: { DATA_DIR: "/nonexistent", BASE_URL: BASE }, env: {} });

interface Engine {
  name: "sqlite" | "postgres";
  db: DatabasePort;
  clock: ManualClock;
  service: VocabulariesService;
}

let database: TestDatabase;
let engines: Engine[];

/** The shipped lists the queries below use (languages: some 8,000 entries, so prefixes match many). */
const shipped = () => shippedVocabularies().filter((v) => ["licenses", "languages", "resourcetypes"].includes(v.type));

const NAMES = [
  {
    id: "0000-0002-1825-0097",
    given_name: "Ada",
    family_name: "Lovelace",
    identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }],
    affiliations: [{ name: "Analytical Society" }],
  },
  { id: "n-long", given_name: "Ada Augusta", family_name: "Lovelace-Byron King", affiliations: [] },
  { id: "n-hopper", given_name: "Grace", family_name: "Hopper", affiliations: [{ name: "Lovelace Institute" }] },
  { id: "n-babbage", given_name: "Charles", family_name: "Babbage", affiliations: [{ name: "Cambridge" }] },
  { id: "n-lovell", given_name: "Bernard", family_name: "Lovell", affiliations: [{ name: "Jodrell Bank" }] },
  { id: "n-noether", given_name: "Emmy", family_name: "Nöther", affiliations: [{ name: "Universität Göttingen" }] },
];

async function fill(e: Engine) {
  const v = e.service;
  await v.loadFixtures(shipped, "test-1");
  const add = async (type: string, entry: object) => {
    await v.create(systemActor, type, entry, cli);
    e.clock.advance(1000);
  };
  await add("communitytypes", { id: "research-group", title: { en: "Research group", de: "Forschungsgruppe", fr: "Équipe de recherche" } });
  await add("communitytypes", { id: "lab", title: { en: "Laboratory", de: "Labor" }, description: { en: "A research laboratory" } });
  await add("affiliations", { id: "03yrm5c26", name: "California Digital Library", acronym: "CDL", country: "us", identifiers: [{ scheme: "ror", identifier: "03yrm5c26" }] });
  await add("affiliations", { id: "013meh722", name: "University of Cambridge", acronym: "UCAM", country: "GB", title: { de: "Universität Cambridge" } });
  await add("funders", { id: "00k4n6c32", name: "European Commission", acronym: "EC", country: "BE", identifiers: [{ scheme: "ror", identifier: "00k4n6c32" }] });
  await add("funders", { id: "021nxhr62", name: "National Science Foundation", acronym: "NSF", country: "US", identifiers: [{ scheme: "doi", identifier: "10.13039/100000001" }] });
  for (const n of NAMES) await add("names", n);
  await add("subjects", { id: "https://id.nlm.nih.gov/mesh/D000001", scheme: "MeSH", subject: "Calcimycin" });
  await add("subjects", { id: "https://id.nlm.nih.gov/mesh/D000002", scheme: "MeSH", subject: "Temefos" });
  await add("subjects", { id: "euroscivoc-1", scheme: "EuroSciVoc", subject: "Calcium signalling" });
  await add("awards", { number: "101000001", title: { en: "Ocean observations" }, acronym: "OCEAN", funder: { id: "00k4n6c32" } });
  await add("awards", { number: "101000002", title: { en: "Deep ocean floor mapping", fr: "Cartographie des fonds océaniques" }, acronym: "DEEP", funder: { id: "00k4n6c32" } });
}

beforeAll(async () => {
  database = await freshPostgresDatabase();
  const make = (name: Engine["name"], db: DatabasePort): Engine => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 12, 0, 0));
    const service = createVocabulariesService({ db, clock, config, links: createLinks(BASE), audit: { record: async () => {} } });
    return { name, db, clock, service };
  };
  engines = [make("sqlite", openDatabase(":memory:", 0)), make("postgres", createPostgresPort(database.url))];
  for (const e of engines) await fill(e);
}, 120_000);

afterAll(async () => {
  for (const e of engines ?? []) e.db.close();
  await database?.drop();
});

type Query = Record<string, string>;

/** Each engine's answer (ids and total), SQLite's first. */
async function both(type: string, query: Query): Promise<{ ids: string[]; total: number }[]> {
  return Promise.all(
    engines.map(async (e) => {
      const body = await e.service.search(systemActor, type, query);
      return { ids: hitIds(body) as string[], total: body.hits.total as number };
    }),
  );
}

/** [type, query, the ids SQLite answers (first page)]: PostgreSQL must answer the same, in the same order, with the same total. */
const CASES: [string, Query, string[]][] = [
  // Controlled lists: exact id or title first, then the id's family by shortest id, then relevance.
  ["licenses", { suggest: "cc-by", size: "5" }, ["cc-by-1.0", "cc-by-2.0", "cc-by-2.5", "cc-by-3.0", "cc-by-4.0"]],
  ["licenses", { suggest: "CC BY 4.0", size: "3" }, ["cc-by-4.0", "cc-by-sa-4.0", "cc-by-nd-4.0"]],
  ["licenses", { suggest: "creative commons attribution 4.0", size: "1" }, ["cc-by-4.0"]],
  ["licenses", { suggest: "mit", size: "1" }, ["mit"]],
  // What LIKE would read as its own syntax is typed text on both engines.
  ["licenses", { suggest: "cc%by", size: "3" }, ["cc-by-1.0", "cc-by-2.0", "cc-by-2.5"]],
  ["licenses", { suggest: "cc\\by", size: "3" }, ["cc-by-3.0-igo", "cc-by-1.0", "cc-by-2.0"]],
  ["licenses", { suggest: "cc_by", size: "3" }, ["cc-by-1.0", "cc-by-2.0", "cc-by-2.5"]],
  ["languages", { suggest: "English", size: "1" }, ["eng"]],
  ["languages", { suggest: "eng", size: "3" }, ["eng", "enq", "ngr"]],
  // Prefixes and wildcards (expanded to the index's words), on every field or one.
  ["languages", { q: "fre*", size: "3" }, ["fra", "frc", "fsl"]],
  ["languages", { q: "title:fren?h", size: "3" }, ["fra", "frc", "fsl"]],
  ["languages", { q: "?rench", size: "3" }, ["fra", "frc", "fsl"]],
  ["licenses", { q: "id:mit", size: "3" }, ["mit-cmu", "mit-enna", "mit-feh"]],
  // Boolean queries, phrases, negations alone (an SQL condition beside the index, name order).
  ["licenses", { q: "mit OR apache", size: "3" }, ["mit-cmu", "mit-feh", "mit"]],
  ["licenses", { q: "gpl -lgpl", size: "3" }, ["smail-gpl", "gpl-1.0", "gpl-1.0-only"]],
  ["licenses", { q: '"general public"', size: "3" }, ["ngpl", "smail-gpl", "lgpllr"]],
  ["languages", { q: "-english", size: "3" }, ["alu", "kud", "aou"]],
  ["languages", { q: "_exists_:title", size: "3" }, []],
  // Tags, sorts and paging.
  ["resourcetypes", { tags: "depositable", q: "image", size: "4" }, ["image", "image-diagram", "image-drawing", "image-figure"]],
  ["resourcetypes", { q: "image", sort: "bestmatch", size: "3" }, ["image", "image-diagram", "image-drawing"]],
  ["languages", { suggest: "fr", sort: "title", size: "3", page: "2" }, ["frq", "frd", "frt"]],
  // Titles in other languages, diacritics folded.
  ["communitytypes", { suggest: "forschung" }, ["research-group"]],
  ["communitytypes", { q: "equipe" }, ["research-group"]],
  ["communitytypes", { q: "title.en:labor*" }, ["lab"]],
  ["communitytypes", { q: "description:laboratory" }, ["lab"]],
  ["communitytypes", { sort: "newest" }, ["lab", "research-group"]],
  // A phrase stays within one field: "labor" ends the titles, "lab" is the id.
  ["communitytypes", { q: '"labor lab"' }, []],
  ["communitytypes", { q: '"research group"' }, ["research-group"]],
  // Directories: relevance for one phrase, shorter entries first for several, fields.
  ["names", { q: "lovelace" }, ["n-long", "0000-0002-1825-0097", "n-hopper"]],
  ["names", { suggest: "ada lov" }, ["0000-0002-1825-0097", "n-long"]],
  ["names", { q: "lovel*", sort: "name" }, ["n-hopper", "0000-0002-1825-0097", "n-long", "n-lovell"]],
  ["names", { q: "family_name:lovel*", sort: "name" }, ["0000-0002-1825-0097", "n-long", "n-lovell"]],
  ["names", { q: "affiliations.name:cambridge" }, ["n-babbage"]],
  ["names", { q: "nother" }, ["n-noether"]],
  ["names", { suggest: "NÖTH" }, ["n-noether"]],
  ["names", { q: "göttingen" }, ["n-noether"]],
  ["names", { q: "identifiers.identifier:0000-0002-1825-0097" }, ["0000-0002-1825-0097"]],
  ["names", { q: "-family_name:lovell -family_name:babbage", sort: "name" }, ["n-hopper", "0000-0002-1825-0097", "n-long", "n-noether"]],
  ["names", { q: "lov?ll" }, ["n-lovell"]],
  ["names", { sort: "oldest", size: "2" }, ["0000-0002-1825-0097", "n-long"]],
  ["affiliations", { suggest: "cdl" }, ["03yrm5c26"]],
  ["affiliations", { q: "universitat" }, ["013meh722"]],
  ["affiliations", { q: "country:gb" }, ["013meh722"]],
  ["funders", { q: "country:US" }, ["021nxhr62"]],
  ["funders", { q: 'identifiers.identifier:"10.13039/100000001"' }, ["021nxhr62"]],
  ["funders", { suggest: "ec" }, ["00k4n6c32"]],
  ["subjects", { suggest: "calci" }, ["euroscivoc-1", "https://id.nlm.nih.gov/mesh/D000001"]],
  ["subjects", { q: "scheme:mesh", sort: "subject" }, ["https://id.nlm.nih.gov/mesh/D000001", "https://id.nlm.nih.gov/mesh/D000002"]],
  ["awards", { q: "number:101000001" }, ["00k4n6c32::101000001"]],
  ["awards", { suggest: "ocean" }, ["00k4n6c32::101000001", "00k4n6c32::101000002"]],
  ["awards", { q: "oceaniques" }, ["00k4n6c32::101000002"]],
  ["awards", { q: "funder.id:00k4n6c32", sort: "newest" }, ["00k4n6c32::101000002", "00k4n6c32::101000001"]],
];

describe("the same answers on both engines", () => {
  test.each(CASES)("%s %j", async (type, query, expected) => {
    const [sqlite, postgres] = await both(type, query);
    expect(sqlite!.ids).toEqual(expected);
    expect(postgres).toEqual(sqlite!);
  });

  test("a wildcard matching more words than a query may hold is the same 400 on both", async () => {
    const errors = await Promise.all(
      engines.map((e) =>
        e.service.search(systemActor, "languages", { q: "title:?*" }).then(
          () => null,
          (error: { status: number; errors: unknown }) => [error.status, error.errors],
        ),
      ),
    );
    expect(errors[0]).toEqual([400, [{ field: "q", messages: [expect.stringContaining("matches more than 1024 terms of the index")] }]]);
    expect(errors[1]).toEqual(errors[0]!);
  });
});

describe("both indexes follow the entries", () => {
  test("fixtures loaded again with nothing new leave every entry unchanged", async () => {
    const counts = await Promise.all(engines.map((e) => e.service.loadFixtures(shipped, "test-2")));
    const expected = { created: 0, updated: 0, unchanged: shipped().reduce((n, v) => n + v.entries.length, 0), skipped: {} };
    expect(counts).toEqual([expected, expected]);
  });

  test("an import whose batch repeats an id creates the entry once and updates it with the later copy", async () => {
    async function* items() {
      yield { entry: { id: "rep-1", given_name: "Rosalind", family_name: "Franklyn" } };
      yield { entry: { id: "rep-2", given_name: "Dorothy", family_name: "Hodgkin" } };
      yield { entry: { id: "rep-1", given_name: "Rosalind", family_name: "Franklin" } };
    }
    const summaries = await Promise.all(engines.map((e) => e.service.importEntries(systemActor, "names", items())));
    expect(summaries).toEqual([
      { created: 2, updated: 1, unchanged: 0, skipped: {} },
      { created: 2, updated: 1, unchanged: 0, skipped: {} },
    ]);
    for (const [query, expected] of [
      ["franklin", ["rep-1"]],
      ["franklyn", []],
      ["hodgkin", ["rep-2"]],
    ] as const) {
      const [sqlite, postgres] = await both("names", { q: query });
      expect(sqlite!.ids).toEqual([...expected]);
      expect(postgres).toEqual(sqlite!);
    }
    for (const e of engines) for (const id of ["rep-1", "rep-2"]) await e.service.remove(systemActor, "names", id, null, cli);
  });

  test("an edit, a retirement, a restore and a deletion change the answers alike", async () => {
    const mesh1 = "https://id.nlm.nih.gov/mesh/D000001";
    const steps: [(e: Engine) => Promise<unknown>, string, Query, string[]][] = [
      [
        (e) => e.service.update(systemActor, "names", "n-lovell", { given_name: "Bernard", family_name: "Lovelace" }, null, cli),
        "names",
        { q: "lovelace" },
        ["n-lovell", "n-long", "0000-0002-1825-0097", "n-hopper"],
      ],
      [(e) => e.service.remove(systemActor, "names", "n-hopper", null, cli), "names", { q: "lovelace", sort: "name" }, ["0000-0002-1825-0097", "n-lovell", "n-long"]],
      [(e) => e.service.setRetired(systemActor, "subjects", mesh1, true, cli), "subjects", { suggest: "calci" }, ["euroscivoc-1"]],
      [(e) => e.service.setRetired(systemActor, "subjects", mesh1, false, cli), "subjects", { q: "calcimycin" }, [mesh1]],
    ];
    for (const [change, type, query, expected] of steps) {
      for (const e of engines) await change(e);
      const [sqlite, postgres] = await both(type, query);
      expect(sqlite!.ids).toEqual(expected);
      expect(postgres).toEqual(sqlite!);
    }
    const [sqlite, postgres] = await both("names", { size: "1" });
    expect(sqlite!.total).toBe(NAMES.length - 1);
    expect(postgres!.total).toBe(sqlite!.total);
  });
});
