// Who may see and change which communities (invenio-communities' CommunityPermissionPolicy): public
// ones are read by anyone, restricted ones only by their members, as one SQL filter every read and
// listing goes through; owners update, rename and delete; administrators (system_process) do all.
import { inArray, or, sql, type SQL } from "drizzle-orm";
import { isAdmin, requireAdmin, requireUser, type Actor } from "../core/actor";
import { forbidden } from "../core/errors";
import { communitiesTable, communityMembersTable } from "../db/tables";
import type { Visibility } from "./model";
import type { Role } from "./roles";

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

/**
 * The one rule for who sees a community, rendered twice below (keep them equal; the community leak
 * matrix and its differential test check both): public ones for anyone, restricted ones for their
 * members (directly or through a group) and administrators. To everyone else a restricted community
 * does not exist (404, left out of every listing and facet).
 */

/** The rule as SQL over `communities`: every listing and read by key goes through it. */
export function readableCommunitiesFilter(actor: Actor): SQL {
  if (isAdmin(actor)) return sql`1 = 1`;
  const listed = sql`${communitiesTable.visibility} = 'public'`;
  return actor.kind === "user" ? or(listed, memberCommunitiesFilter(actor))! : listed;
}

/** The rule as a predicate over one community and the actor's roles (the community directory's rolesOf), for callers holding both. */
export function canSeeCommunity(actor: Actor, community: { id: string; visibility: string }, roles: ReadonlyMap<string, unknown>): boolean {
  if (isAdmin(actor)) return true;
  return community.visibility === "public" || (actor.kind === "user" && roles.has(community.id));
}

/** A stored `visibility` as the rule reads it: anything but `public` is kept from outsiders. */
export const visibilityOf = (stored: string): Visibility => (stored === "public" ? "public" : "restricted");

/** Featured search: public communities only, whoever asks (InvenioRDM filters on access.visibility). */
export const featuredCommunitiesFilter = (): SQL => sql`${communitiesTable.visibility} = 'public'`;

/** InvenioRDM's FeaturedCommunityComponent: only public communities are featured (the featured filter's predicate). */
export const canBeFeatured = (community: { visibility: string }): boolean => community.visibility === "public";

/** COMMUNITIES_CREATION: who may create communities. */
export type CommunityCreation = "anyone" | "administrators";

/**
 * Whether the caller's role lets it create communities, signing in aside (checkCreate asks that
 * first): anyone, or with COMMUNITIES_CREATION `administrators` administrators only (and the system).
 */
export const mayCreate = (actor: Actor, creation: CommunityCreation): boolean => creation === "anyone" || isAdmin(actor);

/** `mayCreate` as a check: 401 anonymous, 403 (saying why) for others when only administrators create communities. */
export function checkCreate(actor: Actor, creation: CommunityCreation): void {
  requireUser(actor);
  if (!mayCreate(actor, creation)) throw forbidden("Only administrators may create communities in this repository.");
}

/** The user communities listing: signed-in callers. */
export function checkSearchOwn(actor: Actor): void {
  requireUser(actor);
}

/** Update, delete, rename and the logo: the community's owners and administrators. */
export const mayOwn = (actor: Actor, role: Role | undefined): boolean => isAdmin(actor) || (actor.kind === "user" && role === "owner");

/** `mayOwn` as a check: 401 anonymous, 403 others. */
export function checkOwner(actor: Actor, role: Role | undefined): void {
  requireUser(actor);
  if (!mayOwn(actor, role)) throw forbidden();
}

/** Featured entries are written and listed with the `system_process` permission: administrators. */
export const checkManageFeatured = (actor: Actor): void => requireAdmin(actor);
