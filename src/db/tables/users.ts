// Accounts: users, their personal access tokens, groups and group membership.
// Dialect-specific: users: users/store.ts findUserByEmail/findUserByUsername and sessions/store.ts
// findAccount compare lower() (with the lower() unique indexes below: citext or lower() alike on
// PostgreSQL, which also folds non-ASCII, see index.ts); users/policy.ts searchableUserColumns'
// `substr(email, instr(email, '@') + 1)` -> `split_part(email, '@', 2)`; searchUsers, groups/
// store.ts searchGroups and members' searches match words with GLOB (core/word-match.ts
// matchAllWords/wordPrefixGlob: `[eE]` classes after a separator) -> `~` with the same pattern as a
// regex (`(^|[^…])[eE]…`). groups: findGroupByName/findGroupByIdOrName/searchGroups and
// members/store.ts findMembers/findGroups use lower().
// tokens: scopes JSON text -> jsonb. group_members: portable (onConflictDoNothing).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const usersTable = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    username: text("username"),
    passwordHash: text("password_hash"),
    fullName: text("full_name").notNull().default(""),
    affiliations: text("affiliations").notNull().default(""),
    /** The person's ORCID iD (0000-0002-1825-0097 form, checksum checked), or null. */
    orcid: text("orcid"),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    confirmedAt: integer("confirmed_at"),
    /** When an administrator blocked the account (InvenioRDM's blocked_at): no way in, its tokens refused; null when not blocked. */
    blockedAt: integer("blocked_at"),
    /** When an administrator approved the account (InvenioRDM's verified_at): its publications skip moderation. */
    verifiedAt: integer("verified_at"),
    /** The account that keeps a deleted user's published records when they are kept: never signs in, not listed as a person. */
    isPlaceholder: integer("is_placeholder", { mode: "boolean" }).notNull().default(false),
    /** `public` shows the profile in the users directory; `restricted` hides it. */
    visibility: text("visibility").notNull().default("restricted"),
    /** `public` shows the e-mail to others; `restricted` only to the user. */
    emailVisibility: text("email_visibility").notNull().default("restricted"),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`), uniqueIndex("users_username_unique").on(sql`lower(${t.username})`)],
);

export const tokensTable = sqliteTable(
  "tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => usersTable.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the secret; the secret itself is shown once and never stored. */
    secretHash: text("secret_hash").notNull(),
    scopes: text("scopes", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    created: integer("created").notNull(),
    lastUsed: integer("last_used"),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("tokens_secret_hash_unique").on(t.secretHash), index("tokens_user_idx").on(t.userId)],
);

export const groupsTable = sqliteTable(
  "groups",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Managed groups are kept by Cairn itself (not edited by people). */
    isManaged: integer("is_managed", { mode: "boolean" }).notNull().default(false),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
  },
  (t) => [uniqueIndex("groups_name_unique").on(sql`lower(${t.name})`)],
);

export const groupMembersTable = sqliteTable(
  "group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => groupsTable.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => usersTable.id, { onDelete: "cascade" }),
    created: integer("created").notNull(),
    /**
     * The sign-in source whose groups claim made this membership (sync_groups: an OIDC provider's
     * name, `saml:{name}`, `ldap`), renewed at each sign-in through it; null when added by hand.
     */
    source: text("source"),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("group_members_user_idx").on(t.userId)],
);
