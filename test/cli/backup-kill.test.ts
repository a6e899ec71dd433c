// SIGKILL during `cairn backup`: the data directory is untouched, nothing in DEST claims to be a
// complete backup, and the next backup cleans up and succeeds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { listing, seedRecords, snapshotsIn, startCairn } from "../helpers/backup";
import { cairn } from "../helpers/cli";
import { testEngine } from "../helpers/data-dir";

let root = "";
let data = "";
const FILES = 12;
const FILE_BYTES = 8 * 1024 * 1024;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-backup-kill-"));
  // A file store large enough (96 MiB) that copying it takes a while: the kill lands mid-copy.
  // No search reader threads: their connections close after close() returns, and the last one
  // to close checkpoints the WAL into cairn.db, which would change it under the test.
  const app = await createTestApp({ SEARCH_READERS: 0 });
  await seedRecords(app, FILES, { bytes: FILE_BYTES, random: true });
  await app.services.close(); // a stopped server: nothing but the backup touches the directory
  data = app.dataDir;
  // SQLite's: everything in cairn.db itself, so that the comparisons below see the backup's doing only.
  if (testEngine() === "sqlite") {
    const db = new Database(join(data, "cairn.db"));
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close();
  }
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

/** Starts a backup and SIGKILLs it once `started()` says it is copying objects; returns what the kill left. */
async function killMidway(args: string[], started: () => boolean) {
  const before = listing(data);
  const { proc, result } = startCairn(["backup", ...args, "--data", data]);
  for (let i = 0; i < 4000 && !started() && proc.exitCode === null; i++) await Bun.sleep(2);
  const wasRunning = proc.exitCode === null;
  proc.kill("SIGKILL");
  const res = await result;
  return { before, res, wasRunning };
}

describe("SIGKILL during a backup", () => {
  test("to a folder: the data directory is unchanged and no snapshot looks complete; the next run succeeds", async () => {
    const dest = join(root, "folder");
    const staging = () => (existsSync(dest) ? readdirSync(dest).filter((n) => n.startsWith(".partial-")) : []);
    // Killed once the first objects are in the pool: the database snapshot is written, copying is under way.
    const pooled = () => (existsSync(join(dest, "objects")) ? readdirSync(join(dest, "objects")).length : 0);
    const { before, res, wasRunning } = await killMidway([dest, "--copy"], () => pooled() >= 2);
    expect(wasRunning).toBe(true);
    expect(res.code).not.toBe(0);
    expect(listing(data)).toEqual(before);
    expect(snapshotsIn(dest)).toEqual([]);
    expect(staging().length).toBe(1);
    const verify = cairn(["backup", "--verify", dest]);
    expect(verify.code).toBe(2);
    expect(verify.stderr).toBe(`cairn: ${dest} holds no complete backup (only 1 unfinished one(s), left by a stopped run).\n`);
    expect(cairn(["restore", dest, "--data", join(root, "nothing")]).code).toBe(2);

    const next = cairn(["backup", dest, "--copy", "--data", data]);
    expect(next.code).toBe(0);
    // Objects the killed run had placed whole are reused, the rest copied.
    expect(next.stdout).toMatch(new RegExp(`${FILES} stored files \\(96\\.0 MiB\\): (\\d+) copied, 0 hard-linked, (\\d+) already in the backup`));
    expect(staging()).toEqual([]);
    expect(snapshotsIn(dest).length).toBe(1);
    expect(cairn(["backup", "--verify", dest]).stdout).toContain(`checked 1 snapshot(s), ${FILES} stored files`);
    expect(listing(data)).toEqual(before);
  });

  test("to an archive: no archive under its name, and the next run replaces the leftover", async () => {
    const archive = join(root, "backup.tar.zst");
    const leftovers = () => readdirSync(root).filter((n) => n.startsWith("backup.tar.zst.partial-"));
    // The temporary archive grows past a few MiB once objects stream into it.
    const { before, res, wasRunning } = await killMidway([archive], () => leftovers().some((n) => !n.endsWith(".db") && Bun.file(join(root, n)).size > 4 * 1024 * 1024));
    expect(wasRunning).toBe(true);
    expect(res.code).not.toBe(0);
    expect(listing(data)).toEqual(before);
    expect(existsSync(archive)).toBe(false);
    expect(leftovers().length).toBeGreaterThan(0);

    const next = cairn(["backup", archive, "--data", data]);
    expect(next.code).toBe(0);
    expect(leftovers()).toEqual([]);
    expect(cairn(["backup", "--verify", archive]).stdout).toContain(`checked 1 snapshot(s), ${FILES} stored files`);
  });
});
