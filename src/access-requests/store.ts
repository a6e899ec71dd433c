// Queries on guests' pending access requests (access_verifications): the single-use links mailed to
// confirm an address, taken when opened and dropped when their hours have passed.
import { eq, lte } from "drizzle-orm";
import type { Db } from "../db/sqlite/connection";
import { accessVerificationsTable } from "../db/tables";

export type VerificationRow = typeof accessVerificationsTable.$inferSelect;

export const insertVerification = (db: Db, row: VerificationRow) => db.insert(accessVerificationsTable).values(row).run();
/** Takes a pending verification (single use): returns and deletes it. */
export const takeVerification = (db: Db, tokenHash: string): VerificationRow | null =>
  db.delete(accessVerificationsTable).where(eq(accessVerificationsTable.tokenHash, tokenHash)).returning().get() ?? null;
/** Removes expired verifications; returns how many. */
export const deleteExpiredVerifications = (db: Db, now: number): number =>
  db.delete(accessVerificationsTable).where(lte(accessVerificationsTable.expiresAt, now)).returning().all().length;
