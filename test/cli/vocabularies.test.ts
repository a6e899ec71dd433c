// `cairn vocabularies import`: real dump formats in, summary out, idempotent, clear errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { cairn } from "../helpers/cli";
import { dropDataDirDatabases, prepareDataDir, readRows } from "../helpers/data-dir";

let dir = "";
let data = "";
const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const rows = async (type: string) =>
  (await readRows<{ id: string; data: string }>(data, "SELECT id, data FROM vocabulary_entries WHERE type = ? ORDER BY id", [type])).map((r) => ({
    id: r.id,
    ...JSON.parse(r.data),
  }));
const importFile = (type: string, path: string) => cairn(["vocabularies", "import", type, path, "--data", data]);

const rorOrg = (id: string, name: string, extra: object = {}) => ({
  id: `https://ror.org/${id}`,
  names: [{ value: name, types: ["ror_display", "label"], lang: "en" }],
  locations: [{ geonames_details: { country_code: "BE" } }],
  external_ids: [{ type: "fundref", all: ["501100000780"], preferred: "501100000780" }],
  status: "active",
  types: ["funder"],
  ...extra,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-vocab-cli-"));
  data = await prepareDataDir(join(dir, "data"));
});
afterAll(async () => {
  await dropDataDirDatabases();
  rmSync(dir, { recursive: true, force: true });
});

describe("imports", () => {
  test("names from CSV: created, then unchanged on a second run, updated when a row changes", async () => {
    const csv =
      "id,given_name,family_name,identifiers,affiliations\n0000-0002-1825-0097,Ada,Lovelace,orcid:0000-0002-1825-0097,Analytical Society\nn2,Charles,Babbage,,Cambridge;Royal Society\n,Nobody,Known,,\n";
    const path = file("names.csv", csv);
    const first = importFile("names", path);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^names: created 2, updated 0, unchanged 0, skipped 1 \(1 line 4: .+\)\n$/);
    const again = importFile("names", path);
    expect(again.stdout).toMatch(/^names: created 0, updated 0, unchanged 2, skipped 1 /);
    file("names.csv", csv.replace("Cambridge;Royal Society", "Trinity College"));
    expect(importFile("names", path).stdout).toMatch(/^names: created 0, updated 1, unchanged 1, skipped 1 /);
    expect(await rows("names")).toEqual([
      {
        id: "0000-0002-1825-0097",
        name: "Lovelace, Ada",
        given_name: "Ada",
        family_name: "Lovelace",
        identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }],
        affiliations: [{ name: "Analytical Society" }],
      },
      { id: "n2", name: "Babbage, Charles", given_name: "Charles", family_name: "Babbage", identifiers: [], affiliations: [{ name: "Trinity College" }] },
    ]);
  });

  test("funders from a gzipped ROR v2 dump", async () => {
    const dump = [rorOrg("00k4n6c32", "European Commission"), { id: "https://ror.org/0000000xx", names: [], status: "active" }];
    const res = importFile("funders", file("ror.json.gz", gzipSync(JSON.stringify(dump))));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^funders: created 1, updated 0, unchanged 0, skipped 1 /);
    expect(await rows("funders")).toEqual([
      expect.objectContaining({
        id: "00k4n6c32",
        name: "European Commission",
        country: "BE",
        identifiers: expect.arrayContaining([
          { scheme: "ror", identifier: "00k4n6c32" },
          { scheme: "doi", identifier: "10.13039/501100000780" },
        ]),
      }),
    ]);
  });

  test("subjects from YAML and awards from OpenAIRE JSON lines", async () => {
    const yaml = "- id: https://id.nlm.nih.gov/mesh/D000001\n  scheme: MeSH\n  subject: Calcimycin\n- id: x\n  scheme: MeSH\n";
    expect(importFile("subjects", file("subjects.yaml", yaml)).stdout).toMatch(/^subjects: created 1, updated 0, unchanged 0, skipped 1 /);
    expect(await rows("subjects")).toEqual([{ id: "https://id.nlm.nih.gov/mesh/D000001", scheme: "MeSH", subject: "Calcimycin" }]);
    const project = {
      code: "101000001",
      title: "Ocean observations",
      acronym: "OCEAN",
      fundings: [{ shortName: "EC", fundingStream: { id: "EC::HE::HORIZON-RIA" } }],
      id: "corda_____he::101000001",
    };
    const res = importFile("awards", file("projects.jsonl.gz", gzipSync(JSON.stringify(project) + "\n")));
    expect(res.code).toBe(0);
    expect(res.stdout).toStartWith("awards: created 1,");
    expect((await rows("awards"))[0]).toMatchObject({ id: "00k4n6c32::101000001", number: "101000001", title: { en: "Ocean observations" }, acronym: "OCEAN" });
  });
});

describe("wrong arguments: one line, exit 2", () => {
  test.each([
    ["unknown type", ["vocabularies", "import", "colours", "x.csv"], "cairn: vocabularies import needs a TYPE: funders, names, affiliations, subjects, awards\n"],
    ["no file", ["vocabularies", "import", "names"], "cairn: vocabularies import needs the FILE to read\n"],
    ["missing file", ["vocabularies", "import", "names", "/nope/names.csv"], "cairn: /nope/names.csv does not exist\n"],
    ["unknown subcommand", ["vocabularies", "export"], "cairn: unknown vocabularies command 'export' (add, edit, retire, restore, list, import, update)\n"],
  ])("%s", (_name, args, stderr) => {
    const res = cairn([...args, "--data", data]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(stderr);
  });

  test("a zip or a broken dump is named, and nothing of it is written", async () => {
    const before = (await rows("funders")).length;
    const zip = importFile("funders", file("ror.zip", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0])));
    expect(zip.code).toBe(2);
    expect(zip.stderr).toStartWith(`cairn: cannot read ${join(dir, "ror.zip")}: `);
    expect(zip.stderr).toContain("unzip");
    const broken = importFile("affiliations", file("broken.json", '[{"id": "https://ror.org/x", "names": ['));
    expect(broken.code).toBe(2);
    expect(broken.stderr.split("\n").length).toBe(2);
    expect((await rows("funders")).length).toBe(before);
    expect(await rows("affiliations")).toEqual([]);
  });

  test("subjects need a tabular file", () => {
    const res = importFile("subjects", file("subjects.txt", "x"));
    expect(res).toMatchObject({ code: 2, stderr: `cairn: subjects are read from .csv, .jsonl or .yaml files, not ${join(dir, "subjects.txt")}\n` });
  });
});
