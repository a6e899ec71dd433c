// Queries on the tokens table.
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/connection";
import { groupMembersTable, tokensTable, usersTable } from "../db/tables";

export type TokenRow = typeof tokensTable.$inferSelect;

export const insertToken = (db: Db, row: typeof tokensTable.$inferInsert) => db.insert(tokensTable).values(row).returning().get();

export const listTokensOfUser = (db: Db, userId: number) =>
  db.select().from(tokensTable).where(eq(tokensTable.userId, userId)).orderBy(asc(tokensTable.id)).all();

export const findTokenById = (db: Db, id: number) => db.select().from(tokensTable).where(eq(tokensTable.id, id)).get();

/** The live token with this hash and its active user. */
export const findActiveTokenByHash = (db: Db, secretHash: string) =>
  db
    .select({ token: tokensTable, user: usersTable })
    .from(tokensTable)
    .innerJoin(usersTable, eq(usersTable.id, tokensTable.userId))
    .where(and(eq(tokensTable.secretHash, secretHash), isNull(tokensTable.revokedAt), eq(usersTable.active, true)))
    .get();

export const updateTokenLastUsed = (db: Db, id: number, at: number) =>
  db.update(tokensTable).set({ lastUsed: at }).where(eq(tokensTable.id, id)).run();

export const updateTokenRevoked = (db: Db, id: number, at: number) =>
  db.update(tokensTable).set({ revokedAt: at }).where(and(eq(tokensTable.id, id), isNull(tokensTable.revokedAt))).run();

export const listGroupIdsOfUser = (db: Db, userId: number) =>
  db.select({ id: groupMembersTable.groupId }).from(groupMembersTable).where(eq(groupMembersTable.userId, userId)).all().map((r) => r.id);
