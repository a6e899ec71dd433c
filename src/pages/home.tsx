// The front page: the site's name, a search box, featured communities and the newest records.
import { Elysia } from "elysia";
import type { ActorContext } from "../core/http";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { Layout } from "./layout";

type Json = Record<string, any>;

export const homePages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia().use(http).get("/", async ({ actor, request }) => {
    const ctx = pageContextOf(deps, actor, request);
    return renderOrError(ctx, async () => {
      const { services } = deps;
      const recent = (await services.records.searchRecords(actor, { sort: "newest", size: "5" })) as Json;
      const featured = services.communities.searchFeatured(actor, { size: "5" }) as Json;
      return (
        <Layout ctx={ctx} title="Home">
          <h1>{deps.siteName}</h1>
          <form class="card" method="get" action="/search" role="search">
            <label for="q">Search records</label>
            <div class="actions">
              <input id="q" name="q" type="search" placeholder="Title, creator, keyword, DOI…" />
              <button type="submit">Search</button>
            </div>
          </form>
          <div class="columns main-side">
            <section aria-labelledby="recent">
              <h2 id="recent">Recent uploads</h2>
              {recent.hits.hits.length === 0 ? <p class="muted">Nothing published yet.</p> : null}
              {recent.hits.hits.map((hit: Json) => (
                <article class="card result">
                  <h3>
                    <a href={`/records/${hit.id}`}>{String(hit.metadata?.title ?? hit.id)}</a>
                  </h3>
                  <p class="muted">
                    {String(hit.metadata?.publication_date ?? "")} · {String(hit.metadata?.resource_type?.title?.en ?? hit.metadata?.resource_type?.id ?? "")}
                  </p>
                </article>
              ))}
            </section>
            <section aria-labelledby="featured">
              <h2 id="featured">Featured communities</h2>
              {featured.hits.hits.length === 0 ? <p class="muted">None featured yet.</p> : null}
              <ul class="plain">
                {featured.hits.hits.map((c: Json) => (
                  <li>
                    <a href={`/communities/${c.slug}`}>{String(c.metadata?.title ?? c.slug)}</a>
                  </li>
                ))}
              </ul>
              <p>
                <a href="/communities">All communities</a>
              </p>
            </section>
          </div>
        </Layout>
      );
    });
  });
