// Invitations: managers and owners invite users (one community-invitation request each, from the
// community to the user about the community, open at once and expiring as the type says), list
// them with their state, and change the role they offer. Accepting, declining, cancelling and
// expiry go through the requests engine (its type: request-types.ts).
import { requireUser, systemActor, type Actor } from "../core/actor";
import { validationError, type FieldError } from "../core/errors";
import { newUuid } from "../core/ids";
import { createRequestLookups, INVITATION, searchCommunityRequests, updateCommunityRequests, type OperationsContext, type RequestListingKind } from "./member-requests";
import { actsForCommunity, checkGrantRole, checkManageMembers, invitationPermissions } from "./policy";
import * as store from "./store";
import { checkInviteBody } from "./validate";

const BLOCKED = {
  member: "This user is already a member of the community.",
  invited: "This user already has an open invitation to the community.",
  requested: "This user has asked to join already: accept their membership request instead.",
};

const INVITATIONS: RequestListingKind = {
  type: INVITATION,
  path: "invitations",
  // The membership the user gets on accepting, so the invitation listing and the members listing agree.
  itemId: (view) => String(view.payload.member_id ?? view.id),
  visible: (view) => view.payload.visible === true,
  permissions: invitationPermissions,
  offersVisibility: true,
};

export function createInvitationOperations(ctx: OperationsContext) {
  const { deps, loadCommunity } = ctx;
  const { db, clock, requests } = deps;
  const lookups = createRequestLookups(deps);

  return {
    /** One invitation per listed user; all or nothing. Managers invite any role but owner, owners any. */
    async inviteMembers(actor: Actor, key: string, body: unknown): Promise<void> {
      requireUser(actor);
      const { community, caller } = await loadCommunity(actor, key);
      checkManageMembers(caller);
      const input = checkInviteBody(body);
      checkGrantRole(caller, input.role);
      // `visible` is offered, not imposed: the membership is made only when the invitee accepts the
      // invitation that shows it (rule 6 guards changes to existing memberships, not offers).
      const users = await store.findActiveUsers(
        db,
        input.members.filter((m) => /^\d{1,15}$/.test(m.id)).map((m) => Number(m.id)),
      );
      const now = clock.now();
      // Administrators who are not managers are no party of the community: the system writes for them.
      const author = actsForCommunity(caller) ? actor : systemActor;
      await db.write(async () => {
        const errors: FieldError[] = [];
        for (const [i, m] of input.members.entries()) {
          const user = users.find((u) => String(u.id) === m.id);
          const blocker = user ? await lookups.blockerOf(community.id, user.id, now) : null;
          if (!user) errors.push({ field: `members.${i}.id`, messages: [`Invalid member specified. No user '${m.id}' exists.`] });
          else if (blocker) errors.push({ field: `members.${i}`, messages: [BLOCKED[blocker]] });
        }
        if (errors.length) throw validationError(errors, "Invalid member specified.");
        for (const m of input.members) {
          await requests.createRequest(author, {
            type: INVITATION,
            createdBy: { kind: "community", id: community.id },
            receiver: { kind: "user", id: m.id },
            topic: { kind: "community", id: community.id },
            title: `Invitation to join "${community.title}"`,
            // member_id: the membership the user gets on accepting, so the invitation listing and the members listing agree.
            payload: { role: input.role, visible: input.visible ?? false, member_id: newUuid() },
            submit: true,
            comment: input.message ? { content: input.message, format: "html" } : null,
          });
        }
      });
    },

    /** Managers, owners and administrators: every invitation of the community, open or answered. */
    searchInvitations: (actor: Actor, key: string, query: Record<string, unknown>) => searchCommunityRequests(ctx, INVITATIONS, actor, key, query),

    /** The role (and, to hide, the visibility) open invitations offer; all or nothing. */
    updateInvitations: (actor: Actor, key: string, body: unknown) => updateCommunityRequests(ctx, INVITATIONS, actor, key, body),
  };
}
