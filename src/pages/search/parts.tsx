// The parts of every search page (records, a community's records, communities): the query box, the
// facets as checkboxes with counts, sort and page size, the pager, and a refused search's message.
// Every control belongs to one GET form (`form=`), so the URL holds the whole state.
import type { FieldError } from "../../core/errors";
import type { Child } from "../jsx-runtime";
import { hrefWith, idFor, selectedValues, type SearchState } from "./state";
import { formatCount } from "../numbers";

type Json = Record<string, any>;

/** The id of the search form every control belongs to. */
export const FORM_ID = "search-form";

/** Names of the sort options the services know (records and communities). */
const SORT_LABELS: Record<string, string> = {
  bestmatch: "Best match",
  newest: "Newest",
  oldest: "Oldest",
  "updated-desc": "Recently updated",
  "updated-asc": "Least recently updated",
  version: "Version",
  mostviewed: "Most viewed",
  mostdownloaded: "Most downloaded",
};

/** A search the service refused (400): its message and the fields it names. */
export interface SearchProblem {
  message: string;
  errors?: FieldError[];
}

export function SearchBox({ state, label, placeholder, help }: { state: SearchState; label: string; placeholder: string; help?: Child }) {
  return (
    <form id={FORM_ID} class="card search-box" method="get" action={state.action} role="search">
      <label for="q">{label}</label>
      <div class="search-row">
        <input id="q" name="q" type="search" value={state.q} placeholder={placeholder} />
        <button type="submit">Search</button>
      </div>
      {help}
    </form>
  );
}

function Bucket({ name, bucket, selected }: { name: string; bucket: Json; selected: string[] }) {
  const key = String(bucket.key);
  const id = idFor(`f-${name}`, key);
  const inner = (bucket.inner?.buckets ?? []) as Json[];
  return (
    <li>
      <label>
        <input id={id} type="checkbox" form={FORM_ID} name={name} value={key} checked={selected.includes(key)} data-autosubmit="" />
        <span>
          {String(bucket.label ?? key)} <span class="count">({Number(bucket.doc_count ?? 0)})</span>
        </span>
      </label>
      {inner.length ? (
        <ul class="plain sub">
          {inner.map((sub) => (
            <Bucket name={name} bucket={sub} selected={selected} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** A facet's values: checkboxes sharing the facet's name (HTML sends each ticked value, as the search reads them). */
function BucketList({ name, buckets, selected }: { name: string; buckets: Json[]; selected: string[] }) {
  return (
    <ul class="plain">
      {buckets.map((bucket) => (
        <Bucket name={name} bucket={bucket} selected={selected} />
      ))}
    </ul>
  );
}

/** Every key of the buckets, subtypes included. */
const keysOf = (buckets: Json[]): string[] => buckets.flatMap((b) => [String(b.key), ...keysOf((b.inner?.buckets ?? []) as Json[])]);

/**
 * The aggregations the service answered, one fieldset each. A value selected in the URL that no
 * bucket shows (nothing matches it now) is listed with 0, so it can be unticked.
 */
export function Facets({ state, aggregations }: { state: SearchState; aggregations: Json }) {
  const facets = Object.entries(aggregations ?? {}).map(([name, agg]) => {
    const buckets = [...((agg as Json).buckets ?? [])] as Json[];
    const selected = selectedValues(state, name);
    const shown = new Set(keysOf(buckets));
    for (const key of selected) if (!shown.has(key)) buckets.push({ key, label: key, doc_count: 0 });
    return { name, label: String((agg as Json).label ?? name), buckets, selected };
  });
  const visible = facets.filter((f) => f.buckets.length > 0);
  return (
    <aside class="facets" id="search-facets" aria-labelledby="filters-heading">
      <h2 id="filters-heading">Filters</h2>
      {visible.length === 0 ? <p class="muted">No filters for these results.</p> : null}
      {visible.map((facet) => (
        <fieldset>
          <legend>{facet.label}</legend>
          <BucketList name={facet.name} buckets={facet.buckets} selected={facet.selected} />
        </fieldset>
      ))}
      {visible.length ? (
        <div class="actions">
          <button type="submit" form={FORM_ID} class="secondary" data-apply="">
            Apply filters
          </button>
          {visible.some((f) => f.selected.length) ? <a href={hrefWith(state, Object.fromEntries([...visible.map((f) => [f.name, null]), ["page", null]]))}>Clear filters</a> : null}
        </div>
      ) : null}
    </aside>
  );
}

/** Sort and page size; `bestmatch` is offered only with a query (the services order by it only then). */
export function SortAndSize({ state, sortOptions, sortBy, sizes }: { state: SearchState; sortOptions: string[]; sortBy: string; sizes: number[] }) {
  const options = sortOptions.filter((o) => o !== "bestmatch" || state.q.trim() !== "" || o === sortBy);
  const sizeChoices = [...new Set([...sizes, state.size])].sort((a, b) => a - b);
  return (
    <div class="sort-size">
      <label for="sort">Sort by</label>
      <select id="sort" name="sort" form={FORM_ID} data-autosubmit="">
        {options.map((o) => (
          <option value={o} selected={o === sortBy}>
            {SORT_LABELS[o] ?? o}
          </option>
        ))}
      </select>
      <label for="size">Per page</label>
      <select id="size" name="size" form={FORM_ID} data-autosubmit="">
        {sizeChoices.map((n) => (
          <option value={String(n)} selected={n === state.size}>
            {String(n)}
          </option>
        ))}
      </select>
      <button type="submit" form={FORM_ID} class="secondary" data-apply="">
        Apply
      </button>
    </div>
  );
}

/** Page numbers around the current one, the first and the last; `lastPage` is capped by the search window. */
export function Pager({ state, total, maxWindow }: { state: SearchState; total: number; maxWindow: number }) {
  const last = Math.max(1, Math.min(Math.ceil(total / state.size), Math.floor(maxWindow / state.size)));
  if (last <= 1 && state.page <= 1) return null;
  const numbers = [...new Set([1, state.page - 2, state.page - 1, state.page, state.page + 1, state.page + 2, last])].filter((n) => n >= 1 && n <= last).sort((a, b) => a - b);
  const href = (n: number) => hrefWith(state, { page: n === 1 ? null : n });
  return (
    <nav class="pager" aria-label="Pages">
      {state.page > 1 ? (
        <a href={href(Math.min(state.page - 1, last))} rel="prev">
          Previous
        </a>
      ) : null}
      <ul class="plain pages">
        {numbers.map((n, i) => (
          <>
            {i > 0 && n - numbers[i - 1]! > 1 ? <li aria-hidden="true">…</li> : null}
            <li>
              {n === state.page ? (
                <a href={href(n)} aria-current="page" aria-label={`Page ${n}, current page`}>
                  {String(n)}
                </a>
              ) : (
                <a href={href(n)} aria-label={`Page ${n}`}>
                  {String(n)}
                </a>
              )}
            </li>
          </>
        ))}
      </ul>
      {state.page < last ? (
        <a href={href(state.page + 1)} rel="next">
          Next
        </a>
      ) : null}
    </nav>
  );
}

/** A refused search: the service's message and what it says of each parameter. */
export function ProblemNotice({ problem }: { problem: SearchProblem }) {
  return (
    <div class="notice error" role="alert">
      <p>
        <strong>The search could not be run.</strong> {problem.message}
      </p>
      {problem.errors?.length ? (
        <ul>
          {problem.errors.map((e) => (
            <li>
              <code>{e.field}</code>: {e.messages.join(" ")}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** "3 records" / "1 record". */
export const countOf = (n: number, noun: [string, string]) => `${formatCount(n)} ${n === 1 ? noun[0] : noun[1]}`;

export interface ResultsProps {
  state: SearchState;
  /** The service's answer, or null when it refused the search. */
  result: Json | null;
  problem?: SearchProblem;
  sortOptions: string[];
  sizes: number[];
  maxWindow: number;
  heading: string;
  noun: [string, string];
  /** One hit as a card. */
  card: (hit: Json) => Child;
  /** What to say when nothing matches. */
  empty: string;
  /** Said above the hits (a query searched as its plain words). */
  notice?: Child;
}

/** Facets beside the hits, with the count, sort, size and pager: the body of a search page. */
export function Results(props: ResultsProps) {
  const { state, result } = props;
  const total = Number(result?.hits?.total ?? 0);
  const hits = (result?.hits?.hits ?? []) as Json[];
  return (
    <div class="columns search-results">
      {/* On a phone the filters fold behind this button, so the results come first (site.css, site.js). */}
      <div class="facets-panel">
        <button type="button" class="filters-toggle secondary" aria-expanded="false" aria-controls="search-facets">
          Filters
        </button>
        <Facets state={state} aggregations={result?.aggregations ?? {}} />
      </div>
      <section aria-labelledby="results-heading">
        <div class="results-head">
          <h2 id="results-heading">{props.heading}</h2>
          {result ? (
            <p class="count" role="status">
              {countOf(total, props.noun)}
            </p>
          ) : null}
        </div>
        <SortAndSize state={state} sortOptions={props.sortOptions} sortBy={String(result?.sortBy ?? (state.sort || "newest"))} sizes={props.sizes} />
        {props.problem ? <ProblemNotice problem={props.problem} /> : null}
        {props.notice}
        {result && hits.length === 0 ? <p class="muted">{props.empty}</p> : null}
        {hits.map((hit) => props.card(hit))}
        {result ? <Pager state={state} total={total} maxWindow={props.maxWindow} /> : null}
      </section>
    </div>
  );
}
