// Files: stored byte objects (`file_objects`, shared by every entry that points at them), the
// entries of drafts and records that name them (`file_entries`), the parts of multipart
// uploads that have arrived (`file_parts`) and their object-storage uploads (`file_uploads`).
// Dialect-specific: file_entries only. files/store.ts listEntries and deleteEntries bind is_draft
// as 0/1 in hand-written SQL (-> boolean), listEntries/copyEntries go through shapeRow/insertRow;
// metadata and transfer are JSON text (-> jsonb). file_objects, file_parts (upsertPart:
// onConflictDoUpdate), file_uploads: portable. backup/sqlite/snapshot.ts reads file_objects from an SQLite
// snapshot file (a PostgreSQL backup is pg_dump's).
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Bytes on disk, content-addressed by id; removed when no entry references them. */
export const fileObjectsTable = sqliteTable("file_objects", {
  id: text("id").primaryKey(),
  size: integer("size").notNull(),
  /** `md5:<hex>` of the bytes as stored. */
  checksum: text("checksum").notNull(),
  created: integer("created").notNull(),
  /** Last integrity check, and what it found when the bytes no longer match. */
  verifiedAt: integer("verified_at"),
  verifyError: text("verify_error"),
});

/** Transfer state: multipart layout, or a fetch's progress and last error. */
export interface FileTransfer {
  type: "L" | "F" | "M";
  parts?: number;
  part_size?: number;
  /** Fetch: attempts so far and the last failure, shown on the entry. */
  attempts?: number;
  error?: string | null;
  /** Fetch: "failed" once no attempt is left (refused host, 4xx, last try): `error` says why. */
  status?: "failed";
}

export const fileEntriesTable = sqliteTable(
  "file_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The draft or record id; `isDraft` says which side. */
    recordId: text("record_id").notNull(),
    isDraft: integer("is_draft", { mode: "boolean" }).notNull(),
    key: text("key").notNull(),
    /** The bytes, once uploaded (pending until committed). */
    objectId: text("object_id").references(() => fileObjectsTable.id),
    status: text("status").$type<"pending" | "completed">().notNull(),
    storageClass: text("storage_class").$type<"L" | "F">().notNull().default("L"),
    uri: text("uri"),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown> | null>(),
    mimetype: text("mimetype"),
    /** What the client announced (size, `md5:` checksum), checked at commit. */
    declaredSize: integer("declared_size"),
    declaredChecksum: text("declared_checksum"),
    transfer: text("transfer", { mode: "json" }).$type<FileTransfer>().notNull(),
    versionId: text("version_id").notNull(),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
  },
  (t) => [uniqueIndex("file_entries_key_idx").on(t.recordId, t.isDraft, t.key), index("file_entries_object_idx").on(t.objectId)],
);

/** A multipart upload's received parts, each a durable temporary file until commit assembles them. */
export const filePartsTable = sqliteTable(
  "file_parts",
  {
    entryId: integer("entry_id")
      .notNull()
      .references(() => fileEntriesTable.id, { onDelete: "cascade" }),
    part: integer("part").notNull(),
    size: integer("size").notNull(),
    path: text("path").notNull(),
    /** The part's ETag in the object store when it was also sent there as a part of `file_uploads`' upload. */
    etag: text("etag"),
    /**
     * The machine whose disk holds the part's bytes (at `path`, in its data directory): several
     * servers behind a balancer each receive some parts, and a commit on another one (another
     * machine or data directory) joins them in the object store instead.
     */
    host: text("host"),
    created: integer("created").notNull(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.part] })],
);

/**
 * The object-storage (S3) multipart upload a multipart entry's parts are sent to as they arrive:
 * commit completes it into object `objectId`. An upload no row names is aborted at start.
 */
export const fileUploadsTable = sqliteTable("file_uploads", {
  entryId: integer("entry_id")
    .primaryKey()
    .references(() => fileEntriesTable.id, { onDelete: "cascade" }),
  objectId: text("object_id").notNull(),
  uploadId: text("upload_id").notNull(),
  created: integer("created").notNull(),
});

/**
 * An administrator's quota for one draft or record (`kind` record, its id) or for one user's
 * files in total (`kind` user, the user id); without a row the configured defaults apply.
 */
export const storageQuotasTable = sqliteTable(
  "storage_quotas",
  {
    kind: text("kind").$type<"record" | "user">().notNull(),
    targetId: text("target_id").notNull(),
    quotaSize: integer("quota_size").notNull(),
    /** Largest single file; null: RDM_FILES_DEFAULT_MAX_FILE_SIZE. */
    maxFileSize: integer("max_file_size"),
    notes: text("notes").notNull().default(""),
    updated: integer("updated").notNull(),
    updatedBy: integer("updated_by"),
  },
  (t) => [primaryKey({ columns: [t.kind, t.targetId] })],
);
