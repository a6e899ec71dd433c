// The SQLite index's in-memory copy beside other processes on the same database file: an index
// write by another process makes it stale (searches answer from SQL until it is rebuilt), while
// the other process's commits that do not touch the index (statistics, sessions, rate counts,
// which several serving processes make all the time) leave it current.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { databasePathOf } from "../../src/db/open";
import { openDatabase } from "../../src/db/sqlite/connection";
import { recordScope } from "../../src/records/policy";
import { createSqliteRecordSearch } from "../../src/records/search/sqlite";
import { createTestApp, type TestApp } from "../helpers/app";
import { publishableDraft, publishRecord } from "../helpers/records";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DATABASE_URL: "" });
});
afterAll(() => t.close());

test("another process's index write makes the copy stale; its other commits do not", async () => {
  const titled = (title: string) => publishableDraft({ metadata: { ...publishableDraft().metadata, title } });
  const ids: string[] = [(await publishRecord(t, titled("Tussock moth counts"))).id, (await publishRecord(t, titled("Tussock grass cover"))).id];
  const tussock = { sortOptions: t.config.RDM_SEARCH_SORT_OPTIONS, q: "tussock", sort: "newest", defaultSort: "newest", query: {} };
  const page = { page: 1, size: 10, offset: 0 };
  const here = createSqliteRecordSearch(t.services.deps.db, t.services.vocabularies.lookup);
  // Another process: its own connection to the file, its own search module.
  const otherDb = openDatabase(databasePathOf(t.config));
  const other = createSqliteRecordSearch(otherDb, t.services.vocabularies.lookup);
  try {
    await here.copy.refresh();
    const built = await here.copy.current();
    expect(built).not.toBeNull();

    // Statistics, sessions, rate counts: commits that leave the index as it was.
    await otherDb.statements.run("INSERT INTO rate_counts (key, window_index, count, expires_at) VALUES ('a:192.0.2.1|60000|0', 1, 1, 2)");
    await otherDb.write((tx) => tx.statements.run("INSERT INTO stats_state (key, value) VALUES ('elsewhere', '1')"));
    expect(await here.copy.current()).toBe(built);

    // An index write there: the copy here is stale, and a search here answers from SQL without the record.
    await otherDb.write(() => other.unindexRecord(ids[0]!, false));
    expect(await here.copy.current()).toBeNull();
    const found = await here.searchNow(recordScope(systemActor), tussock, page);
    expect(found.hits.map((h) => h.id)).toEqual([ids[1]!]);
    // Rebuilt, it holds what the file holds.
    await here.copy.refresh();
    expect(await here.copy.current()).not.toBeNull();
    const again = await here.searchNow(recordScope(systemActor), tussock, page);
    expect(again.hits.map((h) => h.id)).toEqual([ids[1]!]);
  } finally {
    here.close();
    other.close();
    otherDb.close();
  }
});
