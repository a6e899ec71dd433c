// What the record search page shares with the community pages: the search limits the
// configuration sets, the syntax help as a disclosure, and a record search's results.
import type { PagesDeps } from "../context";
import { RecordCard, type SearchOutcome } from "./cards";
import { queryFallbackOf, QueryFallbackNotice } from "./fallback";
import { SearchHelp } from "./help";
import { Results } from "./parts";
import type { SearchState } from "./state";

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
  const fallback = queryFallbackOf(outcome.result);
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
      notice={fallback ? <QueryFallbackNotice fallback={fallback} /> : null}
    />
  );
}
