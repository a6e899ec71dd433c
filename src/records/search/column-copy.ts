// A column copy of the records index: record_index's visibility, facet and sort columns as typed
// arrays, plus a cache of the rows recent full-text conditions matched. A query that matches most
// records counts its facets and picks its page without touching a row per match (SQLite needs
// ~1 µs per matching row; 100,000 matches made every search ~100 ms). The copy is rebuilt from
// the table when it is stale; until then searches take the SQL path.
import type { Db } from "../../db/connection";
import { isPublicRecord } from "../policy";
import { splitList, type FacetGroup } from "./facets";

export interface Columns {
  n: number;
  /** Row of a record_index key, or -1. */
  pos: Int32Array;
  key: Int32Array;
  latest: Uint8Array;
  draft: Uint8Array;
  deleted: Uint8Array;
  isPublic: Uint8Array;
  owner: Int32Array;
  /** The row's facet combination (access status, resource type, languages, file types, communities), a code into `groups`. */
  group: Int32Array;
  created: Float64Array;
  updated: Float64Array;
  version: Int32Array;
  views: Float64Array;
  downloads: Float64Array;
  /** publication_date as a code into `dates` (few distinct values, so a dictionary keeps it small). */
  pubDate: Int32Array;
  dates: (string | null)[];
  /** Code -> facet combination, as the SQL path groups them: only combinations that occur get a code. */
  groups: Omit<FacetGroup, "n">[];
  /** Rows matching recent full-text conditions (least recently used first); dropped with the copy. */
  matches: Map<string, CachedMatch>;
}

/** Rows matching a full-text condition: a list when few, a bitset over the rows when many (32 times smaller). */
export type CachedMatch = { rows: Int32Array; bytes: number } | { bits: Uint32Array; count: number; bytes: number };

/** Commits by other connections to this database: the changes `PRAGMA data_version` counts. */
export const dataVersion = (db: Db) => (db.$client.query("PRAGMA data_version").get() as { data_version: number }).data_version;

/** Time between rebuilds: under a stream of writes, searches use SQL rather than rebuild per write. */
const REBUILD_INTERVAL_MS = 5000;

function dictionary<T>() {
  const codes = new Map<T, number>();
  const names: T[] = [];
  return {
    names,
    code(value: T) {
      let c = codes.get(value);
      if (c === undefined) {
        c = names.length;
        codes.set(value, c);
        names.push(value);
      }
      return c;
    },
  };
}

function load(db: Db): Columns {
  type Row = [
    number,
    string | null,
    number,
    number,
    string,
    number | null,
    string,
    string | null,
    string | null,
    string,
    number,
    number,
    number,
    number,
    number,
    string,
    string,
    number,
  ];
  const rows = db.$client
    .query(
      "SELECT key, publication_date, is_latest, is_draft, access_record, owner_id, access_status, resource_type_parent, resource_type, languages, created, updated, version_index, views, downloads, file_types, communities, deleted FROM record_index",
    )
    .values() as unknown as Row[];
  const n = rows.length;
  let maxKey = 0;
  for (const r of rows) if (r[0] > maxKey) maxKey = r[0];
  const groups = dictionary<string>();
  const rowOfGroup: Row[] = [];
  const dates = dictionary<string | null>();
  const c: Columns = {
    n,
    pos: new Int32Array(maxKey + 1).fill(-1),
    key: new Int32Array(n),
    latest: new Uint8Array(n),
    draft: new Uint8Array(n),
    deleted: new Uint8Array(n),
    isPublic: new Uint8Array(n),
    owner: new Int32Array(n),
    group: new Int32Array(n),
    created: new Float64Array(n),
    updated: new Float64Array(n),
    version: new Int32Array(n),
    views: new Float64Array(n),
    downloads: new Float64Array(n),
    pubDate: new Int32Array(n),
    dates: dates.names,
    groups: [],
    matches: new Map(),
  };
  rows.forEach((r, i) => {
    c.pos[r[0]] = i;
    c.key[i] = r[0];
    c.pubDate[i] = dates.code(r[1]);
    c.latest[i] = r[2];
    c.draft[i] = r[3];
    c.deleted[i] = r[17];
    c.isPublic[i] = isPublicRecord({ accessRecord: r[4] }) ? 1 : 0;
    c.owner[i] = r[5] ?? -1;
    const group = groups.code(`${r[6]}\u0000${r[7]}\u0000${r[8]}\u0000${r[9]}\u0000${r[15]}\u0000${r[16]}`);
    if (group === rowOfGroup.length) rowOfGroup.push(r);
    c.group[i] = group;
    c.created[i] = r[10];
    c.updated[i] = r[11];
    c.version[i] = r[12];
    c.views[i] = r[13];
    c.downloads[i] = r[14];
  });
  c.groups = rowOfGroup.map((r) => ({
    draft: false,
    access: r[6],
    parent: r[7],
    type: r[8],
    languages: splitList(r[9]),
    fileTypes: splitList(r[15]),
    communities: splitList(r[16]),
  }));
  return c;
}

/**
 * The copy of `db`'s index. `stamp()` names the state of the index the copy must match: the
 * search module's count of its own index writes plus `PRAGMA data_version` (commits by other
 * connections); in a reader worker, the same pair as the server's connection sees it.
 */
export function createColumnCopy(db: Db, stamp: () => string) {
  let columns: Columns | null = null;
  let seen = "";
  let builtAt = -Infinity;

  return {
    /** The columns when current (rebuilding them if allowed now), else null: use SQL. */
    current(): Columns | null {
      if (columns && stamp() === seen) return columns;
      if (performance.now() - builtAt < REBUILD_INTERVAL_MS) return null;
      this.refresh();
      return columns;
    },

    /**
     * Statistics moved a row's popularity: the copy follows in place, and stays current (a rebuild
     * per aggregation would cost more than the sort). Call right after the matching index update.
     */
    setPopularity(key: number, views: number, downloads: number) {
      const row = columns && key < columns.pos.length ? columns.pos[key]! : -1;
      if (row < 0 || !columns) return;
      columns.views[row] = views;
      columns.downloads[row] = downloads;
    },

    /** Rebuilds now (tests, and the rebuild the interval allows). */
    refresh() {
      seen = stamp();
      columns = load(db);
      builtAt = performance.now();
    },
  };
}

export type ColumnCopy = ReturnType<typeof createColumnCopy>;
