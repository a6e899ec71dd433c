// The database side of a backup in PostgreSQL mode, and of a restore into PostgreSQL. A backup holds
// the database in one format whichever engine the server runs on: a SQLite file. From PostgreSQL it
// is the database copied (db/copy) inside one REPEATABLE READ READ ONLY transaction, so a
// consistent logical dump taken while the server writes, checked table by table against what was
// read; a restore into PostgreSQL is the same copy the other way. So every backup restores into
// either engine, and no pg_dump of the server's major version is needed on the machine.
import { conflict } from "../../core/errors";
import { copyDatabase, CopyMismatch, CopyRefused, findData, verifyCopy } from "../../db/copy/copy";
import { postgresCopyEnd } from "../../db/postgres/copy-end";
import { describeUrl } from "../../db/postgres/port";
import { sqliteCopyEnd } from "../../db/sqlite/copy-end";
import { BackupError } from "../manifest";
import { adjustSnapshot, type SnapshotFacts, type SnapshotOptions } from "../sqlite/snapshot";

/** A copy that does not match what was read is a backup (or restore) that cannot be trusted. */
async function checked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CopyMismatch) throw new BackupError(`${error.message}; nothing was written`);
    if (error instanceof CopyRefused) throw conflict(error.message);
    throw error;
  }
}

/** Copies the PostgreSQL database at `url` into the SQLite file `target` (which must not exist), adjusted as a SQLite snapshot is; its facts. */
export async function snapshotPostgres(url: string, target: string, options: SnapshotOptions): Promise<SnapshotFacts> {
  const end = sqliteCopyEnd(target);
  await checked(async () => verifyCopy(end, (await copyDatabase(postgresCopyEnd(url), end, { now: options.now })).tables));
  return adjustSnapshot(target, options);
}

/** Refuses a PostgreSQL database that holds data before a restore copies anything (see db/copy/copy.ts findData). */
export async function claimEmptyPostgres(url: string): Promise<void> {
  const holding = await findData(postgresCopyEnd(url));
  if (holding.length) {
    throw conflict(
      `The database ${describeUrl(url)} is not empty (${holding.slice(0, 3).join(", ")}${holding.length > 3 ? ", ..." : ""} hold rows): a backup is restored only into an empty database, never over live data.`,
    );
  }
}

/**
 * Copies a restored backup's SQLite database (checked already) into the empty PostgreSQL database
 * at `url`, migrated by its own migrations; the SQLite file is migrated first (an older backup),
 * so both sides have this Cairn's tables.
 */
export async function restoreIntoPostgres(path: string, url: string, now: number): Promise<void> {
  const source = sqliteCopyEnd(path);
  source.open(now).close();
  const target = postgresCopyEnd(url);
  await checked(async () => verifyCopy(target, (await copyDatabase(source, target, { now })).tables));
}
