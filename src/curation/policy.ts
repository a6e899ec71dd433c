// Who may send a record to which community, shared by draft reviews and inclusion requests: a
// community is a receiver for whoever may read it (public ones for anyone, restricted ones for
// their members); it takes records without review from its members when its record policy is open.
import { isAdmin, type Actor } from "../core/actor";
import type { CommunitySummary } from "../communities/model";

type Roles = ReadonlyMap<string, string>;

/** The community when the caller may read it, else null (a restricted community is not disclosed to outsiders). */
export function readableCommunity(actor: Actor, community: CommunitySummary | null, roles: Roles): CommunitySummary | null {
  if (!community) return null;
  return community.visibility === "public" || isAdmin(actor) || roles.has(community.id) ? community : null;
}

/** `record_policy` open: its members (any role) publish and include records without review; closed: review always. */
export const canPublishDirectly = (actor: Actor, community: CommunitySummary, roles: Roles) =>
  actor.kind === "user" && community.recordPolicy === "open" && roles.has(community.id);

/** Removing a record from a community: the community's curators, managers and owners, and administrators. */
export const curatesCommunity = (actor: Actor, communityId: string, roles: Roles) => isAdmin(actor) || ["curator", "manager", "owner"].includes(roles.get(communityId) ?? "");
