// Who may see and change which communities (invenio-communities' CommunityPermissionPolicy): public
// ones are read by anyone, restricted ones only by their members, as one SQL filter every read and
// listing goes through; owners update, rename and delete; administrators (system_process) do all.
import { inArray, or, sql, type SQL } from "drizzle-orm";
import { isAdmin, requireAdmin, requireUser, type Actor } from "../core/actor";
import { forbidden } from "../core/errors";
import { communitiesTable, communityMembersTable } from "../db/tables";
import { ROLES, type Role } from "./model";

/** The strongest of two roles (a user may be a member directly and through groups). */
export const strongerRole = (a: Role | undefined, b: Role): Role => (a && ROLES.indexOf(a) >= ROLES.indexOf(b) ? a : b);

/** Membership rows that stand for the actor: its user row and its groups' rows. Null for anonymous callers and the system. */
export function actorMembership(actor: Actor): SQL | null {
  if (actor.kind !== "user") return null;
  const own = sql`${communityMembersTable.userId} = ${actor.userId}`;
  return actor.groupIds.length ? or(own, inArray(communityMembersTable.groupId, actor.groupIds))! : own;
}

/** Communities the actor belongs to, in any role. */
export function memberCommunitiesFilter(actor: Actor): SQL {
  const membership = actorMembership(actor);
  if (!membership) return sql`0 = 1`;
  return sql`${communitiesTable.id} IN (SELECT ${communityMembersTable.communityId} FROM ${communityMembersTable} WHERE ${membership})`;
}

/** Communities the actor may see: public ones, those it belongs to, and every one for administrators. */
export function readableCommunitiesFilter(actor: Actor): SQL {
  if (isAdmin(actor)) return sql`1 = 1`;
  const listed = sql`${communitiesTable.visibility} = 'public'`;
  return actor.kind === "user" ? or(listed, memberCommunitiesFilter(actor))! : listed;
}

/** Featured search: public communities only, whoever asks (InvenioRDM filters on access.visibility). */
export const featuredCommunitiesFilter = (): SQL => sql`${communitiesTable.visibility} = 'public'`;

/** Creating: any signed-in user (401 otherwise). */
export function checkCreate(actor: Actor): void {
  requireUser(actor);
}

/** The user communities listing: signed-in callers. */
export function checkSearchOwn(actor: Actor): void {
  requireUser(actor);
}

/** Update, delete, rename and the logo: the community's owners and administrators; 401 anonymous, 403 others. */
export function checkOwner(actor: Actor, role: Role | undefined): void {
  requireUser(actor);
  if (!isAdmin(actor) && role !== "owner") throw forbidden();
}

/** Featured entries are written and listed with the `system_process` permission: administrators. */
export const checkManageFeatured = (actor: Actor): void => requireAdmin(actor);
