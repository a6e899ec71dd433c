// The rate-limit counts every serving process shares (table rate_counts): core/rate-limit.ts adds
// its processes' requests here in batches and reads the totals back.
import type { Binding, Db } from "../db/port";
import type { SharedCount, SharedCounts } from "../core/rate-limit";

/**
 * One statement per batch, outside any transaction: an upsert is atomic on its own, so adding to
 * a count never waits for the write lock's queue of other writes on a server engine.
 */
export function createSharedRateCounts(db: Db): SharedCounts {
  return {
    async add(entries: SharedCount[]) {
      const totals = new Map<string, number>();
      if (entries.length === 0) return totals;
      const params: Binding[] = [];
      for (const e of entries) params.push(e.key, e.windowIndex, e.add, e.expiresAt);
      // A row of an older window starts again from this batch's count. Never below zero: a
      // refusal is taken back after its request was added, but the row may have been reset or
      // pruned since (a row first written by a take-back is read as zero).
      const rows = await db.statements.all<{ key: string; count: number }>(
        `INSERT INTO rate_counts (key, window_index, count, expires_at) VALUES ${entries.map(() => "(?, ?, ?, ?)").join(", ")}
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN rate_counts.window_index <> excluded.window_index THEN CASE WHEN excluded.count > 0 THEN excluded.count ELSE 0 END
                          WHEN rate_counts.count + excluded.count > 0 THEN rate_counts.count + excluded.count ELSE 0 END,
             window_index = excluded.window_index, expires_at = excluded.expires_at
           RETURNING key, count`,
        params,
      );
      for (const r of rows) totals.set(r.key, Math.max(0, r.count));
      return totals;
    },
    async prune(now: number) {
      await db.statements.run("DELETE FROM rate_counts WHERE expires_at < ?", [now]);
    },
  };
}
