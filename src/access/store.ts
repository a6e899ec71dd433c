// Queries on grants, secret links, access settings and the signing key.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/port";
import { selectRows, sortRows } from "../db/rows";
import { draftsTable, groupsTable, recordGrantsTable, recordLinksTable, recordParentsTable, recordsTable, signingKeysTable, usersTable } from "../db/tables";

export type GrantRow = typeof recordGrantsTable.$inferSelect;
export type LinkRow = typeof recordLinksTable.$inferSelect;

/** A grant or link that has not expired by the `?` it takes (now, in ms). */
const UNEXPIRED = "(expires_at IS NULL OR expires_at > ?)";

/** The signing key of a purpose, made on first use. */
export async function signingKey(db: Db, purpose: string, newSecret: () => string, now: number): Promise<string> {
  await db.insert(signingKeysTable).values({ purpose, secret: newSecret(), created: now }).onConflictDoNothing().run();
  return (await db.select().from(signingKeysTable).where(eq(signingKeysTable.purpose, purpose)).get())!.secret;
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
  (await db
    .select()
    .from(recordLinksTable)
    .where(and(eq(recordLinksTable.parentId, parentId), eq(recordLinksTable.id, id)))
    .get()) ?? null;

/** The grant of the parent to one subject, or null. */
export const findSubjectGrant = async (db: Db, parentId: string, subjectType: string, subjectId: string): Promise<GrantRow | null> =>
  (await db
    .select()
    .from(recordGrantsTable)
    .where(and(eq(recordGrantsTable.parentId, parentId), eq(recordGrantsTable.subjectType, subjectType), eq(recordGrantsTable.subjectId, subjectId)))
    .get()) ?? null;

/** Creates the subject's grant on the parent, or replaces the one it has (its message kept unless a new one is given). */
export async function upsertGrant(db: Db, row: typeof recordGrantsTable.$inferInsert): Promise<void> {
  const { permission, origin, expiresAt, updated, message } = row;
  await db
    .insert(recordGrantsTable)
    .values(row)
    .onConflictDoUpdate({
      target: [recordGrantsTable.parentId, recordGrantsTable.subjectType, recordGrantsTable.subjectId],
      set: { permission, origin, expiresAt: expiresAt ?? null, updated, ...(message ? { message } : {}) },
    })
    .run();
}

export const insertGrant = (db: Db, row: typeof recordGrantsTable.$inferInsert) => db.insert(recordGrantsTable).values(row).returning().get();
export const updateGrant = (db: Db, id: number, fields: Partial<typeof recordGrantsTable.$inferInsert>) =>
  db.update(recordGrantsTable).set(fields).where(eq(recordGrantsTable.id, id)).run();
export const deleteGrant = (db: Db, id: number) => db.delete(recordGrantsTable).where(eq(recordGrantsTable.id, id)).run();

export const insertLink = (db: Db, row: typeof recordLinksTable.$inferInsert) => db.insert(recordLinksTable).values(row).returning().get();
export const updateLink = (db: Db, id: string, fields: Partial<typeof recordLinksTable.$inferInsert>) =>
  db.update(recordLinksTable).set(fields).where(eq(recordLinksTable.id, id)).run();
export const deleteLink = (db: Db, id: string) => db.delete(recordLinksTable).where(eq(recordLinksTable.id, id)).run();

/** The parent of a published record or a draft; null when there is neither. */
export const findParentIdOf = async (db: Db, recordId: string): Promise<string | null> =>
  (await db.select({ p: recordsTable.parentId }).from(recordsTable).where(eq(recordsTable.id, recordId)).get())?.p ??
  (await db.select({ p: draftsTable.parentId }).from(draftsTable).where(eq(draftsTable.id, recordId)).get())?.p ??
  null;

/** An active user a grant can name (or a record can be given to); null otherwise. */
export const findActiveUser = async (db: Db, id: number) =>
  (await db
    .select({ id: usersTable.id, email: usersTable.email })
    .from(usersTable)
    .where(and(eq(usersTable.id, id), eq(usersTable.active, true)))
    .get()) ?? null;

/** A group by its id or, failing that, its name. */
export const findGroup = async (db: Db, key: string) =>
  (await db.select({ id: groupsTable.id }).from(groupsTable).where(eq(groupsTable.id, key)).get()) ??
  (await db.select({ id: groupsTable.id }).from(groupsTable).where(eq(groupsTable.name, key)).get()) ??
  null;

export const readSettings = async (db: Db, parentId: string): Promise<Record<string, unknown>> =>
  (await db.select({ s: recordParentsTable.accessSettings }).from(recordParentsTable).where(eq(recordParentsTable.id, parentId)).get())?.s ?? {};
export const writeSettings = (db: Db, parentId: string, settings: Record<string, unknown>, now: number) =>
  db
    .update(recordParentsTable)
    .set({ accessSettings: settings, updated: now, revisionId: sql`${recordParentsTable.revisionId} + 1` })
    .where(eq(recordParentsTable.id, parentId))
    .run();
