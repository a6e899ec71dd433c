// Queries on guests' pending access requests (access_verifications): the single-use links mailed to
// confirm an address, taken when opened and dropped when their hours have passed.
import { eq, lte } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { accessVerificationsTable } from "../db/tables";

export type VerificationRow = typeof accessVerificationsTable.$inferSelect;

export const insertVerification = async (db: Db, row: VerificationRow): Promise<void> => {
  await db.insert(accessVerificationsTable).values(row);
};
/** Takes a pending verification (single use): returns and deletes it. */
export const takeVerification = async (db: Db, tokenHash: string): Promise<VerificationRow | null> =>
  (await first(db.delete(accessVerificationsTable).where(eq(accessVerificationsTable.tokenHash, tokenHash)).returning())) ?? null;
/** Removes expired verifications; returns how many. */
export const deleteExpiredVerifications = async (db: Db, now: number): Promise<number> =>
  (await db.delete(accessVerificationsTable).where(lte(accessVerificationsTable.expiresAt, now)).returning()).length;
