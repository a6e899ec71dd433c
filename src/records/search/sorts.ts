// Record sorts: one entry each, carrying its SQL ordering and the same ordering over the in-memory
// columns, so a sort is added in one place and both search paths order alike.
export interface SortColumns {
  key: Int32Array;
  created: Float64Array;
  updated: Float64Array;
  version: Int32Array;
  views: Float64Array;
  downloads: Float64Array;
}

/** Negative when row `a` comes first. */
export type RowOrder = (a: number, b: number) => number;

export interface RecordSort {
  /** ORDER BY over record_index `r`. */
  sql: string;
  /** The same order over rows of the in-memory columns (ties broken as the SQL breaks them). */
  order(c: SortColumns): RowOrder;
  /** Whether its best rows are usually the most recently inserted (the in-memory top-k walks from the end). */
  newestFirst: boolean;
}

// Each order reads its columns once, outside the comparison: the top-k calls it once per match.
const desc =
  (col: keyof SortColumns) =>
  (c: SortColumns): RowOrder => {
    const v = c[col];
    const k = c.key;
    return (a, b) => v[b]! - v[a]! || k[b]! - k[a]!;
  };
const asc =
  (col: keyof SortColumns) =>
  (c: SortColumns): RowOrder => {
    const v = c[col];
    const k = c.key;
    return (a, b) => v[a]! - v[b]! || k[a]! - k[b]!;
  };
const popular =
  (col: "views" | "downloads") =>
  (c: SortColumns): RowOrder => {
    const v = c[col];
    const created = c.created;
    return (a, b) => v[b]! - v[a]! || created[b]! - created[a]!;
  };

const newest: RecordSort = { sql: "r.created DESC, r.key DESC", order: desc("created"), newestFirst: true };

export const RECORD_SORTS: Record<string, RecordSort> = {
  // bestmatch ranks with bm25 in SQL (see search.ts); where it does not rank, newest orders.
  bestmatch: newest,
  newest,
  oldest: { sql: "r.created ASC, r.key ASC", order: asc("created"), newestFirst: false },
  "updated-desc": { sql: "r.updated DESC, r.key DESC", order: desc("updated"), newestFirst: true },
  "updated-asc": { sql: "r.updated ASC, r.key ASC", order: asc("updated"), newestFirst: false },
  version: { sql: "r.version_index DESC, r.key DESC", order: desc("version"), newestFirst: true },
  mostviewed: { sql: "r.views DESC, r.created DESC", order: popular("views"), newestFirst: true },
  mostdownloaded: { sql: "r.downloads DESC, r.created DESC", order: popular("downloads"), newestFirst: true },
};

export const sortOf = (name: string): RecordSort => (Object.hasOwn(RECORD_SORTS, name) ? RECORD_SORTS[name]! : newest);
