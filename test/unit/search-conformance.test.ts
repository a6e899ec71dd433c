// Record search's conformance suite run against the SQLite engine, by each of its paths: the SQL
// path, the in-memory path (column copy), and a reader worker.
import { expect } from "bun:test";
import { createSqliteRecordSearch } from "../../src/records/search/sqlite";
import { runSearchConformance } from "../helpers/search-conformance";

runSearchConformance("SQLite, SQL path", ({ ctx }) => {
  const search = createSqliteRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup);
  return { search: (scope, input, page, labels) => search.searchNow(scope, input, page, { memory: false, labels }) };
});

runSearchConformance("SQLite, in-memory path", async ({ ctx }) => {
  const search = createSqliteRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup);
  await search.copy.refresh();
  return {
    search: (scope, input, page, labels) => search.searchNow(scope, input, page, { labels }),
    // The copy stayed current: the in-memory path answered what its plan allows.
    check: async () => expect(await search.copy.current()).not.toBeNull(),
  };
});

runSearchConformance("SQLite, on a reader worker", ({ ctx }) => {
  const search = createSqliteRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup, {
    readers: { count: 1, timeoutMs: 60_000, log: () => {} },
  });
  return { search: (scope, input, page, labels) => search.search(scope, input, page, labels), close: () => search.close() };
});
