// Queries on the mail_outbox table.
import { and, asc, eq, isNull, lt, sql } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { mailOutboxTable } from "../db/tables";

export type MailRow = typeof mailOutboxTable.$inferSelect;

export const insertMail = async (db: Db, row: typeof mailOutboxTable.$inferInsert) => (await first(db.insert(mailOutboxTable).values(row).returning()))!;

/**
 * Unsent rows that are due, oldest first. A row tried `n` times waits `retryBaseMs * (2^n - 1)`
 * after it was queued, so retries back off without a column of their own.
 */
export const listDueMail = async (db: Db, now: number, maxAttempts: number, retryBaseMs: number, limit: number) =>
  await db
    .select()
    .from(mailOutboxTable)
    .where(
      and(
        isNull(mailOutboxTable.sentAt),
        lt(mailOutboxTable.attempts, maxAttempts),
        sql`${mailOutboxTable.created} + ${retryBaseMs} * ((1 << ${mailOutboxTable.attempts}) - 1) <= ${now}`,
      ),
    )
    .orderBy(asc(mailOutboxTable.id))
    .limit(limit);

export const markMailSent = async (db: Db, id: number, at: number) =>
  await db
    .update(mailOutboxTable)
    .set({ sentAt: at, attempts: sql`${mailOutboxTable.attempts} + 1`, lastError: null })
    .where(eq(mailOutboxTable.id, id));

/** Counts a failed attempt; `attempts` given: set it (giving up on a permanent refusal). */
export const markMailFailed = async (db: Db, id: number, error: string, attempts?: number) =>
  await db
    .update(mailOutboxTable)
    .set({ attempts: attempts ?? sql`${mailOutboxTable.attempts} + 1`, lastError: error })
    .where(eq(mailOutboxTable.id, id));

/** Newest first; by topic when given (`request:<uuid>`). */
export const listMail = async (db: Db, topic: string | undefined, limit: number) =>
  await db
    .select()
    .from(mailOutboxTable)
    .where(topic === undefined ? undefined : eq(mailOutboxTable.topic, topic))
    .orderBy(sql`${mailOutboxTable.id} DESC`)
    .limit(limit);
