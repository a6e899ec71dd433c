// Records: published versions (`records`), drafts (`drafts`, same id as the record they edit),
// and the parent that ties a record's versions together (`record_parents`).
// Dialect-specific: records/store.ts setLatestVersion `is_latest IS NOT (id = ?)` -> `IS DISTINCT
// FROM`, and assigns a comparison to the integer boolean is_latest (fine once it is boolean);
// findParentWithVersions/maxVersionIndex (MAX_VERSION_INDEX) use two-argument `max(a, b)` ->
// `greatest(a, b)`; findRecord/findDraft/findParent/insert* go through findRow/insertRow (rows.ts).
// document, tombstone, pids, access_settings are JSON text -> jsonb (or json: document key order).
// record_communities' queries in records/store.ts are listed in communities.ts.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { RecordDocument } from "../../core/record-document";
import { usersTable } from "./users";

export const recordParentsTable = sqliteTable("record_parents", {
  id: text("id").primaryKey(),
  ownerId: integer("owner_id").references(() => usersTable.id),
  /** The latest published version, if any. */
  latestId: text("latest_id"),
  /** Concept DOI and the like: `{doi: {identifier, provider, client}}`. */
  pids: text("pids", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
  /** `parent.access.settings`: who may ask for access, the conditions shown, the default expiry of access granted through requests. */
  accessSettings: text("access_settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
  created: integer("created").notNull(),
  updated: integer("updated").notNull(),
  revisionId: integer("revision_id").notNull().default(1),
});

export const recordsTable = sqliteTable(
  "records",
  {
    /** The record id (`xxxxx-xxxxx`). */
    id: text("id").primaryKey(),
    parentId: text("parent_id").notNull(),
    ownerId: integer("owner_id").references(() => usersTable.id),
    isPublished: integer("is_published", { mode: "boolean" }).notNull().default(false),
    isLatest: integer("is_latest", { mode: "boolean" }).notNull().default(false),
    versionIndex: integer("version_index").notNull().default(1),
    /** `public` or `restricted` (access.record), kept as a column so listings filter in SQL. */
    accessRecord: text("access_record").notNull().default("public"),
    /** The active embargo's end (`YYYY-MM-DD`), so the daily lifting job finds due records by index. */
    embargoUntil: text("embargo_until"),
    /** The stored part of the record JSON: what clients send, normalised, without computed fields or links. */
    document: text("document", { mode: "json" }).$type<RecordDocument>().notNull(),
    /** InvenioRDM's deletion status: `P` published, `D` deleted (a tombstone answers in its place). */
    deletionStatus: text("deletion_status").notNull().default("P"),
    /** Why and by whom a deleted record was removed (`removal_reason`, `note`, `citation_text`, `is_visible`, `removed_by`, `removal_date`). */
    tombstone: text("tombstone", { mode: "json" }).$type<Record<string, unknown>>(),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
  },
  (t) => [
    index("records_listing_idx").on(t.isPublished, t.isLatest, t.accessRecord, t.created),
    index("records_parent_idx").on(t.parentId, t.versionIndex),
    index("records_owner_idx").on(t.ownerId),
    index("records_embargo_idx").on(t.embargoUntil),
  ],
);

export const draftsTable = sqliteTable(
  "drafts",
  {
    id: text("id").primaryKey(),
    parentId: text("parent_id").notNull(),
    ownerId: integer("owner_id").references(() => usersTable.id),
    versionIndex: integer("version_index").notNull().default(1),
    document: text("document", { mode: "json" }).$type<RecordDocument>().notNull(),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
    /** When an untouched draft may be cleaned up (InvenioRDM shows it as expires_at). */
    expiresAt: integer("expires_at"),
  },
  (t) => [index("drafts_parent_idx").on(t.parentId), index("drafts_owner_idx").on(t.ownerId, t.updated)],
);
