// Queries on sessions, on the accounts that sign in, and on the counts that slow password guessing.
import { and, desc, eq, gt, inArray, lte, ne, or, sql } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { sessionsTable, signInsTable, signInThrottlesTable, usersTable } from "../db/tables";

export type SessionRow = typeof sessionsTable.$inferSelect;
export type UserRow = typeof usersTable.$inferSelect;
export type ThrottleRow = typeof signInThrottlesTable.$inferSelect;

/** An account by e-mail address or username (case-insensitive). */
export const findAccount = async (db: Db, login: string): Promise<UserRow | null> =>
  (await first(
    db
      .select()
      .from(usersTable)
      .where(or(eq(sql`lower(${usersTable.email})`, login.toLowerCase()), eq(sql`lower(${usersTable.username})`, login.toLowerCase())))
      .limit(1),
  )) ?? null;

/** The first administrator: the active one made first (the one `serve` creates on a new data directory). */
export const findFirstAdmin = async (db: Db): Promise<UserRow | null> =>
  (await first(
    db
      .select()
      .from(usersTable)
      .where(and(eq(usersTable.isAdmin, true), eq(usersTable.active, true)))
      .orderBy(usersTable.id)
      .limit(1),
  )) ?? null;

export const findUser = async (db: Db, id: number): Promise<UserRow | null> => (await first(db.select().from(usersTable).where(eq(usersTable.id, id)).limit(1))) ?? null;

export const setPasswordHash = async (db: Db, userId: number, passwordHash: string, now: number) =>
  await db.update(usersTable).set({ passwordHash, updated: now }).where(eq(usersTable.id, userId));

export const findThrottles = async (db: Db, keys: string[]): Promise<ThrottleRow[]> => await db.select().from(signInThrottlesTable).where(inArray(signInThrottlesTable.key, keys));

export const upsertThrottle = async (db: Db, row: ThrottleRow) =>
  await db
    .insert(signInThrottlesTable)
    .values(row)
    .onConflictDoUpdate({ target: signInThrottlesTable.key, set: { failures: row.failures, lastAttempt: row.lastAttempt, waitUntil: row.waitUntil } });

export const deleteThrottles = async (db: Db, keys: string[]) => await db.delete(signInThrottlesTable).where(inArray(signInThrottlesTable.key, keys));

/** Counts nobody has added to after `until` (their waits, at most a quarter of an hour, are long over). */
export const deleteThrottlesUntil = async (db: Db, until: number): Promise<number> =>
  (await db.delete(signInThrottlesTable).where(lte(signInThrottlesTable.lastAttempt, until)).returning()).length;

export const insertSession = async (db: Db, row: SessionRow) => await db.insert(sessionsTable).values(row);

/** A session that has not expired at `now`. */
export const findLiveSession = async (db: Db, tokenHash: string, now: number): Promise<SessionRow | null> =>
  (await first(
    db
      .select()
      .from(sessionsTable)
      .where(and(eq(sessionsTable.tokenHash, tokenHash), gt(sessionsTable.expiresAt, now)))
      .limit(1),
  )) ?? null;

export const touchSession = async (db: Db, tokenHash: string, lastSeen: number, expiresAt: number) =>
  await db.update(sessionsTable).set({ lastSeen, expiresAt }).where(eq(sessionsTable.tokenHash, tokenHash));

export const deleteSession = async (db: Db, tokenHash: string) => await db.delete(sessionsTable).where(eq(sessionsTable.tokenHash, tokenHash));
/** Ends every session of the user but the one whose hash is `keep`. */
export const deleteUserSessions = async (db: Db, userId: number, keep: string | null) =>
  await db.delete(sessionsTable).where(keep === null ? eq(sessionsTable.userId, userId) : and(eq(sessionsTable.userId, userId), ne(sessionsTable.tokenHash, keep)));
export const deleteExpiredSessions = async (db: Db, now: number): Promise<number> => (await db.delete(sessionsTable).where(lte(sessionsTable.expiresAt, now)).returning()).length;

export type SignInRow = typeof signInsTable.$inferSelect;

export const insertSignIn = async (db: Db, row: typeof signInsTable.$inferInsert) => await db.insert(signInsTable).values(row);

/** Keeps the user's newest `keep` sign-ins (the history stays bounded however often they sign in). */
export const pruneSignIns = (db: Db, userId: number, keep: number) =>
  db.statements.run("DELETE FROM sign_ins WHERE user_id = ? AND id NOT IN (SELECT id FROM sign_ins WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?)", [userId, userId, keep]);

/** The user's latest sign-ins, newest first. */
export const listSignIns = async (db: Db, userId: number, limit: number): Promise<SignInRow[]> =>
  await db.select().from(signInsTable).where(eq(signInsTable.userId, userId)).orderBy(desc(signInsTable.at), desc(signInsTable.id)).limit(limit);
