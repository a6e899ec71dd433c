// Who is calling: the actor every service operation takes first.
import { forbidden, unauthorized } from "./errors";

export type Actor = (
  { kind: "anonymous" } | { kind: "user"; userId: number; isAdmin: boolean; groupIds: string[]; scopes: string[]; tokenId: number | null } | { kind: "system" }
) & {
  /** A secret link's token presented with the request (`?token=`): it opens the one record it was made for. */
  linkToken?: string;
  /** Signed in through a browser session: its CSRF token, which forms carry and cookie-authenticated API writes send. */
  csrf?: string;
};

export type UserActor = Extract<Actor, { kind: "user" }>;

export const anonymous: Actor = { kind: "anonymous" };
/** Background jobs and the CLI act as the system. */
export const systemActor: Actor = { kind: "system" };

/** 401 for an anonymous caller; narrows to a user otherwise. System callers pass where a user is needed. */
export function requireUser(actor: Actor): asserts actor is UserActor | { kind: "system" } {
  if (actor.kind === "anonymous") throw unauthorized();
}

export const isAdmin = (actor: Actor): boolean => actor.kind === "system" || (actor.kind === "user" && actor.isAdmin);

/** 401 when anonymous, 403 when signed in without the administrator role. */
export function requireAdmin(actor: Actor): void {
  requireUser(actor);
  if (!isAdmin(actor)) throw forbidden();
}
