-- SQLite's 0031_index_changes: the SQLite index's change log, in place of its count of writes (both written by SQLite's search index only; here for one schema).
CREATE SEQUENCE "index_changes_seq_seq";

CREATE TABLE "index_changes" (
  "seq" bigint DEFAULT nextval('index_changes_seq_seq') PRIMARY KEY,
  "keys" text COLLATE "C"
);

ALTER SEQUENCE "index_changes_seq_seq" OWNED BY "index_changes"."seq";

CREATE FUNCTION "index_changes_seq_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."seq" IS NULL THEN NEW."seq" := nextval('index_changes_seq_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "index_changes_seq_next" BEFORE INSERT ON "index_changes" FOR EACH ROW EXECUTE FUNCTION "index_changes_seq_next"();

DROP TABLE "search_state";
