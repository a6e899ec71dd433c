-- The vocabulary search engine's own tables on PostgreSQL (src/vocabularies/postgres/): as SQLite's
-- vocab_*_fts, one index per directory type and one shared by the controlled lists, keyed by
-- vocabulary_entries.pk and kept in step by the store. `doc` is built by the engine (not by a text
-- search parser, so both engines cut words alike) and holds each word twice: plain, for searches
-- over every field, and marked with its column (`|2|word`), for searches on one field; the GIN
-- index serves both, and prefix queries (`word:*`) through its ordered terms.
CREATE TABLE "vocab_generic_search" ("pk" bigint PRIMARY KEY, "doc" tsvector NOT NULL);

CREATE INDEX "vocab_generic_search_doc" ON "vocab_generic_search" USING gin ("doc");

CREATE TABLE "vocab_names_search" ("pk" bigint PRIMARY KEY, "doc" tsvector NOT NULL);

CREATE INDEX "vocab_names_search_doc" ON "vocab_names_search" USING gin ("doc");

CREATE TABLE "vocab_funders_search" ("pk" bigint PRIMARY KEY, "doc" tsvector NOT NULL);

CREATE INDEX "vocab_funders_search_doc" ON "vocab_funders_search" USING gin ("doc");

CREATE TABLE "vocab_affiliations_search" ("pk" bigint PRIMARY KEY, "doc" tsvector NOT NULL);

CREATE INDEX "vocab_affiliations_search_doc" ON "vocab_affiliations_search" USING gin ("doc");

CREATE TABLE "vocab_subjects_search" ("pk" bigint PRIMARY KEY, "doc" tsvector NOT NULL);

CREATE INDEX "vocab_subjects_search_doc" ON "vocab_subjects_search" USING gin ("doc");

CREATE TABLE "vocab_awards_search" ("pk" bigint PRIMARY KEY, "doc" tsvector NOT NULL);

CREATE INDEX "vocab_awards_search_doc" ON "vocab_awards_search" USING gin ("doc");
