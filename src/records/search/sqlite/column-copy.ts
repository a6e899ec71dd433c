// A column copy of the records index: record_index's visibility, facet and sort columns as typed
// arrays, plus a cache of the rows recent full-text conditions matched. A query that matches most
// records counts its facets and picks its page without touching a row per match (SQLite needs
// ~1 µs per matching row; 100,000 matches made every search ~100 ms). The copy follows the index's
// change log, re-reading the rows each write touched; when it cannot (too far behind, a rebuild)
// it is rebuilt from the table, and until then searches take the SQL path.
import type { SqliteDb } from "../../../db/sqlite/connection";
import { isPublicRecord } from "../../policy";
import { splitList, type FacetGroup } from "../facets";
import { changedSince, lastIndexChange } from "./change-log";

export interface Columns {
  /** Rows in use (the arrays have room for more: patches append). */
  n: number;
  /** Rows patches marked deleted because their index row went (a rewrite gives a record a new key). */
  gone: number;
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

/** Time between rebuilds: under a stream of writes, searches use SQL rather than rebuild per write. */
const REBUILD_INTERVAL_MS = 5000;

const COLUMNS =
  "key, publication_date, is_latest, is_draft, access_record, owner_id, access_status, resource_type_parent, resource_type, languages, created, updated, version_index, views, downloads, file_types, communities, deleted";
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

/** The per-row columns of `Columns` and their array types. */
const ROW_ARRAYS = {
  key: Int32Array,
  latest: Uint8Array,
  draft: Uint8Array,
  deleted: Uint8Array,
  isPublic: Uint8Array,
  owner: Int32Array,
  group: Int32Array,
  created: Float64Array,
  updated: Float64Array,
  version: Int32Array,
  views: Float64Array,
  downloads: Float64Array,
  pubDate: Int32Array,
} as const;
type RowArrays = { [K in keyof typeof ROW_ARRAYS]: InstanceType<(typeof ROW_ARRAYS)[K]> };

/** The typed arrays of `Columns` with room for `capacity` rows and keys up to `maxKey`, holding what `from` holds. */
function arrays(capacity: number, maxKey: number, from?: Columns): RowArrays & { pos: Int32Array } {
  const out: Record<string, Int32Array | Uint8Array | Float64Array> = {};
  for (const [name, make] of Object.entries(ROW_ARRAYS)) {
    const array = new make(capacity);
    const old = from?.[name as keyof RowArrays];
    if (old) array.set(old.subarray(0, Math.min(old.length, capacity)));
    out[name] = array;
  }
  const pos = new Int32Array(maxKey + 1).fill(-1);
  if (from) pos.set(from.pos.subarray(0, Math.min(from.pos.length, pos.length)));
  return { pos, ...(out as RowArrays) };
}

/** Codes of the facet combinations and publication dates, kept with the copy so a patch can add new ones. */
interface Dictionaries {
  group(r: Row): number;
  date(value: string | null): number;
}

function dictionariesOf(c: Columns): Dictionaries {
  const groups = new Map(c.groups.map((g, code) => [groupName(g.access, g.parent, g.type, g.languages.join(","), g.fileTypes.join(","), g.communities.join(",")), code]));
  const dates = new Map(c.dates.map((d, code) => [d, code]));
  return {
    group(r) {
      const name = groupName(r[6], r[7], r[8], r[9], r[15], r[16]);
      let code = groups.get(name);
      if (code === undefined) {
        groups.set(name, (code = c.groups.length));
        c.groups.push({ draft: false, access: r[6], parent: r[7], type: r[8], languages: splitList(r[9]), fileTypes: splitList(r[15]), communities: splitList(r[16]) });
      }
      return code;
    },
    date(value) {
      let code = dates.get(value);
      if (code === undefined) {
        dates.set(value, (code = c.dates.length));
        c.dates.push(value);
      }
      return code;
    },
  };
}

const groupName = (...parts: (string | null)[]) => parts.join("\u0000");

/** Writes index row `r` into row `i` of the copy. */
function fill(c: Columns, d: Dictionaries, i: number, r: Row) {
  c.pos[r[0]] = i;
  c.key[i] = r[0];
  c.pubDate[i] = d.date(r[1]);
  c.latest[i] = r[2];
  c.draft[i] = r[3];
  c.deleted[i] = r[17];
  c.isPublic[i] = isPublicRecord({ accessRecord: r[4] }) ? 1 : 0;
  c.owner[i] = r[5] ?? -1;
  c.group[i] = d.group(r);
  c.created[i] = r[10];
  c.updated[i] = r[11];
  c.version[i] = r[12];
  c.views[i] = r[13];
  c.downloads[i] = r[14];
}

function load(db: SqliteDb): Columns {
  const rows = db.$client.query(`SELECT ${COLUMNS} FROM record_index`).values() as unknown as Row[];
  const n = rows.length;
  let maxKey = 0;
  for (const r of rows) if (r[0] > maxKey) maxKey = r[0];
  // Room for the rows patches add before the next rebuild.
  const c: Columns = { n, ...arrays(n + Math.max(1024, n >> 3), maxKey + 1024), gone: 0, dates: [], groups: [], matches: new Map() };
  const d = dictionariesOf(c);
  rows.forEach((r, i) => fill(c, d, i, r));
  return c;
}

/**
 * Brings the copy to the index's present state for the rows of `keys` (those index writes
 * touched): rows still there are re-read in place or appended, rows gone are marked deleted, which
 * every search scope leaves out (records/policy.ts). False when the copy should rather be rebuilt.
 */
function patch(db: SqliteDb, c: Columns, keys: Set<number>): boolean {
  const list = [...keys];
  const found = new Map<number, Row>();
  for (let at = 0; at < list.length; at += 500) {
    const chunk = list.slice(at, at + 500);
    const rows = db.$client.query(`SELECT ${COLUMNS} FROM record_index WHERE key IN (${chunk.map(() => "?").join(", ")})`).values(...chunk) as unknown as Row[];
    for (const r of rows) found.set(r[0], r);
  }
  const d = dictionariesOf(c);
  for (const key of list) {
    const at = key < c.pos.length ? c.pos[key]! : -1;
    const r = found.get(key);
    if (!r) {
      if (at >= 0 && c.deleted[at] === 0) {
        c.deleted[at] = 1;
        c.gone++;
      }
      continue;
    }
    if (at < 0 && (c.n === c.key.length || key >= c.pos.length))
      Object.assign(c, arrays(Math.max(c.key.length, c.n + 1) + (c.n >> 2) + 1024, Math.max(c.pos.length, key + 1024), c));
    fill(c, d, at >= 0 ? at : c.n++, r);
  }
  // Cached full-text matches hold row numbers of the old rows only.
  c.matches.clear();
  // Rows marked gone still cost a look in every count: past a quarter of the copy (and more than a
  // few, which cost nothing to skip in a small one), rebuild.
  return c.gone <= Math.max(256, c.n >> 2);
}

/**
 * A copy of the index, as of the newest index write it has applied (`seen`, a number of the change
 * log). A search first reads the log's newest number: when writes came since, by this process or
 * any other, it patches the rows they touched in (a few rows, re-read) rather than rebuilding, so a
 * stream of deposits on any server does not push searches onto the SQL path; other commits
 * (statistics, sessions, rate counts) do not touch the log. Re-reading a row twice does no harm,
 * so a write that commits between reading the log and reading the rows is simply applied again.
 * `current` and `refresh` are handed the connection to read (the engine reaches it once per search
 * through the database port; a reader worker has its own), so nothing here awaits.
 */
export function createColumnCopy() {
  let columns: Columns | null = null;
  let seen = 0;
  let builtAt = -Infinity;

  return {
    /** The columns when current (patched or rebuilt if allowed now), else null: use SQL. */
    current(db: SqliteDb): Columns | null {
      const now = lastIndexChange(db);
      if (columns && now === seen) return columns;
      // Inside a transaction the log may show this connection's own uncommitted writes, which a
      // rollback takes back (and the next write reuses their numbers): follow only committed ones.
      if (db.$client.inTransaction) return null;
      if (columns && now > seen) {
        const keys = changedSince(db, seen, now);
        if (keys && (keys.length === 0 || patch(db, columns, new Set(keys)))) {
          seen = now;
          return columns;
        }
      }
      if (performance.now() - builtAt < REBUILD_INTERVAL_MS) return null;
      this.refresh(db);
      return columns;
    },

    /** Rebuilds now (tests, and the rebuild the interval allows): the log's number first, so the rows read are at least as new. */
    refresh(db: SqliteDb) {
      seen = lastIndexChange(db);
      columns = load(db);
      builtAt = performance.now();
    },
  };
}

export type ColumnCopy = ReturnType<typeof createColumnCopy>;
