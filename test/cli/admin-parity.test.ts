// The CLI side of "every administrator action is audited whichever way it came": `cairn records
// delete|restore|owner`, `cairn communities list|feature|unfeature|delete` and `cairn oai-sets
// list|create|update|delete` on a test app's data directory, each change with exactly one entry (the
// system, via cli, no address); wrong arguments and unknown ids refused as one-line usage errors
// (exit 2) that change nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { cairn } from "../helpers/cli";
import { COMMUNITY_BODY } from "../helpers/communities";
import { publishRecord } from "../helpers/records";

let app: TestApp;
const run = (...args: string[]) => cairn([...args, "--data", app.dataDir], {}, { clock: app.clock });
const entries = async (action: string, targetId?: string) => (await app.services.audit.search(systemActor, { action, targetId, size: "100" })).entries;
const total = async () => (await app.services.audit.search(systemActor, {})).total;
/** As the system, via the CLI, from no address. */
const BY_CLI = { actorId: null, actorLabel: "system", via: "cli", address: null };

/** Runs each command, expecting exit 2 and its one-line message, and no audit entry from any. */
async function expectUsageErrors(cases: [string[], string][]) {
  const before = await total();
  for (const [args, message] of cases) expect({ args, ...run(...args) }).toMatchObject({ args, code: 2, stdout: "", stderr: `cairn: ${message}\n` });
  expect(await total()).toBe(before);
}

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("cairn records", () => {
  test("delete, restore, owner: one entry each", async () => {
    const id = (await publishRecord(app)).id as string;
    expect(run("records", "delete", id, "--reason", "spam", "--note", "Advertising.")).toMatchObject({ code: 0, stdout: `deleted ${id}\n` });
    expect(await entries("record.tombstone", id)).toMatchObject([{ ...BY_CLI, targetType: "record", targetId: id, details: { reason: "spam", note: "Advertising." } }]);
    expect(run("records", "restore", id)).toMatchObject({ code: 0, stdout: `restored ${id}\n` });
    expect(await entries("record.restore", id)).toMatchObject([{ ...BY_CLI, targetId: id, details: { reason: "spam" } }]);
    const { alice, bob } = app.users;
    expect(run("records", "owner", "--id", id, "--login", "bob")).toMatchObject({ code: 0, stdout: `${id} is now owned by bob (id ${bob.user.id})\n` });
    expect((await app.services.records.readRecord(systemActor, id)).parent.access.owned_by).toEqual({ user: String(bob.user.id) });
    expect(await entries("record.owner", id)).toMatchObject([{ ...BY_CLI, targetId: id, details: { from: alice.user.id, to: bob.user.id } }]);
  });

  test("owner: missing arguments, an unknown record or account are usage errors", async () => {
    const id = (await publishRecord(app)).id as string;
    await expectUsageErrors([
      [["records", "owner", "--login", "bob"], "records owner needs the record ID (--id ID)"],
      [["records", "owner", id], "--login is required"],
      [["records", "owner", id, "--login", "nobody@example.org"], "No account 'nobody@example.org'."],
      [["records", "owner", "zzzzz-00000", "--login", "bob"], "The persistent identifier does not exist."],
      [["records", "nothing"], "unknown records command 'nothing' (delete, restore, owner)"],
    ]);
    expect((await app.services.records.readRecord(systemActor, id)).parent.access.owned_by).toEqual({ user: String(app.users.alice.user.id) });
  });
});

describe("cairn communities", () => {
  let id = "";
  beforeAll(async () => {
    const res = await app.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("cli-reefs", { title: "Coral reefs" }) });
    expectStatus(res, 201);
    id = res.json.id;
  });

  test("feature, list, unfeature, delete: one entry each", async () => {
    const featured = run("communities", "feature", "cli-reefs", "--start", "2026-11-22T00:00", "--end", "2026-12-22T00:00");
    expect(featured.code).toBe(0);
    const [period] = (await app.services.communities.listFeatured(systemActor, id)).hits.hits;
    expect(featured.stdout).toBe(`featured cli-reefs from 2026-11-22T00:00:00.000000+00:00 to 2026-12-22T00:00:00.000000+00:00 (featured entry ${period!.id})\n`);
    expect(await entries("community.feature", id)).toMatchObject([
      { ...BY_CLI, targetType: "community", targetId: id, details: { slug: "cli-reefs", featured: period!.id, start_date: period!.start_date, end_date: period!.end_date } },
    ]);
    const list = run("communities", "list");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+cli-reefs\\s+Coral reefs\\s+public\\s+${period!.id}: 2026-11-22T00:00:00.000000\\+00:00 to 2026-12-22`, "m"));

    expect(run("communities", "unfeature", id)).toMatchObject({ code: 0, stdout: `unfeatured ${id} (featured entries ${period!.id} removed)\n` });
    expect((await app.services.communities.listFeatured(systemActor, id)).hits.total).toBe(0);
    expect(await entries("community.unfeature", id)).toMatchObject([{ ...BY_CLI, details: { featured: period!.id } }]);

    expect(run("communities", "delete", "cli-reefs")).toMatchObject({ code: 0, stdout: "deleted community cli-reefs\n" });
    expect((await app.call("GET", `/api/communities/${id}`, { as: "admin" })).status).toBe(404);
    expect(await entries("community.delete", id)).toMatchObject([{ ...BY_CLI, details: { slug: "cli-reefs", title: "Coral reefs" } }]);
  });

  test("missing arguments, unknown communities and periods are usage errors", async () => {
    // Without --data after it (the command word is the last argument).
    expect(cairn(["communities"])).toMatchObject({ code: 2, stderr: "cairn: communities needs a command: list, feature, unfeature, delete\n" });
    expect(cairn(["oai-sets"])).toMatchObject({ code: 2, stderr: "cairn: oai-sets needs a command: list, create, update, delete\n" });
    const res = await app.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("cli-rivers") });
    expectStatus(res, 201);
    await expectUsageErrors([
      [["communities", "toString"], "unknown communities command 'toString' (list, feature, unfeature, delete)"],
      [["communities", "feature", "--start", "2026-11-22T00:00"], "communities feature needs the community's ID or slug"],
      [["communities", "feature", "cli-rivers"], "--start is required"],
      [["communities", "feature", "cli-rivers", "--start", "soon"], "start_date: Not a valid datetime: send YYYY-MM-DDTHH:MM:SS.ffffffZ (UTC)."],
      [["communities", "feature", "no-such-community", "--start", "2026-11-22T00:00"], "The persistent identifier does not exist."],
      [["communities", "unfeature", "cli-rivers"], "community cli-rivers has no featured period"],
      [["communities", "unfeature", "cli-rivers", "--featured", "999"], "The featured entry 999 of this community does not exist."],
      [["communities", "delete"], "communities delete needs the community's ID or slug"],
      [["communities", "delete", "no-such-community"], "The persistent identifier does not exist."],
    ]);
  });
});

describe("cairn oai-sets", () => {
  test("create, list, update, delete: one entry each", async () => {
    const created = run("oai-sets", "create", "--spec", "cli-physics", "--name", "Physics", "--search-pattern", "metadata.subjects.subject:physics");
    expect(created.code).toBe(0);
    const set = (await app.services.oai.listSets(systemActor, { q: "Physics" })).hits.hits.find((s) => s.spec === "cli-physics")!;
    const id = String(set.id);
    expect(created.stdout).toBe(`created set cli-physics (id ${id})\n`);
    expect(await entries("oai-set.create", id)).toMatchObject([{ ...BY_CLI, targetType: "oai-set", targetId: id, details: { spec: "cli-physics", name: "Physics" } }]);
    expect(run("oai-sets", "list").stdout).toMatch(new RegExp(`^${id}\\s+cli-physics\\s+Physics\\s+metadata\\.subjects\\.subject:physics$`, "m"));

    expect(run("oai-sets", "update", id, "--description", "Stars too")).toMatchObject({ code: 0, stdout: `updated set cli-physics (id ${id})\n` });
    expect(await app.services.oai.readSet(systemActor, id)).toMatchObject({ name: "Physics", search_pattern: "metadata.subjects.subject:physics", description: "Stars too" });
    expect(await entries("oai-set.update", id)).toMatchObject([{ ...BY_CLI, details: { spec: "cli-physics", previous: { description: "" } } }]);

    expect(run("oai-sets", "delete", id)).toMatchObject({ code: 0, stdout: `deleted set ${id}\n` });
    expect(await entries("oai-set.delete", id)).toMatchObject([{ ...BY_CLI, details: { spec: "cli-physics" } }]);
  });

  test("missing arguments, a bad spec and unknown sets are usage errors", async () => {
    await expectUsageErrors([
      [["oai-sets", "create", "--name", "X", "--search-pattern", "x"], "--spec is required"],
      [["oai-sets", "create", "--spec", "x", "--name", "X"], "--search-pattern is required"],
      [
        ["oai-sets", "create", "--spec", "has space", "--name", "X", "--search-pattern", "x"],
        "spec: Must be an OAI setSpec: letters, digits and - _ . ! ~ * ' ( ), with ':' separating levels.",
      ],
      [["oai-sets", "update", "--name", "X"], "oai-sets update needs the set's ID (cairn oai-sets list shows it)"],
      [["oai-sets", "update", "1"], "oai-sets update needs --name, --search-pattern or --description"],
      [["oai-sets", "update", "999", "--name", "X"], "The OAI-PMH set does not exist."],
      [["oai-sets", "delete", "999"], "The OAI-PMH set does not exist."],
      [["oai-sets", "remove", "1"], "unknown oai-sets command 'remove' (list, create, update, delete)"],
    ]);
  });
});
