// Queries on the users table.
import { and, asc, count, desc, eq, gte, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { matchAllWords, sqlLower } from "../core/word-match";
import { first, type Db } from "../db/port";
import { usersTable } from "../db/tables";
import type { AccountFilters, AllUsersSort } from "./model";

export type UserRow = typeof usersTable.$inferSelect;
export type NewUserRow = typeof usersTable.$inferInsert;

export const findUserById = async (db: Db, id: number) => first(db.select().from(usersTable).where(eq(usersTable.id, id)).limit(1));

/** The user with this id when `filter` lets the caller see them. */
export const findVisibleUserById = async (db: Db, id: number, filter: SQL) =>
  first(
    db
      .select()
      .from(usersTable)
      .where(and(eq(usersTable.id, id), filter))
      .limit(1),
  );

/** The user whose e-mail or username equals `value`, letter case aside. */
const findUserByName = async (db: Db, column: typeof usersTable.email | typeof usersTable.username, value: string) =>
  first(
    db
      .select()
      .from(usersTable)
      .where(sql`lower(${column}) = ${sqlLower(value)}`)
      .limit(1),
  );

export const findUserByEmail = (db: Db, email: string) => findUserByName(db, usersTable.email, email);

export const findUserByUsername = (db: Db, username: string) => findUserByName(db, usersTable.username, username);

export const insertUser = async (db: Db, row: NewUserRow) => (await first(db.insert(usersTable).values(row).returning()))!;

/** Sets the confirmation time unless the account was confirmed already. */
export const confirmUser = async (db: Db, id: number, now: number) =>
  await db
    .update(usersTable)
    .set({ confirmedAt: now, updated: now })
    .where(and(eq(usersTable.id, id), sql`${usersTable.confirmedAt} IS NULL`));

export const updateUser = async (db: Db, id: number, fields: Partial<NewUserRow>, now: number) =>
  await db
    .update(usersTable)
    .set({ ...fields, updated: now, revisionId: sql`${usersTable.revisionId} + 1` })
    .where(eq(usersTable.id, id));

export const listUsers = async (db: Db) => await db.select().from(usersTable).orderBy(asc(usersTable.id));

/** E-mails of the active administrators, oldest account first (OAI-PMH Identify's adminEmail). */
export const listAdminEmails = async (db: Db): Promise<string[]> =>
  (
    await db
      .select({ email: usersTable.email })
      .from(usersTable)
      .where(and(eq(usersTable.isAdmin, true), eq(usersTable.active, true)))
      .orderBy(asc(usersTable.id))
  ).map((u) => u.email);

export const countAdmins = async (db: Db): Promise<number> =>
  (
    await first(
      db
        .select({ n: sql<number>`count(*)` })
        .from(usersTable)
        .where(eq(usersTable.isAdmin, true))
        .limit(1),
    )
  )?.n ?? 0;

/** Users within `filter` where every query word starts a word of one of `columns`; by username (those without one last). */
export async function searchUsers(db: Db, filter: SQL, words: string[], columns: SQL[], limit: number) {
  const where = and(filter, matchAllWords(words, columns));
  const counted = await first(
    db
      .select({ n: sql<number>`count(*)` })
      .from(usersTable)
      .where(where)
      .limit(1),
  );
  const total = counted?.n ?? 0;
  const rows = await db
    .select()
    .from(usersTable)
    .where(where)
    .orderBy(sql`${usersTable.username} IS NULL`, sql`lower(${usersTable.username})`, asc(usersTable.id))
    .limit(limit);
  return { rows, total };
}

/** The administrators' list: every account within the state filters whose words match, in `sort`'s order, paged. */
export async function searchAllUsers(db: Db, where: { filters: AccountFilters; words: string[]; columns: SQL[] }, sort: AllUsersSort, limit: number, offset: number) {
  const u = usersTable;
  const { filters } = where;
  const condition = and(
    filters.active === undefined ? undefined : eq(u.active, filters.active),
    filters.blocked === undefined ? undefined : filters.blocked ? isNotNull(u.blockedAt) : isNull(u.blockedAt),
    filters.verified === undefined ? undefined : filters.verified ? isNotNull(u.verifiedAt) : isNull(u.verifiedAt),
    filters.confirmed === undefined ? undefined : filters.confirmed ? isNotNull(u.confirmedAt) : isNull(u.confirmedAt),
    filters.admin === undefined ? undefined : eq(u.isAdmin, filters.admin),
    filters.createdSince === undefined ? undefined : gte(u.created, filters.createdSince),
    // The placeholder owner of deleted users' records is no person: never listed.
    eq(u.isPlaceholder, false),
    matchAllWords(where.words, where.columns),
  );
  const total = (await first(db.select({ n: count() }).from(u).where(condition).limit(1)))?.n ?? 0;
  const order = {
    newest: [desc(u.created), desc(u.id)],
    oldest: [asc(u.created), asc(u.id)],
    username: [sql`${u.username} IS NULL`, sql`lower(${u.username})`, asc(u.id)],
    email: [sql`lower(${u.email})`, asc(u.id)],
  }[sort];
  const rows = await db
    .select()
    .from(u)
    .where(condition)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return { rows, total };
}

/** Administrators who can act now (active, not blocked): the last one may not lose the role or the account. */
export const countActiveAdmins = async (db: Db): Promise<number> =>
  (
    await first(
      db
        .select({ n: count() })
        .from(usersTable)
        .where(and(eq(usersTable.isAdmin, true), eq(usersTable.active, true), isNull(usersTable.blockedAt), eq(usersTable.isPlaceholder, false)))
        .limit(1),
    )
  )?.n ?? 0;

/** The placeholder owner of deleted users' kept records, if one was made. */
export const findPlaceholder = async (db: Db) => first(db.select().from(usersTable).where(eq(usersTable.isPlaceholder, true)).orderBy(asc(usersTable.id)).limit(1));

/** Removes the account row; the tables that reference it cascade (tokens, sessions, identities, memberships, sign-ins). */
export const deleteUser = async (db: Db, id: number) => await db.delete(usersTable).where(eq(usersTable.id, id));
