// The community-membership-request request type (InvenioRDM's membership requests, newer
// versions): a user asks a community whose member policy is open to let them join. The user
// submits and cancels it; the community's managers and owners accept (giving the role kept in the
// payload, `reader` unless they changed it) or decline. It does not expire.
import { HttpError } from "../../core/errors";
import type { CommunityRole, HookContext, RequestType, RequestView } from "../types";

const ROLES: readonly CommunityRole[] = ["reader", "curator", "manager", "owner"];

const roleOf = (request: RequestView): CommunityRole => (ROLES.includes(request.payload.role as CommunityRole) ? (request.payload.role as CommunityRole) : "reader");

/** Accepting writes the membership in the engine's transaction; a requester who became a member meanwhile is a 400 and nothing changes. */
function accept({ request, now, services }: HookContext) {
  if (!services.members) throw new HttpError(503, "Memberships cannot be written: the members module is not available.");
  // Hidden at first, as every new membership: making it public is the member's own choice (rule 6).
  services.members.addMember({ communityId: request.receiver.id, member: request.createdBy, role: roleOf(request), visible: false, now });
}

export const communityMembershipRequest: RequestType = {
  id: "community-membership-request",
  entities: { creator: ["user"], receiver: ["community"], topic: ["community"] },
  can: {
    submit: (p) => p.isCreator(),
    delete: (p) => p.isCreator(),
    cancel: (p) => p.isCreator(),
    // Accepting gives the role: managers give any but owner, owners any (the members rule 3).
    accept: (p, request) => p.isReceiver(roleOf(request) === "owner" ? "owner" : "manager"),
    decline: (p) => p.isReceiver("manager"),
  },
  on: { accept },
  expiresInDays: null,
  defaults: () => ({ title: "Request to join a community" }),
};
