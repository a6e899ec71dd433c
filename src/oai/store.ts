// Queries on oai_sets, oai_tombstones and oai_token_keys.
import { asc, count, desc, eq, sql } from "drizzle-orm";
import { matchAllWords, queryWords } from "../core/word-match";
import { changesOf, first, type Db } from "../db/port";
import { oaiSetsTable, oaiTombstonesTable, oaiTokenKeysTable } from "../db/tables";

export type SetRow = typeof oaiSetsTable.$inferSelect;
export type TombstoneRow = typeof oaiTombstonesTable.$inferSelect;

const SET_SORT_COLUMNS = { name: oaiSetsTable.name, spec: oaiSetsTable.spec, created: oaiSetsTable.created, updated: oaiSetsTable.updated };
export type SetSort = keyof typeof SET_SORT_COLUMNS;
export const SET_SORTS = Object.keys(SET_SORT_COLUMNS) as SetSort[];

export const findSet = async (db: Db, id: number) => (await first(db.select().from(oaiSetsTable).where(eq(oaiSetsTable.id, id)).limit(1))) ?? null;
export const findSetBySpec = async (db: Db, spec: string) => (await first(db.select().from(oaiSetsTable).where(eq(oaiSetsTable.spec, spec)).limit(1))) ?? null;
/** Sets where every word of `q` starts a word of the name, spec or description; every set without words. */
const matching = (q: string | undefined) => matchAllWords(queryWords(q), [sql`${oaiSetsTable.name}`, sql`${oaiSetsTable.spec}`, sql`${oaiSetsTable.description}`]);

export const countSets = async (db: Db, q?: string) => (await first(db.select({ n: count() }).from(oaiSetsTable).where(matching(q)).limit(1)))?.n ?? 0;

/** A page of sets (those `q` matches); ties broken by id so pages never overlap. */
export async function listSets(db: Db, sort: SetSort, direction: "asc" | "desc", offset: number, limit: number, q?: string): Promise<SetRow[]> {
  const order = direction === "asc" ? asc : desc;
  return await db.select().from(oaiSetsTable).where(matching(q)).orderBy(order(SET_SORT_COLUMNS[sort]), order(oaiSetsTable.id)).limit(limit).offset(offset);
}

export const insertSet = async (db: Db, row: typeof oaiSetsTable.$inferInsert): Promise<SetRow> => (await first(db.insert(oaiSetsTable).values(row).returning()))!;

export const updateSet = async (db: Db, id: number, fields: { name: string; description: string; searchPattern: string }, now: number) =>
  (await first(
    db
      .update(oaiSetsTable)
      .set({ ...fields, updated: now })
      .where(eq(oaiSetsTable.id, id))
      .returning(),
  )) ?? null;

export const deleteSet = async (db: Db, id: number) => changesOf(await db.delete(oaiSetsTable).where(eq(oaiSetsTable.id, id))) === 1;

export const findTombstone = async (db: Db, recordId: string) =>
  (await first(db.select().from(oaiTombstonesTable).where(eq(oaiTombstonesTable.recordId, recordId)).limit(1))) ?? null;

/** Records the moment a record stopped being public (the latest one wins). */
export const upsertTombstone = async (db: Db, recordId: string, datestamp: number) => {
  await db.insert(oaiTombstonesTable).values({ recordId, datestamp }).onConflictDoUpdate({ target: oaiTombstonesTable.recordId, set: { datestamp } });
};

/** Run at every publish: a cached statement, where the query builder spent ~60 µs building and preparing it each time. */
export const deleteTombstone = async (db: Db, recordId: string) => {
  await db.statements.run("DELETE FROM oai_tombstones WHERE record_id = ?", [recordId]);
};

/** Tombstones with from <= datestamp < until after the (datestamp, id) position, in that order. */
export async function listTombstones(db: Db, range: { from?: number; until?: number }, after: [number, string] | null, limit: number): Promise<TombstoneRow[]> {
  const keyset = after ? sql` AND (${oaiTombstonesTable.datestamp}, ${oaiTombstonesTable.recordId}) > (${after[0]}, ${after[1]})` : sql``;
  return await db
    .select()
    .from(oaiTombstonesTable)
    .where(sql`${oaiTombstonesTable.datestamp} >= ${range.from ?? 0} AND ${oaiTombstonesTable.datestamp} < ${range.until ?? Number.MAX_SAFE_INTEGER}${keyset}`)
    .orderBy(asc(oaiTombstonesTable.datestamp), asc(oaiTombstonesTable.recordId))
    .limit(limit);
}

export const earliestTombstone = async (db: Db) =>
  (
    await first(
      db
        .select({ t: sql<number | null>`min(${oaiTombstonesTable.datestamp})` })
        .from(oaiTombstonesTable)
        .limit(1),
    )
  )?.t ?? null;

const keysIn = async (db: Db) => (await db.select().from(oaiTokenKeysTable).orderBy(desc(oaiTokenKeysTable.id))).map((r) => r.secret);

/** The signing keys of resumption tokens, newest first; the first call makes one. */
export async function tokenKeys(db: Db, newSecret: () => string, now: number): Promise<string[]> {
  // Read first: a harvest must not wait for the write lock (behind a long write, such as the
  // statistics' aggregation) only to find the keys there.
  const existing = await keysIn(db);
  if (existing.length) return existing;
  // One transaction: two first harvests at once make one key, not two.
  return db.write(async (tx) => {
    const again = await keysIn(tx);
    if (again.length) return again;
    await tx.insert(oaiTokenKeysTable).values({ secret: newSecret(), created: now });
    return keysIn(tx);
  });
}
