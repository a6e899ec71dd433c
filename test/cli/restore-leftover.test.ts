// A data directory a restore left unfinished (`.restore-*`): the server and the CLI commands refuse
// it in one line saying how to finish or clean it, and running the restore again clears the
// leftover and restores.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { seedRecords, snapshotsIn } from "../helpers/backup";
import { cairn, freePort, serve } from "../helpers/cli";
import { databaseEnv, dropDataDirDatabases, readRows, testEngine, writeDataDirConfig } from "../helpers/data-dir";

let root = "";
let backups = "";
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-restore-leftover-"));
  const app = await createTestApp({ SEARCH_READERS: 0 });
  try {
    await seedRecords(app, 2);
    backups = join(root, "backups");
    expect(cairn(["backup", backups, "--data", app.dataDir], {}, { clock: app.clock }).code).toBe(0);
    expect(snapshotsIn(backups)).toHaveLength(1);
  } finally {
    await app.close();
  }
});
afterAll(async () => {
  await dropDataDirDatabases();
  rmSync(root, { recursive: true, force: true });
});

/** A data directory as a restore killed mid-way leaves it: only its staging folder, part-filled. */
function halfRestored(name: string): { dir: string; leftover: string } {
  const dir = join(root, name);
  const leftover = join(dir, ".restore-0b1d5c4e-killed");
  mkdirSync(join(leftover, "files", "objects", "ab"), { recursive: true });
  writeFileSync(join(leftover, "files", "objects", "ab", "abcdef"), "part of a file");
  return { dir, leftover };
}

/** `cairn serve` on `dir`: its exit code and stderr once it stops (a server that starts is stopped and fails the test). */
async function serveOn(dir: string) {
  const { proc, output } = await serve(["--data", dir, "--http", "--port", String(freePort())], await databaseEnv(dir));
  if (output.includes("Cairn serving")) proc.kill("SIGTERM");
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  return { code, stderr, output };
}

const recordsIn = async (dir: string) => (await readRows<{ n: number }>(dir, "SELECT count(*) AS n FROM records"))[0]!.n;

describe("a data directory holding an unfinished restore", () => {
  test("serve refuses it (exit 2, one line saying how to finish or clean it) and makes nothing there", async () => {
    const { dir, leftover } = halfRestored("only-leftover");
    const res = await serveOn(dir);
    expect(res.output).not.toContain("Cairn serving");
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `cairn: ${dir} holds an unfinished restore (${leftover}): run cairn restore SRC --data ${dir} again (it clears the leftover), or remove ${leftover} to start an empty repository here\n`,
    );
    expect(readdirSync(dir)).toEqual([".restore-0b1d5c4e-killed"]);
  });

  test("the other commands refuse it too, before making a database", async () => {
    const { dir } = halfRestored("commands");
    const res = cairn(["users", "create", "--email", "carol@example.org", "--data", dir], await databaseEnv(dir));
    expect(res.code).toBe(2);
    expect(res.stderr).toStartWith(`cairn: ${dir} holds an unfinished restore (`);
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([".restore-0b1d5c4e-killed"]);
  });

  test("beside other data (a server started there earlier), the advice is to remove the directory and restore again", async () => {
    const { dir, leftover } = halfRestored("beside-data");
    // What a server started there earlier left: SQLite's database file, or the cairn.toml naming PostgreSQL's.
    if (testEngine() === "sqlite") writeFileSync(join(dir, "cairn.db"), "");
    else await writeDataDirConfig(dir);
    const res = await serveOn(dir);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `cairn: ${dir} holds an unfinished restore (${leftover}) beside other data: to finish the restore, remove ${dir} and run cairn restore SRC --data ${dir} again; to keep ${dir} as it is instead, remove ${leftover}\n`,
    );
  });

  test("restoring again clears the leftover and restores; the server then starts", async () => {
    const { dir } = halfRestored("restore-again");
    const res = cairn(["restore", backups, "--data", dir], await databaseEnv(dir, { empty: true }));
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    // SQLite's database file; on PostgreSQL the backed-up server's cairn.toml, then naming the database restored into.
    expect(readdirSync(dir).sort()).toEqual([testEngine() === "sqlite" ? "cairn.db" : "cairn.toml", "files"]);
    await writeDataDirConfig(dir);
    expect(await recordsIn(dir)).toBe(2);
    const { proc, output } = await serve(["--data", dir, "--http", "--port", String(freePort())]);
    expect(output).toContain("Cairn serving");
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  });
});
