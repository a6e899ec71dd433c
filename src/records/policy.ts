// Who may do what with records and drafts; listings use SQL filters so they never hold rows the
// caller may not read. Owners and administrators manage; public records are read by anyone.
import { eq, or, sql, type SQL } from "drizzle-orm";
import { isAdmin, requireUser, type Actor } from "../core/actor";
import { forbidden, unauthorized } from "../core/errors";
import { recordsTable } from "../db/tables";

export const isOwner = (actor: Actor, ownerId: number | null) => actor.kind === "user" && ownerId !== null && actor.userId === ownerId;
export const canManage = (actor: Actor, ownerId: number | null) => isAdmin(actor) || isOwner(actor, ownerId);

/** 401 for anonymous callers, 403 for others who do not manage the record. */
export function requireManage(actor: Actor, ownerId: number | null) {
  requireUser(actor);
  if (!canManage(actor, ownerId)) throw forbidden();
}

/** Reading a published record: public ones by anyone; restricted ones by who manages them. */
export function requireRead(actor: Actor, record: { accessRecord: string; ownerId: number | null }) {
  if (record.accessRecord === "public" || canManage(actor, record.ownerId)) return;
  if (actor.kind === "anonymous") throw unauthorized();
  throw forbidden();
}

/** Published records the actor may read: public ones, their own, or all for administrators. */
export function readablePublishedFilter(actor: Actor): SQL {
  const published = sql`${recordsTable.isPublished} = 1`;
  if (isAdmin(actor)) return published;
  const visible = actor.kind === "user" ? or(eq(recordsTable.accessRecord, "public"), eq(recordsTable.ownerId, actor.userId))! : eq(recordsTable.accessRecord, "public");
  return sql`${published} AND (${visible})`;
}
