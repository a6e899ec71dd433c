// `cairn vocabularies list|add|edit|retire|restore` on a test app's data directory: the screen's
// rules (licences and subjects editable and retirable, resource types' labels only, the rest
// read-only), each change audited exactly once as the system via the CLI, and `import` audited
// too; refusals exit 2 with a clear message and change nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemActor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";
import { cairn } from "../helpers/cli";

let t: TestApp;
let dir = "";

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), "cairn-vocab-admin-"));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(...args: string[]) {
  t.clock.advance(60_000);
  return cairn([...args, "--data", t.dataDir], {}, { clock: t.clock });
}

const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
};

/** Every vocabulary.* audit entry, oldest first, as [action, target, via, address, actor]. */
async function vocabularyAudit() {
  const { entries } = await t.services.audit.search(systemActor, { targetType: "vocabulary", size: 100 });
  return entries.reverse().map((e) => [e.action, e.targetId, e.via, e.address, e.actorLabel]);
}

describe("cairn vocabularies: entries by hand, as the screen does them", () => {
  test("add (--file), edit (--json), retire, list --retired, restore, list --q: each audited once via cli", async () => {
    const before = await vocabularyAudit();
    const added = run(
      "vocabularies",
      "add",
      "licenses",
      "--file",
      file("echidna.json", { id: "echidna-1.0", title: { en: "Echidna Licence 1.0" }, props: { url: "https://example.org/echidna" } }),
    );
    expect(added).toMatchObject({ code: 0, stdout: "added licenses entry echidna-1.0\n", stderr: "" });
    expect((await t.call("GET", "/api/vocabularies/licenses/echidna-1.0")).json).toMatchObject({
      title: { en: "Echidna Licence 1.0" },
      props: { url: "https://example.org/echidna" },
      revision_id: 1,
    });

    const edited = run(
      "vocabularies",
      "edit",
      "licenses",
      "echidna-1.0",
      "--json",
      JSON.stringify({ title: { en: "Echidna Licence 1.1" }, props: { url: "https://example.org/echidna" } }),
    );
    expect(edited).toMatchObject({ code: 0, stdout: "saved licenses entry echidna-1.0 (revision 2)\n", stderr: "" });

    expect(run("vocabularies", "list", "licenses", "--q", "echidna")).toMatchObject({
      code: 0,
      stdout: "id           label                retired\nechidna-1.0  Echidna Licence 1.1  -\n1 entry\n",
    });

    expect(run("vocabularies", "retire", "licenses", "echidna-1.0")).toMatchObject({ code: 0, stdout: "retired licenses entry echidna-1.0: new deposits no longer find it\n" });
    const retired = (await t.call("GET", "/api/vocabularies/licenses/echidna-1.0")).json.retired as string;
    expect(retired).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(run("vocabularies", "list", "licenses", "--q", "echidna").stdout).toBe("id  label  retired\n0 entries\n");
    expect(run("vocabularies", "list", "licenses", "--retired").stdout).toBe(
      `id           label                retired\nechidna-1.0  Echidna Licence 1.1  ${retired}\n1 retired entry\n`,
    );

    expect(run("vocabularies", "restore", "licenses", "echidna-1.0")).toMatchObject({ code: 0, stdout: "licenses entry echidna-1.0 is offered again\n" });
    expect((await t.call("GET", "/api/vocabularies/licenses?suggest=echidna")).json.hits.hits.map((h: { id: string }) => h.id)).toEqual(["echidna-1.0"]);

    const cli = ["cli", null, "system"];
    expect((await vocabularyAudit()).slice(before.length)).toEqual([
      ["vocabulary.create", "licenses/echidna-1.0", ...cli],
      ["vocabulary.update", "licenses/echidna-1.0", ...cli],
      ["vocabulary.retire", "licenses/echidna-1.0", ...cli],
      ["vocabulary.restore", "licenses/echidna-1.0", ...cli],
    ]);
  });

  test("resource types: only the labels change, whatever else the entry says", async () => {
    const before = (await t.call("GET", "/api/vocabularies/resourcetypes/dataset")).json;
    const res = run("vocabularies", "edit", "resourcetypes", "dataset", "--json", JSON.stringify({ title: { en: "Data collection" }, props: { datacite_general: "Other" } }));
    expect(res.code).toBe(0);
    expect((await t.call("GET", "/api/vocabularies/resourcetypes/dataset")).json).toMatchObject({ title: { ...before.title, en: "Data collection" }, props: before.props });
  });

  test("import is audited via cli with its file's name", async () => {
    const before = await vocabularyAudit();
    const res = run("vocabularies", "import", "subjects", file("subjects.csv", "id,scheme,subject\nkoala,local,Koalas\n"));
    expect(res).toMatchObject({ code: 0, stdout: "subjects: created 1, updated 0, unchanged 0, skipped 0\n" });
    const { entries } = await t.services.audit.search(systemActor, { action: "vocabulary.import" });
    expect(entries[0]).toMatchObject({ targetId: "subjects", via: "cli", address: null, actorLabel: "system", details: { source: "file", name: "subjects.csv" } });
    expect((await vocabularyAudit()).length).toBe(before.length + 1);
  });

  test.each([
    [
      "a read-only type",
      ["vocabularies", "add", "languages", "--json", '{"id":"zzz","title":{"en":"Zish"}}'],
      "cairn: The languages vocabulary is read-only: its entries come from the shipped lists or from imports.\n",
    ],
    [
      "editing a read-only type",
      ["vocabularies", "edit", "languages", "eng", "--json", '{"title":{"en":"Englisch"}}'],
      "cairn: The languages vocabulary is read-only: its entries come from the shipped lists or from imports.\n",
    ],
    ["adding to resource types", ["vocabularies", "add", "resourcetypes", "--json", '{"id":"x","title":{"en":"X"}}'], "cairn: Entries are not added to resourcetypes by hand.\n"],
    ["retiring a resource type", ["vocabularies", "retire", "resourcetypes", "dataset"], "cairn: Entries of resourcetypes are not retired by hand.\n"],
    ["an unknown type", ["vocabularies", "retire", "colours", "red"], "cairn: Vocabulary type 'colours' not found.\n"],
    ["an unknown entry", ["vocabularies", "retire", "licenses", "no-such"], "cairn: The licenses entry 'no-such' does not exist.\n"],
    ["restoring an offered entry", ["vocabularies", "restore", "licenses", "cc-by-4.0"], "cairn: The licenses entry 'cc-by-4.0' is not retired.\n"],
    ["an existing id", ["vocabularies", "add", "licenses", "--json", '{"id":"cc-by-4.0","title":{"en":"Again"}}'], "cairn: id: An entry with id 'cc-by-4.0' exists already.\n"],
    ["no entry given", ["vocabularies", "add", "licenses"], "cairn: vocabularies add needs the entry: --file entry.json or --json '{...}'\n"],
    [
      "both --file and --json",
      ["vocabularies", "add", "licenses", "--file", "x.json", "--json", "{}"],
      "cairn: vocabularies add needs the entry: --file entry.json or --json '{...}'\n",
    ],
    ["not JSON", ["vocabularies", "add", "licenses", "--json", "{nope"], "cairn: the entry is not JSON: "],
    ["not an object", ["vocabularies", "add", "licenses", "--json", "[1]"], "cairn: the entry must be a JSON object\n"],
    ["edit without an id", ["vocabularies", "edit", "licenses", "--json", "{}"], "cairn: vocabularies edit needs a TYPE and an ID\n"],
    ["list without a type", ["vocabularies", "list"], "cairn: vocabularies list needs a TYPE\n"],
    ["--retired with --q", ["vocabularies", "list", "licenses", "--retired", "--q", "x"], "cairn: --retired lists every retired entry: it takes no --q\n"],
  ])("refused: %s", async (_what, args, stderr) => {
    const before = await vocabularyAudit();
    const result = run(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toStartWith(stderr);
    expect(await vocabularyAudit()).toEqual(before);
  });
});
