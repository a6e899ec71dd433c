// Records and drafts: one row per record version or draft, the document kept as JSON.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { usersTable } from "./users";

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
    /** The record document as the API shows it, without computed links. */
    document: text("document", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
  },
  (t) => [
    index("records_listing_idx").on(t.isPublished, t.isLatest, t.accessRecord, t.created),
    index("records_parent_idx").on(t.parentId, t.versionIndex),
    index("records_owner_idx").on(t.ownerId),
  ],
);
