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

/** Files of a published record: who manages it always; others when the record and its files are public and not embargoed. */
export function canReadFiles(actor: Actor, record: { accessRecord: string; ownerId: number | null; document: unknown }) {
  if (canManage(actor, record.ownerId)) return true;
  const access = (record.document as { access?: { files?: string; embargo?: { active?: boolean } } }).access;
  return record.accessRecord === "public" && access?.files !== "restricted" && !access?.embargo?.active;
}

/** 401/403 unless the actor may read the record's files (a restricted record reads as not found-or-forbidden first). */
export function requireReadFiles(actor: Actor, record: { accessRecord: string; ownerId: number | null; document: unknown }) {
  requireRead(actor, record);
  if (canReadFiles(actor, record)) return;
  if (actor.kind === "anonymous") throw unauthorized("The files of this record are restricted or under embargo: sign in with an account that has access.");
  throw forbidden("The files of this record are restricted or under embargo.");
}
