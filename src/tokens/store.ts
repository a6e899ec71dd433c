// Queries on the tokens table.
import { and, asc, eq, isNull } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { findRow } from "../db/rows";
import { tokensTable, usersTable } from "../db/tables";

export type TokenRow = typeof tokensTable.$inferSelect;

export const insertToken = async (db: Db, row: typeof tokensTable.$inferInsert) => (await first(db.insert(tokensTable).values(row).returning()))!;

export const listTokensOfUser = async (db: Db, userId: number) => await db.select().from(tokensTable).where(eq(tokensTable.userId, userId)).orderBy(asc(tokensTable.id));

export const findTokenById = async (db: Db, id: number) => first(db.select().from(tokensTable).where(eq(tokensTable.id, id)).limit(1));

/** The unrevoked token with this hash and its user, whatever the account's state (two point reads: this runs on every authenticated request). */
export async function findActiveTokenByHash(db: Db, secretHash: string) {
  const token = await findRow(db, tokensTable, "secret_hash", secretHash);
  if (!token || token.revokedAt !== null) return undefined;
  const user = await findRow(db, usersTable, "id", token.userId);
  return user ? { token, user } : undefined;
}

export const updateTokenLastUsed = async (db: Db, id: number, at: number) => await db.update(tokensTable).set({ lastUsed: at }).where(eq(tokensTable.id, id));

export const updateTokenRevoked = async (db: Db, id: number, at: number) =>
  await db
    .update(tokensTable)
    .set({ revokedAt: at })
    .where(and(eq(tokensTable.id, id), isNull(tokensTable.revokedAt)));

export const listGroupIdsOfUser = async (db: Db, userId: number): Promise<string[]> =>
  (await db.statements.all<{ group_id: string }>("SELECT group_id FROM group_members WHERE user_id = ?", [userId])).map((r) => r.group_id);
