// What the members module needs from other modules (the community directory, the requests
// engine), as narrow interfaces app.ts fills in, and the dependencies the members service is built from.
import type { Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import type { NewRequest, RequestLookup } from "../requests/service";
import type { Role } from "../communities/roles";
import type { RequestView } from "../requests/request-type";

/**
 * The communities module's answers (structurally the CommunityDirectory of communities/service.ts
 * and requests/context.ts), plus the community's `access.member_policy`, which decides whether
 * people may ask to join (membership requests), and `access.members_visibility`, which decides
 * who may list its members publicly.
 */
export interface CommunityDirectory {
  find(idOrSlug: string): Promise<MemberCommunity | null>;
  /** The community when the actor may see it (the communities policy's rule), else null: a restricted community is not disclosed to outsiders. */
  findReadable(actor: Actor, idOrSlug: string, roles?: ReadonlyMap<string, Role>): Promise<MemberCommunity | null>;
  rolesOf(actor: Actor): Promise<Map<string, Role>>;
  curatorEmails(communityId: string): Promise<string[]>;
}

type MemberCommunity = {
  id: string;
  slug: string;
  title: string;
  visibility: "public" | "restricted";
  memberPolicy: "open" | "closed";
  membersVisibility: "public" | "restricted";
};

/** What invitations and membership requests use of the requests engine (requests/service.ts). */
export interface MemberRequests {
  /** Creates (and with `submit`, opens) a request; joins the caller's transaction when called inside one. */
  createRequest(actor: Actor, input: NewRequest): Promise<{ id: string }>;
  /** Requests by type, party or topic, oldest first; no permission check. */
  findRequests(lookup: RequestLookup): Promise<RequestView[]>;
  /** The request as the actor sees it (status, is_open, expires_at, revision_id). */
  presentFor(actor: Actor, id: string): Promise<{ id: string; status: string; is_open: boolean; expires_at: string | null; revision_id: number }>;
  /** Adds a comment to the timeline as the actor (a party, or the system). */
  createComment(actor: Actor, id: string, body: unknown): Promise<unknown>;
  /**
   * Replaces the type's payload of an open request (a new offered role), inside the caller's
   * transaction, with the next revision.
   */
  updatePayload(id: string, payload: Record<string, unknown>, now: number): Promise<void>;
}

export interface MembersDeps extends Deps {
  communities: CommunityDirectory;
  requests: MemberRequests;
}
