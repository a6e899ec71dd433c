// /search: the record search as a page (the query box, facets, sorts, paging, result cards, all in
// the URL), through the same records service the REST API's GET /api/records calls; /search/help.
import { Elysia } from "elysia";
import type { ActorContext } from "../../core/http";
import { registerAsset } from "../assets";
import { pageContextOf, renderOrError, type PagesDeps } from "../context";
import { htmlResponse } from "../http";
import { Layout, type PageContext } from "../layout";
import searchJs from "../static/search.js" with { type: "text" };
import { RecordCard, runSearch, type SearchOutcome } from "./cards";
import { SearchHelp } from "./help";
import { Results, SearchBox } from "./parts";
import { searchStateOf, type SearchState } from "./state";

registerAsset("search.js", searchJs);

/** Page sizes offered (those above the configured maximum are left out). */
const SIZES = [10, 20, 50, 100];

/** What every record search page needs of the configuration. */
export function searchLimits(deps: PagesDeps) {
  const { config } = deps.services.deps;
  return {
    defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE,
    sizes: SIZES.filter((n) => n <= config.SEARCH_MAX_PAGE_SIZE),
    maxWindow: config.SEARCH_MAX_RESULTS_WINDOW,
    recordSorts: config.RDM_SEARCH_SORT_OPTIONS,
    communitySorts: config.COMMUNITIES_SEARCH_SORT_OPTIONS,
  };
}

/** The syntax help, one click from the box (a disclosure), with the way to its own page. */
export function HelpDisclosure() {
  return (
    <details class="search-help">
      <summary>Search syntax help</summary>
      <SearchHelp>
        <p>
          <a href="/search/help">The search help on its own page</a>
        </p>
      </SearchHelp>
    </details>
  );
}

/** A record search's body: facets, count, sort and size, record cards and pager (the search page's and a community's). */
export function RecordResults({ deps, state, outcome, heading, empty }: { deps: PagesDeps; state: SearchState; outcome: SearchOutcome; heading: string; empty: string }) {
  const limits = searchLimits(deps);
  return (
    <Results
      state={state}
      result={outcome.result}
      problem={outcome.problem}
      sortOptions={limits.recordSorts}
      sizes={limits.sizes}
      maxWindow={limits.maxWindow}
      heading={heading}
      noun={["record", "records"]}
      card={(hit) => <RecordCard hit={hit} />}
      empty={empty}
    />
  );
}

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
    .get("/search", ({ actor, request }) => {
      const ctx = pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const state = searchStateOf(request, "/search", searchLimits(deps).defaultSize);
        const outcome = await runSearch(() => deps.services.records.searchRecords(actor, state.query));
        return htmlResponse(<SearchPage ctx={ctx} deps={deps} state={state} outcome={outcome} />, outcome.status);
      });
    })
    .get("/search/help", ({ actor, request }) => {
      const ctx = pageContextOf(deps, actor, request);
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
