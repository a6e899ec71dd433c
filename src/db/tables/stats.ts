// Usage statistics: raw view/download events (kept for STATS_EVENTS_RETENTION_DAYS), their daily
// totals per record and per parent (all versions), all-time totals, and the aggregation's state.
// The migration (0010_stats.sql) makes the keyed tables WITHOUT ROWID, which drizzle cannot say:
// the aggregation's upserts then touch one B-tree instead of two.
// Only drizzle-kit reads these declarations (to generate migrations): src/stats/store.ts queries
// the tables with its own SQL (upserts into WITHOUT ROWID tables).
// Dialect-specific (src/stats/store.ts): recordKeysOf and insertStateIfMissing use `INSERT OR
// IGNORE` -> `ON CONFLICT DO NOTHING`; withPageCache (db/sqlite/connection.ts) sets SQLite's page cache (-> nothing, or `SET
// work_mem`); the WITHOUT ROWID tables are plain tables with their primary key; stats_keys.key is a
// rowid alias -> identity; deleteStatesLike's `LIKE ? || '%'` is ASCII case-insensitive on SQLite,
// case-sensitive on PostgreSQL (the keys are fixed lower-case prefixes: same rows). upsertRows'
// `ON CONFLICT … excluded` and insertEvents' many-row VALUES (640 parameters) are portable.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One counted view or download; ids only grow (AUTOINCREMENT), so the aggregation's watermark stays valid after pruning. */
export const statsEventsTable = sqliteTable(
  "stats_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** 0 a record view, 1 a file download. */
    kind: integer("kind").notNull(),
    /** Milliseconds since the epoch. */
    ts: integer("ts").notNull(),
    recordId: text("record_id").notNull(),
    parentId: text("parent_id").notNull(),
    /** `u:<user id>`, or a hash of address + user agent with the day's salt: never a raw address. */
    visitor: text("visitor").notNull(),
    fileKey: text("file_key"),
    bytes: integer("bytes").notNull().default(0),
    /** A script or tool by the COUNTER machine list (COUNTER "TDM" access). */
    isMachine: integer("is_machine").notNull().default(0),
    // Numbers for the aggregation, which reads millions of events: coding strings in JS cost more
    // than the rest of it. Null in events written before 0013 (the aggregation codes those itself).
    /** The record id's key in stats_keys. */
    recordKey: integer("record_key"),
    /** A 52-bit hash of `visitor` (two visitors sharing one in the same hour count as one session: about 1 in 10^8). */
    visitorKey: integer("visitor_key"),
  },
  (t) => [index("stats_events_ts").on(t.ts)],
);

const counts = () => ({
  views: integer("views").notNull().default(0),
  uniqueViews: integer("unique_views").notNull().default(0),
  downloads: integer("downloads").notNull().default(0),
  uniqueDownloads: integer("unique_downloads").notNull().default(0),
  /** Bytes sent by the counted downloads. */
  volume: integer("volume").notNull().default(0),
});

/** Daily totals of one record version; the machine_* columns are the part of the downloads made by machines (COUNTER's machine access). */
export const statsRecordDailyTable = sqliteTable(
  "stats_record_daily",
  {
    recordId: text("record_id").notNull(),
    /** `YYYY-MM-DD` (UTC). */
    day: text("day").notNull(),
    parentId: text("parent_id").notNull(),
    ...counts(),
    /** Sessions that viewed or downloaded (COUNTER "unique dataset investigations"). */
    uniqueInvestigations: integer("unique_investigations").notNull().default(0),
    machineDownloads: integer("machine_downloads").notNull().default(0),
    machineUniqueDownloads: integer("machine_unique_downloads").notNull().default(0),
    machineVolume: integer("machine_volume").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.recordId, t.day] }), index("stats_record_daily_day").on(t.day)],
);

/** Daily totals of all versions of a record: unique counts are of sessions across the versions. */
export const statsParentDailyTable = sqliteTable(
  "stats_parent_daily",
  {
    parentId: text("parent_id").notNull(),
    day: text("day").notNull(),
    ...counts(),
  },
  (t) => [primaryKey({ columns: [t.parentId, t.day] })],
);

/** All-time totals (`scope` record or parent), what records show and the popularity sorts use. */
export const statsTotalsTable = sqliteTable(
  "stats_totals",
  {
    scope: text("scope").$type<"record" | "parent">().notNull(),
    id: text("id").notNull(),
    ...counts(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.id] })],
);

/** Record ids as small numbers, for the events' record_key (never reused; a row per record ever counted). */
export const statsKeysTable = sqliteTable("stats_keys", {
  key: integer("key").primaryKey(),
  value: text("value").notNull().unique(),
});

/** Small named values: the aggregation watermark, the visitor-hash salts of the current days. */
export const statsStateTable = sqliteTable("stats_state", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
