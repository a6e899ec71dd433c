// What every engine's findRecords does around its own SQL: the sort chosen, the conditions a search
// counts and pages under (the caller's scope, versions, parent, community, query, facets), and the
// answer as FoundRecords.
import type { CompiledQuery } from "../../search/compile";
import { chooseSort } from "../../search/sorts";
import { scopeSql, type RecordScope } from "../policy";
import { facetFilter, listingFacets, selectedFacets, type FacetGroup, type FoundRecords } from "./facets";
import type { RecordSearchInput } from "./index";

export type Sql = { where: string; params: (string | number)[] };

/** A search's query text and the sort it uses (search/sorts.ts chooseSort). */
export function queryAndSortOf(input: RecordSearchInput): { q: string; sort: string } {
  const q = input.q?.trim() ?? "";
  return { q, sort: chooseSort({ options: input.sortOptions, requested: input.sort, hasQuery: q !== "", defaultSort: input.defaultSort }) };
}

/**
 * A search's conditions over record_index `r`: `base` (what the facets count), `filter` (`base` and
 * the selected facets: what the page holds) and the selected facets.
 */
export function searchConditions(scope: RecordScope, input: RecordSearchInput, compiled: Pick<CompiledQuery, "where" | "params">) {
  const visible = scopeSql(scope);
  const scoped: string[] = [visible.where];
  const scopedParams = [...visible.params];
  if (!input.allversions) scoped.push("r.is_latest = 1");
  if (input.parentId) {
    scoped.push("r.parent_id = ?");
    scopedParams.push(input.parentId);
  }
  if (input.communityId) {
    scoped.push("r.parent_id IN (SELECT parent_id FROM record_communities WHERE community_id = ?)");
    scopedParams.push(input.communityId);
  }
  const base: Sql = { where: `${scoped.join(" AND ")} AND (${compiled.where})`, params: [...scopedParams, ...compiled.params] };
  const selected = selectedFacets(input.query);
  const facets = facetFilter(selected);
  const filter: Sql = { where: `${base.where} AND ${facets.where}`, params: [...base.params, ...facets.params] };
  return { base, filter, selected };
}

/** A search's answer from the page's index rows, the total and the facet counts. */
export function foundRecords(
  hits: { record_id: string; is_draft: number }[],
  found: { total: number; sort: string; groups: FacetGroup[]; selected: Record<string, string[]> },
  scope: RecordScope,
  input: RecordSearchInput,
): FoundRecords {
  return {
    hits: hits.map((r) => ({ id: r.record_id, isDraft: r.is_draft === 1 })),
    total: found.total,
    sortBy: found.sort,
    groups: found.groups,
    facets: found.selected,
    shown: listingFacets(scope.kind === "own" || (scope.kind === "everything" && scope.drafts), input.facets),
  };
}
