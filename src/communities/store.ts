// Queries on the communities, community_members and featured_communities tables.
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { matchAllWords, wordPrefixGlob, wordPrefixMatch, sqlLower } from "../core/word-match";
import { changesOf, first, type Db } from "../db/port";
import { communitiesTable, communityMembersTable, featuredCommunitiesTable, groupMembersTable, usersTable } from "../db/tables";
import type { Role } from "./roles";
import { actorMembership } from "./policy";
import type { Actor } from "../core/actor";

export type CommunityRow = typeof communitiesTable.$inferSelect;
export type FeaturedRow = typeof featuredCommunitiesTable.$inferSelect;

const c = communitiesTable;
// `->` and `->>` read JSON alike on SQLite and PostgreSQL.
const title = sql`(${c.metadata} ->> 'title')`;
const description = sql`(${c.metadata} ->> 'description')`;
export const typeColumn = sql`(${c.metadata} -> 'type' ->> 'id')`;

/** The community with this id, or else this slug (any case), within `filter`. */
export const findCommunity = async (db: Db, key: string, filter: SQL) =>
  await first(
    db
      .select()
      .from(c)
      .where(and(filter, sql`(${c.id} = ${key} OR lower(${c.slug}) = ${sqlLower(key)})`))
      // A slug can never equal an id (slugs are not UUIDs), but an id match wins all the same.
      .orderBy(desc(sql`${c.id} = ${key}`))
      .limit(1),
  );

export const findCommunityById = async (db: Db, id: string) => await first(db.select().from(c).where(eq(c.id, id)).limit(1));

/** The communities of `ids` within `filter`, in no particular order. */
export const listCommunitiesIn = async (db: Db, ids: string[], filter: SQL) =>
  await db
    .select()
    .from(c)
    .where(and(inArray(c.id, ids), filter));

/** Id, slug and title (whatever the metadata holds) of the communities of `ids` within `filter`. */
export const listCommunityTitles = async (db: Db, ids: string[], filter: SQL) =>
  await db
    .select({ id: c.id, slug: c.slug, title: sql<unknown>`${title}` })
    .from(c)
    .where(and(inArray(c.id, ids), filter));

export const findCommunityBySlug = async (db: Db, slug: string) =>
  await first(
    db
      .select({ id: c.id })
      .from(c)
      .where(sql`lower(${c.slug}) = ${sqlLower(slug)}`)
      .limit(1),
  );

export const insertCommunity = async (db: Db, row: typeof c.$inferInsert) => (await first(db.insert(c).values(row).returning()))!;

export const insertMember = async (db: Db, row: typeof communityMembersTable.$inferInsert) => await db.insert(communityMembersTable).values(row);

export const updateCommunity = async (db: Db, id: string, values: Partial<typeof c.$inferInsert>) =>
  (await first(
    db
      .update(c)
      .set({ ...values, revisionId: sql`${c.revisionId} + 1` })
      .where(eq(c.id, id))
      .returning(),
  ))!;

/** Deletes the row; its members and featured periods go with it (ON DELETE CASCADE). */
export const deleteCommunity = async (db: Db, id: string) => changesOf(await db.delete(c).where(eq(c.id, id)));

/** The actor's role rows (direct and through its groups), in `communityIds` when given. */
export async function listRoleRows(db: Db, actor: Actor, communityIds?: string[]): Promise<{ communityId: string; role: Role }[]> {
  const membership = actorMembership(actor);
  if (!membership || communityIds?.length === 0) return [];
  const where = communityIds ? and(membership, inArray(communityMembersTable.communityId, communityIds)) : membership;
  return (await db.select({ communityId: communityMembersTable.communityId, role: communityMembersTable.role }).from(communityMembersTable).where(where)) as {
    communityId: string;
    role: Role;
  }[];
}

/** E-mails of active users holding one of `roles`, directly or through a group, each once. */
export async function listMemberEmails(db: Db, communityId: string, roles: Role[]): Promise<string[]> {
  const m = communityMembersTable;
  const direct = db
    .select({ email: usersTable.email })
    .from(m)
    .innerJoin(usersTable, eq(usersTable.id, m.userId))
    .where(and(eq(m.communityId, communityId), inArray(m.role, roles), eq(usersTable.active, true)));
  const viaGroups = db
    .select({ email: usersTable.email })
    .from(m)
    .innerJoin(groupMembersTable, eq(groupMembersTable.groupId, m.groupId))
    .innerJoin(usersTable, eq(usersTable.id, groupMembersTable.userId))
    .where(and(eq(m.communityId, communityId), inArray(m.role, roles), eq(usersTable.active, true)));
  return (await direct.union(viaGroups)).map((r) => r.email);
}

export interface SearchSpec {
  /** Visibility (policy) and listing filters, AND-ed. */
  filters: SQL[];
  words: string[];
  /** Selected facet values: SQL expression -> values (OR-ed within, AND-ed across). */
  selected: { column: SQL; values: string[] }[];
  order: SQL[];
  offset: number;
  limit: number;
}

/** Best match: every word must match somewhere; a title match counts most, then the slug, then the description. */
export function relevance(words: string[]): SQL {
  const score = (column: SQL, weight: number, pattern: string) => sql`(CASE WHEN ${wordPrefixMatch(column, pattern)} THEN ${weight} ELSE 0 END)`;
  const parts = words.map((w) => {
    const p = wordPrefixGlob(w);
    return sql`${score(title, 4, p)} + ${score(sql`${c.slug}`, 2, p)} + ${score(description, 1, p)}`;
  });
  // A constant, not a bare 0: SQLite reads an integer literal in ORDER BY as a column number.
  return parts.length ? sql.join(parts, sql` + `) : sql`abs(0)`;
}

/** The latest featured period that has started by `now` and not ended (null: none). */
export const latestFeaturedStart = (now: number) =>
  sql`(SELECT max(f.start_date) FROM ${featuredCommunitiesTable} f WHERE f.community_id = ${c.id} AND f.start_date <= ${now} AND (f.end_date IS NULL OR f.end_date > ${now}))`;

/** A page of matching communities and the total; facet filters apply to both. */
export async function searchCommunities(db: Db, spec: SearchSpec) {
  const base = and(...spec.filters, matchAllWords(spec.words, [title, description, sql`${c.slug}`]));
  const where = and(base, ...spec.selected.map((s) => inArray(s.column, s.values)));
  const total =
    (
      await first(
        db
          .select({ n: sql<number>`count(*)` })
          .from(c)
          .where(where)
          .limit(1),
      )
    )?.n ?? 0;
  const rows = await db
    .select()
    .from(c)
    .where(where)
    .orderBy(...spec.order)
    .limit(spec.limit)
    .offset(spec.offset);
  return { rows, total, base };
}

/** Counts by `column` over `where` (the query before facet filters, as InvenioRDM's post_filter counts). */
export const countBy = async (db: Db, column: SQL, where: SQL | undefined) =>
  await db
    .select({ key: sql<string | null>`${column}`, n: sql<number>`count(*)` })
    .from(c)
    .where(where)
    .groupBy(column);

export const ORDERS: Record<string, SQL[]> = {
  newest: [desc(c.created), desc(c.id)],
  oldest: [asc(c.created), asc(c.id)],
  "updated-desc": [desc(c.updated), desc(c.id)],
  "updated-asc": [asc(c.updated), asc(c.id)],
  // Communities have no versions; their revision is the nearest thing (InvenioRDM sorts on version_id).
  version: [desc(c.revisionId), desc(c.created), desc(c.id)],
};

// Featured periods.
const f = featuredCommunitiesTable;

export const insertFeatured = async (db: Db, row: typeof f.$inferInsert) => (await first(db.insert(f).values(row).returning()))!;

export const findFeatured = async (db: Db, communityId: string, id: number) =>
  await first(
    db
      .select()
      .from(f)
      .where(and(eq(f.id, id), eq(f.communityId, communityId)))
      .limit(1),
  );

export const listFeatured = async (db: Db, communityId: string) => await db.select().from(f).where(eq(f.communityId, communityId)).orderBy(desc(f.startDate), desc(f.id));

export const updateFeatured = async (db: Db, id: number, period: { startDate: number; endDate: number | null }, at: number) =>
  (await first(
    db
      .update(f)
      .set({ ...period, updated: at })
      .where(eq(f.id, id))
      .returning(),
  ))!;

export const deleteFeatured = async (db: Db, id: number) => await db.delete(f).where(eq(f.id, id));

/** Communities under the policy's `where`, by slug (OAI-PMH sets: those an anonymous harvester may see). */
export const listCommunitiesBySlug = async (db: Db, where: SQL) => await db.select().from(c).where(where).orderBy(asc(c.slug));
