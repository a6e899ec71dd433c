// Communities: the community rows (metadata as JSON, policies as columns so listings filter in
// SQL), their members (users or groups), and the featured periods administrators set.
// Dialect-specific: communities: communities/store.ts reads metadata with `json_extract(metadata,
// '$.title')` (title, description, typeColumn: `$.type.id`) -> `metadata->>'title'`,
// `metadata #>> '{type,id}'`; relevance and searchCommunities match words with GLOB (core/word-
// match.ts) -> `~` regex; findCommunity/findCommunityBySlug and communities_slug_unique use lower().
// community_members: members/store.ts ORDERS.name sorts `COLLATE NOCASE` -> `lower(…)` (or an ICU
// collation); members/store.ts relevance and searchMembers use GLOB (-> `~`); members/policy.ts
// publicMembersFilter `visible = 1` and members/search.ts FACET_COLUMNS.visibility (1/0) -> true/
// false. record_communities: records/store.ts addParentCommunity, removeParentCommunity,
// setDefaultCommunity, listParentCommunities compare is_default to 0/1 (-> boolean, and the partial
// index `WHERE is_default = 1` -> `WHERE is_default`); removeParentCommunity picks the new default
// by `rowid` -> the primary key `(parent_id, community_id)`; the records search rebuild's
// PARENT_COLUMNS use `group_concat(community_id)` -> `string_agg(community_id, ',')`.
// featured_communities: portable.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { recordParentsTable } from "./records";
import { groupsTable, usersTable } from "./users";

export const communitiesTable = sqliteTable(
  "communities",
  {
    /** UUID. */
    id: text("id").primaryKey(),
    /** URL name, unique without regard to case; endpoints accept it in place of the id. */
    slug: text("slug").notNull(),
    /** `public` or `restricted` (access.visibility). */
    visibility: text("visibility").notNull(),
    /** `open` (people may ask to join) or `closed` (access.member_policy). */
    memberPolicy: text("member_policy").notNull(),
    /** `open` or `closed` (access.record_policy, InvenioRDM's record_submission_policy). */
    recordPolicy: text("record_policy").notNull(),
    /** `public` (anyone who sees the community lists its visible members) or `restricted` (members only): access.members_visibility. */
    membersVisibility: text("members_visibility").notNull().default("public"),
    /** Whose submissions skip review: `closed` nobody, `open` curators, managers and owners, `members` any member (access.review_policy). */
    reviewPolicy: text("review_policy").notNull().default("closed"),
    /** The community's `metadata` as clients send it, validated and normalised. */
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The logo's object in the file store, its media type and size; null: no logo. */
    logoObjectId: text("logo_object_id"),
    logoMimetype: text("logo_mimetype"),
    logoSize: integer("logo_size"),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
  },
  (t) => [uniqueIndex("communities_slug_unique").on(sql`lower(${t.slug})`), index("communities_created_idx").on(t.created)],
);

/** A member: a user or a group (exactly one of the two), with a role and a visibility. */
export const communityMembersTable = sqliteTable(
  "community_members",
  {
    /** UUID of the membership. */
    id: text("id").primaryKey(),
    communityId: text("community_id")
      .notNull()
      .references(() => communitiesTable.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => usersTable.id, { onDelete: "cascade" }),
    groupId: text("group_id").references(() => groupsTable.id, { onDelete: "cascade" }),
    /** `reader`, `curator`, `manager` or `owner`. */
    role: text("role").notNull(),
    /** Shown in the public member listing. */
    visible: integer("visible", { mode: "boolean" }).notNull().default(true),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
  },
  (t) => [
    uniqueIndex("community_members_user_unique").on(t.communityId, t.userId),
    uniqueIndex("community_members_group_unique").on(t.communityId, t.groupId),
    index("community_members_user_idx").on(t.userId),
    index("community_members_group_idx").on(t.groupId),
  ],
);

/** A period from which a public community is featured (the newest started one shows first). */
export const featuredCommunitiesTable = sqliteTable(
  "featured_communities",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    communityId: text("community_id")
      .notNull()
      .references(() => communitiesTable.id, { onDelete: "cascade" }),
    /** When it starts being featured (ms). */
    startDate: integer("start_date").notNull(),
    /** When it stops being featured (ms); null: until another period replaces it. */
    endDate: integer("end_date"),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
  },
  (t) => [index("featured_communities_start_idx").on(t.startDate), index("featured_communities_community_idx").on(t.communityId)],
);

/**
 * A record (all its versions, through the parent) included in a community: `parent.communities`.
 * Deleting a community drops its inclusions; the records stay.
 */
export const recordCommunitiesTable = sqliteTable(
  "record_communities",
  {
    parentId: text("parent_id")
      .notNull()
      .references(() => recordParentsTable.id, { onDelete: "cascade" }),
    communityId: text("community_id")
      .notNull()
      .references(() => communitiesTable.id, { onDelete: "cascade" }),
    /** The parent's default community (`parent.communities.default`); at most one per parent. */
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    created: integer("created").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.parentId, t.communityId] }),
    index("record_communities_community_idx").on(t.communityId, t.parentId),
    uniqueIndex("record_communities_one_default")
      .on(t.parentId)
      .where(sql`is_default = 1`),
  ],
);
