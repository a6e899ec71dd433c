// Queries on sessions and on the sign-in counters of users.
import { and, eq, gt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { sessionsTable, usersTable } from "../db/tables";

export type SessionRow = typeof sessionsTable.$inferSelect;
export type UserRow = typeof usersTable.$inferSelect;

/** An account by e-mail address or username (case-insensitive). */
export const findAccount = (db: Db, login: string): UserRow | null =>
  db
    .select()
    .from(usersTable)
    .where(or(eq(sql`lower(${usersTable.email})`, login.toLowerCase()), eq(sql`lower(${usersTable.username})`, login.toLowerCase())))
    .get() ?? null;

/** The first administrator: the active one made first (the one `serve` creates on a new data directory). */
export const findFirstAdmin = (db: Db): UserRow | null =>
  db
    .select()
    .from(usersTable)
    .where(and(eq(usersTable.isAdmin, true), eq(usersTable.active, true)))
    .orderBy(usersTable.id)
    .limit(1)
    .get() ?? null;

export const findUser = (db: Db, id: number): UserRow | null => db.select().from(usersTable).where(eq(usersTable.id, id)).get() ?? null;

export const recordFailure = (db: Db, userId: number, lockedUntil: number | null) =>
  db
    .update(usersTable)
    .set({ failedLogins: sql`${usersTable.failedLogins} + 1`, lockedUntil })
    .where(eq(usersTable.id, userId))
    .run();

export const clearFailures = (db: Db, userId: number) => db.update(usersTable).set({ failedLogins: 0, lockedUntil: null }).where(eq(usersTable.id, userId)).run();

export const setPasswordHash = (db: Db, userId: number, passwordHash: string, now: number) =>
  db.update(usersTable).set({ passwordHash, failedLogins: 0, lockedUntil: null, updated: now }).where(eq(usersTable.id, userId)).run();

export const insertSession = (db: Db, row: SessionRow) => db.insert(sessionsTable).values(row).run();

/** A session that has not expired at `now`. */
export const findLiveSession = (db: Db, tokenHash: string, now: number): SessionRow | null =>
  db
    .select()
    .from(sessionsTable)
    .where(and(eq(sessionsTable.tokenHash, tokenHash), gt(sessionsTable.expiresAt, now)))
    .get() ?? null;

export const touchSession = (db: Db, tokenHash: string, lastSeen: number, expiresAt: number) =>
  db.update(sessionsTable).set({ lastSeen, expiresAt }).where(eq(sessionsTable.tokenHash, tokenHash)).run();

export const deleteSession = (db: Db, tokenHash: string) => db.delete(sessionsTable).where(eq(sessionsTable.tokenHash, tokenHash)).run();
export const deleteUserSessions = (db: Db, userId: number) => db.delete(sessionsTable).where(eq(sessionsTable.userId, userId)).run();
export const deleteExpiredSessions = (db: Db, now: number): number => db.delete(sessionsTable).where(lte(sessionsTable.expiresAt, now)).returning().all().length;
