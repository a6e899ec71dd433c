// Which vocabulary search engine serves a database: the one of its engine (`db.engine`).
import type { DatabasePort } from "../db/port";
import { postgresVocabularySearch } from "./postgres/index";
import type { VocabularySearch } from "./search";
import { sqliteVocabularySearch } from "./sqlite/fts";

export const vocabularySearchOf = (db: Pick<DatabasePort, "engine">): VocabularySearch => (db.engine === "postgres" ? postgresVocabularySearch : sqliteVocabularySearch);
