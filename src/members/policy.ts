// Who may do what with a community's members (invenio-communities' CommunityPermissionPolicy and
// the business rules of its members service): list, add, invite, change, remove, leave; and the
// per-item `permissions` the listings show, computed from the same rules.
import { sql, type SQL } from "drizzle-orm";
import { isAdmin, requireUser, type Actor } from "../core/actor";
import { forbidden, validationError } from "../core/errors";
import { communityMembersTable, groupsTable, usersTable } from "../db/tables";
import { atLeast, managesRole as roleManages, type Role } from "../communities/roles";

/** What the rules need to know about the caller in one community. */
export interface Caller {
  actor: Actor;
  /** The strongest role held directly or through one of the caller's groups. */
  role: Role | undefined;
  /** Administrators and the system act with InvenioRDM's `system_process`: every member action. */
  admin: boolean;
  userId: number | null;
}

/** A membership as the rules see it. */
export interface MemberFacts {
  userId: number | null;
  role: Role;
  visible: boolean;
}

export const NOT_FOUND = "The persistent identifier does not exist.";
export const LAST_OWNER = "A community must have at least one owner.";

export function callerIn(actor: Actor, role: Role | undefined): Caller {
  return { actor, role, admin: isAdmin(actor), userId: actor.kind === "user" ? actor.userId : null };
}

/**
 * The public members listing (InvenioRDM's can_members_search_public): anyone who sees the
 * community, unless its `members_visibility` is restricted: then its members and administrators
 * only (401 anonymous, 403 others), as for the full listing.
 */
export function checkListPublicMembers(caller: Caller, community: { membersVisibility: string }): void {
  if (community.membersVisibility === "restricted") checkListMembers(caller);
}

/** The members listing: members of any role (directly or through a group) and administrators; 401 anonymous, 403 others. */
export function checkListMembers(caller: Caller): void {
  requireUser(caller.actor);
  if (!caller.role && !caller.admin) throw forbidden();
}

/** Listing invitations and membership requests, adding and inviting: managers, owners and administrators. */
export function checkManageMembers(caller: Caller): void {
  requireUser(caller.actor);
  if (!caller.admin && !atLeast(caller.role, "manager")) throw forbidden();
}

/**
 * Rule 3: owners manage every role, managers every role but owner, curators and readers none.
 * (`role` is the target's current or new role; a change needs both.)
 */
export function managesRole(caller: Caller, role: Role): boolean {
  return caller.admin || roleManages(caller.role, role);
}

export const isSelf = (caller: Caller, member: { userId: number | null }) => caller.userId !== null && member.userId === caller.userId;

/** Adding or inviting with `role`: 403 when the caller may not hand out that role (a manager making an owner). */
export function checkGrantRole(caller: Caller, role: Role): void {
  checkManageMembers(caller);
  if (!managesRole(caller, role)) throw forbidden(`Only owners may make others ${role}s.`);
}

/**
 * Rule 6: only the member makes an existing user membership public; owners and managers only
 * hide (groups: either way). An invitation may offer a visible membership: accepting it is the
 * invitee's choice.
 */
export function checkVisibleChoice(caller: Caller, member: MemberFacts, visible: boolean | undefined, field = "visible"): void {
  if (visible && member.userId !== null && !isSelf(caller, member) && !caller.admin) {
    throw validationError([{ field, messages: ["You can only set public visibility on your own membership."] }]);
  }
}

/** Changing one membership's role and/or visibility: the member themself, or a manager of its role (and of the new one). */
export function checkUpdateMember(caller: Caller, member: MemberFacts, change: { role?: Role; visible?: boolean }): void {
  const self = isSelf(caller, member);
  const manages = managesRole(caller, member.role) && (change.role === undefined || managesRole(caller, change.role));
  if (!self && !manages) throw forbidden();
  // Rule 3, "not themselves": nobody changes their own role, so no one locks themself out by mistake.
  if (change.role !== undefined && self) throw validationError([{ field: "role", messages: ["You cannot change your own role."] }]);
  checkVisibleChoice(caller, member, change.visible);
}

/** Removing one membership: the member themself (leaving, rule 5) or a manager of its role. */
export function checkRemoveMember(caller: Caller, member: MemberFacts): void {
  if (!isSelf(caller, member) && !managesRole(caller, member.role)) throw forbidden();
}

/** Rule 4, checked after a write inside its transaction: the write is refused when no owner is left. */
export function checkOwnersLeft(owners: number): void {
  if (owners < 1) throw validationError([{ field: "members", messages: [LAST_OWNER] }], LAST_OWNER);
}

/** `permissions` of a member item: what the caller could do to it right now. `owners`: the community's owner count. */
export function memberPermissions(caller: Caller, member: MemberFacts, owners: number) {
  const self = isSelf(caller, member);
  const manages = managesRole(caller, member.role);
  const lastOwner = member.role === "owner" && owners <= 1;
  return {
    can_leave: self && !lastOwner,
    can_delete: manages && !self && !lastOwner,
    can_update_role: manages && !self && !lastOwner,
    can_update_visible: self || (manages && (member.visible || member.userId === null || caller.admin)),
  };
}

/** The caller answers for the community in the requests engine (administrators read but take no part there). */
export const actsForCommunity = (caller: Caller) => atLeast(caller.role, "manager");

/** `permissions` of an invitation item (only managers, owners and administrators list them). */
export function invitationPermissions(caller: Caller, role: Role, isOpen: boolean) {
  return { can_cancel: isOpen && actsForCommunity(caller), can_update_role: isOpen && managesRole(caller, role) };
}

/** `permissions` of a membership-request item: accepting gives the role, so it needs a manager of it. */
export function membershipRequestPermissions(caller: Caller, role: Role, isOpen: boolean) {
  const party = isOpen && actsForCommunity(caller);
  return { can_accept: party && managesRole(caller, role), can_decline: party, can_update_role: isOpen && managesRole(caller, role) };
}

/**
 * What `q` matches of a user, with InvenioRDM's weights for bestmatch: names, username and
 * affiliations for everyone; the e-mail only outside the public listing and only where the caller
 * could read it (its owner, administrators, or a public address), so a search cannot confirm a
 * hidden address.
 */
export function searchableUserColumns(caller: Caller, listing: "members" | "public"): { column: SQL; weight: number }[] {
  const u = usersTable;
  const columns = [
    { column: sql`${u.fullName}`, weight: 3 },
    { column: sql`${u.username}`, weight: 2 },
    { column: sql`${u.affiliations}`, weight: 1 },
  ];
  if (listing === "public") return columns;
  const email = caller.admin ? sql`${u.email}` : sql`CASE WHEN ${u.emailVisibility} = 'public' OR ${u.id} = ${caller.userId ?? -1} THEN ${u.email} END`;
  return [...columns, { column: email, weight: 2 }];
}

/** What `q` matches of a member: its user's columns or its group's name. */
export const searchableColumns = (caller: Caller, listing: "members" | "public") => [...searchableUserColumns(caller, listing), { column: sql`${groupsTable.name}`, weight: 3 }];

/** The public listing shows visible members only. */
export const publicMembersFilter = (): SQL => sql`${communityMembersTable.visible} = 1`;
