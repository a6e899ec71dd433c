// Which record search engine serves a database: the one of its engine (`db.engine`).
import type { DatabasePort } from "../../db/port";
import type { EntryLookup } from "./facets";
import type { RecordSearch } from "./index";
import { createPostgresRecordSearch } from "./postgres";
import { createSqliteRecordSearch, type RecordSearchOptions } from "./sqlite";

/** The engine of `db`; `options` (reader workers) concern SQLite only. */
export const createRecordSearch = (db: DatabasePort, lookup: EntryLookup, options: RecordSearchOptions = {}): RecordSearch =>
  db.engine === "postgres" ? createPostgresRecordSearch(db, lookup) : createSqliteRecordSearch(db, lookup, options);
