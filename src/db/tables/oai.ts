// OAI-PMH: the sets administrators define, tombstones of records that stopped being public
// (reported as deleted), and the key that signs resumption tokens.
// Dialect-specific: none (oai/store.ts listTombstones' `(datestamp, record_id) > (?, ?)` keyset is
// portable, given the `COLLATE "C"` of index.ts: oai/listing.ts merges it in JS with the harvest of
// record_index, whose queries record-index.ts lists).
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const oaiSetsTable = sqliteTable(
  "oai_sets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The OAI setSpec: fixed once created (harvesters keep it). */
    spec: text("spec").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** A query string over the records index selecting the set's records. */
    searchPattern: text("search_pattern").notNull(),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
  },
  (t) => [uniqueIndex("oai_sets_spec_unique").on(t.spec), index("oai_sets_name_idx").on(t.name)],
);

/** A record that was public and is no longer: harvesters learn of it as `status="deleted"`. */
export const oaiTombstonesTable = sqliteTable(
  "oai_tombstones",
  {
    recordId: text("record_id").primaryKey(),
    /** When it stopped being public (ms): the deleted header's datestamp. */
    datestamp: integer("datestamp").notNull(),
  },
  (t) => [index("oai_tombstones_datestamp_idx").on(t.datestamp, t.recordId)],
);

/** HMAC keys of resumption tokens: kept in the database so tokens outlive a restart. */
export const oaiTokenKeysTable = sqliteTable("oai_token_keys", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  secret: text("secret").notNull(),
  created: integer("created").notNull(),
});
