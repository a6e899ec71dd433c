// The front page: the site's name and its introduction (THEME_FRONTPAGE_INTRO), a search box,
// featured communities and the newest records.
import { Elysia } from "elysia";
import type { ActorContext } from "../core/http";
import { CommunityCard, hasLogo } from "./communities/parts";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { Layout } from "./layout";
import { RecordCard } from "./search/cards";
import { formatCount } from "./numbers";

type Json = Record<string, any>;

const RECENT = 6;
const FEATURED = 5;

export const homePages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia().use(http).get("/", async ({ actor, request }) => {
    const ctx = await pageContextOf(deps, actor, request);
    return renderOrError(ctx, async () => {
      const { services } = deps;
      const recent = (await services.records.searchRecords(actor, { sort: "newest", size: String(RECENT) })) as Json;
      const featured = (await services.communities.searchFeatured(actor, { size: String(FEATURED) })) as Json;
      // No community featured yet: the newest ones the caller may see stand in, under their own heading.
      const shown = featured.hits.total > 0 ? featured : ((await services.communities.searchCommunities(actor, { sort: "newest", size: String(FEATURED) })) as Json);
      const communities = shown.hits.hits as Json[];
      const logos = await Promise.all(communities.map((c) => hasLogo(deps, actor, String(c.id))));
      const canCreate = await services.communities.mayCreate(actor);
      const total = Number(recent.hits.total) || 0;
      return (
        <Layout ctx={ctx} title="Home">
          <div class="home">
            <h1>{deps.siteName}</h1>
            <p class="lead">A repository for research data, software and publications{total ? `: ${formatCount(total)} records and counting` : ""}.</p>
            {/* THEME_FRONTPAGE_INTRO, sanitised as descriptions are when the theme was read (pages/theme.ts). */}
            {deps.theme.intro ? <div class="intro" dangerouslySetInnerHTML={{ __html: deps.theme.intro }} /> : null}
            <form class="card search-box" method="get" action="/search" role="search">
              <label for="q">Search records</label>
              <div class="search-row">
                <input id="q" name="q" type="search" placeholder="Title, creator, keyword, DOI…" />
                <button type="submit">Search</button>
              </div>
              <p class="muted">
                <a href="/search/help">How to search</a> · <a href="/search">Browse all records</a>
              </p>
            </form>
            <div class="columns main-side">
              <section aria-labelledby="recent">
                <h2 id="recent">Recent uploads</h2>
                {recent.hits.hits.length === 0 ? <p class="muted">Nothing published yet.</p> : null}
                {recent.hits.hits.map((hit: Json) => (
                  <RecordCard hit={hit} />
                ))}
                {total > RECENT ? (
                  <p>
                    <a href="/search?sort=newest">More recent uploads</a>
                  </p>
                ) : null}
              </section>
              <section aria-labelledby="featured">
                <h2 id="featured">{featured.hits.total > 0 ? "Featured communities" : "Communities"}</h2>
                {communities.length === 0 ? <p class="muted">No communities yet.</p> : null}
                {communities.map((c, i) => (
                  <CommunityCard community={c} has={logos[i]!} />
                ))}
                <p>
                  <a href="/communities">All communities</a>
                  {canCreate ? (
                    <>
                      {" · "}
                      <a href="/communities/new">New community</a>
                    </>
                  ) : null}
                </p>
              </section>
            </div>
          </div>
        </Layout>
      );
    });
  });
