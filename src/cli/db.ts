// `cairn db copy --to …`: the data directory's database copied into an empty PostgreSQL database
// or SQLite file, checked table by table, with the target's search indexes rebuilt by its engine.
import { basename, dirname, join, resolve } from "node:path";
import { existsSync, statSync } from "node:fs";
import { createServices } from "../app";
import type { Config } from "../config";
import { systemActor } from "../core/actor";
import { systemClock } from "../core/time";
import { copyDatabase, CopyMismatch, CopyRefused, verifyCopy, type CopyProgress } from "../db/copy/copy";
import type { CopyEnd } from "../db/copy/engine";
import { databasePathOf, openConfiguredDatabase } from "../db/open";
import { postgresCopyEnd } from "../db/postgres/copy-end";
import { sqliteCopyEnd } from "../db/sqlite/copy-end";
import { PRIVATE_UMASK } from "../server/data-dir";
import { configFrom, parse, UsageError, type Command } from "./args";

/** A line per table, and one per this many rows of a long table. */
const PROGRESS_EVERY = 50_000;

interface Target {
  end: CopyEnd;
  /** The configuration whose services run on the target (to rebuild its search indexes). */
  config: Config;
}

/** `postgres://…` or `sqlite:PATH` (a data directory, or its cairn.db). */
function targetOf(to: string, config: Config): Target {
  if (/^postgres(ql)?:\/\//.test(to)) return { end: postgresCopyEnd(to), config: { ...config, DATABASE_URL: to } };
  if (to.startsWith("sqlite:") && to.length > "sqlite:".length) {
    let path = resolve(to.slice("sqlite:".length));
    // A data directory (made if missing), or a file of one: `….db`.
    if (!path.endsWith(".db") || (existsSync(path) && statSync(path).isDirectory())) path = join(path, "cairn.db");
    if (basename(path) !== "cairn.db")
      throw new UsageError(`--to sqlite:PATH names a data directory or its cairn.db (not ${basename(path)}): the copy is a data directory's database`);
    return { end: sqliteCopyEnd(path), config: { ...config, DATABASE_URL: "", DATA_DIR: dirname(path) } };
  }
  throw new UsageError("--to takes postgres://user:password@host:5432/database or sqlite:PATH");
}

function progressPrinter() {
  let printed = 0;
  return ({ table, done, total }: CopyProgress) => {
    if (done === 0) printed = 0;
    if (done === total || done - printed >= PROGRESS_EVERY) {
      printed = done;
      console.log(`  ${table}: ${done}/${total} rows`);
    }
  };
}

/** The target's record and vocabulary search indexes, written by the target engine's own search code (also after `cairn restore` across engines). */
export async function rebuildIndexes(config: Config) {
  const services = createServices({ config, clock: systemClock });
  try {
    await services.ready;
    const records = await services.records.reindex(systemActor);
    await services.stats.refreshPopularity(); // the rebuilt rows start without their view/download counts
    const entries = await services.vocabularies.rebuildIndex(systemActor);
    console.log(`rebuilt the search indexes: ${records} records, ${entries} vocabulary entries`);
  } finally {
    await services.close();
  }
  // The planner's statistics of every table written, so the first searches do not plan blind.
  const port = openConfiguredDatabase(config, systemClock.now());
  try {
    await port.optimize();
  } finally {
    port.close();
  }
}

async function copy(values: Record<string, unknown>): Promise<number> {
  if (typeof values.to !== "string" || !values.to) throw new UsageError("db copy needs --to postgres://… or --to sqlite:PATH (see cairn db --help)");
  const config = configFrom(values);
  const source = config.DATABASE_URL ? postgresCopyEnd(config.DATABASE_URL) : sqliteCopyEnd(databasePathOf(config));
  if (!source.exists()) throw new UsageError(`${config.DATA_DIR} holds no Cairn database (cairn.db): nothing to copy`);
  const target = targetOf(values.to, config);
  process.umask(PRIVATE_UMASK); // a SQLite copy holds everything the source does
  // The source at this Cairn's schema first, as every command opens it: both sides then have the same tables.
  const port = openConfiguredDatabase(config, systemClock.now());
  try {
    await port.ready();
  } finally {
    port.close();
  }
  const started = performance.now();
  console.log(`copying ${source.describe} to ${target.end.describe}`);
  try {
    const result = await copyDatabase(source, target.end, { now: systemClock.now(), onProgress: progressPrinter() });
    await verifyCopy(target.end, result.tables);
    console.log(`verified: ${result.tables.length} tables, ${result.rows} rows, the same row count and checksum on both sides`);
  } catch (error) {
    if (error instanceof CopyRefused) throw new UsageError(error.message);
    if (!(error instanceof CopyMismatch)) throw error;
    console.error(`cairn: ${error.message}`);
    return 1;
  }
  await rebuildIndexes(target.config);
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

export const dbCommand: Command = {
  name: "db",
  summary: "Copy the database into an empty PostgreSQL database or SQLite file (switching engines).",
  usage: `cairn db copy --to postgres://user:password@host:5432/database
cairn db copy --to sqlite:PATH
    Copies the data directory's database (cairn.db, or DATABASE_URL's when it is set) into an empty
    database: a PostgreSQL one, or a SQLite file (PATH: a data directory or its cairn.db). The
    target is migrated by its own engine first, then every table is copied in one transaction
    (parents before the rows that reference them) and read back: each table's row count and
    checksum must equal the source's. The search indexes are then rebuilt on the target by its
    own search engine. Files are not copied: they stay where FILES_STORAGE keeps them.
    "Empty" means no Cairn table holds a row (a database the copy only migrated, because the copy
    failed, counts as empty); anything else is refused (exit status 2). A mismatch exits 1.
    The source is read in one snapshot, so the copy is consistent even while a server writes to
    it, but it holds nothing written after it started: stop the server before switching engines.`,
  async run(argv) {
    const { values, positionals } = parse(argv, { to: { type: "string" } }, 1);
    if (positionals[0] !== "copy")
      throw new UsageError(positionals[0] ? `unknown db command '${positionals[0]}' (try cairn db --help)` : "db needs a command: copy (see cairn db --help)");
    return copy(values);
  },
};
