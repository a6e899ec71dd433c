// Queries on audit_log.
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { auditLogTable } from "../db/tables";
import type { AuditEntry } from "./model";

export const insertEntry = async (db: Db, row: Omit<AuditEntry, "id">) => await db.insert(auditLogTable).values(row);

/** Newest first, within the filters. */
export async function searchEntries(db: Db, filters: { action?: string; targetType?: string; targetId?: string; actorId?: number }, limit: number, offset: number) {
  const conditions: SQL[] = [];
  if (filters.action) conditions.push(eq(auditLogTable.action, filters.action));
  if (filters.targetType) conditions.push(eq(auditLogTable.targetType, filters.targetType));
  if (filters.targetId) conditions.push(eq(auditLogTable.targetId, filters.targetId));
  if (filters.actorId !== undefined) conditions.push(eq(auditLogTable.actorId, filters.actorId));
  const where = conditions.length ? and(...conditions) : undefined;
  const total = (await first(db.select({ n: count() }).from(auditLogTable).where(where).limit(1)))?.n ?? 0;
  const rows: AuditEntry[] = await db.select().from(auditLogTable).where(where).orderBy(desc(auditLogTable.at), desc(auditLogTable.id)).limit(limit).offset(offset);
  return { rows, total };
}
