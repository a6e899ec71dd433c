// Membership requests (InvenioRDM's community-membership-request): where the community's
// member_policy is open, a signed-in user asks to join (a request from the user to the community
// about the community); managers and owners list them and set the role they would give;
// accepting (by a manager, through the requests engine) makes the user a member with that role.
import { requireUser, type Actor } from "../core/actor";
import { badRequest } from "../core/errors";
import { createRequestLookups, MEMBERSHIP_REQUEST, searchCommunityRequests, updateCommunityRequests, type OperationsContext, type RequestListingKind } from "./member-requests";
import { membershipRequestPermissions } from "./policy";
import { checkMembershipRequestBody } from "./validate";

const BLOCKED = {
  member: "You are already a member of this community.",
  invited: "You have an open invitation to this community: accept it instead.",
  requested: "You have already asked to join this community; the request is open.",
};

const MEMBERSHIP_REQUESTS: RequestListingKind = {
  type: MEMBERSHIP_REQUEST,
  path: "membership-requests",
  itemId: (view) => view.id,
  visible: () => false,
  permissions: membershipRequestPermissions,
  offersVisibility: false,
};

export function createMembershipRequestOperations(ctx: OperationsContext) {
  const { deps, loadCommunity } = ctx;
  const { db, clock, requests } = deps;
  const lookups = createRequestLookups(deps);

  return {
    /** The caller asks to join; 400 when the community is closed to requests or the caller is a member or has something pending. */
    async requestMembership(actor: Actor, key: string, body: unknown) {
      requireUser(actor);
      const { community, caller } = await loadCommunity(actor, key);
      const input = checkMembershipRequestBody(body);
      if (community.memberPolicy !== "open")
        throw badRequest("This community does not take membership requests (its member policy is closed): ask its managers for an invitation.");
      if (caller.userId === null) throw badRequest("Only users can ask to join a community.");
      // A role through one of the caller's groups is membership too (InvenioRDM: any community role).
      if (caller.role) throw badRequest(`You are already a member of this community (as ${caller.role}).`);
      const now = clock.now();
      const userId = caller.userId;
      return await db.write(async () => {
        const blocker = await lookups.blockerOf(community.id, userId, now);
        if (blocker) throw badRequest(BLOCKED[blocker]);
        return await requests.createRequest(actor, {
          type: MEMBERSHIP_REQUEST,
          receiver: { kind: "community", id: community.id },
          topic: { kind: "community", id: community.id },
          title: `Request to join "${community.title}"`,
          // The role a manager gives on accepting; they may change it first (PUT .../membership-requests).
          payload: { role: "reader" },
          submit: true,
          comment: input.message ? { content: input.message, format: "html" } : null,
        });
      });
    },

    /** Managers, owners and administrators: every membership request of the community. */
    searchMembershipRequests: (actor: Actor, key: string, query: Record<string, unknown>) => searchCommunityRequests(ctx, MEMBERSHIP_REQUESTS, actor, key, query),

    /** The role open membership requests would give; all or nothing. */
    updateMembershipRequests: (actor: Actor, key: string, body: unknown) => updateCommunityRequests(ctx, MEMBERSHIP_REQUESTS, actor, key, body),
  };
}
