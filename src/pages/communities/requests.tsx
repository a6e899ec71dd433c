// /communities/{slug}/requests: the community's curation queue (reviews, inclusions, membership
// requests it receives), open and closed, with the dashboard's list, filters and search. Who may
// see it is the requests service's rule for a community's requests (curators and up): others get
// its refusal as the page's status.
import type { Actor } from "../../core/actor";
import type { PagesDeps } from "../context";
import { otherParty } from "../dashboard/parts";
import { RequestsList, requestsParams, type RequestRowView, type RequestsListing } from "../dashboard/requests";
import { Layout, type PageContext } from "../layout";
import { CommunityHead, CommunityTabs, hasLogo, titleOf } from "./parts";

type Json = Record<string, any>;

export interface CommunityRequestsView {
  community: Json;
  hasLogo: boolean;
  settings: boolean;
  rows: RequestRowView[];
  total: number;
}

/** The community (404 where the caller may not see it), then its requests (403 below curator). */
export async function communityRequestsView(deps: PagesDeps, actor: Actor, slug: string, listing: RequestsListing): Promise<CommunityRequestsView> {
  const { communities, requests } = deps.services;
  const community = (await communities.readCommunity(actor, slug)) as Json;
  const result = (await requests.searchCommunityRequests(actor, String(community.id), requestsParams(listing))) as Json;
  const rows = await Promise.all((result.hits.hits as Json[]).map(async (r) => ({ request: r, party: await otherParty(deps, actor, r) })));
  return {
    community,
    hasLogo: await hasLogo(deps, actor, String(community.id)),
    settings: (await communities.permissionsOf(actor, String(community.id))).can_update,
    rows,
    total: Number(result.hits.total) || 0,
  };
}

export function CommunityRequestsPage({ ctx, view, listing }: { ctx: PageContext; view: CommunityRequestsView; listing: RequestsListing }) {
  const base = `/communities/${encodeURIComponent(String(view.community.slug))}/requests`;
  return (
    <Layout ctx={ctx} title={`Requests of ${titleOf(view.community)}`}>
      <div class="community-page">
        <CommunityHead community={view.community} has={view.hasLogo} heading="Requests" />
        <CommunityTabs community={view.community} current="requests" members={true} settings={view.settings} requests={true} />
        <p class="muted">Submissions for review, inclusions of published records and other requests to this community. Open one to accept or decline it.</p>
        <RequestsList base={base} label="this community's requests" rows={view.rows} total={view.total} listing={listing} />
      </div>
    </Layout>
  );
}
