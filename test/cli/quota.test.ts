// `cairn users quota --login L [--size S --max-file-size S --notes N]` on a test app's data
// directory: the quota set (sizes parsed as the settings parse them), audited as the system via the
// CLI, enforced by the API afterwards, shown with the usage; and its refusals.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";
import { cairn } from "../helpers/cli";
import { octet, uploadFile } from "../helpers/files";
import { draftWithFiles } from "../helpers/records";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function run(...args: string[]) {
  t.clock.advance(60_000);
  return cairn([...args, "--data", t.dataDir], {}, { clock: t.clock });
}

describe("cairn users quota", () => {
  test("shows the default, sets a quota (audited via the CLI), which the API then enforces", async () => {
    const alice = t.users.alice.user;
    const id = await draftWithFiles(t);
    await uploadFile(t, id, "a.txt", "a".repeat(1000));
    expect(run("users", "quota", "--login", "alice")).toMatchObject({
      code: 0,
      stdout: `alice@example.org (id ${alice.id}): 1000 bytes used of no limit (the default); largest file ${t.config.RDM_FILES_DEFAULT_MAX_FILE_SIZE} bytes\n`,
    });
    const set = run("users", "quota", "--login", "alice@example.org", "--size", "1.5KiB", "--max-file-size", "1k", "--notes", "pilot project");
    expect(set).toMatchObject({
      code: 0,
      stderr: "",
      stdout: `alice@example.org (id ${alice.id}): 1000 bytes used of 1536 bytes (set by an administrator); largest file 1024 bytes; notes: pilot project\n`,
    });
    const audit = await t.services.audit.search(systemActor, { action: "user.quota" });
    expect(audit.entries.map((e) => [e.actorLabel, e.via, e.targetId, e.details.quota_size, e.details.max_file_size, e.details.notes])).toEqual([
      ["system", "cli", String(alice.id), 1536, 1024, "pilot project"],
    ]);
    await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: [{ key: "b.txt" }] });
    const refused = await t.call("PUT", `/api/records/${id}/draft/files/b.txt/content`, { as: "alice", rawBody: "b".repeat(600), headers: { ...octet, "content-length": "600" } });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe("This file (600 bytes) would exceed the owner's storage quota (all their drafts and records together) of 1536 bytes: 536 bytes are left.");
  });

  test.each([
    ["an unknown account", ["users", "quota", "--login", "nobody", "--size", "1GB"], "cairn: No account 'nobody'.\n"],
    ["not a size", ["users", "quota", "--login", "alice", "--size", "lots"], "cairn: --size must be a size such as 10737418240, 10GiB or 20GB (units of 1024), got 'lots'\n"],
    ["a negative size", ["users", "quota", "--login", "alice", "--size=-5"], "cairn: --size must be a size such as 10737418240, 10GiB or 20GB (units of 1024), got '-5'\n"],
    ["notes without a size", ["users", "quota", "--login", "alice", "--notes", "x"], "cairn: --max-file-size and --notes need --size\n"],
    ["no --login", ["users", "quota", "--size", "1GB"], "cairn: --login is required\n"],
  ])("refused: %s", (_what, args, stderr) => {
    const result = run(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toStartWith(stderr);
  });
});
