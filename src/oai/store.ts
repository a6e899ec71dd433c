// Queries on oai_sets, oai_tombstones and oai_token_keys.
import { asc, count, desc, eq, sql } from "drizzle-orm";
import { changesOf, type Db } from "../db/sqlite/connection";
import { oaiSetsTable, oaiTombstonesTable, oaiTokenKeysTable } from "../db/tables";

export type SetRow = typeof oaiSetsTable.$inferSelect;
export type TombstoneRow = typeof oaiTombstonesTable.$inferSelect;

const SET_SORT_COLUMNS = { name: oaiSetsTable.name, spec: oaiSetsTable.spec, created: oaiSetsTable.created, updated: oaiSetsTable.updated };
export type SetSort = keyof typeof SET_SORT_COLUMNS;
export const SET_SORTS = Object.keys(SET_SORT_COLUMNS) as SetSort[];

export const findSet = (db: Db, id: number) => db.select().from(oaiSetsTable).where(eq(oaiSetsTable.id, id)).get() ?? null;
export const findSetBySpec = (db: Db, spec: string) => db.select().from(oaiSetsTable).where(eq(oaiSetsTable.spec, spec)).get() ?? null;
export const countSets = (db: Db) => db.select({ n: count() }).from(oaiSetsTable).get()?.n ?? 0;

/** A page of sets; ties broken by id so pages never overlap. */
export function listSets(db: Db, sort: SetSort, direction: "asc" | "desc", offset: number, limit: number) {
  const order = direction === "asc" ? asc : desc;
  return db.select().from(oaiSetsTable).orderBy(order(SET_SORT_COLUMNS[sort]), order(oaiSetsTable.id)).limit(limit).offset(offset).all();
}

export const insertSet = (db: Db, row: typeof oaiSetsTable.$inferInsert) => db.insert(oaiSetsTable).values(row).returning().get();

export const updateSet = (db: Db, id: number, fields: { name: string; description: string; searchPattern: string }, now: number) =>
  db
    .update(oaiSetsTable)
    .set({ ...fields, updated: now })
    .where(eq(oaiSetsTable.id, id))
    .returning()
    .get() ?? null;

export const deleteSet = (db: Db, id: number) => changesOf(db.delete(oaiSetsTable).where(eq(oaiSetsTable.id, id)).run()) === 1;

export const findTombstone = (db: Db, recordId: string) => db.select().from(oaiTombstonesTable).where(eq(oaiTombstonesTable.recordId, recordId)).get() ?? null;

/** Records the moment a record stopped being public (the latest one wins). */
export const upsertTombstone = (db: Db, recordId: string, datestamp: number) =>
  db.insert(oaiTombstonesTable).values({ recordId, datestamp }).onConflictDoUpdate({ target: oaiTombstonesTable.recordId, set: { datestamp } }).run();

export const deleteTombstone = (db: Db, recordId: string) => db.delete(oaiTombstonesTable).where(eq(oaiTombstonesTable.recordId, recordId)).run();

/** Tombstones with from <= datestamp < until after the (datestamp, id) position, in that order. */
export function listTombstones(db: Db, range: { from?: number; until?: number }, after: [number, string] | null, limit: number): TombstoneRow[] {
  const keyset = after ? sql` AND (${oaiTombstonesTable.datestamp}, ${oaiTombstonesTable.recordId}) > (${after[0]}, ${after[1]})` : sql``;
  return db
    .select()
    .from(oaiTombstonesTable)
    .where(sql`${oaiTombstonesTable.datestamp} >= ${range.from ?? 0} AND ${oaiTombstonesTable.datestamp} < ${range.until ?? Number.MAX_SAFE_INTEGER}${keyset}`)
    .orderBy(asc(oaiTombstonesTable.datestamp), asc(oaiTombstonesTable.recordId))
    .limit(limit)
    .all();
}

export const earliestTombstone = (db: Db) =>
  db
    .select({ t: sql<number | null>`min(${oaiTombstonesTable.datestamp})` })
    .from(oaiTombstonesTable)
    .get()?.t ?? null;

/** The signing keys of resumption tokens, newest first; the first call makes one. */
export function tokenKeys(db: Db, newSecret: () => string, now: number): string[] {
  const keys = () =>
    db
      .select()
      .from(oaiTokenKeysTable)
      .orderBy(desc(oaiTokenKeysTable.id))
      .all()
      .map((r) => r.secret);
  const existing = keys();
  if (existing.length) return existing;
  db.insert(oaiTokenKeysTable).values({ secret: newSecret(), created: now }).run();
  return keys();
}
