// Who may send a record to which community, shared by draft reviews and inclusion requests: a
// community is a receiver for whoever may see it (the community directory's findReadable answers
// that); its review_policy says whose records it takes without review.
import { isAdmin, type Actor } from "../core/actor";
import type { CommunitySummary } from "../communities/model";
import { atLeast, type Role } from "../communities/roles";

type Roles = ReadonlyMap<string, Role>;

/**
 * Whether the caller's submission (draft review or inclusion) is accepted at once, by the
 * community's `review_policy` (InvenioRDM's `can_include_directly`): `closed`, nobody's; `open`,
 * its curators', managers' and owners'; `members`, any member's. Administrators who are no
 * members go through review like anyone else.
 */
export function canPublishDirectly(actor: Actor, community: CommunitySummary, roles: Roles): boolean {
  const role = roles.get(community.id);
  if (actor.kind !== "user" || !role) return false;
  if (community.reviewPolicy === "members") return true;
  return community.reviewPolicy === "open" && atLeast(role, "curator");
}

/** Removing a record from a community: the community's curators, managers and owners, and administrators. */
export const curatesCommunity = (actor: Actor, communityId: string, roles: Roles) => isAdmin(actor) || atLeast(roles.get(communityId), "curator");
