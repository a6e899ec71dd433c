// What the curation operations (reviews.ts, inclusions.ts) are built from: the records side, the
// requests engine and the communities' answers, as app.ts hands them to service.ts.
import type { CommunityDirectory } from "../communities/directory";
import type { CommunitiesService } from "../communities/service";
import type { Curation } from "../records/curation";
import type { RequestsService } from "../requests/service";

export interface CurationDeps {
  /** The records side: permission levels, publishing into and including in communities. */
  curation: Curation;
  requests: RequestsService;
  communities: Pick<CommunityDirectory, "find" | "findReadable" | "rolesOf">;
  /** The community search, limited to some communities (a record's, or the suggestions for it). */
  searchCommunities: CommunitiesService["searchAmong"];
}
