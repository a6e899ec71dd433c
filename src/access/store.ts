// Queries on grants, secret links, access settings and the signing key.
import { and, eq, sql } from "drizzle-orm";
import { first, type Db } from "../db/port";
import { selectRows, sortRows } from "../db/rows";
import { draftsTable, groupsTable, recordGrantsTable, recordLinksTable, recordParentsTable, recordsTable, signingKeysTable, usersTable } from "../db/tables";

export type GrantRow = typeof recordGrantsTable.$inferSelect;
export type LinkRow = typeof recordLinksTable.$inferSelect;

/** A grant or link that has not expired by the `?` it takes (now, in ms). */
const UNEXPIRED = "(expires_at IS NULL OR expires_at > ?)";

/** The signing key of a purpose, made on first use. */
export async function signingKey(db: Db, purpose: string, newSecret: () => string, now: number): Promise<string> {
  await db.insert(signingKeysTable).values({ purpose, secret: newSecret(), created: now }).onConflictDoNothing();
  return (await first(db.select().from(signingKeysTable).where(eq(signingKeysTable.purpose, purpose)).limit(1)))!.secret;
}

/** Unexpired grants on the parent to the user or to one of the groups. */
export async function listHolderGrants(db: Db, parentId: string, userId: number | null, groupIds: string[], now: number): Promise<GrantRow[]> {
  const holders: string[] = [];
  const params: (string | number)[] = [parentId, now];
  if (userId !== null) {
    holders.push("(subject_type = 'user' AND subject_id = ?)");
    params.push(String(userId));
  }
  if (groupIds.length) {
    holders.push(`(subject_type = 'role' AND subject_id IN (${groupIds.map(() => "?").join(", ")}))`);
    params.push(...groupIds);
  }
  if (holders.length === 0) return [];
  return selectRows(db, recordGrantsTable, `parent_id = ? AND ${UNEXPIRED} AND (${holders.join(" OR ")})`, params);
}

/** An unexpired link of the parent by its token's hash. */
export const findValidLink = async (db: Db, parentId: string, tokenHash: string, now: number): Promise<LinkRow | null> =>
  (await selectRows(db, recordLinksTable, `token_hash = ? AND parent_id = ? AND ${UNEXPIRED}`, [tokenHash, parentId, now]))[0] ?? null;

/** The parent's grants in their order (a grant's id in the API is its position here). */
export const listGrants = async (db: Db, parentId: string): Promise<GrantRow[]> => sortRows(await selectRows(db, recordGrantsTable, "parent_id = ?", [parentId]), "id");

export const listLinks = async (db: Db, parentId: string): Promise<LinkRow[]> => sortRows(await selectRows(db, recordLinksTable, "parent_id = ?", [parentId]), "created", "id");

export const findLink = async (db: Db, parentId: string, id: string): Promise<LinkRow | null> =>
  (await first(
    db
      .select()
      .from(recordLinksTable)
      .where(and(eq(recordLinksTable.parentId, parentId), eq(recordLinksTable.id, id)))
      .limit(1),
  )) ?? null;

/** The grant of the parent to one subject, or null. */
export const findSubjectGrant = async (db: Db, parentId: string, subjectType: string, subjectId: string): Promise<GrantRow | null> =>
  (await first(
    db
      .select()
      .from(recordGrantsTable)
      .where(and(eq(recordGrantsTable.parentId, parentId), eq(recordGrantsTable.subjectType, subjectType), eq(recordGrantsTable.subjectId, subjectId)))
      .limit(1),
  )) ?? null;

/** Creates the subject's grant on the parent, or replaces the one it has (its message kept unless a new one is given). */
export async function upsertGrant(db: Db, row: typeof recordGrantsTable.$inferInsert): Promise<void> {
  const { permission, origin, expiresAt, updated, message } = row;
  await db
    .insert(recordGrantsTable)
    .values(row)
    .onConflictDoUpdate({
      target: [recordGrantsTable.parentId, recordGrantsTable.subjectType, recordGrantsTable.subjectId],
      set: { permission, origin, expiresAt: expiresAt ?? null, updated, ...(message ? { message } : {}) },
    });
}

export const insertGrant = async (db: Db, row: typeof recordGrantsTable.$inferInsert) => (await first(db.insert(recordGrantsTable).values(row).returning()))!;
export const updateGrant = async (db: Db, id: number, fields: Partial<typeof recordGrantsTable.$inferInsert>) =>
  await db.update(recordGrantsTable).set(fields).where(eq(recordGrantsTable.id, id));
export const deleteGrant = async (db: Db, id: number) => await db.delete(recordGrantsTable).where(eq(recordGrantsTable.id, id));

export const insertLink = async (db: Db, row: typeof recordLinksTable.$inferInsert) => (await first(db.insert(recordLinksTable).values(row).returning()))!;
export const updateLink = async (db: Db, id: string, fields: Partial<typeof recordLinksTable.$inferInsert>) =>
  await db.update(recordLinksTable).set(fields).where(eq(recordLinksTable.id, id));
export const deleteLink = async (db: Db, id: string) => await db.delete(recordLinksTable).where(eq(recordLinksTable.id, id));

/** The parent of a published record or a draft; null when there is neither. */
export const findParentIdOf = async (db: Db, recordId: string): Promise<string | null> =>
  (await first(db.select({ p: recordsTable.parentId }).from(recordsTable).where(eq(recordsTable.id, recordId)).limit(1)))?.p ??
  (await first(db.select({ p: draftsTable.parentId }).from(draftsTable).where(eq(draftsTable.id, recordId)).limit(1)))?.p ??
  null;

/** An active user a grant can name (or a record can be given to); null otherwise. */
export const findActiveUser = async (db: Db, id: number) =>
  (await first(
    db
      .select({ id: usersTable.id, email: usersTable.email })
      .from(usersTable)
      .where(and(eq(usersTable.id, id), eq(usersTable.active, true)))
      .limit(1),
  )) ?? null;

/** A group by its id or, failing that, its name. */
export const findGroup = async (db: Db, key: string) =>
  (await first(db.select({ id: groupsTable.id }).from(groupsTable).where(eq(groupsTable.id, key)).limit(1))) ??
  (await first(db.select({ id: groupsTable.id }).from(groupsTable).where(eq(groupsTable.name, key)).limit(1))) ??
  null;

export const readSettings = async (db: Db, parentId: string): Promise<Record<string, unknown>> =>
  (await first(db.select({ s: recordParentsTable.accessSettings }).from(recordParentsTable).where(eq(recordParentsTable.id, parentId)).limit(1)))?.s ?? {};
export const writeSettings = async (db: Db, parentId: string, settings: Record<string, unknown>, now: number) =>
  await db
    .update(recordParentsTable)
    .set({ accessSettings: settings, updated: now, revisionId: sql`${recordParentsTable.revisionId} + 1` })
    .where(eq(recordParentsTable.id, parentId));
