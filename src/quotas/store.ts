// Queries on storage_quotas, and the bytes a draft or record and a user's drafts and records hold
// (file_entries and file_objects, read here for their sums only; owners from drafts and records).
import { and, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { draftsTable, fileEntriesTable, fileObjectsTable, recordsTable, storageQuotasTable } from "../db/tables";
import type { QuotaKind } from "./model";

export type QuotaRow = typeof storageQuotasTable.$inferSelect;

export const findQuota = async (db: Db, kind: QuotaKind, targetId: string): Promise<QuotaRow | null> =>
  (await first(
    db
      .select()
      .from(storageQuotasTable)
      .where(and(eq(storageQuotasTable.kind, kind), eq(storageQuotasTable.targetId, targetId)))
      .limit(1),
  )) ?? null;

export const upsertQuota = async (db: Db, row: typeof storageQuotasTable.$inferInsert) =>
  await db
    .insert(storageQuotasTable)
    .values(row)
    .onConflictDoUpdate({
      target: [storageQuotasTable.kind, storageQuotasTable.targetId],
      set: { quotaSize: row.quotaSize, maxFileSize: row.maxFileSize ?? null, notes: row.notes ?? "", updated: row.updated, updatedBy: row.updatedBy ?? null },
    });

/** Whether a draft or record `id` exists, and its owner (the draft's, which is the record's too). */
export async function findOwner(db: Db, id: string): Promise<{ ownerId: number | null } | null> {
  const draft = await first(db.select({ ownerId: draftsTable.ownerId }).from(draftsTable).where(eq(draftsTable.id, id)).limit(1));
  if (draft) return draft;
  return (await first(db.select({ ownerId: recordsTable.ownerId }).from(recordsTable).where(eq(recordsTable.id, id)).limit(1))) ?? null;
}

/** The entries of draft or record `id`, both sides (an edit's draft shares its record's objects). */
export const ofRecord = (id: string): SQL => eq(fileEntriesTable.recordId, id);

/** The entries of every draft and record `userId` owns. */
export const ofUser = (db: Db, userId: number): SQL =>
  or(
    and(eq(fileEntriesTable.isDraft, true), inArray(fileEntriesTable.recordId, db.select({ id: draftsTable.id }).from(draftsTable).where(eq(draftsTable.ownerId, userId)))),
    and(eq(fileEntriesTable.isDraft, false), inArray(fileEntriesTable.recordId, db.select({ id: recordsTable.id }).from(recordsTable).where(eq(recordsTable.ownerId, userId)))),
  )!;

/**
 * Bytes the entries matching `scope` hold, leaving out entry `exceptEntry` (the one being written):
 * each stored object once, however many entries share it (versions and edits share bytes), plus
 * the announced size of uploads under way that have no bytes yet (a multipart upload's reservation).
 */
export async function sumHeld(db: Db, scope: SQL, exceptEntry: number | null): Promise<number> {
  const where = exceptEntry === null ? scope : and(scope, ne(fileEntriesTable.id, exceptEntry))!;
  const stored = await first(
    db
      .select({ n: sql<number>`coalesce(sum(${fileObjectsTable.size}), 0)` })
      .from(fileObjectsTable)
      .where(
        inArray(
          fileObjectsTable.id,
          db
            .select({ id: fileEntriesTable.objectId })
            .from(fileEntriesTable)
            .where(and(where, isNotNull(fileEntriesTable.objectId))),
        ),
      ),
  );
  const waiting = await db
    .select({ size: fileEntriesTable.declaredSize, transfer: fileEntriesTable.transfer })
    .from(fileEntriesTable)
    .where(and(where, isNull(fileEntriesTable.objectId), eq(fileEntriesTable.status, "pending"), isNotNull(fileEntriesTable.declaredSize)));
  // A fetch that failed for good will not bring its bytes.
  const reserved = waiting.filter((w) => w.transfer.status !== "failed").reduce((sum, w) => sum + (w.size ?? 0), 0);
  return Number(stored?.n ?? 0) + reserved;
}
