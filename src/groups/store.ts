// Queries on the groups and group_members tables.
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { matchAllWords, sqlLower } from "../core/word-match";
import { changesOf, first, type Db } from "../db/port";
import { groupMembersTable, groupsTable } from "../db/tables";

export type GroupRow = typeof groupsTable.$inferSelect;

export const insertGroup = async (db: Db, row: typeof groupsTable.$inferInsert) => (await first(db.insert(groupsTable).values(row).returning()))!;

export const findGroupByName = async (db: Db, name: string) =>
  await first(
    db
      .select()
      .from(groupsTable)
      .where(sql`lower(${groupsTable.name}) = ${sqlLower(name)}`)
      .limit(1),
  );

export const findGroupById = async (db: Db, id: string) => await first(db.select().from(groupsTable).where(eq(groupsTable.id, id)).limit(1));

/** The group with this id, or else this name (InvenioRDM role ids are often names), within `filter`. */
export const findGroupByIdOrName = async (db: Db, key: string, filter: SQL) =>
  await first(
    db
      .select()
      .from(groupsTable)
      .where(and(filter, or(eq(groupsTable.id, key), sql`lower(${groupsTable.name}) = ${sqlLower(key)}`)))
      // A name that happens to equal another group's id loses to the id.
      .orderBy(desc(sql`${groupsTable.id} = ${key}`))
      .limit(1),
  );

export const listGroups = async (db: Db) => await db.select().from(groupsTable).orderBy(asc(groupsTable.name));

/** Groups within `filter` whose name or description starts a word with every query word, by name. */
export async function searchGroups(db: Db, filter: SQL, words: string[], limit: number) {
  const where = and(filter, matchAllWords(words, [sql`${groupsTable.name}`, sql`${groupsTable.description}`]));
  const total =
    (
      await first(
        db
          .select({ n: sql<number>`count(*)` })
          .from(groupsTable)
          .where(where)
          .limit(1),
      )
    )?.n ?? 0;
  const rows = await db
    .select()
    .from(groupsTable)
    .where(where)
    .orderBy(sql`lower(${groupsTable.name})`, asc(groupsTable.id))
    .limit(limit);
  return { rows, total };
}

/**
 * Adds a member by hand; returns false when the user already was one. A membership a sign-in
 * source's claim made becomes a hand-made one: the source's next claim no longer ends it.
 */
export async function insertGroupMember(db: Db, groupId: string, userId: number, at: number): Promise<boolean> {
  if (changesOf(await db.insert(groupMembersTable).values({ groupId, userId, created: at }).onConflictDoNothing()) > 0) return true;
  await db
    .update(groupMembersTable)
    .set({ source: null })
    .where(and(eq(groupMembersTable.groupId, groupId), eq(groupMembersTable.userId, userId)));
  return false;
}

/** The groups a sign-in source's claim made `userId` a member of (sync_groups). */
export const listSourcedGroupIds = async (db: Db, userId: number, source: string): Promise<string[]> =>
  (
    await db
      .select({ groupId: groupMembersTable.groupId })
      .from(groupMembersTable)
      .where(and(eq(groupMembersTable.userId, userId), eq(groupMembersTable.source, source)))
  ).map((r) => r.groupId);

/** A membership made by a source's claim (a membership added by hand stays as it is). */
export const insertSourcedGroupMember = async (db: Db, groupId: string, userId: number, source: string, at: number) =>
  await db.insert(groupMembersTable).values({ groupId, userId, created: at, source }).onConflictDoNothing();

/** Ends the memberships a source's claim made and no longer names. */
export const deleteSourcedGroupMembers = async (db: Db, userId: number, source: string, groupIds: string[]) =>
  await db.delete(groupMembersTable).where(and(eq(groupMembersTable.userId, userId), eq(groupMembersTable.source, source), inArray(groupMembersTable.groupId, groupIds)));
