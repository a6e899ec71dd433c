// Queries on the users table.
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { matchAllWords } from "../core/word-match";
import type { Db } from "../db/port";
import { usersTable } from "../db/tables";

export type UserRow = typeof usersTable.$inferSelect;
export type NewUserRow = typeof usersTable.$inferInsert;

export const findUserById = (db: Db, id: number) => db.select().from(usersTable).where(eq(usersTable.id, id)).get();

/** The user with this id when `filter` lets the caller see them. */
export const findVisibleUserById = (db: Db, id: number, filter: SQL) =>
  db
    .select()
    .from(usersTable)
    .where(and(eq(usersTable.id, id), filter))
    .get();

export const findUserByEmail = (db: Db, email: string) =>
  db
    .select()
    .from(usersTable)
    .where(sql`lower(${usersTable.email}) = lower(${email})`)
    .get();

export const findUserByUsername = (db: Db, username: string) =>
  db
    .select()
    .from(usersTable)
    .where(sql`lower(${usersTable.username}) = lower(${username})`)
    .get();

export const insertUser = (db: Db, row: NewUserRow) => db.insert(usersTable).values(row).returning().get();

export const listUsers = (db: Db) => db.select().from(usersTable).orderBy(asc(usersTable.id)).all();

/** E-mails of the active administrators, oldest account first (OAI-PMH Identify's adminEmail). */
export const listAdminEmails = async (db: Db): Promise<string[]> =>
  (
    await db
      .select({ email: usersTable.email })
      .from(usersTable)
      .where(and(eq(usersTable.isAdmin, true), eq(usersTable.active, true)))
      .orderBy(asc(usersTable.id))
      .all()
  ).map((u) => u.email);

export const countAdmins = async (db: Db): Promise<number> =>
  (
    await db
      .select({ n: sql<number>`count(*)` })
      .from(usersTable)
      .where(eq(usersTable.isAdmin, true))
      .get()
  )?.n ?? 0;

/** Users within `filter` where every query word starts a word of one of `columns`; by username (those without one last). */
export async function searchUsers(db: Db, filter: SQL, words: string[], columns: SQL[], limit: number) {
  const where = and(filter, matchAllWords(words, columns));
  const counted = await db
    .select({ n: sql<number>`count(*)` })
    .from(usersTable)
    .where(where)
    .get();
  const total = counted?.n ?? 0;
  const rows = await db
    .select()
    .from(usersTable)
    .where(where)
    .orderBy(sql`${usersTable.username} IS NULL`, sql`lower(${usersTable.username})`, asc(usersTable.id))
    .limit(limit)
    .all();
  return { rows, total };
}
