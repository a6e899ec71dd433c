// Queries on saml_requests (AuthnRequests sent to an IdP, taken once by the browser that sent them)
// and saml_assertions_seen (assertion IDs accepted, so that none is accepted twice).
import { and, eq, gt, lte } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { samlAssertionsSeenTable, samlRequestsTable } from "../db/tables";

export type SamlRequestRow = typeof samlRequestsTable.$inferSelect;

export const insertSamlRequest = async (db: Db, row: SamlRequestRow) => await db.insert(samlRequestsTable).values(row);

/** The IdP's live request of this ID, left in place (the ACS checks a response names one before the browser comes back). */
export const findSamlRequest = async (db: Db, requestId: string, idp: string, now: number): Promise<SamlRequestRow | null> =>
  (await first(
    db
      .select()
      .from(samlRequestsTable)
      .where(and(eq(samlRequestsTable.requestId, requestId), eq(samlRequestsTable.idp, idp), gt(samlRequestsTable.expiresAt, now)))
      .limit(1),
  )) ?? null;

/**
 * Deletes and answers the IdP's live request of this ID sent from this browser, in one statement:
 * of two attempts to finish the same sign-in only one gets the row.
 */
export const takeSamlRequest = async (db: Db, requestId: string, idp: string, browserHash: string, now: number): Promise<SamlRequestRow | null> =>
  (await first(
    db
      .delete(samlRequestsTable)
      .where(and(eq(samlRequestsTable.requestId, requestId), eq(samlRequestsTable.idp, idp), eq(samlRequestsTable.browserHash, browserHash), gt(samlRequestsTable.expiresAt, now)))
      .returning(),
  )) ?? null;

/** Records an assertion as accepted; false when it was accepted before (a replay). */
export const recordAssertion = async (db: Db, idp: string, assertionId: string, expiresAt: number): Promise<boolean> =>
  (await db.insert(samlAssertionsSeenTable).values({ idp, assertionId, expiresAt }).onConflictDoNothing().returning()).length === 1;

/** Requests nobody came back from, and seen assertions past their expiry (refused as expired anyway). */
export async function deleteExpiredSaml(db: Db, now: number): Promise<number> {
  const requests = await db.delete(samlRequestsTable).where(lte(samlRequestsTable.expiresAt, now)).returning();
  const seen = await db.delete(samlAssertionsSeenTable).where(lte(samlAssertionsSeenTable.expiresAt, now)).returning();
  return requests.length + seen.length;
}
