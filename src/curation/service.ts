// Communities curating records, as one service: draft reviews (reviews.ts) and the inclusion of
// published records (inclusions.ts), both moved by the requests engine and its two request types.
import type { CommunityDirectory } from "../communities/directory";
import type { CommunitiesService } from "../communities/service";
import type { Curation } from "../records/curation";
import type { RequestsService } from "../requests/service";
import { createInclusions } from "./inclusions";
import { createReviews } from "./reviews";

export interface CurationDeps {
  /** The records side: permission levels, publishing into and including in communities. */
  curation: Curation;
  requests: RequestsService;
  communities: Pick<CommunityDirectory, "find" | "rolesOf">;
  /** The community search, limited to some communities (a record's, or the suggestions for it). */
  searchCommunities: CommunitiesService["searchAmong"];
}

export function createCurationService(deps: CurationDeps) {
  return { ...createReviews(deps), ...createInclusions(deps) };
}

export type CurationService = ReturnType<typeof createCurationService>;
