// Record facets: filters from query parameters (values of one facet OR-ed, facets AND-ed) and
// aggregations in the spec's shape. Counts are over the query without the facet filters, as
// InvenioRDM's post_filter does, so every option stays visible with its count.
import type { Db } from "../db/connection";
import type { VocabularyLookup } from "./metadata/check";

type Sql = { where: string; params: (string | number)[] };
type Bucket = { key: string; doc_count: number; label: string; is_selected: boolean; inner?: { buckets: Bucket[] } };

const ACCESS_LABELS: Record<string, string> = { open: "Open", embargoed: "Embargoed", restricted: "Restricted", "metadata-only": "Metadata-only" };

export const FACET_PARAMS = ["access_status", "resource_type", "language", "file_type"] as const;

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
  for (const [name, field] of [["language", "metadata.languages.id"], ["file_type", "files.types"]] as const) {
    if (!selected[name]) continue;
    parts.push(`r.key IN (SELECT key FROM record_terms WHERE field = ? AND value IN (${inList(selected[name]!)}))`);
    params.push(field, ...selected[name]!.map((v) => v.toLowerCase()));
  }
  return { where: parts.length ? parts.join(" AND ") : "1 = 1", params };
}

const facet = (label: string, buckets: Bucket[]) => ({ label, buckets, doc_count_error_upper_bound: 0, sum_other_doc_count: 0 });
const titleOf = (lookup: VocabularyLookup, type: string, id: string) => (lookup(type, id)?.title?.en as string | undefined) ?? id;

/** The aggregations of the records matching `base` (FROM record_index r). */
export function recordAggregations(db: Db, base: Sql, selected: Record<string, string[]>, lookup: VocabularyLookup) {
  const rows = <T>(sql: string, extra: (string | number)[] = []) => db.$client.query<T, (string | number)[]>(sql).all(...extra, ...base.params);
  const isSelected = (name: string, key: string) => (selected[name] ?? []).includes(key);

  const access = rows<{ k: string; n: number }>(`SELECT r.access_status AS k, count(*) AS n FROM record_index r WHERE ${base.where} GROUP BY 1 ORDER BY 2 DESC, 1`);
  const types = rows<{ p: string | null; k: string | null; n: number }>(
    `SELECT r.resource_type_parent AS p, r.resource_type AS k, count(*) AS n FROM record_index r WHERE ${base.where} AND r.resource_type IS NOT NULL GROUP BY 1, 2`,
  );
  const languages = rows<{ k: string; n: number }>(
    `SELECT t.value AS k, count(*) AS n FROM record_terms t JOIN record_index r ON r.key = t.key WHERE t.field = 'metadata.languages.id' AND ${base.where} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
  );

  const byParent = new Map<string, { n: number; inner: Bucket[] }>();
  for (const t of types) {
    const parent = t.p ?? t.k!;
    const entry = byParent.get(parent) ?? { n: 0, inner: [] };
    entry.n += t.n;
    if (t.k !== parent) entry.inner.push({ key: `${parent}::${t.k}`, doc_count: t.n, label: titleOf(lookup, "resourcetypes", t.k!), is_selected: isSelected("resource_type", `${parent}::${t.k}`) });
    byParent.set(parent, entry);
  }
  const typeBuckets = [...byParent]
    .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .map(([key, v]) => ({ key, doc_count: v.n, label: titleOf(lookup, "resourcetypes", key), is_selected: isSelected("resource_type", key), inner: { buckets: v.inner.sort((a, b) => b.doc_count - a.doc_count) } }));

  return {
    access_status: facet("Access status", access.map((a) => ({ key: a.k, doc_count: a.n, label: ACCESS_LABELS[a.k] ?? a.k, is_selected: isSelected("access_status", a.k) }))),
    resource_type: facet("Resource types", typeBuckets),
    language: facet("Languages", languages.map((l) => ({ key: l.k, doc_count: l.n, label: titleOf(lookup, "languages", l.k), is_selected: isSelected("language", l.k) }))),
    file_type: facet("File type", []),
  };
}
