// Queries on sign_in_identities (a provider's subject -> an account), pending_sign_ins (the state,
// nonce and PKCE verifier of a sign-in sent to a provider, taken once) and external_sign_ups (a
// first sign-in waiting for its e-mail address to be proved, or for a password sign-in to link it).
import { and, eq, gt, isNull, lte } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { externalSignUpsTable, pendingSignInsTable, signInIdentitiesTable } from "../db/tables";

export type PendingSignInRow = typeof pendingSignInsTable.$inferSelect;
export type SignInIdentityRow = typeof signInIdentitiesTable.$inferSelect;

export const insertPendingSignIn = async (db: Db, row: PendingSignInRow) => await db.insert(pendingSignInsTable).values(row);

/**
 * Deletes the provider's unexpired pending sign-in with this state hash and answers it, in one
 * statement: of two callbacks with the same state only one gets the row.
 */
export const takePendingSignIn = async (db: Db, stateHash: string, provider: string, now: number): Promise<PendingSignInRow | null> =>
  (await first(
    db
      .delete(pendingSignInsTable)
      .where(and(eq(pendingSignInsTable.stateHash, stateHash), eq(pendingSignInsTable.provider, provider), gt(pendingSignInsTable.expiresAt, now)))
      .returning(),
  )) ?? null;

/** Pending sign-ins past their expiry (nobody came back). */
export const deleteExpiredPendingSignIns = async (db: Db, now: number): Promise<number> =>
  (await db.delete(pendingSignInsTable).where(lte(pendingSignInsTable.expiresAt, now)).returning()).length;

export const findIdentity = async (db: Db, provider: string, subject: string): Promise<SignInIdentityRow | null> =>
  (await first(
    db
      .select()
      .from(signInIdentitiesTable)
      .where(and(eq(signInIdentitiesTable.provider, provider), eq(signInIdentitiesTable.subject, subject)))
      .limit(1),
  )) ?? null;

export const insertIdentity = async (db: Db, row: SignInIdentityRow) => await db.insert(signInIdentitiesTable).values(row);

export const touchIdentity = async (db: Db, provider: string, subject: string, email: string | null, now: number) =>
  await db
    .update(signInIdentitiesTable)
    .set({ lastSignIn: now, email })
    .where(and(eq(signInIdentitiesTable.provider, provider), eq(signInIdentitiesTable.subject, subject)));

/** Unlinks one identity of the account; true when it was there. */
export const deleteIdentity = async (db: Db, userId: number, provider: string, subject: string): Promise<boolean> =>
  (
    await db
      .delete(signInIdentitiesTable)
      .where(and(eq(signInIdentitiesTable.userId, userId), eq(signInIdentitiesTable.provider, provider), eq(signInIdentitiesTable.subject, subject)))
      .returning()
  ).length === 1;

export const listIdentitiesOf = async (db: Db, userId: number): Promise<SignInIdentityRow[]> =>
  await db.select().from(signInIdentitiesTable).where(eq(signInIdentitiesTable.userId, userId));

export type ExternalSignUpRow = typeof externalSignUpsTable.$inferSelect;

export const insertExternalSignUp = async (db: Db, row: ExternalSignUpRow) => await db.insert(externalSignUpsTable).values(row);

/** The live sign-up of this browser's ticket at `provider` that has no mailed link yet. */
export const findExternalSignUp = async (db: Db, ticketHash: string, provider: string, now: number): Promise<ExternalSignUpRow | null> =>
  (await first(
    db
      .select()
      .from(externalSignUpsTable)
      .where(
        and(
          eq(externalSignUpsTable.ticketHash, ticketHash),
          eq(externalSignUpsTable.provider, provider),
          eq(externalSignUpsTable.purpose, "sign-up"),
          isNull(externalSignUpsTable.mailHash),
          gt(externalSignUpsTable.expiresAt, now),
        ),
      )
      .limit(1),
  )) ?? null;

/** Gives the sign-up its address and mailed link (once: a sign-up with a link already is not found). */
export const setExternalSignUpMail = async (db: Db, ticketHash: string, email: string, mailHash: string, expiresAt: number, now: number): Promise<boolean> =>
  (
    await db
      .update(externalSignUpsTable)
      .set({ email, mailHash, expiresAt })
      .where(
        and(
          eq(externalSignUpsTable.ticketHash, ticketHash),
          eq(externalSignUpsTable.purpose, "sign-up"),
          isNull(externalSignUpsTable.mailHash),
          gt(externalSignUpsTable.expiresAt, now),
        ),
      )
      .returning()
  ).length === 1;

/** The live sign-up of a mailed link, left as it is (the page with the button). */
export const findExternalSignUpByMail = async (db: Db, mailHash: string, now: number): Promise<ExternalSignUpRow | null> =>
  (await first(
    db
      .select()
      .from(externalSignUpsTable)
      .where(and(eq(externalSignUpsTable.mailHash, mailHash), gt(externalSignUpsTable.expiresAt, now)))
      .limit(1),
  )) ?? null;

/** Deletes and answers the live sign-up of a mailed link, in one statement (the link works once). */
export const takeExternalSignUpByMail = async (db: Db, mailHash: string, now: number): Promise<ExternalSignUpRow | null> =>
  (await first(
    db
      .delete(externalSignUpsTable)
      .where(and(eq(externalSignUpsTable.mailHash, mailHash), gt(externalSignUpsTable.expiresAt, now)))
      .returning(),
  )) ?? null;

/** The live pending link of this browser's ticket, left as it is (the page with the password form). */
export const findPendingLink = async (db: Db, ticketHash: string, now: number): Promise<ExternalSignUpRow | null> =>
  (await first(
    db
      .select()
      .from(externalSignUpsTable)
      .where(and(eq(externalSignUpsTable.ticketHash, ticketHash), eq(externalSignUpsTable.purpose, "link"), gt(externalSignUpsTable.expiresAt, now)))
      .limit(1),
  )) ?? null;

/** Deletes and answers the live pending link of this browser's ticket, in one statement (it works once). */
export const takePendingLink = async (db: Db, ticketHash: string, now: number): Promise<ExternalSignUpRow | null> =>
  (await first(
    db
      .delete(externalSignUpsTable)
      .where(and(eq(externalSignUpsTable.ticketHash, ticketHash), eq(externalSignUpsTable.purpose, "link"), gt(externalSignUpsTable.expiresAt, now)))
      .returning(),
  )) ?? null;

export const deleteExpiredExternalSignUps = async (db: Db, now: number): Promise<number> =>
  (await db.delete(externalSignUpsTable).where(lte(externalSignUpsTable.expiresAt, now)).returning()).length;
