// Record search's conformance suite run against the PostgreSQL engine: its corpus is built the same
// way on a PostgreSQL database of its own (a throw-away server this process starts when the suite
// does not run on one), and every answer is compared with the SQLite engine's over a SQLite corpus.
import { createPostgresRecordSearch } from "../../src/records/search/postgres";
import { buildSearchCorpus, runSearchConformance } from "../helpers/search-conformance";
import { freshPostgresDatabase, type TestDatabase } from "../helpers/postgres";

let database: TestDatabase | null = null;

runSearchConformance(
  "PostgreSQL",
  ({ ctx }) => {
    const search = createPostgresRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup);
    return { search: (scope, input, page, labels) => search.search(scope, input, page, labels), close: async () => void (await database?.drop()) };
  },
  {
    corpus: async () => {
      database = await freshPostgresDatabase();
      return buildSearchCorpus({ DATABASE_URL: database.url });
    },
    engine: ({ ctx }) => createPostgresRecordSearch(ctx.services.deps.db, ctx.services.vocabularies.lookup),
  },
);
