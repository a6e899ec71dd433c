// Who may do what with records and drafts: owners and administrators manage; public records are
// read by anyone. (Search applies the same rule in SQL: see search.ts.)
import { isAdmin, requireUser, type Actor } from "../core/actor";
import { forbidden, unauthorized } from "../core/errors";

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
