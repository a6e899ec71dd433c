// Benchmark: `cairn backup` beside `cp -a` of the same data directory, in one run: a folder backup
// copying every file (--copy), the same with hard links, an incremental second run, .tar.zst and
// .tar.gz archives, `backup --verify` and `restore`; then how long the database snapshot takes and
// how long the event loop of a process running a backup (the server, for the scheduled job) stalls.
//   bun run bench:backup [-- --size-mib 1024 --records 20000]
import { Database } from "bun:sqlite";
import { execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createBackupService } from "../src/backup/service";
import { snapshotDatabase } from "../src/backup/sqlite/snapshot";
import { loadConfig } from "../src/config";
import { systemActor } from "../src/core/actor";
import { systemClock } from "../src/core/time";
import { bulkInsertRecords, MAIN } from "./lib";
import { createRecordsData } from "./records-data";

export interface BackupBenchRow {
  name: string;
  seconds: number;
  mibPerSecond: number;
  /** Against `cp -a` + fsync of the same data directory in the same run (>1: faster). */
  ratio: number;
}

export interface BackupBenchResult {
  dataMiB: number;
  databaseMiB: number;
  objects: number;
  records: number;
  rows: BackupBenchRow[];
  snapshotSeconds: number;
  /** Longest gap of a 5 ms timer in a process running a whole backup (--copy) in itself. */
  eventLoopMaxStallMs: number;
}

const MiB = 1024 * 1024;

/** Random objects (file_objects rows and their bytes) adding up to about `sizeMiB`: three quarters in 16 MiB files, the rest in 100 KiB ones. */
function writeObjects(data: string, sizeMiB: number): number {
  const db = new Database(join(data, "cairn.db"));
  const insert = db.query("INSERT INTO file_objects (id, size, checksum, created) VALUES (?, ?, ?, ?)");
  const block = new Uint8Array(16 * MiB);
  for (let i = 0; i < block.length; i += 65536) crypto.getRandomValues(block.subarray(i, i + 65536));
  const sizes = [...Array(Math.floor((sizeMiB * 0.75) / 16)).fill(16 * MiB), ...Array(Math.floor((sizeMiB * 0.25 * 1024) / 100)).fill(100 * 1024)];
  db.transaction(() => {
    for (const [n, size] of sizes.entries()) {
      const id = crypto.randomUUID();
      block[n % block.length] = n & 0xff; // each object its own bytes
      const bytes = block.subarray(0, size);
      mkdirSync(join(data, "files", "objects", id.slice(0, 2)), { recursive: true });
      writeFileSync(join(data, "files", "objects", id.slice(0, 2), id), bytes);
      insert.run(id, size, `md5:${new Bun.CryptoHasher("md5").update(bytes).digest("hex")}`, Date.now());
    }
  })();
  db.close();
  return sizes.length;
}

const duBytes = (path: string) =>
  Number(
    execSync(`du -sb ${JSON.stringify(path)}`)
      .toString()
      .split("\t")[0],
  );

function timed(command: string[], env: Record<string, string> = {}): number {
  const started = performance.now();
  const run = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  if (run.exitCode !== 0) throw new Error(`${command.join(" ")}: ${run.stderr}${run.stdout}`);
  return (performance.now() - started) / 1000;
}

/** Seeds a data directory in `root` and measures; `cairn` is the command to run (source or the built executable). */
export async function measureBackup(options: { root: string; cairn: string[]; sizeMiB: number; records: number; say: (line: string) => void }): Promise<BackupBenchResult> {
  const { root, cairn, say } = options;
  const data = join(root, "data");
  say(`seeding ${options.records.toLocaleString()} records and ${options.sizeMiB} MiB of files...`);
  timed([...cairn, "users", "create", "--email", "owner@example.org", "--data", data]); // user 1, the records' owner
  const docs = createRecordsData(11);
  bulkInsertRecords(
    data,
    options.records,
    (i) => docs.document(i),
    (i) => Date.now() - i * 1000,
  );
  timed([...cairn, "reindex", "--data", data]);
  const objects = writeObjects(data, options.sizeMiB);
  // The seeded bytes on disk first: otherwise their writeback lands in whichever row comes first.
  timed(["sh", "-c", `find "${data}" -type f -print0 | xargs -0 sync`]);
  const bytes = duBytes(data);
  const rate = (seconds: number) => +(bytes / MiB / seconds).toFixed(0);
  say(`data directory: ${(bytes / MiB).toFixed(0)} MiB, ${objects} objects; measuring (page cache warm for every row)...`);
  // The limit: cp -a, with each copied file then fsynced as a backup does (sync FILE... is fsync);
  // plain cp -a, which leaves the bytes in the page cache, is shown beside it.
  const copy = join(root, "cp-copy");
  const plain = timed(["cp", "-a", data, copy]);
  rmSync(copy, { recursive: true, force: true });
  const cp = timed(["sh", "-c", `cp -a "${data}" "${copy}" && find "${copy}" -type f -print0 | xargs -0 sync`]);
  rmSync(copy, { recursive: true, force: true });
  const rows: BackupBenchRow[] = [
    { name: "cp -a of the data directory, each file fsynced", seconds: +cp.toFixed(2), mibPerSecond: rate(cp), ratio: 1 },
    { name: "cp -a of the data directory, not synced", seconds: +plain.toFixed(2), mibPerSecond: rate(plain), ratio: +(cp / plain).toFixed(2) },
  ];
  const row = (name: string, seconds: number) => rows.push({ name, seconds: +seconds.toFixed(2), mibPerSecond: rate(seconds), ratio: +(cp / seconds).toFixed(2) });
  row("backup to a folder, every file copied (--copy)", timed([...cairn, "backup", join(root, "copied"), "--copy", "--data", data]));
  row("backup to a folder, files hard-linked (same file system)", timed([...cairn, "backup", join(root, "linked"), "--data", data]));
  row("incremental second run (nothing new)", timed([...cairn, "backup", join(root, "linked"), "--data", data]));
  row("backup to .tar.zst", timed([...cairn, "backup", join(root, "b.tar.zst"), "--data", data]));
  row("backup to .tar.gz", timed([...cairn, "backup", join(root, "b.tar.gz"), "--data", data]));
  row("backup --verify of the folder (every file re-hashed)", timed([...cairn, "backup", "--verify", join(root, "copied")]));
  row("restore from the folder", timed([...cairn, "restore", join(root, "copied"), "--data", join(root, "restored")]));
  say(`archives: .tar.zst ${(statSync(join(root, "b.tar.zst")).size / MiB).toFixed(0)} MiB, .tar.gz ${(statSync(join(root, "b.tar.gz")).size / MiB).toFixed(0)} MiB`);
  for (const name of ["copied", "linked", "b.tar.zst", "b.tar.gz", "restored"]) rmSync(join(root, name), { recursive: true, force: true });

  const t = performance.now();
  await snapshotDatabase(join(data, "cairn.db"), join(root, "snapshot.db"), { now: Date.now() });
  const snapshotSeconds = +((performance.now() - t) / 1000).toFixed(2);
  rmSync(join(root, "snapshot.db"), { force: true });

  // The scheduled job runs in the server's process: how long does its event loop go unanswered?
  const service = createBackupService({ config: loadConfig({ flags: { DATA_DIR: data }, env: {} }), clock: systemClock });
  let last = performance.now();
  let stall = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 5);
  await service.backup(systemActor, { dest: join(root, "in-process"), links: false });
  clearInterval(probe);
  return {
    dataMiB: +(bytes / MiB).toFixed(0),
    databaseMiB: +(statSync(join(data, "cairn.db")).size / MiB).toFixed(0),
    objects,
    records: options.records,
    rows,
    snapshotSeconds,
    eventLoopMaxStallMs: +stall.toFixed(1),
  };
}

/** Rows for a table of measures: each backup beside cp -a + fsync of the same data directory. */
export function formatBackupRows(r: BackupBenchResult): string[][] {
  return r.rows
    .slice(1)
    .map((row) => [
      `${row.name}, ${r.dataMiB.toLocaleString("en-US")} MiB (${r.objects} files, ${r.records.toLocaleString("en-US")} records)`,
      `${row.mibPerSecond} MiB/s (${row.seconds} s)`,
      `cp -a + fsync: ${r.rows[0]!.mibPerSecond} MiB/s (${r.rows[0]!.seconds} s)`,
      `${Math.round(row.ratio * 100)}%`,
      "",
    ]);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { "size-mib": { type: "string" }, records: { type: "string" } } });
  const root = mkdtempSync(join(tmpdir(), "cairn-bench-backup-"));
  const say = (line: string) => console.error(`[bench:backup] ${line}`);
  try {
    const r = await measureBackup({ root, cairn: [process.execPath, MAIN], sizeMiB: Number(values["size-mib"] ?? 1024), records: Number(values.records ?? 20_000), say });
    console.log(`data directory ${r.dataMiB} MiB (database ${r.databaseMiB} MiB, ${r.objects} files, ${r.records} records); Bun ${Bun.version}\n`);
    console.log("| measure | Cairn | limit (same run) | ratio |\n|---|---|---|---|");
    for (const cells of formatBackupRows(r)) console.log(`| ${cells.slice(0, 4).join(" | ")} |`);
    console.log(`\ndatabase snapshot (VACUUM INTO on a worker thread): ${r.snapshotSeconds} s`);
    console.log(`longest event-loop stall of a process running a whole backup (--copy) in itself: ${r.eventLoopMaxStallMs} ms`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
