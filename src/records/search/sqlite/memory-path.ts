// The in-memory search path over the column copy (column-copy.ts): the matching keys come from
// FTS5 (or the copy's match cache) and everything else (visibility, facets, totals, the page) is
// counted in memory. Same rules as the SQL path (sql-path.ts): the conformance suite compares them.
import type { SqliteDb } from "../../../db/sqlite/connection";
import type { Bound } from "../../../search/bounds";
import type { CachedMatch, Columns } from "./column-copy";
import { passes, type FacetGroup } from "../facets";
import { sortOf, type RowOrder } from "../sorts";

type Order = RowOrder;

/**
 * The first `k` rows of `rows` by `order`, with a bounded max-heap: no sort of every match.
 * `fromEnd` walks the rows backwards: rows are in key (insertion) order, so for the newest-first
 * sorts the best rows come first and the rest are rejected by one comparison each.
 */
function topK(rows: ArrayLike<number>, k: number, order: Order, fromEnd: boolean): number[] {
  const heap: number[] = [];
  const worse = (i: number, j: number) => order(heap[i]!, heap[j]!) > 0;
  const swap = (i: number, j: number) => {
    const t = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = t;
  };
  for (let m = 0; m < rows.length; m++) {
    const row = rows[fromEnd ? rows.length - 1 - m : m]!;
    if (heap.length < k) {
      heap.push(row);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (k > 0 && order(row, heap[0]!) < 0) {
      heap[0] = row;
      for (let i = 0; ;) {
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

/** Memory the match cache may hold, all entries together. */
const MATCH_CACHE_BYTES = 32 * 1024 * 1024;

/** Dense match sets are kept as bitsets: at a million records a common word costs 125 KB, not 4 MB. */
function toCached(rows: Int32Array, n: number): CachedMatch {
  if (rows.length * 32 < n) return { rows, bytes: rows.byteLength };
  const bits = new Uint32Array((n + 31) >>> 5);
  for (const i of rows) bits[i >>> 5]! |= 1 << (i & 31);
  return { bits, count: rows.length, bytes: bits.byteLength };
}

/** The rows in ascending order (FTS5 gives rowids ascending; row positions follow key order). */
function fromCached(m: CachedMatch): Int32Array {
  if ("rows" in m) return m.rows;
  const rows = new Int32Array(m.count);
  let n = 0;
  for (let w = 0; w < m.bits.length; w++) {
    let word = m.bits[w]!;
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      rows[n++] = (w << 5) | bit;
      word &= word - 1;
    }
  }
  return rows;
}

/**
 * Rows matching a full-text condition, from the copy's cache or from FTS5 (then cached): the
 * first search of a word found in most records reads a million rowids; repeats read none.
 */
function matchingRows(db: SqliteDb, c: Columns, match: string): Int32Array {
  const cached = c.matches.get(match);
  if (cached) {
    c.matches.delete(match);
    c.matches.set(match, cached);
    return fromCached(cached);
  }
  const rows = readMatchingRows(db, c, match);
  c.matches.set(match, toCached(rows, c.n));
  let held = 0;
  for (const m of c.matches.values()) held += m.bytes;
  for (const [key, m] of c.matches) {
    if (held <= MATCH_CACHE_BYTES || key === match) break;
    c.matches.delete(key);
    held -= m.bytes;
  }
  return rows;
}

/** A full-text condition: one FTS5 expression, or an AND / OR of such (see plan.ts). */
export type MatchPlan = { match: string } | { op: "and" | "or"; parts: MatchPlan[] };

/** Rows of a plan, ascending: leaves from the cache or FTS5, combined by marking rows. */
function planRows(db: SqliteDb, c: Columns, plan: MatchPlan): Int32Array {
  if ("match" in plan) return matchingRows(db, c, plan.match);
  const sets = plan.parts.map((p) => planRows(db, c, p));
  const marks = new Uint16Array(c.n);
  for (const rows of sets) for (const r of rows) marks[r]!++;
  const need = plan.op === "and" ? sets.length : 1;
  let n = 0;
  for (let i = 0; i < c.n; i++) if (marks[i]! >= need) n++;
  const out = new Int32Array(n);
  n = 0;
  for (let i = 0; i < c.n; i++) if (marks[i]! >= need) out[n++] = i;
  return out;
}

/** Rows of the records matching a full-text condition: keys read in one string, not a row object each. */
function readMatchingRows(db: SqliteDb, c: Columns, match: string): Int32Array {
  const joined = (db.$client.query("SELECT group_concat(rowid) AS keys FROM record_fts WHERE record_fts MATCH ?").get(match) as { keys: string | null }).keys ?? "";
  const rows = new Int32Array(joined.length ? joined.length / 2 + 1 : 0);
  let n = 0;
  let key = -1;
  for (let i = 0; i <= joined.length; i++) {
    const ch = i < joined.length ? joined.charCodeAt(i) : 44;
    if (ch === 44) {
      const row = key >= 0 && key < c.pos.length ? c.pos[key]! : -1;
      if (row >= 0) rows[n++] = row;
      key = -1;
    } else key = (key < 0 ? 0 : key * 10) + ch - 48;
  }
  return rows.subarray(0, n);
}

/** The facet combination behind a code, as the SQL path groups it. */
const groupOf = (c: Columns, code: number, n: number): FacetGroup => ({ ...c.groups[code]!, n });

export interface FastResult {
  groups: FacetGroup[];
  /** record_index keys of the page, or null when the page needs bm25 ranking (done in SQL). */
  page: number[] | null;
}

/** Which publication dates pass every range (SQL's comparisons: NULL fails, text compares by code unit). */
function allowedDates(c: Columns, ranges: Bound[][]): Uint8Array {
  const ok = new Uint8Array(c.dates.length);
  c.dates.forEach((value, code) => {
    ok[code] = ranges.every((limits) =>
      value === null
        ? false
        : limits.every(([op, bound]) => (op === "=" ? value === bound : op === ">=" ? value >= bound : op === ">" ? value > bound : op === "<=" ? value <= bound : value < bound)),
    )
      ? 1
      : 0;
  });
  return ok;
}

export interface MemorySearch {
  match: MatchPlan | null;
  dateRanges: Bound[][];
  allversions: boolean;
  /** The caller's scope over the columns (records/policy.ts scopePredicate). */
  visible: (row: number) => boolean;
  selected: Record<string, string[]>;
  sort: string;
  offset: number;
  size: number;
  rankInSql: (total: number) => boolean;
}

export function memorySearch(db: SqliteDb, c: Columns, input: MemorySearch): FastResult {
  const rows = input.match !== null ? planRows(db, c, input.match) : null;
  const count = rows ? rows.length : c.n;
  const visible = input.visible;
  // Counts by facet combination, and whether each combination passes the selection.
  const counts = new Int32Array(c.groups.length);
  const verdict = new Int8Array(counts.length); // 0 unknown, 1 passes, -1 filtered out
  const selectedRows = new Int32Array(count);
  const dateOk = input.dateRanges.length ? allowedDates(c, input.dateRanges) : null;
  let picked = 0;
  for (let j = 0; j < count; j++) {
    const i = rows ? rows[j]! : j;
    if (!input.allversions && !c.latest[i]) continue;
    if (!visible(i)) continue;
    if (dateOk && !dateOk[c.pubDate[i]!]) continue;
    const code = c.group[i]!;
    counts[code]!++;
    if (verdict[code] === 0) verdict[code] = passes(groupOf(c, code, 0), input.selected) ? 1 : -1;
    if (verdict[code] === 1) selectedRows[picked++] = i;
  }
  const groups: FacetGroup[] = [];
  counts.forEach((n, code) => {
    if (n > 0) groups.push(groupOf(c, code, n));
  });
  if (input.rankInSql(picked)) return { groups, page: null };
  const sort = sortOf(input.sort);
  const page = topK(selectedRows.subarray(0, picked), input.offset + input.size, sort.order(c), sort.newestFirst).slice(input.offset);
  return { groups, page: page.map((i) => c.key[i]!) };
}
