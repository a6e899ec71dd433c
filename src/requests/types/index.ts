// The one request-type registry: every type the engine knows, each defined in its own file here.
import type { RequestType } from "../types";
import { communityInclusion } from "./community-inclusion";
import { communityInvitation } from "./community-invitation";
import { communityMembershipRequest } from "./community-membership-request";
import { communitySubmission } from "./community-submission";
import { guestAccessRequest } from "./guest-access-request";
import { userAccessRequest } from "./user-access-request";

export const REQUEST_TYPES: readonly RequestType[] = [
  communityInvitation,
  communityMembershipRequest,
  communitySubmission,
  communityInclusion,
  userAccessRequest,
  guestAccessRequest,
];
