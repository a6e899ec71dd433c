// Access to records beyond their owner and communities: grants to users and groups, secret links,
// and guests' access requests awaiting e-mail verification. All belong to the parent, so they
// apply to every version.
// Dialect-specific: none beyond index.ts. access/store.ts listHolderGrants, findValidLink,
// listGrants, listLinks are hand-written `?` SQL through selectRows (portable text); upsertGrant and
// signingKey use onConflictDoUpdate/onConflictDoNothing (portable); records/policy.ts grantedParts
// reads record_grants with a portable subquery; access_verifications.consent is an integer boolean.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { recordParentsTable } from "./records";

/** `parent.access.grants`: a user's or a group's (`role`) permission on the record, optionally until `expires_at`. */
export const recordGrantsTable = sqliteTable(
  "record_grants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    parentId: text("parent_id")
      .notNull()
      .references(() => recordParentsTable.id, { onDelete: "cascade" }),
    /** `user` or `role` (a group), as InvenioRDM names them. */
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    /** `view`, `preview`, `edit` or `manage`. */
    permission: text("permission").notNull(),
    /** Who made it: `api:<user id>`, `request:<request id>`. */
    origin: text("origin").notNull().default(""),
    message: text("message"),
    /** When the grant stops working (ms); null: never. */
    expiresAt: integer("expires_at"),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
  },
  (t) => [uniqueIndex("record_grants_subject_idx").on(t.parentId, t.subjectType, t.subjectId), index("record_grants_holder_idx").on(t.subjectType, t.subjectId)],
);

/** `parent.access.links`: secret links; only a hash of the token is kept. */
export const recordLinksTable = sqliteTable(
  "record_links",
  {
    id: text("id").primaryKey(),
    parentId: text("parent_id")
      .notNull()
      .references(() => recordParentsTable.id, { onDelete: "cascade" }),
    /** `view`, `preview` or `edit`. */
    permission: text("permission").notNull(),
    description: text("description").notNull().default(""),
    origin: text("origin").notNull().default(""),
    /** sha256 of the token (hex). */
    tokenHash: text("token_hash").notNull().unique(),
    /** When the link stops working (ms, the end of its expiry date); null: never. */
    expiresAt: integer("expires_at"),
    created: integer("created").notNull(),
  },
  (t) => [index("record_links_parent_idx").on(t.parentId)],
);

/** A guest's access request waiting for its e-mail address to be confirmed (single use, 6 hours). */
export const accessVerificationsTable = sqliteTable(
  "access_verifications",
  {
    /** sha256 of the token mailed to the guest (hex). */
    tokenHash: text("token_hash").primaryKey(),
    recordId: text("record_id").notNull(),
    email: text("email").notNull(),
    fullName: text("full_name").notNull().default(""),
    message: text("message").notNull().default(""),
    consent: integer("consent", { mode: "boolean" }).notNull().default(false),
    created: integer("created").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("access_verifications_expiry_idx").on(t.expiresAt)],
);

/** Keys the server signs tokens with (secret links), by purpose; created on first use. */
export const signingKeysTable = sqliteTable("signing_keys", {
  purpose: text("purpose").primaryKey(),
  secret: text("secret").notNull(),
  created: integer("created").notNull(),
});
