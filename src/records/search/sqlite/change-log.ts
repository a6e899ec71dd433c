// The index's change log (index_changes): every index write, by any process, adds one row in its
// own transaction naming the record_index keys it touched. A column copy (column-copy.ts) reads the
// rows past the last one it has applied and re-reads just those keys, whichever process wrote them.
// Committed rows are numbered without gaps (one writer at a time; AUTOINCREMENT takes a rolled-back
// number back with its transaction), so a copy knows when rows it needs were pruned.
import type { SqliteDb } from "../../../db/sqlite/connection";

/** Rows kept: a copy further behind than this rebuilds instead of catching up. */
export const KEPT_CHANGES = 4096;
/** A write that touched more keys is logged as unknown: copies rebuild rather than patch (a rebuild of the index logs that too). */
const MOST_KEYS = 20_000;
/** The writer prunes once in this many writes. */
const PRUNE_EVERY = 256;

/** Logs an index write that touched `keys` (null: unknown, or the tables were replaced), in the caller's transaction. */
export function logIndexChange(db: SqliteDb, keys: number[] | null): void {
  const named = keys && keys.length <= MOST_KEYS ? keys.join(",") : null;
  const seq = db.$client.query<{ seq: number }, [string | null]>("INSERT INTO index_changes (keys) VALUES (?) RETURNING seq").get(named)!.seq;
  if (seq % PRUNE_EVERY === 0) db.$client.query("DELETE FROM index_changes WHERE seq <= ?").run(seq - KEPT_CHANGES);
}

/** The number of the newest index write (0 before the first). */
export const lastIndexChange = (db: SqliteDb): number => db.$client.query<{ seq: number }, []>("SELECT seq FROM index_changes ORDER BY seq DESC LIMIT 1").get()?.seq ?? 0;

/** The keys the writes after `seen` up to `upTo` touched; null when any of them is not in the log (pruned, or logged as unknown). */
export function changedSince(db: SqliteDb, seen: number, upTo: number): number[] | null {
  if (upTo - seen > KEPT_CHANGES) return null;
  const rows = db.$client.query<{ keys: string | null }, [number, number]>("SELECT keys FROM index_changes WHERE seq > ? AND seq <= ?").all(seen, upTo);
  if (rows.length !== upTo - seen) return null;
  const keys: number[] = [];
  for (const { keys: named } of rows) {
    if (named === null) return null;
    // A write that touched no row (an unindex of nothing) logs an empty list.
    if (named !== "") for (const key of named.split(",")) keys.push(Number(key));
  }
  return keys;
}
