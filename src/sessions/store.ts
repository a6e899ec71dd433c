// Queries on sessions, on the accounts that sign in, and on the counts that slow password guessing.
import { and, eq, gt, inArray, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/port";
import { sessionsTable, signInThrottlesTable, usersTable } from "../db/tables";

export type SessionRow = typeof sessionsTable.$inferSelect;
export type UserRow = typeof usersTable.$inferSelect;
export type ThrottleRow = typeof signInThrottlesTable.$inferSelect;

/** An account by e-mail address or username (case-insensitive). */
export const findAccount = async (db: Db, login: string): Promise<UserRow | null> =>
  (await db
    .select()
    .from(usersTable)
    .where(or(eq(sql`lower(${usersTable.email})`, login.toLowerCase()), eq(sql`lower(${usersTable.username})`, login.toLowerCase())))
    .get()) ?? null;

/** The first administrator: the active one made first (the one `serve` creates on a new data directory). */
export const findFirstAdmin = async (db: Db): Promise<UserRow | null> =>
  (await db
    .select()
    .from(usersTable)
    .where(and(eq(usersTable.isAdmin, true), eq(usersTable.active, true)))
    .orderBy(usersTable.id)
    .limit(1)
    .get()) ?? null;

export const findUser = async (db: Db, id: number): Promise<UserRow | null> => (await db.select().from(usersTable).where(eq(usersTable.id, id)).get()) ?? null;

export const setPasswordHash = (db: Db, userId: number, passwordHash: string, now: number) =>
  db.update(usersTable).set({ passwordHash, updated: now }).where(eq(usersTable.id, userId)).run();

export const findThrottles = (db: Db, keys: string[]): Promise<ThrottleRow[]> => db.select().from(signInThrottlesTable).where(inArray(signInThrottlesTable.key, keys)).all();

export const upsertThrottle = (db: Db, row: ThrottleRow) =>
  db
    .insert(signInThrottlesTable)
    .values(row)
    .onConflictDoUpdate({ target: signInThrottlesTable.key, set: { failures: row.failures, lastAttempt: row.lastAttempt, waitUntil: row.waitUntil } })
    .run();

export const deleteThrottles = (db: Db, keys: string[]) => db.delete(signInThrottlesTable).where(inArray(signInThrottlesTable.key, keys)).run();

/** Counts nobody has added to after `until` (their waits, at most a quarter of an hour, are long over). */
export const deleteThrottlesUntil = async (db: Db, until: number): Promise<number> =>
  (await db.delete(signInThrottlesTable).where(lte(signInThrottlesTable.lastAttempt, until)).returning().all()).length;

export const insertSession = (db: Db, row: SessionRow) => db.insert(sessionsTable).values(row).run();

/** A session that has not expired at `now`. */
export const findLiveSession = async (db: Db, tokenHash: string, now: number): Promise<SessionRow | null> =>
  (await db
    .select()
    .from(sessionsTable)
    .where(and(eq(sessionsTable.tokenHash, tokenHash), gt(sessionsTable.expiresAt, now)))
    .get()) ?? null;

export const touchSession = (db: Db, tokenHash: string, lastSeen: number, expiresAt: number) =>
  db.update(sessionsTable).set({ lastSeen, expiresAt }).where(eq(sessionsTable.tokenHash, tokenHash)).run();

export const deleteSession = (db: Db, tokenHash: string) => db.delete(sessionsTable).where(eq(sessionsTable.tokenHash, tokenHash)).run();
export const deleteUserSessions = (db: Db, userId: number) => db.delete(sessionsTable).where(eq(sessionsTable.userId, userId)).run();
export const deleteExpiredSessions = async (db: Db, now: number): Promise<number> =>
  (await db.delete(sessionsTable).where(lte(sessionsTable.expiresAt, now)).returning().all()).length;
