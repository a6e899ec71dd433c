// Queries on account_tokens: the one-use links of sign-up, password reset and e-mail change.
import { and, eq, gt, isNull, lte } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { accountTokensTable } from "../db/tables";
import type { TokenPurpose } from "./model";

export type AccountTokenRow = typeof accountTokensTable.$inferSelect;

export const insertToken = async (db: Db, row: AccountTokenRow) => await db.insert(accountTokensTable).values(row);

/** The unused, unexpired link of `purpose` with this hash, left as it is (a page that shows the form). */
export const findLiveToken = async (db: Db, tokenHash: string, purpose: TokenPurpose, now: number): Promise<AccountTokenRow | null> =>
  (await first(
    db
      .select()
      .from(accountTokensTable)
      .where(and(eq(accountTokensTable.tokenHash, tokenHash), eq(accountTokensTable.purpose, purpose), isNull(accountTokensTable.usedAt), gt(accountTokensTable.expiresAt, now)))
      .limit(1),
  )) ?? null;

/** Marks the link used and answers it, in one statement: of two uses at once only one gets the row. */
export const useToken = async (db: Db, tokenHash: string, purpose: TokenPurpose, now: number): Promise<AccountTokenRow | null> =>
  (await first(
    db
      .update(accountTokensTable)
      .set({ usedAt: now })
      .where(and(eq(accountTokensTable.tokenHash, tokenHash), eq(accountTokensTable.purpose, purpose), isNull(accountTokensTable.usedAt), gt(accountTokensTable.expiresAt, now)))
      .returning(),
  )) ?? null;

/** Ends the user's unused links of `purpose`: a new link replaces the older ones. */
export const deleteUnusedTokens = async (db: Db, userId: number, purpose: TokenPurpose) =>
  await db.delete(accountTokensTable).where(and(eq(accountTokensTable.userId, userId), eq(accountTokensTable.purpose, purpose), isNull(accountTokensTable.usedAt)));

/** The daily clean-up: links past their expiry, used or not. */
export const deleteExpiredTokens = async (db: Db, now: number): Promise<number> =>
  (await db.delete(accountTokensTable).where(lte(accountTokensTable.expiresAt, now)).returning()).length;
