// Record facets: filters from query parameters (values of one facet OR-ed, facets AND-ed) and
// aggregations in the spec's shape. Counts are over the query without the facet filters, as
// InvenioRDM's post_filter does, so every option stays visible with its count.
import type { Db } from "../db/connection";
import type { VocabularyLookup } from "./metadata/check";

type Sql = { where: string; params: (string | number)[] };
type Bucket = { key: string; doc_count: number; label: string; is_selected: boolean; inner?: { buckets: Bucket[] } };

const ACCESS_LABELS: Record<string, string> = { open: "Open", embargoed: "Embargoed", restricted: "Restricted", "metadata-only": "Metadata-only" };

export const FACET_PARAMS = ["access_status", "resource_type", "language", "file_type", "is_published"] as const;

/** Selected values per facet, from repeated or comma-separated parameters. */
export function selectedFacets(query: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of FACET_PARAMS) {
    const raw = query[name];
    const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) => String(v).split(",")).map((v) => v.trim()).filter(Boolean);
    if (values.length) out[name] = values;
  }
  return out;
}

/** SQL for the selected facet values; `r` is record_index. */
export function facetFilter(selected: Record<string, string[]>): Sql {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  const inList = (values: string[]) => values.map(() => "?").join(", ");
  if (selected.access_status) {
    parts.push(`r.access_status IN (${inList(selected.access_status)})`);
    params.push(...selected.access_status);
  }
  if (selected.resource_type) {
    // `image` selects the whole type, `image::image-photo` one subtype.
    const ors = selected.resource_type.map((v) => (v.includes("::") ? "r.resource_type = ?" : "r.resource_type_parent = ?"));
    parts.push(`(${ors.join(" OR ")})`);
    params.push(...selected.resource_type.map((v) => v.split("::").pop()!));
  }
  if (selected.is_published) {
    const wanted = [...new Set(selected.is_published.map((v) => (v === "true" ? 0 : 1)))];
    parts.push(`r.is_draft IN (${inList(wanted.map(String))})`);
    params.push(...wanted);
  }
  for (const [name, field] of [["language", "metadata.languages.id"], ["file_type", "files.types"]] as const) {
    if (!selected[name]) continue;
    parts.push(`r.key IN (SELECT key FROM record_terms WHERE field = ? AND value IN (${inList(selected[name]!)}))`);
    params.push(field, ...selected[name]!.map((v) => v.toLowerCase()));
  }
  return { where: parts.length ? parts.join(" AND ") : "1 = 1", params };
}

const facet = (label: string, buckets: Bucket[]) => ({ label, buckets, doc_count_error_upper_bound: 0, sum_other_doc_count: 0 });
const titleOf = (lookup: VocabularyLookup, type: string, id: string) => (lookup(type, id)?.title?.en as string | undefined) ?? id;

/** Matching records counted by every facet dimension at once: one pass over the matches. */
export interface FacetGroup {
  draft: boolean;
  access: string;
  parent: string | null;
  type: string | null;
  languages: string[];
  fileTypes: string[];
  n: number;
}

/** A comma-joined index column (languages, file types) as its values. */
export const splitList = (joined: string): string[] => (joined ? joined.split(",") : []);

export function groupedCounts(db: Db, base: Sql): FacetGroup[] {
  return db.$client
    .query<{ d: number; a: string; p: string | null; t: string | null; l: string; f: string; n: number }, (string | number)[]>(
      `SELECT r.is_draft AS d, r.access_status AS a, r.resource_type_parent AS p, r.resource_type AS t, r.languages AS l, r.file_types AS f, count(*) AS n FROM record_index r WHERE ${base.where} GROUP BY 1, 2, 3, 4, 5, 6`,
    )
    .all(...base.params)
    .map((g) => ({ draft: g.d === 1, access: g.a, parent: g.p, type: g.t, languages: splitList(g.l), fileTypes: splitList(g.f), n: g.n }));
}

/** Whether a group passes the selected facet values (the same rule as facetFilter's SQL). */
export function passes(g: FacetGroup, selected: Record<string, string[]>, except?: string): boolean {
  if (except !== "access_status" && selected.access_status && !selected.access_status.includes(g.access)) return false;
  if (except !== "resource_type" && selected.resource_type) {
    const hit = selected.resource_type.some((v) => (v.includes("::") ? v.split("::").pop() === g.type : v === g.parent));
    if (!hit) return false;
  }
  if (except !== "language" && selected.language && !selected.language.some((l) => g.languages.includes(l.toLowerCase()))) return false;
  if (except !== "is_published" && selected.is_published && !selected.is_published.includes(g.draft ? "false" : "true")) return false;
  if (except !== "file_type" && selected.file_type && !selected.file_type.some((f) => g.fileTypes.includes(f.toLowerCase()))) return false;
  return true;
}

/** Hits after the facet filters, from the grouped counts (no second pass). */
export const totalOf = (groups: FacetGroup[], selected: Record<string, string[]>) => groups.filter((g) => passes(g, selected)).reduce((sum, g) => sum + g.n, 0);

/** The aggregations: counts over the query without the facet filters (InvenioRDM's post_filter). */
export function aggregationsOf(groups: FacetGroup[], selected: Record<string, string[]>, lookup: VocabularyLookup, withPublished = false) {
  const isSelected = (name: string, key: string) => (selected[name] ?? []).includes(key);
  const tally = (keyOf: (g: FacetGroup) => (string | null)[]) => {
    const counts = new Map<string, number>();
    for (const g of groups) for (const k of keyOf(g)) if (k) counts.set(k, (counts.get(k) ?? 0) + g.n);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  };

  const typeBuckets = tally((g) => [g.parent ?? g.type]).map(([key, n]) => ({
    key,
    doc_count: n,
    label: titleOf(lookup, "resourcetypes", key),
    is_selected: isSelected("resource_type", key),
    inner: {
      buckets: tally((g) => ((g.parent ?? g.type) === key && g.type !== key ? [g.type] : [])).map(([sub, m]) => ({
        key: `${key}::${sub}`,
        doc_count: m,
        label: titleOf(lookup, "resourcetypes", sub),
        is_selected: isSelected("resource_type", `${key}::${sub}`),
      })),
    },
  }));

  return {
    access_status: facet("Access status", tally((g) => [g.access]).map(([key, n]) => ({ key, doc_count: n, label: ACCESS_LABELS[key] ?? key, is_selected: isSelected("access_status", key) }))),
    resource_type: facet("Resource types", typeBuckets),
    language: facet("Languages", tally((g) => g.languages).slice(0, 10).map(([key, n]) => ({ key, doc_count: n, label: titleOf(lookup, "languages", key), is_selected: isSelected("language", key) }))),
    file_type: facet("File type", tally((g) => g.fileTypes).slice(0, 10).map(([key, n]) => ({ key, doc_count: n, label: key.toUpperCase(), is_selected: isSelected("file_type", key) }))),
    ...(withPublished
      ? {
          is_published: facet(
            "Status",
            tally((g) => [g.draft ? "false" : "true"]).map(([key, n]) => ({ key, doc_count: n, label: key === "true" ? "Published" : "Unpublished", is_selected: isSelected("is_published", key) })),
          ),
        }
      : {}),
  };
}
