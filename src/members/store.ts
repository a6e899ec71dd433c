// Queries on the community_members table, joined with the users and groups they name.
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { matchAllWords, wordPrefixGlob, wordPrefixMatch } from "../core/word-match";
import { changesOf, first, type Db } from "../db/port";
import { communitiesTable, communityMembersTable, groupsTable, usersTable } from "../db/tables";
import type { Role } from "../communities/roles";

const m = communityMembersTable;
const u = usersTable;
const g = groupsTable;

export type MemberRow = typeof m.$inferSelect;
export type NewMemberRow = typeof m.$inferInsert;

/** The name a member is listed and sorted by: InvenioRDM's full name, else username, else "Untitled"; a group's name. */
export const memberName = sql<string>`CASE WHEN ${m.userId} IS NOT NULL THEN coalesce(nullif(trim(${u.fullName}), ''), ${u.username}, 'Untitled') ELSE coalesce(${g.name}, '') END`;

/** A membership with what its JSON shows of the user or group. */
const listedColumns = {
  member: m,
  name: memberName,
  affiliations: u.affiliations,
  groupDescription: g.description,
};

export type ListedMember = { member: MemberRow; name: string; affiliations: string | null; groupDescription: string | null };

const joined = (db: Db) => db.select(listedColumns).from(m).leftJoin(u, eq(u.id, m.userId)).leftJoin(g, eq(g.id, m.groupId));

export interface MemberQuery {
  /** Who sees what and this listing's own conditions (community, visibility). */
  filters: SQL[];
  words: string[];
  /** The columns `q` may match for this caller. */
  columns: SQL[];
  /** Facet selections: values OR-ed within a facet, facets AND-ed. */
  selected: { column: SQL; values: (string | number)[] }[];
  order: SQL[];
  limit: number;
  offset: number;
}

/** One page of members, the total, and the condition without facet filters (what aggregations count over). */
export async function searchMembers(db: Db, query: MemberQuery) {
  const base = and(...query.filters, matchAllWords(query.words, query.columns));
  const where = and(base, ...query.selected.map((s) => inArray(s.column, s.values)));
  const total =
    (
      await first(
        db
          .select({ n: sql<number>`count(*)` })
          .from(m)
          .leftJoin(u, eq(u.id, m.userId))
          .leftJoin(g, eq(g.id, m.groupId))
          .where(where)
          .limit(1),
      )
    )?.n ?? 0;
  const rows = (await joined(db)
    .where(where)
    .orderBy(...query.order)
    .limit(query.limit)
    .offset(query.offset)) as ListedMember[];
  return { rows, total, base };
}

/** Matching members counted by one column (a facet), over `where`. */
export const countBy = async (db: Db, column: SQL, where: SQL | undefined) =>
  await db
    .select({ key: sql<string | number>`${column}`, n: sql<number>`count(*)` })
    .from(m)
    .leftJoin(u, eq(u.id, m.userId))
    .leftJoin(g, eq(g.id, m.groupId))
    .where(where)
    .groupBy(column);

/** Sort orders; ties go by id so pages never overlap. */
export const ORDERS: Record<string, SQL[]> = {
  // lower() folds ASCII only on both engines (text is COLLATE "C" on PostgreSQL), as NOCASE did.
  name: [sql`lower(${memberName})`, asc(m.id)],
  newest: [desc(m.created), asc(m.id)],
  oldest: [asc(m.created), asc(m.id)],
};

/** bestmatch: InvenioRDM's field weights (full name 3, username and e-mail 2, the rest 1) per matched query word. */
export function relevance(words: string[], weighted: { column: SQL; weight: number }[]): SQL {
  const parts = words.flatMap((w) => weighted.map(({ column, weight }) => sql`(CASE WHEN ${wordPrefixMatch(column, wordPrefixGlob(w))} THEN ${weight} ELSE 0 END)`));
  return parts.length ? sql.join(parts, sql` + `) : sql`0`;
}

/** The memberships of the community naming these users and groups (a group by id or name). */
export async function findMembers(db: Db, communityId: string, userIds: number[], groupKeys: string[]): Promise<ListedMember[]> {
  const byUser = userIds.length ? inArray(m.userId, userIds) : undefined;
  const byGroup = groupKeys.length
    ? or(
        inArray(m.groupId, groupKeys),
        inArray(
          sql`lower(${g.name})`,
          groupKeys.map((k) => k.toLowerCase()),
        ),
      )
    : undefined;
  if (!byUser && !byGroup) return [];
  return (await joined(db).where(and(eq(m.communityId, communityId), or(byUser, byGroup)))) as ListedMember[];
}

export const findUserMembership = async (db: Db, communityId: string, userId: number) =>
  await first(
    db
      .select()
      .from(m)
      .where(and(eq(m.communityId, communityId), eq(m.userId, userId)))
      .limit(1),
  );

export const countOwners = async (db: Db, communityId: string) =>
  (
    await first(
      db
        .select({ n: sql<number>`count(*)` })
        .from(m)
        .where(and(eq(m.communityId, communityId), eq(m.role, "owner")))
        .limit(1),
    )
  )?.n ?? 0;

export const insertMember = async (db: Db, row: NewMemberRow) => (await first(db.insert(m).values(row).returning()))!;

/** Writes a new role and/or visibility with the next revision. */
export const updateMember = async (db: Db, id: string, set: { role?: Role; visible?: boolean }, updated: number) =>
  await db
    .update(m)
    .set({ ...set, updated, revisionId: sql`${m.revisionId} + 1` })
    .where(eq(m.id, id));

export const deleteMember = async (db: Db, id: string) => changesOf(await db.delete(m).where(eq(m.id, id)));

/** Active users by id (inactive accounts cannot be invited). */
export const findActiveUsers = async (db: Db, ids: number[]) =>
  ids.length
    ? await db
        .select({ id: u.id, name: sql<string>`coalesce(nullif(trim(${u.fullName}), ''), ${u.username}, 'Untitled')`, affiliations: u.affiliations })
        .from(u)
        .where(and(inArray(u.id, ids), eq(u.active, true)))
    : [];

/** Groups by id or name (InvenioRDM role ids are often names). */
export const findGroups = async (db: Db, keys: string[]) =>
  keys.length
    ? await db
        .select({ id: g.id, name: g.name })
        .from(g)
        .where(
          or(
            inArray(g.id, keys),
            inArray(
              sql`lower(${g.name})`,
              keys.map((k) => k.toLowerCase()),
            ),
          ),
        )
    : [];

/**
 * Users among `ids` whose columns match every query word (all of them without words), with their
 * listed name, affiliations and bestmatch score: what invitation and membership-request listings join.
 */
export async function findUsersMatching(db: Db, ids: number[], words: string[], weighted: { column: SQL; weight: number }[]) {
  if (ids.length === 0) return [];
  return await db
    .select({
      id: u.id,
      name: sql<string>`coalesce(nullif(trim(${u.fullName}), ''), ${u.username}, 'Untitled')`,
      affiliations: u.affiliations,
      score: sql<number>`${relevance(words, weighted)}`,
    })
    .from(u)
    .where(
      and(
        inArray(u.id, ids),
        matchAllWords(
          words,
          weighted.map((w) => w.column),
        ),
      ),
    );
}

/** A user's own memberships (not through groups) with each community's slug, metadata and number of owners; by slug. */
export async function listUserMemberships(db: Db, userId: number, limit: number) {
  const c = communitiesTable;
  const owners = sql<number>`(SELECT count(*) FROM ${m} o WHERE o.community_id = ${c.id} AND o.role = 'owner')`;
  const where = eq(m.userId, userId);
  const total =
    (
      await first(
        db
          .select({ n: sql<number>`count(*)` })
          .from(m)
          .where(where)
          .limit(1),
      )
    )?.n ?? 0;
  const rows = await db
    .select({ id: c.id, slug: c.slug, metadata: c.metadata, role: m.role, owners })
    .from(m)
    .innerJoin(c, eq(c.id, m.communityId))
    .where(where)
    .orderBy(sql`lower(${c.slug})`)
    .limit(limit);
  return { rows, total };
}
