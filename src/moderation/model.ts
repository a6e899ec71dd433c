// Moderation of new accounts (ACCOUNTS_MODERATION=first-publish): the request type's id, the party
// that stands for the administrators, and the payload a request keeps (the held drafts).
import type { EntityRef } from "../requests/request-type";

/** InvenioRDM's request type id. */
export const USER_MODERATION = "user-moderation";

/**
 * The administrators as a request party: InvenioRDM's moderation role, named as a group. No group
 * of the groups module has this id (theirs are UUIDs), so nobody acts for it by membership: the
 * type's rules let administrators act.
 */
export const MODERATORS: EntityRef = { kind: "group", id: "administration-moderation" };

/** A user-moderation request's payload: the drafts held until an administrator decides, oldest first. */
export interface ModerationPayload {
  drafts: string[];
}

export function heldDrafts(payload: Record<string, unknown>): string[] {
  const drafts = payload.drafts;
  return Array.isArray(drafts) ? drafts.filter((d): d is string => typeof d === "string") : [];
}

/** What approving or blocking did besides the account's own change (the audit entry's details). */
export type ModerationOutcome = {
  /** The user-moderation request it resolved, if one was open. */
  moderation_request?: string;
  /** Published records removed with a tombstone (block). */
  tombstoned?: number;
};

/** The requests engine's `groupEmails` for the administrators' party (the submitted request's mail); no other group is mailed. */
export const moderatorEmails =
  (adminEmails: () => Promise<string[]>) =>
  (groupId: string): Promise<string[]> =>
    groupId === MODERATORS.id ? adminEmails() : Promise.resolve([]);

/**
 * How the audit log names an approval or block made by acting on the request: `web` for a caller
 * signed in through a browser session (it carries the session's CSRF token), `api` otherwise. The
 * requests API knows no client address.
 */
export const requestOrigin = (actor: { csrf?: string }): { via: "web" | "api"; address: null } => ({ via: actor.csrf ? "web" : "api", address: null });
