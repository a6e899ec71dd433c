-- The PostgreSQL record search engine's own tables (src/records/search/postgres/), beside the
-- baseline's record_index and record_terms: the full text of each index row as one weighted
-- tsvector, and the vocabulary of its terms for wildcard expansion.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- One row per record_index row (key = record_index.key). `doc` holds each term of the five
-- full-text columns twice at the same positions: bare (`ocean`, searched by unrestricted words) and
-- tagged with its column (`|title|ocean`, searched by `title:…`); weights A title, B creators,
-- C description and subjects, D other rank them (records/search/postgres/indexer.ts). `length` is
-- the number of words of the five columns, which bm25 weighs a match by (search/postgres/bm25.ts).
CREATE TABLE "record_fts" (
  "key" bigint PRIMARY KEY,
  "doc" tsvector NOT NULL,
  "length" integer NOT NULL
);

-- The rows of record_fts and their words in all, kept by the indexer: bm25's average length.
CREATE TABLE "record_fts_stats" (
  "id" integer PRIMARY KEY CHECK ("id" = 1),
  "rows" bigint NOT NULL,
  "words" bigint NOT NULL
);

INSERT INTO "record_fts_stats" ("id", "rows", "words") VALUES (1, 0, 0);

CREATE INDEX "record_fts_doc" ON "record_fts" USING gin ("doc");

-- Every term the full-text index has held, by column: `?`/inner-`*` wildcards expand against it
-- (a prefix range on the primary key, then a regular expression the trigram index serves). Terms
-- are added as records are indexed and never removed: a stale term matches no row.
CREATE TABLE "record_fts_vocab" (
  "term" text COLLATE "C" NOT NULL,
  "col" text COLLATE "C" NOT NULL,
  PRIMARY KEY ("term", "col")
);

CREATE INDEX "record_fts_vocab_trgm" ON "record_fts_vocab" USING gin ("term" gin_trgm_ops);

-- A query-string value compared with an integer column, as SQLite compares them (the column's
-- numeric affinity): text that reads as a number is that number, any other text sorts above every
-- number (`versions.index:<abc` matches all, `versions.index:abc` none), where a cast would fail.
CREATE FUNCTION "cairn_number"(value text) RETURNS numeric LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN value ~ '^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*$' THEN trim(value)::numeric ELSE 'Infinity'::numeric END
$$;
