// Who may see which users and which of their fields, as a SQL filter so the directory never
// holds rows the caller may not see. Administrators see everyone and everything.
import { and, eq, isNotNull, or, sql, type SQL } from "drizzle-orm";
import { isAdmin, requireUser, type Actor } from "../core/actor";
import { forbidden } from "../core/errors";
import { usersTable } from "../db/tables";

/** The actor is this user (signed in as them). */
export const isSelf = (actor: Actor, userId: number) => actor.kind === "user" && actor.userId === userId;

/** 401 for anonymous callers, 403 for others but the user themself and administrators. */
export function requireSelfOrAdmin(actor: Actor, userId: number): void {
  requireUser(actor);
  if (!isSelf(actor, userId) && !isAdmin(actor)) throw forbidden();
}

/** 401 for anonymous callers: the directory is for signed-in people (InvenioRDM: authenticated only). */
export function checkSearchUsers(actor: Actor): void {
  requireUser(actor);
}

/** Users the actor may see: active, confirmed users with a public profile, and the actor themself. */
export function visibleUsersFilter(actor: Actor): SQL {
  if (isAdmin(actor)) return sql`1 = 1`;
  const listed = and(eq(usersTable.active, true), isNotNull(usersTable.confirmedAt), eq(usersTable.visibility, "public"))!;
  return actor.kind === "user" ? or(listed, eq(usersTable.id, actor.userId))! : listed;
}

/**
 * What a search may match: names, username, affiliations and the e-mail's domain for everyone;
 * the whole e-mail only where the caller could read it, so a search cannot confirm a hidden address.
 */
export function searchableUserColumns(actor: Actor): SQL[] {
  const domain = sql`substr(${usersTable.email}, instr(${usersTable.email}, '@') + 1)`;
  const email = isAdmin(actor) ? sql`${usersTable.email}` : sql`CASE WHEN ${usersTable.emailVisibility} = 'public' THEN ${usersTable.email} END`;
  return [sql`${usersTable.username}`, sql`${usersTable.fullName}`, sql`${usersTable.affiliations}`, domain, email];
}

/** Which parts of a (visible) user the actor may read. */
export interface UserView {
  isCurrentUser: boolean;
  /** The e-mail: the user, administrators, or anyone when its visibility is public. */
  showEmail: boolean;
  /** Account state and preferences: the user and administrators. */
  showAccount: boolean;
}

export function userViewOf(actor: Actor, user: { id: number; emailVisibility: string }): UserView {
  const self = isSelf(actor, user.id);
  const admin = isAdmin(actor);
  return { isCurrentUser: self, showEmail: self || admin || user.emailVisibility === "public", showAccount: self || admin };
}

/**
 * Why an account may not open a session by any way in (password, provider, directory, mailed link),
 * or null: an administrator blocked it, it is deactivated, or (ACCOUNTS_CONFIRM_EMAIL) its e-mail
 * address is not proved yet.
 */
export function signInRefusal(
  user: { active: boolean; confirmedAt: number | null; blockedAt: number | null },
  confirmEmail: boolean,
): "blocked" | "inactive" | "unconfirmed" | null {
  if (user.blockedAt !== null) return "blocked";
  if (!user.active) return "inactive";
  return confirmEmail && user.confirmedAt === null ? "unconfirmed" : null;
}

/** What a blocked account's every way in answers (sign-in forms, external sources, tokens). */
export const BLOCKED_MESSAGE = "This account is blocked by an administrator: it cannot sign in or use its tokens.";
