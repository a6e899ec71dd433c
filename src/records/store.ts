// Queries on the records table.
import { and, desc, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/connection";
import { recordsTable } from "../db/tables";

export type RecordRow = typeof recordsTable.$inferSelect;

export function listRecords(db: Db, filter: SQL, options: { latestOnly: boolean; offset: number; limit: number }) {
  const where = options.latestOnly ? and(filter, sql`${recordsTable.isLatest} = 1`) : filter;
  const total = db.select({ n: sql<number>`count(*)` }).from(recordsTable).where(where).get()?.n ?? 0;
  const rows = db.select().from(recordsTable).where(where).orderBy(desc(recordsTable.created), desc(recordsTable.id)).limit(options.limit).offset(options.offset).all();
  return { rows, total };
}
