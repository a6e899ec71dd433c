// Queries on the groups and group_members tables.
import { and, asc, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { matchAllWords } from "../core/word-match";
import { changesOf, type Db } from "../db/sqlite/connection";
import { groupMembersTable, groupsTable } from "../db/tables";

export type GroupRow = typeof groupsTable.$inferSelect;

export const insertGroup = (db: Db, row: typeof groupsTable.$inferInsert) => db.insert(groupsTable).values(row).returning().get();

export const findGroupByName = (db: Db, name: string) =>
  db
    .select()
    .from(groupsTable)
    .where(sql`lower(${groupsTable.name}) = lower(${name})`)
    .get();

export const findGroupById = (db: Db, id: string) => db.select().from(groupsTable).where(eq(groupsTable.id, id)).get();

/** The group with this id, or else this name (InvenioRDM role ids are often names), within `filter`. */
export const findGroupByIdOrName = (db: Db, key: string, filter: SQL) =>
  db
    .select()
    .from(groupsTable)
    .where(and(filter, or(eq(groupsTable.id, key), sql`lower(${groupsTable.name}) = lower(${key})`)))
    // A name that happens to equal another group's id loses to the id.
    .orderBy(desc(sql`${groupsTable.id} = ${key}`))
    .get();

export const listGroups = (db: Db) => db.select().from(groupsTable).orderBy(asc(groupsTable.name)).all();

/** Groups within `filter` whose name or description starts a word with every query word, by name. */
export function searchGroups(db: Db, filter: SQL, words: string[], limit: number) {
  const where = and(filter, matchAllWords(words, [sql`${groupsTable.name}`, sql`${groupsTable.description}`]));
  const total =
    db
      .select({ n: sql<number>`count(*)` })
      .from(groupsTable)
      .where(where)
      .get()?.n ?? 0;
  const rows = db
    .select()
    .from(groupsTable)
    .where(where)
    .orderBy(sql`lower(${groupsTable.name})`, asc(groupsTable.id))
    .limit(limit)
    .all();
  return { rows, total };
}

/** Adds a member; returns false when the user already was one. */
export const insertGroupMember = (db: Db, groupId: string, userId: number, at: number) =>
  changesOf(db.insert(groupMembersTable).values({ groupId, userId, created: at }).onConflictDoNothing().run()) > 0;
