// The members module's request types, built from the membership writer (app.ts hands them to the
// requests engine): the community invitation (InvenioRDM's CommunityInvitation) and the
// membership request (its newer versions' request to join an open community).
import { managesRole, ROLE_TITLES } from "../communities/roles";
import { badRequest } from "../core/errors";
import type { HookContext, RequestType } from "../requests/request-type";
import { INVITATION, MEMBERSHIP_REQUEST } from "./member-requests";
import { offeredRole } from "./search";
import type { MembershipWriter } from "./writer";

export interface MemberTypeDeps {
  members: MembershipWriter;
}

/**
 * A community invites a user to join with a role. Its managers and owners send and cancel it, the
 * user accepts or declines, the system expires it after 30 days (COMMUNITIES_INVITATIONS_EXPIRES_IN);
 * accepting makes the user a member with the offered role and visibility (members/invitations.ts creates it).
 */
export function createInvitationType({ members }: MemberTypeDeps): RequestType {
  /** Accepting writes the membership in the engine's transaction; a user who became a member meanwhile is a 400 and nothing changes. */
  async function accept({ request, now }: HookContext) {
    if (!request.topic || request.topic.kind !== "community") throw badRequest("This invitation names no community.");
    await members.addMember({
      communityId: request.topic.id,
      member: request.receiver,
      role: offeredRole(request),
      visible: request.payload.visible === true,
      now,
      id: typeof request.payload.member_id === "string" ? request.payload.member_id : undefined,
    });
  }

  return {
    id: INVITATION,
    entities: { creator: ["community"], receiver: ["user"], topic: ["community"] },
    can: {
      // needs_context community_roles [owner, manager]: curators do not act for the community here.
      submit: (p) => p.isCreator("manager"),
      delete: (p) => p.isCreator("manager"),
      cancel: (p) => p.isCreator("manager"),
      accept: (p) => p.isReceiver(),
      decline: (p) => p.isReceiver(),
    },
    on: { accept },
    expiresInDays: 30,
    defaults: () => ({ title: "Invitation to join a community" }),
    notification(n) {
      if (n.event !== "submitted") return undefined;
      const message = n.comment ? `\n\nTheir message:\n${n.comment}` : "";
      return {
        subject: `[${n.siteName}] ${n.request.title}`,
        body: `${n.actorName} invited you to join as "${ROLE_TITLES[offeredRole(n.request)]}".${message}\n\nAccept or decline the invitation: ${n.url}\n`,
      };
    },
  };
}

/**
 * A user asks a community whose member policy is open to let them join. The user submits and
 * cancels it; the community's managers and owners accept (giving the role kept in the payload,
 * `reader` unless they changed it) or decline. It does not expire.
 */
export function createMembershipRequestType({ members }: MemberTypeDeps): RequestType {
  /** Accepting writes the membership in the engine's transaction; a requester who became a member meanwhile is a 400 and nothing changes. */
  async function accept({ request, now }: HookContext) {
    // Hidden at first, as every new membership: making it public is the member's own choice (rule 6).
    await members.addMember({ communityId: request.receiver.id, member: request.createdBy, role: offeredRole(request), visible: false, now });
  }

  return {
    id: MEMBERSHIP_REQUEST,
    entities: { creator: ["user"], receiver: ["community"], topic: ["community"] },
    // Managers and owners decide (curators do not act for the community here); the badge reads this too.
    receiverRole: "manager",
    can: {
      submit: (p) => p.isCreator(),
      delete: (p) => p.isCreator(),
      cancel: (p) => p.isCreator(),
      // Accepting gives the role: managers give any but owner, owners any (the members rule 3).
      accept: (p, request) => (managesRole("manager", offeredRole(request)) ? p.isReceiver() : p.isReceiver("owner")),
      decline: (p) => p.isReceiver(),
    },
    on: { accept },
    expiresInDays: null,
    defaults: () => ({ title: "Request to join a community" }),
  };
}
