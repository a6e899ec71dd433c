// The community-invitation request type (InvenioRDM's CommunityInvitation): a community invites a
// user to join with a role. Its managers and owners send and cancel it, the user accepts or
// declines, the system expires it after 30 days (COMMUNITIES_INVITATIONS_EXPIRES_IN); accepting
// makes the user a member with the offered role and visibility (members/invitations.ts creates it).
import { HttpError } from "../../core/errors";
import { defaultMailText } from "../notify";
import type { CommunityRole, HookContext, RequestType, RequestView } from "../types";

const ROLES: readonly CommunityRole[] = ["reader", "curator", "manager", "owner"];
const TITLES: Record<CommunityRole, string> = { reader: "Reader", curator: "Curator", manager: "Manager", owner: "Owner" };

/** The role the invitation offers (kept in its payload); `reader` when unreadable. */
export const offeredRole = (request: RequestView): CommunityRole => (ROLES.includes(request.payload.role as CommunityRole) ? (request.payload.role as CommunityRole) : "reader");

/** Accepting writes the membership in the engine's transaction; a user who became a member meanwhile is a 400 and nothing changes. */
function accept({ request, now, services }: HookContext) {
  if (!services.members) throw new HttpError(503, "Memberships cannot be written: the members module is not available.");
  if (!request.topic || request.topic.kind !== "community") throw new HttpError(400, "This invitation names no community.");
  services.members.addMember({
    communityId: request.topic.id,
    member: request.receiver,
    role: offeredRole(request),
    visible: request.payload.visible === true,
    now,
    id: typeof request.payload.member_id === "string" ? request.payload.member_id : undefined,
  });
}

export const communityInvitation: RequestType = {
  id: "community-invitation",
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
    if (n.event !== "submitted") return defaultMailText(n);
    const message = n.comment ? `\n\nTheir message:\n${n.comment}` : "";
    return {
      subject: `[${n.siteName}] ${n.request.title}`,
      body: `${n.actorName} invited you to join as "${TITLES[offeredRole(n.request)]}".${message}\n\nAccept or decline the invitation: ${n.url}\n`,
    };
  },
};
