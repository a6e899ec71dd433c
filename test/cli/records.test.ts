// `cairn records delete|restore` on a test app's data directory: the record answers 410 with the
// tombstone the command wrote (removed by the system), leaves search, and comes back on restore.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { cairn } from "../helpers/cli";
import { publishRecord } from "../helpers/records";

let app: TestApp;
let id: string;
const run = (...args: string[]) => cairn([...args, "--data", app.dataDir], {}, { clock: app.clock });

beforeAll(async () => {
  app = await createTestApp();
  id = (await publishRecord(app)).id;
});
afterAll(() => app.close());

test("delete needs a known reason; a bad one changes nothing", () => {
  expect(run("records", "delete", id)).toMatchObject({ code: 2, stderr: "cairn: --reason is required\n" });
  const unknown = run("records", "delete", id, "--reason", "boredom");
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("removal_reason.id: Unknown removal reason 'boredom'");
  expect(run("records", "delete", "zzzzz-00000", "--reason", "spam")).toMatchObject({ code: 2, stderr: "cairn: The persistent identifier does not exist.\n" });
});

test("delete writes the tombstone; the record answers 410 and leaves search", async () => {
  expectStatus(await app.call("GET", `/api/records/${id}`), 200);
  const res = run("records", "delete", id, "--reason", "test-record", "--note", "An upload to try the repository.");
  expect(res).toMatchObject({ code: 0, stdout: `deleted ${id}\n` });
  const read = await app.call("GET", `/api/records/${id}`);
  expectStatus(read, 410);
  expect(read.json.tombstone).toMatchObject({ removal_reason: { id: "test-record" }, note: "An upload to try the repository.", removed_by: { user: "system" }, is_visible: true });
  expect((await app.call("GET", `/api/records?q=id:${id}`)).json.hits.total).toBe(0);
  expect(run("records", "delete", id, "--reason", "spam")).toMatchObject({ code: 2, stderr: "cairn: The record is already deleted.\n" });
});

test("restore brings it back", async () => {
  expect(run("records", "restore", id)).toMatchObject({ code: 0, stdout: `restored ${id}\n` });
  expectStatus(await app.call("GET", `/api/records/${id}`), 200);
  expect((await app.call("GET", `/api/records?q=id:${id}`)).json.hits.total).toBe(1);
});

test("--hidden makes the tombstone a 404", async () => {
  expect(run("records", "delete", id, "--reason", "personal-data", "--hidden")).toMatchObject({ code: 0, stdout: `deleted ${id} (tombstone hidden)\n` });
  expectStatus(await app.call("GET", `/api/records/${id}`), 404);
});
