// The database side of a backup: a consistent snapshot of the live database (VACUUM INTO on a
// worker thread) and the facts read from a snapshot (migrations, counts, the objects it references).
import { Database } from "bun:sqlite";
import type { Counts, ObjectEntry } from "../manifest";

export interface SnapshotFacts {
  migrationIds: string[];
  /** PRAGMA user_version: the number of migrations applied. */
  level: number;
  counts: Omit<Counts, "objects" | "objectBytes">;
  /** Every object the snapshot references; md5 is "" for community logos (the database keeps none). */
  objects: ObjectEntry[];
}

export interface SnapshotOptions {
  /** The running job that takes this backup: marked succeeded inside the snapshot (see below). */
  ownJobId?: number;
  jobResult?: unknown;
  now: number;
}

/*
 * Runs on a worker thread, from a Blob URL like storage/md5-worker.ts (the single executable needs
 * no extra entry point). VACUUM INTO reads the live database in one read transaction: a consistent
 * snapshot that, in WAL mode, never blocks the server's writers; but it is one long synchronous
 * call, which on the server's thread would stall every request for its length.
 *
 * The snapshot is then adjusted for a data directory without in-progress uploads:
 * - file_parts rows name part files under files/parts, which a backup does not hold (and by absolute
 *   path, wrong in another directory): dropped, so those uploads restart from their first part;
 * - the job taking this backup is "running" at snapshot time; a restored server would run it again
 *   at once. A restore of this snapshot proves that this job succeeded, so it says so.
 */
const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
const COUNTS = { records: "records", drafts: "drafts", communities: "communities", users: "users", fileEntries: "file_entries" };
function facts(db) {
  const tables = new Set(db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name));
  const counts = {};
  for (const [name, table] of Object.entries(COUNTS)) counts[name] = tables.has(table) ? db.query('SELECT count(*) AS n FROM "' + table + '"').get().n : 0;
  const objects = [];
  if (tables.has("file_objects")) {
    for (const r of db.query("SELECT id, size, checksum FROM file_objects ORDER BY id").values()) objects.push([r[0], r[1], String(r[2]).replace(/^md5:/, "")]);
  }
  if (tables.has("communities")) {
    for (const r of db.query("SELECT logo_object_id, logo_size FROM communities WHERE logo_object_id IS NOT NULL ORDER BY logo_object_id").values()) objects.push([r[0], r[1] ?? 0, ""]);
  }
  const migrationIds = tables.has("schema_migrations") ? db.query("SELECT id FROM schema_migrations ORDER BY id").values().map((r) => r[0]) : [];
  return { migrationIds, level: db.query("PRAGMA user_version").get().user_version, counts, objects };
}
function sanitize(db, m) {
  const tables = new Set(db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name));
  db.transaction(() => {
    if (tables.has("file_parts")) db.exec("DELETE FROM file_parts");
    if (m.ownJobId != null && tables.has("jobs")) {
      db.query("UPDATE jobs SET status = 'succeeded', result = ?, lease_until = NULL, finished_at = ?, updated = ? WHERE id = ? AND status = 'running'")
        .run(JSON.stringify(m.jobResult ?? null), m.now, m.now, m.ownJobId);
    }
  })();
}
self.onmessage = (event) => {
  const m = event.data;
  try {
    if (m.op === "snapshot") {
      const live = new Database(m.source, { readonly: true });
      try {
        live.exec("PRAGMA busy_timeout = 5000");
        live.query("VACUUM INTO ?").run(m.target);
      } finally {
        live.close();
      }
      const db = new Database(m.target, { readwrite: true, create: false });
      try {
        sanitize(db, m);
        postMessage({ facts: facts(db) });
      } finally {
        db.close();
      }
    } else if (m.op === "adjust") {
      // A copy made from another engine (backup/postgres/snapshot.ts): the same adjustments, and
      // the rollback journal a VACUUM INTO file has, so no -wal/-shm file lies beside it.
      const db = new Database(m.source, { readwrite: true, create: false });
      try {
        db.exec("PRAGMA journal_mode = DELETE");
        sanitize(db, m);
        postMessage({ facts: facts(db) });
      } finally {
        db.close();
      }
    } else {
      const db = new Database(m.source, { readonly: true });
      try {
        postMessage({ facts: facts(db) });
      } finally {
        db.close();
      }
    }
  } catch (error) {
    postMessage({ error: String(error && error.message || error) });
  }
};`;

function runWorker(message: Record<string, unknown>): Promise<SnapshotFacts> {
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const worker = new Worker(url);
  return new Promise<SnapshotFacts>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent) => {
      const data = event.data as { facts?: SnapshotFacts; error?: string };
      if (data.error !== undefined) reject(new Error(`database snapshot: ${data.error}`));
      else resolve(data.facts!);
    };
    worker.onerror = (event) => reject(new Error(`database snapshot: ${(event as ErrorEvent).message}`));
    worker.postMessage(message);
  }).finally(() => {
    worker.terminate();
    URL.revokeObjectURL(url);
  });
}

/** Writes a consistent copy of the database at `source` to `target` (which must not exist) and reads its facts. */
export function snapshotDatabase(source: string, target: string, options: SnapshotOptions): Promise<SnapshotFacts> {
  return runWorker({ op: "snapshot", source, target, ...options });
}

/** Adjusts a database copied into `path` (by no VACUUM INTO: from PostgreSQL) as a snapshot is, and reads its facts. */
export function adjustSnapshot(path: string, options: SnapshotOptions): Promise<SnapshotFacts> {
  return runWorker({ op: "adjust", source: path, ...options });
}

/** The facts of a database that nothing else writes (a snapshot, a restored copy before its first start). */
export function readFacts(path: string): Promise<SnapshotFacts> {
  return runWorker({ op: "facts", source: path });
}

/** PRAGMA integrity_check of a database nothing else has open; [] when it is sound. */
export function checkIntegrity(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all();
    return rows.map((r) => r.integrity_check).filter((line) => line !== "ok");
  } catch (error) {
    return [(error as Error).message];
  } finally {
    db.close();
  }
}
