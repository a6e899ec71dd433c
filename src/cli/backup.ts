// `cairn backup DEST`, `cairn backup --verify DEST` and `cairn restore SRC --data DIR`.
import { createBackupService } from "../backup/service";
import { BackupError } from "../backup/manifest";
import { systemActor } from "../core/actor";
import { systemClock } from "../core/time";
import { PRIVATE_UMASK } from "../server/data-dir";
import { configFrom, parse, UsageError, type Command } from "./args";
import { rebuildIndexes } from "./db";
import { progressBar } from "./progress";

const MiB = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/** A bar on a terminal; elsewhere (logs, cron mail) a plain line per tenth of the work, at most one in 5 s. */
function reporter(label: string) {
  const bar = progressBar(label);
  const tty = process.stderr.isTTY === true;
  let lastTenth = 0;
  let lastLine = performance.now();
  return {
    update(done: number, total: number, note: string) {
      bar.update(done, total, note);
      const tenth = total > 0 ? Math.floor((done / total) * 10) : 0;
      if (!tty && tenth > lastTenth && tenth < 10 && performance.now() - lastLine >= 5000) {
        lastTenth = tenth;
        lastLine = performance.now();
        console.error(`${label}: ${tenth * 10}% ${note}`);
      }
    },
    done: () => bar.done(),
  };
}

/** Backup problems are the backup's, not the caller's: exit 1 with the message, without a stack. */
async function failing(work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`cairn: ${error.message}`);
    return 1;
  }
}

export const backupCommand: Command = {
  name: "backup",
  summary: "Back up the database and files (also while the server runs), or verify a backup.",
  usage: `cairn backup DEST [--keep N] [--copy]
    Writes a consistent snapshot of the database and every file it references, with the TLS
    certificate and cairn.toml, while the server may go on serving. DEST is a folder or a file
    named .tar.zst (or .tar.gz). A folder holds dated snapshots DEST/<time>/ that share the files
    in DEST/objects: a later run copies only new files (hard links when DEST is on the data
    directory's file system; --copy always copies). --keep N removes all but the newest N.
    A backup only looks complete (DEST/<time>/manifest.json; the archive under its name) once
    everything in it is written, checked and synced.
    With DATABASE_URL set, the database is the PostgreSQL one, copied inside one REPEATABLE READ
    snapshot into the backup's cairn.db (the format of every backup: it restores into either
    engine) and checked table by table; no pg_dump is needed.
cairn backup --verify DEST
    Re-hashes a backup (a folder's every snapshot, one snapshot, or an archive) against its
    manifest and checks its database; prints each problem and exits 1 if there is any.`,
  async run(argv) {
    const { values, positionals } = parse(argv, { verify: { type: "boolean" }, keep: { type: "string" }, copy: { type: "boolean" } }, 1);
    const dest = positionals[0];
    if (!dest) throw new UsageError("backup needs a DEST folder or .tar.zst/.tar.gz file (see cairn backup --help)");
    const keep = values.keep === undefined ? null : Number(values.keep);
    if (keep !== null && (!Number.isInteger(keep) || keep < 1)) throw new UsageError("--keep must be a whole number of 1 or more");
    if (values.verify && (keep !== null || values.copy)) throw new UsageError("--verify takes no --keep or --copy");
    process.umask(PRIVATE_UMASK); // a backup holds everything the data directory does
    const service = createBackupService({ config: configFrom(values), clock: systemClock });
    return failing(() => (values.verify ? verify(service, dest) : backup(service, dest, keep, !values.copy)));
  },
};

async function backup(service: ReturnType<typeof createBackupService>, dest: string, keep: number | null, links: boolean) {
  const started = performance.now();
  const bar = reporter("backing up");
  const result = await service.backup(systemActor, {
    dest,
    keep,
    links,
    onProgress: (p) => (p.phase === "database" ? bar.update(0, 1, "database snapshot") : bar.update(p.bytes, p.totalBytes, `${p.done}/${p.total} files, ${mib(p.bytes)}`)),
  });
  bar.done();
  const seconds = (performance.now() - started) / 1000;
  const c = result.counts;
  const o = result.objects;
  console.log(`backup ${result.name} written to ${result.path}`);
  console.log(`  ${c.records} records, ${c.drafts} drafts, ${c.communities} communities, ${c.users} users, ${c.fileEntries} file entries`);
  if (result.storage === "local")
    console.log(`  ${c.objects} stored files (${mib(c.objectBytes)}): ${o.copied} copied, ${o.linked} hard-linked, ${o.reused} already in the backup`);
  else console.log(`  ${c.objects} stored files (${mib(c.objectBytes)}) are in ${result.storage} (FILES_STORAGE), not in this backup: back the bucket up with its own tools`);
  if (result.pruned.length) console.log(`  removed older snapshots ${result.pruned.join(", ")} and ${result.objectsRemoved} files only they used`);
  console.log(`  ${seconds.toFixed(1)} s${result.storage === "local" ? `, ${(c.objectBytes / MiB / Math.max(seconds, 0.001)).toFixed(0)} MiB/s` : ""}`);
  return 0;
}

async function verify(service: ReturnType<typeof createBackupService>, dest: string) {
  const bar = reporter("verifying");
  const report = await service.verify(systemActor, dest, (bytes, total) => bar.update(bytes, total, mib(bytes)));
  bar.done();
  let bad = 0;
  for (const s of report.snapshots) {
    for (const problem of s.problems) console.log(`DAMAGED ${s.name}: ${problem}`);
    if (s.problems.length) bad++;
  }
  for (const name of report.leftovers) console.log(`unfinished ${name}: left by a stopped backup; not a backup (the next backup removes it)`);
  const what = `${report.snapshots.length} snapshot(s), ${report.objectsChecked} stored files, ${mib(report.bytesChecked)}`;
  console.log(bad ? `checked ${what}: ${bad} damaged` : `checked ${what}: all intact`);
  return bad ? 1 : 0;
}

export const restoreCommand: Command = {
  name: "restore",
  summary: "Restore a backup into a new, empty data directory.",
  usage: `cairn restore SRC --data DIR
    Restores SRC (a backup folder's newest snapshot, one snapshot DEST/<time>, or an archive) into
    DIR, which must be empty or missing: a restore never writes over live data. Every file is
    checked against the manifest and the database's integrity before the restore says it is done;
    a backup from a newer Cairn is refused. Start the server on DIR afterwards (an older backup's
    database is migrated then).
    With DATABASE_URL set, the database goes into that PostgreSQL database instead, which must be
    empty too (no Cairn table holding a row): it is migrated, filled and checked table by table
    (row counts and checksums), and its search indexes are built. A backup of either engine
    restores into either.`,
  async run(argv) {
    const { values, positionals } = parse(argv, {}, 1);
    const source = positionals[0];
    if (!source) throw new UsageError("restore needs the backup SRC (see cairn restore --help)");
    if (typeof values.data !== "string") throw new UsageError("restore needs --data DIR: the new data directory");
    process.umask(PRIVATE_UMASK);
    const config = configFrom(values);
    const service = createBackupService({ config, clock: systemClock });
    return failing(async () => {
      const started = performance.now();
      const bar = reporter("restoring");
      const result = await service.restore(systemActor, source, (bytes, total) => bar.update(bytes, total, mib(bytes)));
      bar.done();
      const c = result.counts;
      console.log(`restored ${result.snapshot} into ${config.DATA_DIR} in ${((performance.now() - started) / 1000).toFixed(1)} s: every checksum matches`);
      console.log(`  ${c.records} records, ${c.drafts} drafts, ${c.communities} communities, ${c.users} users, ${c.objects} stored files (${mib(c.objectBytes)})`);
      if (result.storage !== "local") console.log(`  the files are in ${result.storage}, not in the backup: start the server with the same FILES_STORAGE and S3 settings`);
      // The search indexes are the engine's own: a backup of the other engine carries none this one reads.
      if (config.DATABASE_URL || result.engine === "postgres") await rebuildIndexes(config);
      if (result.migrationsToApply) {
        console.log(
          `  the backup is at migration level ${result.level}; the first start (cairn serve --data ${config.DATA_DIR}) applies ${result.migrationsToApply} newer migration(s)`,
        );
      }
      return 0;
    });
  },
};
