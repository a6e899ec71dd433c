// Request rate-limit counts shared by every serving process (core/rate-limit.ts keeps the counts
// in memory and adds its own to these a few times a second, and at once near a limit).
// Dialect-specific: none (the upsert is `ON CONFLICT … excluded … RETURNING`, portable).
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const rateCountsTable = sqliteTable(
  "rate_counts",
  {
    /** The client (`a:<address>` or `u:<user id>`), the limit's period in ms and its place in the list: `a:192.0.2.1|60000|1`. */
    key: text("key").primaryKey(),
    /** Which window of the period the count is of (ms since the epoch / period): a new window starts the count again. */
    windowIndex: integer("window_index").notNull(),
    count: integer("count").notNull(),
    /** When the window ends (ms): rows past it are deleted. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("rate_counts_expires_idx").on(t.expiresAt)],
);
