// The one request-type registry: every type the engine knows, each defined in its own file here.
import type { RequestType } from "../types";
import { communityInvitation } from "./community-invitation";
import { communityMembershipRequest } from "./community-membership-request";

export const REQUEST_TYPES: readonly RequestType[] = [communityInvitation, communityMembershipRequest];
