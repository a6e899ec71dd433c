// Queries on records, drafts and record_parents.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { RecordDocument } from "../core/record-document";
import { changesOf, first, type Db } from "../db/port";
import { findRow, insertRow, shapeRow } from "../db/rows";
import { draftsTable, recordParentsTable, recordsTable } from "../db/tables";

export type RecordRow = typeof recordsTable.$inferSelect;
export type DraftRow = typeof draftsTable.$inferSelect;
export type ParentRow = typeof recordParentsTable.$inferSelect;

// Point reads on every request's path: through the statement cache (see db/rows.ts).
export const findRecord = (db: Db, id: string): Promise<RecordRow | null> => findRow(db, recordsTable, "id", id);
export const findDraft = (db: Db, id: string): Promise<DraftRow | null> => findRow(db, draftsTable, "id", id);
export const findParent = (db: Db, id: string): Promise<ParentRow | null> => findRow(db, recordParentsTable, "id", id);

export const insertParent = (db: Db, row: typeof recordParentsTable.$inferInsert) => insertRow(db, recordParentsTable, row);
export const insertDraft = (db: Db, row: typeof draftsTable.$inferInsert) => insertRow(db, draftsTable, row);

/** Replaces a draft's document if its revision is still `revision`; false when someone was first. */
export const updateDraftDocument = async (db: Db, id: string, revision: number, document: RecordDocument, now: number) =>
  changesOf(
    await db
      .update(draftsTable)
      .set({ document, updated: now, revisionId: revision + 1 })
      .where(and(eq(draftsTable.id, id), eq(draftsTable.revisionId, revision))),
  ) === 1;

export const deleteDraft = (db: Db, id: string) => db.statements.run("DELETE FROM drafts WHERE id = ?", [id]);
export const deleteParent = async (db: Db, id: string) => await db.delete(recordParentsTable).where(eq(recordParentsTable.id, id));

export const insertRecord = (db: Db, row: typeof recordsTable.$inferInsert) => insertRow(db, recordsTable, row);

export const updateRecord = async (db: Db, id: string, fields: Partial<typeof recordsTable.$inferInsert>, now: number) =>
  await db
    .update(recordsTable)
    .set({ ...fields, updated: now, revisionId: sql`${recordsTable.revisionId} + 1` })
    .where(eq(recordsTable.id, id));

/** Marks `latestId` as the parent's latest version and every other version as not latest. */
export async function setLatestVersion(db: Db, parentId: string, latestId: string, now: number) {
  // On every publish: cached statements (drizzle's builder prepares each call anew).
  // CASE, not `(id = ?)`: PostgreSQL's comparison is a boolean, and is_latest an integer column on both engines.
  await db.statements.run("UPDATE records SET is_latest = CASE WHEN id = ? THEN 1 ELSE 0 END WHERE parent_id = ? AND is_latest <> CASE WHEN id = ? THEN 1 ELSE 0 END", [
    latestId,
    parentId,
    latestId,
  ]);
  await db.statements.run("UPDATE record_parents SET latest_id = ?, updated = ? WHERE id = ?", [latestId, now, parentId]);
}

/** Gives the parent, every published version and every draft of it to `userId`. */
export async function updateParentOwner(db: Db, parentId: string, userId: number, now: number) {
  await db.statements.run("UPDATE record_parents SET owner_id = ?, updated = ?, revision_id = revision_id + 1 WHERE id = ?", [userId, now, parentId]);
  await db.statements.run("UPDATE records SET owner_id = ? WHERE parent_id = ?", [userId, parentId]);
  await db.statements.run("UPDATE drafts SET owner_id = ? WHERE parent_id = ?", [userId, parentId]);
}

/** Ids of the published records (every version) the user owns that are not deleted, in id order. */
export async function listOwnedRecordIds(db: Db, userId: number): Promise<string[]> {
  return (await db.statements.all<{ id: string }>("SELECT id FROM records WHERE owner_id = ? AND deletion_status = 'P' ORDER BY id", [userId])).map((r) => r.id);
}

export const updateParentPids = async (db: Db, id: string, pids: Record<string, unknown>, now: number) =>
  await db
    .update(recordParentsTable)
    .set({ pids, updated: now, revisionId: sql`${recordParentsTable.revisionId} + 1` })
    .where(eq(recordParentsTable.id, id));

// The highest version index used by a parent's records and drafts (`p` is the parent row). As
// correlated subqueries of the parent's row it costs well under a microsecond; the same maxima
// over a bound parameter in a statement of their own cost ~10 µs, on every record read.
// The larger of the two by the engine's own function (SQLite's two-argument max() is greatest() on
// PostgreSQL): a CASE, the same on both, ran each subquery twice (2.4 against 2.0 µs a run).
const RECORDS_MAX = `coalesce((SELECT max(version_index) FROM records WHERE parent_id = p.id), 0)`;
const DRAFTS_MAX = `coalesce((SELECT max(version_index) FROM drafts WHERE parent_id = p.id), 0)`;
const MAX_VERSION_INDEX = {
  sqlite: `max(${RECORDS_MAX}, ${DRAFTS_MAX})`,
  postgres: `greatest(${RECORDS_MAX}, ${DRAFTS_MAX})`,
};

/** A parent's inclusion in a community (`parent.communities`). */
export interface CommunityInclusion {
  communityId: string;
  isDefault: boolean;
}

// The parent's inclusions as one JSON array of [community_id, is_default, created] (text on both engines).
const INCLUSIONS = {
  sqlite: `(SELECT json_group_array(json_array(community_id, is_default, created)) FROM record_communities WHERE parent_id = p.id)`,
  postgres: `(SELECT coalesce(json_agg(json_build_array(community_id, is_default, created)), '[]') FROM record_communities WHERE parent_id = p.id)`,
};

/** Oldest inclusion first, then by community id: `parent.communities` order, and which becomes the default after a removal. */
function inOrder(rows: { communityId: string; isDefault: number; created: number }[]): CommunityInclusion[] {
  return rows
    .sort((a, b) => a.created - b.created || (a.communityId < b.communityId ? -1 : a.communityId > b.communityId ? 1 : 0))
    .map((r) => ({ communityId: r.communityId, isDefault: r.isDefault === 1 }));
}

/**
 * What a record's JSON shows of its parent, in one statement (every record read asks): the parent,
 * the highest version index used by its records and drafts, and its communities.
 */
export function findParentContext(db: Db, id: string): Promise<{ parent: ParentRow; maxVersionIndex: number; communities: CommunityInclusion[] } | null> {
  return db.statements
    .get<Record<string, unknown>>(`SELECT p.*, ${MAX_VERSION_INDEX[db.engine]} AS max_version_index, ${INCLUSIONS[db.engine]} AS inclusions FROM record_parents p WHERE p.id = ?`, [
      id,
    ])
    .then((raw) => {
      if (!raw) return null;
      const rows = (JSON.parse(raw.inclusions as string) as [string, number, number][]).map(([communityId, isDefault, created]) => ({ communityId, isDefault, created }));
      return { parent: shapeRow(recordParentsTable, raw), maxVersionIndex: raw.max_version_index as number, communities: inOrder(rows) };
    });
}

/** The highest version index used by the parent's records and drafts (0 before the first). */
export const maxVersionIndex = async (db: Db, parentId: string) =>
  (await db.statements.get<{ n: number }>(`SELECT ${MAX_VERSION_INDEX[db.engine]} AS n FROM record_parents p WHERE p.id = ?`, [parentId]))?.n ?? 0;

/** A draft of the parent that is not an edit of a published record: an open new version. */
export const findNewVersionDraft = async (db: Db, parentId: string) =>
  (await first(
    db
      .select()
      .from(draftsTable)
      .where(and(eq(draftsTable.parentId, parentId), sql`NOT EXISTS (SELECT 1 FROM records r WHERE r.id = ${draftsTable.id})`))
      .limit(1),
  )) ?? null;

/** A parent's published versions, oldest first (the first 10,000). */
export const listParentVersions = async (db: Db, parentId: string) =>
  await db.select().from(recordsTable).where(eq(recordsTable.parentId, parentId)).orderBy(asc(recordsTable.versionIndex)).limit(10_000);

/** Published records whose active embargo ends on or before `date` (YYYY-MM-DD). */
export const listDueEmbargoes = async (db: Db, date: string) =>
  await db
    .select()
    .from(recordsTable)
    .where(sql`${recordsTable.embargoUntil} IS NOT NULL AND ${recordsTable.embargoUntil} <= ${date}`);

/**
 * The communities a record's parent is included in, oldest inclusion first. A cached statement:
 * search hits ask. Sorted here, not by ORDER BY: a parent has a handful of rows, and SQLite
 * (through Bun) ran the statement with ORDER BY at 5.3 µs against 1.4 µs without (an index serving
 * the order did not help).
 */
export const listParentCommunities = async (db: Db, parentId: string): Promise<CommunityInclusion[]> =>
  inOrder(
    await db.statements.all<{ communityId: string; isDefault: number; created: number }>(
      "SELECT community_id AS communityId, is_default AS isDefault, created FROM record_communities WHERE parent_id = ?",
      [parentId],
    ),
  );

/**
 * Includes the parent (all its versions) in the community; the first inclusion becomes the
 * default. False when it is included already.
 */
export async function addParentCommunity(db: Db, parentId: string, communityId: string, now: number): Promise<boolean> {
  const hasDefault = (await db.statements.get("SELECT 1 FROM record_communities WHERE parent_id = ? AND is_default = 1", [parentId])) !== null;
  const added = await db.statements.run("INSERT INTO record_communities (parent_id, community_id, is_default, created) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", [
    parentId,
    communityId,
    hasDefault ? 0 : 1,
    now,
  ]);
  return added.changes === 1;
}

/** Removes the parent from the community; the oldest remaining inclusion becomes the default if the default went. False when it was not included. */
export async function removeParentCommunity(db: Db, parentId: string, communityId: string): Promise<boolean> {
  const removed = await db.statements.get<{ isDefault: number }>("DELETE FROM record_communities WHERE parent_id = ? AND community_id = ? RETURNING is_default AS isDefault", [
    parentId,
    communityId,
  ]);
  if (!removed) return false;
  if (removed.isDefault === 1) {
    await db.statements.run(
      "UPDATE record_communities SET is_default = 1 WHERE parent_id = ? AND community_id = (SELECT community_id FROM record_communities WHERE parent_id = ? ORDER BY created, community_id LIMIT 1)",
      [parentId, parentId],
    );
  }
  return true;
}

/** Makes the community the parent's default; false when the parent is not included in it. */
export async function setDefaultCommunity(db: Db, parentId: string, communityId: string): Promise<boolean> {
  if ((await db.statements.get("SELECT 1 FROM record_communities WHERE parent_id = ? AND community_id = ?", [parentId, communityId])) === null) return false;
  await db.statements.run("UPDATE record_communities SET is_default = 0 WHERE parent_id = ? AND is_default = 1", [parentId]);
  await db.statements.run("UPDATE record_communities SET is_default = 1 WHERE parent_id = ? AND community_id = ?", [parentId, communityId]);
  return true;
}

/** The parents included in a community. */
export const listCommunityParents = async (db: Db, communityId: string): Promise<string[]> =>
  (await db.statements.all<{ parentId: string }>("SELECT parent_id AS parentId FROM record_communities WHERE community_id = ?", [communityId])).map((r) => r.parentId);

/** Ids of the parent's drafts (an edit of a published version, or a new version). */
export const listParentDraftIds = async (db: Db, parentId: string): Promise<string[]> =>
  (await db.statements.all<{ id: string }>("SELECT id FROM drafts WHERE parent_id = ?", [parentId])).map((r) => r.id);

/** Marks the parent's published versions modified (their parent changed: e.g. the communities it is in). */
export const touchParentRecords = (db: Db, parentId: string, now: number) =>
  db.statements.run("UPDATE records SET updated = ?, revision_id = revision_id + 1 WHERE parent_id = ?", [now, parentId]);

/** A user's rows (users/admin-delete.ts and the administration's user page): counts, ids and the latest changed. */
export const countOwned = async (db: Db, table: "records-published" | "records-deleted" | "drafts", userId: number): Promise<number> => {
  const query = {
    "records-published": "SELECT count(*) AS n FROM records WHERE owner_id = ? AND deletion_status = 'P'",
    "records-deleted": "SELECT count(*) AS n FROM records WHERE owner_id = ? AND deletion_status <> 'P'",
    drafts: "SELECT count(*) AS n FROM drafts WHERE owner_id = ?",
  }[table];
  return (await db.statements.get<{ n: number }>(query, [userId]))?.n ?? 0;
};

export const listOwnedIds = async (db: Db, table: "drafts" | "parents", userId: number): Promise<string[]> => {
  const query = {
    drafts: "SELECT id FROM drafts WHERE owner_id = ? ORDER BY id",
    parents: "SELECT id FROM record_parents WHERE owner_id = ? ORDER BY id",
  }[table];
  return (await db.statements.all<{ id: string }>(query, [userId])).map((r) => r.id);
};

export const listOwnedRecords = async (db: Db, userId: number, limit: number) =>
  await db.select().from(recordsTable).where(eq(recordsTable.ownerId, userId)).orderBy(desc(recordsTable.updated), desc(recordsTable.id)).limit(limit);

export const listOwnedDrafts = async (db: Db, userId: number, limit: number) =>
  await db.select().from(draftsTable).where(eq(draftsTable.ownerId, userId)).orderBy(desc(draftsTable.updated), desc(draftsTable.id)).limit(limit);

/** Published records (each version is one) created per UTC day number (ms / 86,400,000) in [fromMs, toMs): the Statistics screen's new records. */
export const countPublishedPerDay = (db: Db, fromMs: number, toMs: number) =>
  db.statements.all<{ day: number; count: number }>(
    "SELECT created / 86400000 AS day, count(*) AS count FROM records WHERE is_published = 1 AND created >= ? AND created < ? GROUP BY day ORDER BY day",
    [fromMs, toMs],
  );
