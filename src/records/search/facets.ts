// Record facets, one entry each: its query parameter, its SQL filter, the same filter over a facet
// group, and its buckets. Values of one facet are OR-ed, facets AND-ed. Counts are over the query
// without the facet filters, as InvenioRDM's post_filter does, so every option stays visible.
import type { VocabularyLookup } from "../metadata/check";

type Sql = { where: string; params: (string | number)[] };
type Bucket = { key: string; doc_count: number; label: string; is_selected: boolean; inner?: { buckets: Bucket[] } };

/** Matching records counted by every facet dimension at once: one pass over the matches. */
export interface FacetGroup {
  draft: boolean;
  access: string;
  parent: string | null;
  type: string | null;
  languages: string[];
  fileTypes: string[];
  /** Ids of the communities the record's parent is included in. */
  communities: string[];
  n: number;
}

/**
 * Labels a search's caller may see, asked once per facet with every counted key: a key missing
 * from the answer is a bucket the caller must not see (a restricted community), dropped. Built per
 * search by the records service on the main thread (a reader worker returns only counts).
 */
export type FacetLabels = (kind: string, keys: string[]) => ReadonlyMap<string, string> | Promise<ReadonlyMap<string, string>>;

/** The caller's labels once read (see `callerLabels`): the buckets are built synchronously. */
type ReadLabels = (kind: string, keys: string[]) => ReadonlyMap<string, string>;

/** A comma-joined index column (languages, file types) as its values. */
export const splitList = (joined: string): string[] => (joined ? joined.split(",") : []);

interface Facet {
  /** The query parameter, also the aggregation's name. */
  param: string;
  label: string;
  /** Only in the owner's listing (`/api/user/records`). */
  ownListingOnly?: boolean;
  /** The selected values as a condition on record_index `r`. */
  sql(values: string[]): Sql;
  /** The same rule over a facet group. */
  passes(g: FacetGroup, values: string[]): boolean;
  /** The buckets, from the grouped counts; `tally` counts groups by the keys a function gives. */
  buckets(tally: Tally, isSelected: (key: string) => boolean, lookup: VocabularyLookup, labels?: ReadLabels): Bucket[];
}

type Tally = (keyOf: (g: FacetGroup) => (string | null)[]) => [string, number][];

const inList = (values: unknown[]) => values.map(() => "?").join(", ");
const titleOf = (lookup: VocabularyLookup, type: string, id: string) => (lookup(type, id)?.title?.en as string | undefined) ?? id;
const ACCESS_LABELS: Record<string, string> = { open: "Open", embargoed: "Embargoed", restricted: "Restricted", "metadata-only": "Metadata-only" };

/** Labels of a list facet's keys: given every counted key, the label of one, or null to drop its bucket. */
type ListLabels = (keys: string[], lookup: VocabularyLookup, labels: ReadLabels | undefined) => (key: string) => string | null;

/** A facet over a multi-valued keyword field of record_terms (values stored lower-cased); the ten largest shown buckets. */
function listFacet(param: string, label: string, field: string, valuesOf: (g: FacetGroup) => string[], labelsOf: ListLabels): Facet {
  return {
    param,
    label,
    sql: (values) => ({
      where: `r.key IN (SELECT key FROM record_terms WHERE field = ? AND value IN (${inList(values)}))`,
      params: [field, ...values.map((v) => v.toLowerCase())],
    }),
    passes: (g, values) => values.some((v) => valuesOf(g).includes(v.toLowerCase())),
    buckets: (tally, isSelected, lookup, labels) => {
      const counted = tally(valuesOf);
      const labelOf = labelsOf(
        counted.map(([key]) => key),
        lookup,
        labels,
      );
      return counted
        .flatMap(([key, n]) => {
          const shown = labelOf(key);
          return shown === null ? [] : [{ key, doc_count: n, label: shown, is_selected: isSelected(key) }];
        })
        .slice(0, 10);
    },
  };
}

export const RECORD_FACETS: Facet[] = [
  {
    param: "access_status",
    label: "Access status",
    sql: (values) => ({ where: `r.access_status IN (${inList(values)})`, params: values }),
    passes: (g, values) => values.includes(g.access),
    buckets: (tally, isSelected) => tally((g) => [g.access]).map(([key, n]) => ({ key, doc_count: n, label: ACCESS_LABELS[key] ?? key, is_selected: isSelected(key) })),
  },
  {
    // `image` selects the whole type, `image::image-photo` one subtype.
    param: "resource_type",
    label: "Resource types",
    sql: (values) => ({
      where: `(${values.map((v) => (v.includes("::") ? "r.resource_type = ?" : "r.resource_type_parent = ?")).join(" OR ")})`,
      params: values.map((v) => v.split("::").pop()!),
    }),
    passes: (g, values) => values.some((v) => (v.includes("::") ? v.split("::").pop() === g.type : v === g.parent)),
    buckets: (tally, isSelected, lookup) =>
      tally((g) => [g.parent ?? g.type]).map(([key, n]) => ({
        key,
        doc_count: n,
        label: titleOf(lookup, "resourcetypes", key),
        is_selected: isSelected(key),
        inner: {
          buckets: tally((g) => ((g.parent ?? g.type) === key && g.type !== key ? [g.type] : [])).map(([sub, m]) => ({
            key: `${key}::${sub}`,
            doc_count: m,
            label: titleOf(lookup, "resourcetypes", sub),
            is_selected: isSelected(`${key}::${sub}`),
          })),
        },
      })),
  },
  listFacet(
    "language",
    "Languages",
    "metadata.languages.id",
    (g) => g.languages,
    (_keys, lookup) => (key) => titleOf(lookup, "languages", key),
  ),
  listFacet(
    "file_type",
    "File type",
    "files.types",
    (g) => g.fileTypes,
    () => (key) => key.toUpperCase(),
  ),
  // Labelled by the community's title; a community the caller may not read has no label, no bucket.
  listFacet(
    "communities",
    "Communities",
    "parent.communities.ids",
    (g) => g.communities,
    (keys, _lookup, labels) => {
      const titles = labels?.("communities", keys) ?? new Map<string, string>();
      return (key) => titles.get(key) ?? null;
    },
  ),
  {
    param: "is_published",
    label: "Status",
    ownListingOnly: true,
    sql: (values) => {
      const wanted = [...new Set(values.map((v) => (v === "true" ? 0 : 1)))];
      return { where: `r.is_draft IN (${inList(wanted)})`, params: wanted };
    },
    passes: (g, values) => values.includes(g.draft ? "false" : "true"),
    buckets: (tally, isSelected) =>
      tally((g) => [g.draft ? "false" : "true"]).map(([key, n]) => ({ key, doc_count: n, label: key === "true" ? "Published" : "Unpublished", is_selected: isSelected(key) })),
  },
];

/** Selected values per facet, from repeated or comma-separated parameters. */
export function selectedFacets(query: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { param } of RECORD_FACETS) {
    const raw = query[param];
    const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
      .flatMap((v) => String(v).split(","))
      .map((v) => v.trim())
      .filter(Boolean);
    if (values.length) out[param] = values;
  }
  return out;
}

/** A communities facet value no community has: stands in for one the caller may not read. */
const UNREADABLE_COMMUNITY = "unreadable";

/**
 * The query with every `communities` value the caller may not read (`readable` answers the ids it
 * may) replaced by one no record has, so a total tells nothing of what a restricted community
 * holds; `asked` is the selection as given (lower-cased, as ids are), for the links.
 */
export async function withReadableCommunities(query: Record<string, unknown>, readable: (ids: string[]) => Promise<ReadonlyMap<string, string>>) {
  const asked = (selectedFacets(query).communities ?? []).map((id) => id.toLowerCase());
  if (asked.length === 0) return { query, asked };
  const known = await readable(asked);
  return { query: { ...query, communities: asked.map((id) => (known.has(id) ? id : UNREADABLE_COMMUNITY)) }, asked };
}

/** SQL for the selected facet values; `r` is record_index. */
export function facetFilter(selected: Record<string, string[]>): Sql {
  const parts = RECORD_FACETS.filter((f) => selected[f.param]).map((f) => f.sql(selected[f.param]!));
  return { where: parts.length ? parts.map((p) => p.where).join(" AND ") : "1 = 1", params: parts.flatMap((p) => p.params) };
}

/** Whether a group passes the selected facet values (the same rule as facetFilter's SQL). */
export const passes = (g: FacetGroup, selected: Record<string, string[]>): boolean => RECORD_FACETS.every((f) => !selected[f.param] || f.passes(g, selected[f.param]!));

/** Hits after the facet filters, from the grouped counts (no second pass). */
export const totalOf = (groups: FacetGroup[], selected: Record<string, string[]>) => groups.filter((g) => passes(g, selected)).reduce((sum, g) => sum + g.n, 0);

/** The facets a listing aggregates: all but the owner-only ones (unless `own`), limited to `only` when given. */
export const listingFacets = (own: boolean, only?: string[]): string[] =>
  RECORD_FACETS.filter((f) => (own || !f.ownListingOnly) && (!only || only.includes(f.param))).map((f) => f.param);

/** The aggregations of the `shown` facets: counts over the query without the facet filters (InvenioRDM's post_filter). */
export function aggregationsOf(groups: FacetGroup[], selected: Record<string, string[]>, lookup: VocabularyLookup, shown: string[], labels?: ReadLabels) {
  const tally: Tally = (keyOf) => {
    const counts = new Map<string, number>();
    for (const g of groups) for (const k of keyOf(g)) if (k) counts.set(k, (counts.get(k) ?? 0) + g.n);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  };
  return Object.fromEntries(
    RECORD_FACETS.filter((f) => shown.includes(f.param)).map((f) => [
      f.param,
      { label: f.label, buckets: f.buckets(tally, (key) => (selected[f.param] ?? []).includes(key), lookup, labels), doc_count_error_upper_bound: 0, sum_other_doc_count: 0 },
    ]),
  );
}

/** What a search found, before its facet counts are turned into aggregations (which need the vocabularies). */
export interface FoundRecords {
  hits: { id: string; isDraft: boolean }[];
  total: number;
  sortBy: string;
  /** Matches counted by facet combination, before the facet filters. */
  groups: FacetGroup[];
  /** The selected facet values. */
  facets: Record<string, string[]>;
  /** The facets the listing aggregates. */
  shown: string[];
}

/** A vocabulary entry by type and id as the vocabularies service answers it (it may read the database). */
export type EntryLookup = (type: string, id: string) => ReturnType<VocabularyLookup> | Promise<ReturnType<VocabularyLookup>>;

/**
 * The vocabulary entries the aggregations of `found` name (resource types and their subtypes,
 * languages), read before the buckets are built, as a lookup that answers at once: few keys per
 * search, and the bucket building stays synchronous.
 */
export async function vocabularyLabels(found: FoundRecords, lookup: EntryLookup): Promise<VocabularyLookup> {
  const wanted = new Map<string, [string, string]>();
  const want = (type: string, id: string | null) => {
    if (id) wanted.set(`${type}\u0000${id}`, [type, id]);
  };
  const types = found.shown.includes("resource_type");
  const languages = found.shown.includes("language");
  for (const g of found.groups) {
    if (types) {
      want("resourcetypes", g.parent ?? g.type);
      want("resourcetypes", g.type);
    }
    if (languages) for (const id of g.languages) want("languages", id);
  }
  const entries = new Map(await Promise.all([...wanted].map(async ([key, [type, id]]) => [key, await lookup(type, id)] as const)));
  return (type, id) => entries.get(`${type}\u0000${id}`);
}

/** The caller's labels of every community `found` counts, read before the buckets are built. */
async function callerLabels(found: FoundRecords, labels?: FacetLabels): Promise<ReadLabels | undefined> {
  if (!labels || !found.shown.includes("communities")) return undefined;
  const titles = await labels("communities", [...new Set(found.groups.flatMap((g) => g.communities))]);
  return (kind) => (kind === "communities" ? titles : new Map());
}

/** The search with its aggregations, as the API answers it; `labels` (the caller's) on the main thread, after the search. */
export const withAggregations = async (found: FoundRecords, lookup: VocabularyLookup, labels?: FacetLabels) => {
  const { groups, shown, ...rest } = found;
  return { ...rest, aggregations: aggregationsOf(groups, found.facets, lookup, shown, await callerLabels(found, labels)) };
};
