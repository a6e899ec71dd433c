// Queries on the mail_outbox table.
import { sqlLower } from "../core/word-match";
import { and, asc, count, eq, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
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
        // 64-bit shifted by an int: PostgreSQL has no `integer << bigint`, SQLite reads both casts as no-ops.
        sql`${mailOutboxTable.created} + ${retryBaseMs} * ((CAST(1 AS BIGINT) << CAST(${mailOutboxTable.attempts} AS INTEGER)) - 1) <= ${now}`,
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

export const findMailById = async (db: Db, id: number) => first(db.select().from(mailOutboxTable).where(eq(mailOutboxTable.id, id)).limit(1));

/** Where a message stands: sent, failed (unsent after an SMTP error), pending (unsent, never refused). */
export type MailStatus = "sent" | "failed" | "pending";

const statusCondition = (status: MailStatus): SQL =>
  status === "sent"
    ? isNotNull(mailOutboxTable.sentAt)
    : status === "failed"
      ? and(isNull(mailOutboxTable.sentAt), isNotNull(mailOutboxTable.lastError))!
      : and(isNull(mailOutboxTable.sentAt), isNull(mailOutboxTable.lastError))!;

/** Newest first, by status and a text found in the recipient, subject or topic; with the total. */
export async function searchMail(db: Db, filters: { status?: MailStatus; text?: string }, limit: number, offset: number) {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(statusCondition(filters.status));
  if (filters.text) {
    // LIKE ignores ASCII case on SQLite only: lower() on the column and sqlLower on the text fold ASCII alike on both engines.
    const pattern = `%${sqlLower(filters.text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(
        sql`lower(${mailOutboxTable.recipient}) LIKE ${pattern} ESCAPE '\\'`,
        sql`lower(${mailOutboxTable.subject}) LIKE ${pattern} ESCAPE '\\'`,
        sql`lower(${mailOutboxTable.topic}) LIKE ${pattern} ESCAPE '\\'`,
      )!,
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const total = (await first(db.select({ n: count() }).from(mailOutboxTable).where(where).limit(1)))?.n ?? 0;
  const rows = await db
    .select()
    .from(mailOutboxTable)
    .where(where)
    .orderBy(sql`${mailOutboxTable.id} DESC`)
    .limit(limit)
    .offset(offset);
  return { rows, total };
}

/** An unsent message made due again at once, its attempts and error cleared; false when it was sent meanwhile. */
export const resetMailForResend = async (db: Db, id: number) =>
  (
    await db
      .update(mailOutboxTable)
      .set({ attempts: 0, lastError: null })
      .where(and(eq(mailOutboxTable.id, id), isNull(mailOutboxTable.sentAt)))
      .returning({ id: mailOutboxTable.id })
  ).length > 0;
