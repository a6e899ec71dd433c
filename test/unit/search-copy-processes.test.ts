// The SQLite index's in-memory copy beside other processes on the same database file: another
// process's index writes are patched in from the index's change log (the copy stays current, and
// a search here answers from memory with them), its other commits leave the copy alone, a copy
// whose log rows were pruned rebuilds, and a write rolled back inside a transaction is never taken
// for a committed one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { databasePathOf } from "../../src/db/open";
import { openDatabase } from "../../src/db/sqlite/connection";
import { recordScope } from "../../src/records/policy";
import { createSqliteRecordSearch } from "../../src/records/search/sqlite";
import { KEPT_CHANGES } from "../../src/records/search/sqlite/change-log";
import { createTestApp, type TestApp } from "../helpers/app";
import { publishableDraft, publishRecord } from "../helpers/records";

let t: TestApp;
let ids: string[];
beforeAll(async () => {
  t = await createTestApp({ DATABASE_URL: "" });
  const titled = (title: string) => publishableDraft({ metadata: { ...publishableDraft().metadata, title } });
  ids = [
    (await publishRecord(t, titled("Tussock moth counts"))).id,
    (await publishRecord(t, titled("Tussock grass cover"))).id,
    (await publishRecord(t, titled("Tussock sedge heights"))).id,
  ].sort();
});
afterAll(() => t.close());

const tussock = () => ({ sortOptions: t.config.RDM_SEARCH_SORT_OPTIONS, q: "tussock", sort: "newest", defaultSort: "newest", query: {} });
const page = { page: 1, size: 10, offset: 0 };

/** This process's search module and another process's: its own connection to the file, its own module. */
function twoProcesses() {
  const here = createSqliteRecordSearch(t.services.deps.db, t.services.vocabularies.lookup);
  const otherDb = openDatabase(databasePathOf(t.config));
  const other = createSqliteRecordSearch(otherDb, t.services.vocabularies.lookup);
  // The ids found, in id order (records published in the same instant tie on every date sort).
  const found = async (options: { memory?: boolean } = {}) => (await here.searchNow(recordScope(systemActor), tussock(), page, options)).hits.map((h) => h.id).sort();
  const close = () => {
    here.close();
    other.close();
    otherDb.close();
  };
  return { here, other, otherDb, found, close };
}

/** Puts a record's index rows back as the records table holds them. */
async function reindex(p: ReturnType<typeof twoProcesses>, id: string) {
  const rows = await t.services.deps.db.statements.all<Record<string, unknown>>("SELECT * FROM records WHERE id = ?", [id]);
  const { indexedRecord } = await import("../../src/records/search");
  const { rowOf } = await import("../../src/records/search/sqlite");
  await p.otherDb.write(() => p.other.indexRecord(indexedRecord(rowOf(rows[0]!)), { pids: {}, communities: [] }));
}

test("another process's index writes are patched in from the change log; its other commits leave the copy alone", async () => {
  const p = twoProcesses();
  try {
    await p.here.copy.refresh();
    const built = await p.here.copy.current();
    expect(built).not.toBeNull();

    // Statistics, sessions, rate counts: commits that leave the index as it was.
    await p.otherDb.statements.run("INSERT INTO rate_counts (key, window_index, count, expires_at) VALUES ('a:192.0.2.1|60000|0', 1, 1, 2)");
    await p.otherDb.write((tx) => tx.statements.run("INSERT INTO stats_state (key, value) VALUES ('elsewhere', '1')"));
    expect(await p.here.copy.current()).toBe(built);

    // An index write there: the copy here follows it in place (the same object, at once: a rebuild
    // is throttled for 5 s and would answer null), and a search here answers from memory without the record.
    await p.otherDb.write(() => p.other.unindexRecord(ids[0]!, false));
    expect(await p.here.copy.current()).toBe(built);
    expect(await p.found()).toEqual([ids[1]!, ids[2]!]);
    expect(await p.found({ memory: false })).toEqual([ids[1]!, ids[2]!]);

    // Written back there: found here again, from the same copy.
    await reindex(p, ids[0]!);
    expect(await p.here.copy.current()).toBe(built);
    expect(await p.found()).toEqual([...ids]);
  } finally {
    p.close();
  }
});

test("a copy further behind than the log keeps rebuilds instead of patching", async () => {
  const p = twoProcesses();
  try {
    await p.here.copy.refresh();
    expect(await p.here.copy.current()).not.toBeNull();
    // The other process writes, and the log row this copy needs is pruned.
    await p.otherDb.write(() => p.other.unindexRecord(ids[2]!, false));
    await p.otherDb.statements.run("DELETE FROM index_changes");
    await p.otherDb.write(() => p.other.unindexRecord(ids[1]!, false));
    // Not patched (a rebuild is throttled right after the last one): SQL answers meanwhile, rightly.
    expect(await p.here.copy.current()).toBeNull();
    expect(await p.found()).toEqual([ids[0]!]);
    await p.here.copy.refresh();
    expect(await p.here.copy.current()).not.toBeNull();
    expect(await p.found()).toEqual([ids[0]!]);
    // So far behind that the rows would not be kept either.
    const seq = (await p.otherDb.statements.get<{ seq: number }>("SELECT max(seq) AS seq FROM index_changes"))!.seq;
    await p.otherDb.statements.run("INSERT INTO index_changes (seq, keys) VALUES (?, '')", [seq + KEPT_CHANGES + 1]);
    expect(await p.here.copy.current()).toBeNull();
  } finally {
    await reindex(p, ids[1]!);
    await reindex(p, ids[2]!);
    p.close();
  }
});

test("an index write rolled back inside a transaction is never applied to the copy", async () => {
  const p = twoProcesses();
  try {
    await p.here.copy.refresh();
    const built = await p.here.copy.current();
    expect(await p.found()).toEqual([...ids]);
    // Here, inside a transaction: the index write is seen by a search in it (from SQL), then rolled back.
    const rolledBack = t.services.deps.db.write(async () => {
      await p.here.unindexRecord(ids[0]!, false);
      expect(await p.here.copy.current()).toBeNull();
      expect(await p.found()).toEqual([ids[1]!, ids[2]!]);
      throw new Error("rolled back");
    });
    expect(rolledBack).rejects.toThrow("rolled back");
    await rolledBack.catch(() => {});
    // The other process's next write takes the rolled-back write's number in the log.
    await p.otherDb.write(() => p.other.unindexRecord(ids[1]!, false));
    expect(await p.here.copy.current()).toBe(built);
    expect(await p.found()).toEqual([ids[0]!, ids[2]!]);
    expect(await p.found({ memory: false })).toEqual([ids[0]!, ids[2]!]);
  } finally {
    await reindex(p, ids[1]!);
    p.close();
  }
});
