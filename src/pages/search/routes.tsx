// /search: the record search as a page (the query box, facets, sorts, paging, result cards, all in
// the URL), through the same records service the REST API's GET /api/records calls; /search/help.
import { Elysia } from "elysia";
import type { ActorContext } from "../../core/http";
import { registerAsset } from "../assets";
import { pageContextOf, renderOrError, type PagesDeps } from "../context";
import { htmlResponse } from "../http";
import { Layout, type PageContext } from "../layout";
import searchJs from "../static/search.js" with { type: "text" };
import { runSearch, type SearchOutcome } from "./cards";
import { SearchHelp } from "./help";
import { SearchBox } from "./parts";
import { HelpDisclosure, RecordResults, searchLimits } from "./results";
import { searchStateOf, type SearchState } from "./state";

registerAsset("search.js", searchJs);

function SearchPage({ ctx, deps, state, outcome }: { ctx: PageContext; deps: PagesDeps; state: SearchState; outcome: SearchOutcome }) {
  return (
    <Layout ctx={ctx} title={state.q ? `Search: ${state.q}` : "Search"} scripts={["search.js"]}>
      <div class="search-page">
        <h1>Search records</h1>
        <SearchBox state={state} label="Search records" placeholder="Title, creator, keyword, DOI…" help={<HelpDisclosure />} />
        <RecordResults deps={deps} state={state} outcome={outcome} heading="Results" empty="No records match this search. Try fewer words or remove a filter." />
      </div>
    </Layout>
  );
}

export const searchPages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia()
    .use(http)
    .get("/search", async ({ actor, request }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const state = searchStateOf(request, "/search", searchLimits(deps).defaultSize);
        const outcome = await runSearch(() => deps.services.records.searchRecords(actor, state.query));
        return htmlResponse(<SearchPage ctx={ctx} deps={deps} state={state} outcome={outcome} />, outcome.status);
      });
    })
    .get("/search/help", async ({ actor, request }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, () => (
        <Layout ctx={ctx} title="Search help">
          <div class="search-page">
            <h1>How to search</h1>
            <SearchHelp>
              <p>
                <a href="/search">Back to the search</a>
              </p>
            </SearchHelp>
          </div>
        </Layout>
      ));
    });
