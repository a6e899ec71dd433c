// src/vocabularies/importers: ROR, ORCID, tabular and OpenAIRE readers on small dumps in their real formats.
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { pack } from "tar-stream";
import { readOpenaireProjects } from "../../src/vocabularies/importers/openaire";
import { readOrcid } from "../../src/vocabularies/importers/orcid";
import { readRor } from "../../src/vocabularies/importers/ror";
import { readTabular } from "../../src/vocabularies/importers/tabular";

const dir = mkdtempSync(join(tmpdir(), "cairn-importers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
};

/** Drains a reader, recording its progress calls. */
async function run<T>(read: (onProgress: (read: number, total: number) => void) => AsyncIterable<T>) {
  const items: T[] = [];
  const progress: [number, number][] = [];
  for await (const item of read((r, t) => progress.push([r, t]))) items.push(item);
  return { items, last: progress.at(-1) };
}

async function tarOf(files: Record<string, string | Uint8Array>, gzip: boolean): Promise<Uint8Array> {
  const p = pack();
  for (const [name, content] of Object.entries(files)) p.entry({ name }, content);
  p.finalize();
  const chunks: Uint8Array[] = [];
  for await (const chunk of p) chunks.push(chunk as Uint8Array);
  const tar = Buffer.concat(chunks);
  return gzip ? gzipSync(tar) : tar;
}

describe("readRor", () => {
  const orgs = [
    {
      id: "https://ror.org/01ggx4157",
      names: [
        { value: "European Organization for Nuclear Research", types: ["ror_display", "label"], lang: "en" },
        { value: "CERN", types: ["acronym"], lang: null },
        { value: "Organisation européenne pour la recherche nucléaire", types: ["label"], lang: "fr" },
      ],
      status: "active",
      types: ["facility", "funder"],
      locations: [{ geonames_id: 2660646, geonames_details: { country_code: "CH", country_name: "Switzerland", name: "Geneva" } }],
      external_ids: [
        { type: "fundref", all: ["100012470"], preferred: "100012470" },
        { type: "grid", all: ["grid.9132.9"], preferred: "grid.9132.9" },
        { type: "isni", all: ["0000 0001 2156 142X"], preferred: null },
        { type: "wikidata", all: ["Q42944"], preferred: null },
      ],
    },
    {
      id: "https://ror.org/04t3en479",
      names: [
        { value: "Karlsruher Institut für Technologie", types: ["ror_display", "label"], lang: "de" },
        { value: "KIT", types: ["acronym"] },
      ],
      status: "inactive",
      locations: [{ geonames_details: { country_code: "de" } }],
      external_ids: [],
    },
    { id: "https://ror.org/000000000", names: [{ value: "Nameless Alias", types: ["alias"], lang: null }], external_ids: [] },
  ];
  const json = JSON.stringify(orgs, null, 2) + "\n";
  const cern = {
    id: "01ggx4157",
    name: "European Organization for Nuclear Research",
    acronym: "CERN",
    country: "CH",
    title: { en: "European Organization for Nuclear Research", fr: "Organisation européenne pour la recherche nucléaire" },
  };
  const kit = {
    entry: {
      id: "04t3en479",
      name: "Karlsruher Institut für Technologie",
      acronym: "KIT",
      country: "DE",
      identifiers: [{ scheme: "ror", identifier: "04t3en479" }],
      title: { de: "Karlsruher Institut für Technologie", en: "Karlsruher Institut für Technologie" },
    },
  };
  const noName = { skip: 'ROR 000000000: no name of type "ror_display"' };

  test.each([
    ["ror.json", json],
    ["ror.json.gz", gzipSync(json)],
  ])("funders from %s: fundref becomes a 10.13039 DOI, Wikidata is dropped", async (name, content) => {
    const path = file(name, content);
    const { items, last } = await run((p) => readRor(path, "funders", p));
    expect(items).toEqual([
      {
        entry: {
          ...cern,
          identifiers: [
            { scheme: "ror", identifier: "01ggx4157" },
            { scheme: "doi", identifier: "10.13039/100012470" },
            { scheme: "grid", identifier: "grid.9132.9" },
            { scheme: "isni", identifier: "0000 0001 2156 142X" },
          ],
        },
      },
      kit,
      noName,
    ]);
    const size = statSync(path).size;
    expect(last).toEqual([size, size]);
  });

  test("affiliations keep no funder DOI", async () => {
    const { items } = await run((p) => readRor(file("aff.json", json), "affiliations", p));
    expect(items).toEqual([
      {
        entry: {
          ...cern,
          identifiers: [
            { scheme: "ror", identifier: "01ggx4157" },
            { scheme: "grid", identifier: "grid.9132.9" },
            { scheme: "isni", identifier: "0000 0001 2156 142X" },
          ],
        },
      },
      kit,
      noName,
    ]);
  });

  test("a zip, a non-array and a truncated dump are refused with a clear error", async () => {
    const drain = async (path: string) => {
      for await (const _ of readRor(path, "funders"));
    };
    await expect(drain(file("ror.zip", Buffer.from("PK\x03\x04rest")))).rejects.toThrow("ror.zip is a zip archive: unzip it");
    await expect(drain(file("obj.json", '{"id": "x"}'))).rejects.toThrow("ROR dump obj.json: expected a JSON array");
    await expect(drain(file("cut.json", json.slice(0, 200)))).rejects.toThrow("ROR dump cut.json:");
  });
});

describe("readOrcid", () => {
  const ns =
    'xmlns:record="http://www.orcid.org/ns/record" xmlns:common="http://www.orcid.org/ns/common" xmlns:person="http://www.orcid.org/ns/person" ' +
    'xmlns:personal-details="http://www.orcid.org/ns/personal-details" xmlns:activities="http://www.orcid.org/ns/activities" xmlns:employment="http://www.orcid.org/ns/employment"';
  const job = (org: string, disambiguation = "", ended = false) =>
    `<activities:affiliation-group><employment:employment-summary put-code="1" visibility="public">` +
    `<common:start-date><common:year>2001</common:year></common:start-date>` +
    (ended ? "<common:end-date><common:year>2010</common:year></common:end-date>" : "") +
    `<common:organization><common:name>${org}</common:name><common:address><common:country>US</common:country></common:address>${disambiguation}</common:organization>` +
    `</employment:employment-summary></activities:affiliation-group>`;
  const dis = (id: string, source: string) =>
    `<common:disambiguated-organization><common:disambiguated-organization-identifier>${id}</common:disambiguated-organization-identifier>` +
    `<common:disambiguation-source>${source}</common:disambiguation-source></common:disambiguated-organization>`;
  const record = (orcid: string, person: string, jobs: string) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<record:record path="/${orcid}" ${ns}>\n` +
    `<common:orcid-identifier><common:uri>https://orcid.org/${orcid}</common:uri><common:path>${orcid}</common:path><common:host>orcid.org</common:host></common:orcid-identifier>\n` +
    `<person:person path="/${orcid}/person">${person}</person:person>\n` +
    `<activities:activities-summary><activities:employments>${jobs}</activities:employments></activities:activities-summary>\n</record:record>\n`;
  const carberry = record(
    "0000-0002-1825-0097",
    '<person:name visibility="public"><personal-details:given-names>Josiah</personal-details:given-names><personal-details:family-name>Carberry</personal-details:family-name></person:name>',
    job("Brown University", dis("https://ror.org/05gq02987", "ROR")) +
      job("Brown University &amp; Co", dis("https://ror.org/05gq02987", "ROR")) +
      job("Wesleyan University", dis("https://ror.org/05h7xva58", "ROR"), true) +
      job("Psychoceramics Lab", dis("5676", "RINGGOLD")),
  );
  const anonymous = record("0000-0001-2345-6789", "", job("CERN"));
  const expected = [
    {
      entry: {
        id: "0000-0002-1825-0097",
        given_name: "Josiah",
        family_name: "Carberry",
        name: "Carberry, Josiah",
        identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }],
        affiliations: [{ id: "05gq02987", name: "Brown University" }, { name: "Psychoceramics Lab" }],
      },
    },
    { skip: "ORCID 0000-0001-2345-6789: no public given or family name" },
  ];

  test("a single record, and several concatenated in one file", async () => {
    expect((await run((p) => readOrcid(file("one.xml", carberry), p))).items).toEqual([expected[0]!]);
    const path = file("many.xml", carberry + anonymous + "<!-- end -->");
    const { items, last } = await run((p) => readOrcid(path, p));
    expect(items).toEqual(expected);
    expect(last).toEqual([statSync(path).size, statSync(path).size]);
  });

  test("a directory of summaries, walked recursively", async () => {
    file("orcid-dir/097/0000-0002-1825-0097.xml", carberry);
    file("orcid-dir/789/0000-0001-2345-6789.xml", anonymous);
    file("orcid-dir/README.txt", "not a record");
    const total = statSync(join(dir, "orcid-dir/097/0000-0002-1825-0097.xml")).size + statSync(join(dir, "orcid-dir/789/0000-0001-2345-6789.xml")).size;
    const { items, last } = await run((p) => readOrcid(join(dir, "orcid-dir"), p));
    expect(items).toEqual(expected);
    expect(last).toEqual([total, total]);
  });

  test("the .tar.gz dump, with a member holding no record", async () => {
    const tgz = await tarOf(
      {
        "ORCID_2024_10_summaries/097/0000-0002-1825-0097.xml": carberry,
        "ORCID_2024_10_summaries/789/0000-0001-2345-6789.xml": anonymous,
        "ORCID_2024_10_summaries/000/error.xml": '<error:error xmlns:error="http://www.orcid.org/ns/error"><error:response-code>409</error:response-code></error:error>',
      },
      true,
    );
    const path = file("summaries.tar.gz", tgz);
    const { items, last } = await run((p) => readOrcid(path, p));
    expect(items).toEqual([...expected, { skip: "ORCID_2024_10_summaries/000/error.xml: no ORCID <record> element" }]);
    expect(last).toEqual([tgz.length, tgz.length]);
  });

  test("names InvenioRDM refuses are skipped; a given name alone is kept", async () => {
    const named = (orcid: string, given: string, family?: string) =>
      record(
        orcid,
        `<person:name><personal-details:given-names>${given}</personal-details:given-names>${family ? `<personal-details:family-name>${family}</personal-details:family-name>` : ""}</person:name>`,
        "",
      );
    const path = file("odd.xml", named("0000-0003-0000-0001", "Spam4", "Bot") + named("0000-0003-0000-0002", "Sukarno") + named("0000-0003-0000-0003", "Mary-Jo", "O'Neil (Jr.)"));
    expect((await run((p) => readOrcid(path, p))).items).toEqual([
      { skip: "ORCID 0000-0003-0000-0001: name contains punctuation, symbols, digits or emoji" },
      { entry: { id: "0000-0003-0000-0002", given_name: "Sukarno", name: "Sukarno", identifiers: [{ scheme: "orcid", identifier: "0000-0003-0000-0002" }], affiliations: [] } },
      {
        entry: {
          id: "0000-0003-0000-0003",
          given_name: "Mary-Jo",
          family_name: "O'Neil (Jr.)",
          name: "O'Neil (Jr.), Mary-Jo",
          identifiers: [{ scheme: "orcid", identifier: "0000-0003-0000-0003" }],
          affiliations: [],
        },
      },
    ]);
  });
});

describe("readTabular", () => {
  const carberry = {
    id: "0000-0002-1825-0097",
    given_name: "Josiah",
    family_name: "Carberry",
    name: "Carberry, Josiah",
    identifiers: [
      { scheme: "orcid", identifier: "0000-0002-1825-0097" },
      { scheme: "isni", identifier: "0000000121032683" },
    ],
    affiliations: [{ name: "Brown University" }, { name: "Wesleyan University" }],
  };
  const doe = { id: "jdoe", given_name: "Jane", family_name: "Doe", name: "Doe, Jane", identifiers: [], affiliations: [{ name: "CERN" }] };
  const calcimycin = { id: "D000001", scheme: "MeSH", subject: "Calcimycin" };
  const row = (r: object) => JSON.stringify(r);
  const jsonCarberry = {
    given_name: "Josiah",
    family_name: "Carberry",
    identifiers: [carberry.identifiers[0], carberry.identifiers[1]],
    affiliations: [{ name: "Brown University" }, { name: "Wesleyan University" }],
  };

  test.each([
    [
      "names.csv",
      'id,given_name,family_name,identifiers,affiliations\n,Josiah,Carberry,"orcid:0000-0002-1825-0097; isni:0000000121032683",Brown University;Wesleyan University\njdoe,Jane,Doe,,CERN\n,Nobody,Known,isni:123,\n',
      "line 4",
    ],
    [
      "names.jsonl.gz",
      gzipSync(
        [
          row(jsonCarberry),
          row({ id: "jdoe", given_name: "Jane", family_name: "Doe", affiliations: ["CERN"] }),
          "",
          row({ given_name: "Nobody", identifiers: [{ scheme: "isni", identifier: "123" }] }),
        ].join("\n"),
      ),
      "line 4",
    ],
    [
      "names.yaml",
      `- given_name: Josiah\n  family_name: Carberry\n  identifiers:\n    - {scheme: orcid, identifier: 0000-0002-1825-0097}\n    - {scheme: isni, identifier: "0000000121032683"}\n  affiliations:\n    - name: Brown University\n    - name: Wesleyan University\n- {id: jdoe, given_name: Jane, family_name: Doe, affiliations: [{name: CERN}]}\n- {given_name: Nobody}\n`,
      "item 3",
    ],
  ])("names from %s", async (name, content, bad) => {
    const path = file(name, content);
    const { items, last } = await run((p) => readTabular(path, "names", p));
    expect(items).toEqual([{ entry: carberry }, { entry: doe }, { skip: `${bad}: no id and no orcid identifier` }]);
    expect(last).toEqual([statSync(path).size, statSync(path).size]);
  });

  test.each([
    ["subjects.csv", "id,scheme,subject\nD000001,MeSH,Calcimycin\nD000002,MeSH,\n", "line 3: missing subject"],
    ["subjects.ndjson", `${row(calcimycin)}\n{"id": "D000002", "subject": "Temefos"}\n{not json\n`, "line 2: missing scheme"],
    ["subjects.yml", "- id: D000001\n  scheme: MeSH\n  subject: Calcimycin\n- id: D000002\n", "item 2: missing scheme, subject"],
  ])("subjects from %s", async (name, content, skip) => {
    const path = file(name, content);
    const { items, last } = await run((p) => readTabular(path, "subjects", p));
    expect(items.slice(0, 2)).toEqual([{ entry: calcimycin }, { skip }]);
    expect(items.slice(2).map((i) => ("skip" in i ? i.skip.replace(/: invalid JSON: .*/, ": invalid JSON") : i))).toEqual(name.endsWith("ndjson") ? ["line 3: invalid JSON"] : []);
    expect(last).toEqual([statSync(path).size, statSync(path).size]);
  });

  test("an unknown extension is refused", async () => {
    const drain = async () => {
      for await (const _ of readTabular(file("names.xlsx", "x"), "names"));
    };
    await expect(drain()).rejects.toThrow("unsupported file type");
  });

  test("200,000 JSONL names stream with bounded memory", async () => {
    const path = join(dir, "big.jsonl");
    writeFileSync(path, "");
    for (let batch = 0; batch < 10; batch++) {
      const lines: string[] = [];
      for (let i = batch * 20_000; i < (batch + 1) * 20_000; i++) {
        lines.push(
          row({
            given_name: `Given${i}`,
            family_name: `Family${i}`,
            identifiers: [{ scheme: "orcid", identifier: `0000-0000-${String(i).padStart(8, "0")}` }],
            affiliations: [{ name: `Institute ${i % 97}` }],
          }),
        );
      }
      appendFileSync(path, lines.join("\n") + "\n");
    }
    expect(statSync(path).size).toBeGreaterThan(20_000_000);
    // Measured in a child process: in the shared test process, memory other test files leave to
    // the allocator moves the resident size by more than the reader itself uses.
    const script = join(dir, "measure-tabular.ts");
    writeFileSync(
      script,
      `import { readTabular } from ${JSON.stringify(join(import.meta.dir, "../../src/vocabularies/importers/tabular"))};
Bun.gc(true);
const base = process.memoryUsage().rss;
let peak = base, entries = 0, lastId = "";
for await (const item of readTabular(${JSON.stringify(path)}, "names")) {
  if ("entry" in item) { entries++; lastId = item.entry.id; }
  if (entries % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
}
console.log(JSON.stringify({ entries, lastId, grown: peak - base }));
`,
    );
    const child = Bun.spawnSync([process.execPath, script], { stderr: "pipe" });
    expect(child.stderr.toString()).toBe("");
    const { entries, lastId, grown } = JSON.parse(child.stdout.toString());
    expect(entries).toBe(200_000);
    expect(lastId).toBe("0000-0000-00199999");
    // The file is over 20 MB; a reader that buffered it would hold several times that as strings.
    expect(grown).toBeLessThan(150 * 1024 * 1024);
  });
});

describe("readOpenaireProjects", () => {
  const projects = [
    {
      id: "40|corda__h2020::0f3a9c0d",
      code: "654321",
      title: "Open Science Everywhere",
      acronym: "OSE",
      websiteUrl: "http://ose.example",
      fundings: [{ fundingStream: { id: "EC::H2020::ERC::ERC-STG", description: "ERC starting grant" }, shortName: "EC", name: "European Commission", jurisdiction: "EU" }],
    },
    {
      id: "nsf_________::3eb1b4f6",
      code: "0751743",
      title: "Ocean sciences",
      funding: [{ funding_stream: { id: "NSF::GEO/OAD::GEO/OCE" } }],
      websiteurl: "https://nsf.example/0751743",
      doi: "https://doi.org/10.3030/0751743",
    },
    { id: "dfgf________::aa11", code: "123", title: "Unmapped funder" },
    { id: "fct_________::bb22", code: "PTDC/1", acronym: "NT" },
  ];
  const expected = [
    {
      entry: {
        id: "00k4n6c32::654321",
        number: "654321",
        title: { en: "Open Science Everywhere" },
        acronym: "OSE",
        program: "H2020",
        funder: { id: "00k4n6c32" },
        identifiers: [{ scheme: "url", identifier: "https://cordis.europa.eu/projects/654321" }],
      },
    },
    {
      entry: {
        id: "021nxhr62::0751743",
        number: "0751743",
        title: { en: "Ocean sciences" },
        program: "GEO/OAD",
        funder: { id: "021nxhr62" },
        identifiers: [
          { scheme: "url", identifier: "https://nsf.example/0751743" },
          { scheme: "doi", identifier: "10.3030/0751743" },
        ],
      },
    },
    { skip: 'OpenAIRE project dfgf________::aa11: unknown funder prefix "dfgf________"' },
    { skip: "award 00snfqn58::PTDC/1: no title" },
  ];
  const jsonl = projects.map((p) => JSON.stringify(p)).join("\n") + "\n";

  test("a gzipped JSON Lines dump", async () => {
    const path = file("project.jsonl.gz", gzipSync(jsonl));
    const { items, last } = await run((p) => readOpenaireProjects(path, p));
    expect(items).toEqual(expected);
    expect(last).toEqual([statSync(path).size, statSync(path).size]);
  });

  test("the Graph's project.tar of gzipped parts", async () => {
    const tar = await tarOf({ "project/part-00000.json.gz": gzipSync(jsonl) }, false);
    const { items } = await run((p) => readOpenaireProjects(file("project.tar", tar), p));
    expect(items).toEqual(expected);
  });
});
