// Public record search from the in-process columns (facet-cache.ts): for queries that are empty
// or one full-text condition, the matching keys come straight from FTS5 and everything else
// (visibility, facets, totals, the page) is counted in memory. Same rules as the SQL path in
// search.ts: the differential tests compare the two.
import { isAdmin, type Actor } from "../core/actor";
import type { Db } from "../db/connection";
import type { Columns } from "./facet-cache";
import { passes, type FacetGroup } from "./facets";

type Order = (a: number, b: number) => number;

/** Orders by column values, ties by key as the SQL sorts do; negative means `a` comes first. */
function orderOf(c: Columns, sort: string): Order {
  const desc = (col: Float64Array | Int32Array) => (a: number, b: number) => col[b]! - col[a]! || c.key[b]! - c.key[a]!;
  const asc = (col: Float64Array | Int32Array) => (a: number, b: number) => col[a]! - col[b]! || c.key[a]! - c.key[b]!;
  switch (sort) {
    case "oldest":
      return asc(c.created);
    case "updated-desc":
      return desc(c.updated);
    case "updated-asc":
      return asc(c.updated);
    case "version":
      return desc(c.version);
    case "mostviewed":
      return (a, b) => c.views[b]! - c.views[a]! || c.created[b]! - c.created[a]!;
    case "mostdownloaded":
      return (a, b) => c.downloads[b]! - c.downloads[a]! || c.created[b]! - c.created[a]!;
    default:
      return desc(c.created);
  }
}

/** The first `k` rows of `rows` by `order`, with a bounded max-heap: no sort of every match. */
function topK(rows: number[], k: number, order: Order): number[] {
  const heap: number[] = [];
  const worse = (i: number, j: number) => order(heap[i]!, heap[j]!) > 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  for (const row of rows) {
    if (heap.length < k) {
      heap.push(row);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (k > 0 && order(row, heap[0]!) < 0) {
      heap[0] = row;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && worse(l, m)) m = l;
        if (r < heap.length && worse(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  return heap.sort(order);
}

export interface FastResult {
  groups: FacetGroup[];
  /** Record ids of the page, or null when the page needs bm25 ranking (done in SQL). */
  page: string[] | null;
}

export function fastSearch(
  db: Db,
  c: Columns,
  actor: Actor,
  input: { ftsOnly: string | null; allversions: boolean; selected: Record<string, string[]>; sort: string; offset: number; size: number; rankInSql: (total: number) => boolean },
): FastResult {
  let candidates: Iterable<number>;
  if (input.ftsOnly !== null) {
    const keys = db.$client.query("SELECT rowid FROM record_fts WHERE record_fts MATCH ?").values(input.ftsOnly) as unknown as [number][];
    candidates = (function* () {
      for (const [key] of keys) {
        const row = key < c.pos.length ? c.pos[key]! : -1;
        if (row >= 0) yield row;
      }
    })();
  } else {
    candidates = (function* () {
      for (let i = 0; i < c.n; i++) yield i;
    })();
  }
  const admin = isAdmin(actor);
  const userId = actor.kind === "user" ? actor.userId : -2;
  const byGroup = new Map<number, { group: FacetGroup; pass: boolean }>();
  const selectedRows: number[] = [];
  const combos = c.langCombos.length;
  const types = c.typeNames.length;
  for (const i of candidates) {
    if (c.draft[i] || (!input.allversions && !c.latest[i])) continue;
    if (!admin && !c.isPublic[i] && c.owner[i] !== userId) continue;
    const code = ((c.access[i]! * types + c.parent[i]!) * types + c.type[i]!) * combos + c.langs[i]!;
    let entry = byGroup.get(code);
    if (!entry) {
      const group: FacetGroup = { draft: false, access: c.accessNames[c.access[i]!]!, parent: c.typeNames[c.parent[i]!]!, type: c.typeNames[c.type[i]!]!, languages: c.langCombos[c.langs[i]!]!, n: 0 };
      entry = { group, pass: passes(group, input.selected) };
      byGroup.set(code, entry);
    }
    entry.group.n++;
    if (entry.pass) selectedRows.push(i);
  }
  const groups = [...byGroup.values()].map((e) => e.group);
  if (input.rankInSql(selectedRows.length)) return { groups, page: null };
  const page = topK(selectedRows, input.offset + input.size, orderOf(c, input.sort)).slice(input.offset);
  return { groups, page: page.map((i) => c.recordId[i]!) };
}
