-- PostgreSQL's schema as of SQLite's migration 0029_request_event_order (30 migrations), written by scripts/postgres-baseline.ts from src/db/tables.
CREATE TABLE "access_verifications" (
  "token_hash" text COLLATE "C" PRIMARY KEY,
  "record_id" text COLLATE "C" NOT NULL,
  "email" text COLLATE "C" NOT NULL,
  "full_name" text COLLATE "C" DEFAULT '' NOT NULL,
  "message" text COLLATE "C" DEFAULT '' NOT NULL,
  "consent" integer DEFAULT 0 NOT NULL,
  "created" bigint NOT NULL,
  "expires_at" bigint NOT NULL
);

CREATE INDEX "access_verifications_expiry_idx" ON "access_verifications" ("expires_at");

CREATE TABLE "account_tokens" (
  "token_hash" text COLLATE "C" PRIMARY KEY,
  "user_id" bigint NOT NULL,
  "purpose" text COLLATE "C" NOT NULL,
  "email" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL,
  "expires_at" bigint NOT NULL,
  "used_at" bigint
);

CREATE INDEX "account_tokens_user_idx" ON "account_tokens" ("user_id");

CREATE INDEX "account_tokens_expiry_idx" ON "account_tokens" ("expires_at");

CREATE SEQUENCE "audit_log_id_seq";

CREATE TABLE "audit_log" (
  "id" bigint DEFAULT nextval('audit_log_id_seq') PRIMARY KEY,
  "at" bigint NOT NULL,
  "actor_id" bigint,
  "actor_label" text COLLATE "C" NOT NULL,
  "action" text COLLATE "C" NOT NULL,
  "target_type" text COLLATE "C" NOT NULL,
  "target_id" text COLLATE "C" NOT NULL,
  "details" json NOT NULL,
  "address" text COLLATE "C",
  "via" text COLLATE "C" NOT NULL
);

ALTER SEQUENCE "audit_log_id_seq" OWNED BY "audit_log"."id";

CREATE FUNCTION "audit_log_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('audit_log_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "audit_log_id_next" BEFORE INSERT ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_id_next"();

CREATE INDEX "audit_log_at_idx" ON "audit_log" ("at");

CREATE INDEX "audit_log_target_idx" ON "audit_log" ("target_type", "target_id");

CREATE INDEX "audit_log_actor_idx" ON "audit_log" ("actor_id");

CREATE TABLE "communities" (
  "id" text COLLATE "C" PRIMARY KEY,
  "slug" text COLLATE "C" NOT NULL,
  "visibility" text COLLATE "C" NOT NULL,
  "member_policy" text COLLATE "C" NOT NULL,
  "record_policy" text COLLATE "C" NOT NULL,
  "members_visibility" text COLLATE "C" DEFAULT 'public' NOT NULL,
  "review_policy" text COLLATE "C" DEFAULT 'closed' NOT NULL,
  "metadata" json NOT NULL,
  "logo_object_id" text COLLATE "C",
  "logo_mimetype" text COLLATE "C",
  "logo_size" bigint,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL
);

CREATE UNIQUE INDEX "communities_slug_unique" ON "communities" ((lower("slug")));

CREATE INDEX "communities_created_idx" ON "communities" ("created");

CREATE TABLE "community_members" (
  "id" text COLLATE "C" PRIMARY KEY,
  "community_id" text COLLATE "C" NOT NULL,
  "user_id" bigint,
  "group_id" text COLLATE "C",
  "role" text COLLATE "C" NOT NULL,
  "visible" integer DEFAULT 1 NOT NULL,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL
);

CREATE UNIQUE INDEX "community_members_user_unique" ON "community_members" ("community_id", "user_id");

CREATE UNIQUE INDEX "community_members_group_unique" ON "community_members" ("community_id", "group_id");

CREATE INDEX "community_members_user_idx" ON "community_members" ("user_id");

CREATE INDEX "community_members_group_idx" ON "community_members" ("group_id");

CREATE TABLE "drafts" (
  "id" text COLLATE "C" PRIMARY KEY,
  "parent_id" text COLLATE "C" NOT NULL,
  "owner_id" bigint,
  "version_index" bigint DEFAULT 1 NOT NULL,
  "document" json NOT NULL,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL,
  "expires_at" bigint
);

CREATE INDEX "drafts_parent_idx" ON "drafts" ("parent_id");

CREATE INDEX "drafts_owner_idx" ON "drafts" ("owner_id", "updated");

CREATE TABLE "external_sign_ups" (
  "ticket_hash" text COLLATE "C" PRIMARY KEY,
  "mail_hash" text COLLATE "C",
  "provider" text COLLATE "C" NOT NULL,
  "subject" text COLLATE "C" NOT NULL,
  "full_name" text COLLATE "C" NOT NULL,
  "orcid" text COLLATE "C",
  "email" text COLLATE "C",
  "next" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL,
  "expires_at" bigint NOT NULL,
  "purpose" text COLLATE "C" DEFAULT 'sign-up' NOT NULL
);

CREATE UNIQUE INDEX "external_sign_ups_mail_hash_unique" ON "external_sign_ups" ("mail_hash");

CREATE INDEX "external_sign_ups_expiry_idx" ON "external_sign_ups" ("expires_at");

CREATE SEQUENCE "featured_communities_id_seq";

CREATE TABLE "featured_communities" (
  "id" bigint DEFAULT nextval('featured_communities_id_seq') PRIMARY KEY,
  "community_id" text COLLATE "C" NOT NULL,
  "start_date" bigint NOT NULL,
  "end_date" bigint,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL
);

ALTER SEQUENCE "featured_communities_id_seq" OWNED BY "featured_communities"."id";

CREATE FUNCTION "featured_communities_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('featured_communities_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "featured_communities_id_next" BEFORE INSERT ON "featured_communities" FOR EACH ROW EXECUTE FUNCTION "featured_communities_id_next"();

CREATE INDEX "featured_communities_start_idx" ON "featured_communities" ("start_date");

CREATE INDEX "featured_communities_community_idx" ON "featured_communities" ("community_id");

CREATE SEQUENCE "file_entries_id_seq";

CREATE TABLE "file_entries" (
  "id" bigint DEFAULT nextval('file_entries_id_seq') PRIMARY KEY,
  "record_id" text COLLATE "C" NOT NULL,
  "is_draft" integer NOT NULL,
  "key" text COLLATE "C" NOT NULL,
  "object_id" text COLLATE "C",
  "status" text COLLATE "C" NOT NULL,
  "storage_class" text COLLATE "C" DEFAULT 'L' NOT NULL,
  "uri" text COLLATE "C",
  "metadata" json,
  "mimetype" text COLLATE "C",
  "declared_size" bigint,
  "declared_checksum" text COLLATE "C",
  "transfer" json NOT NULL,
  "version_id" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL
);

ALTER SEQUENCE "file_entries_id_seq" OWNED BY "file_entries"."id";

CREATE FUNCTION "file_entries_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('file_entries_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "file_entries_id_next" BEFORE INSERT ON "file_entries" FOR EACH ROW EXECUTE FUNCTION "file_entries_id_next"();

CREATE UNIQUE INDEX "file_entries_key_idx" ON "file_entries" ("record_id", "is_draft", "key");

CREATE INDEX "file_entries_object_idx" ON "file_entries" ("object_id");

CREATE TABLE "file_objects" (
  "id" text COLLATE "C" PRIMARY KEY,
  "size" bigint NOT NULL,
  "checksum" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL,
  "verified_at" bigint,
  "verify_error" text COLLATE "C"
);

CREATE TABLE "file_parts" (
  "entry_id" bigint NOT NULL,
  "part" bigint NOT NULL,
  "size" bigint NOT NULL,
  "path" text COLLATE "C" NOT NULL,
  "etag" text COLLATE "C",
  "created" bigint NOT NULL,
  PRIMARY KEY ("entry_id", "part")
);

CREATE SEQUENCE "file_uploads_entry_id_seq";

CREATE TABLE "file_uploads" (
  "entry_id" bigint DEFAULT nextval('file_uploads_entry_id_seq') PRIMARY KEY,
  "object_id" text COLLATE "C" NOT NULL,
  "upload_id" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL
);

ALTER SEQUENCE "file_uploads_entry_id_seq" OWNED BY "file_uploads"."entry_id";

CREATE FUNCTION "file_uploads_entry_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."entry_id" IS NULL THEN NEW."entry_id" := nextval('file_uploads_entry_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "file_uploads_entry_id_next" BEFORE INSERT ON "file_uploads" FOR EACH ROW EXECUTE FUNCTION "file_uploads_entry_id_next"();

CREATE TABLE "fixture_versions" (
  "name" text COLLATE "C" PRIMARY KEY,
  "version" text COLLATE "C" NOT NULL,
  "loaded_at" bigint NOT NULL
);

CREATE TABLE "group_members" (
  "group_id" text COLLATE "C" NOT NULL,
  "user_id" bigint NOT NULL,
  "created" bigint NOT NULL,
  "source" text COLLATE "C",
  PRIMARY KEY ("group_id", "user_id")
);

CREATE INDEX "group_members_user_idx" ON "group_members" ("user_id");

CREATE TABLE "groups" (
  "id" text COLLATE "C" PRIMARY KEY,
  "name" text COLLATE "C" NOT NULL,
  "description" text COLLATE "C" DEFAULT '' NOT NULL,
  "is_managed" integer DEFAULT 0 NOT NULL,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL
);

CREATE UNIQUE INDEX "groups_name_unique" ON "groups" ((lower("name")));

CREATE TABLE "job_schedules" (
  "name" text COLLATE "C" PRIMARY KEY,
  "next_run_at" bigint NOT NULL,
  "last_run_at" bigint
);

CREATE SEQUENCE "jobs_id_seq";

CREATE TABLE "jobs" (
  "id" bigint DEFAULT nextval('jobs_id_seq') PRIMARY KEY,
  "name" text COLLATE "C" NOT NULL,
  "payload" json DEFAULT '{}' NOT NULL,
  "status" text COLLATE "C" DEFAULT 'queued' NOT NULL,
  "attempts" bigint DEFAULT 0 NOT NULL,
  "max_attempts" bigint DEFAULT 5 NOT NULL,
  "run_at" bigint NOT NULL,
  "lease_until" bigint,
  "last_error" text COLLATE "C",
  "result" json,
  "progress" json,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "finished_at" bigint
);

ALTER SEQUENCE "jobs_id_seq" OWNED BY "jobs"."id";

CREATE FUNCTION "jobs_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('jobs_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "jobs_id_next" BEFORE INSERT ON "jobs" FOR EACH ROW EXECUTE FUNCTION "jobs_id_next"();

CREATE INDEX "jobs_due_idx" ON "jobs" ("status", "run_at");

CREATE INDEX "jobs_name_idx" ON "jobs" ("name", "created");

CREATE SEQUENCE "mail_outbox_id_seq";

CREATE TABLE "mail_outbox" (
  "id" bigint DEFAULT nextval('mail_outbox_id_seq') PRIMARY KEY,
  "recipient" text COLLATE "C" NOT NULL,
  "subject" text COLLATE "C" NOT NULL,
  "body" text COLLATE "C" NOT NULL,
  "topic" text COLLATE "C" DEFAULT '' NOT NULL,
  "created" bigint NOT NULL,
  "sent_at" bigint,
  "attempts" bigint DEFAULT 0 NOT NULL,
  "last_error" text COLLATE "C"
);

ALTER SEQUENCE "mail_outbox_id_seq" OWNED BY "mail_outbox"."id";

CREATE FUNCTION "mail_outbox_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('mail_outbox_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "mail_outbox_id_next" BEFORE INSERT ON "mail_outbox" FOR EACH ROW EXECUTE FUNCTION "mail_outbox_id_next"();

CREATE INDEX "mail_outbox_pending_idx" ON "mail_outbox" ("sent_at", "id");

CREATE INDEX "mail_outbox_topic_idx" ON "mail_outbox" ("topic");

CREATE SEQUENCE "oai_sets_id_seq";

CREATE TABLE "oai_sets" (
  "id" bigint DEFAULT nextval('oai_sets_id_seq') PRIMARY KEY,
  "spec" text COLLATE "C" NOT NULL,
  "name" text COLLATE "C" NOT NULL,
  "description" text COLLATE "C" DEFAULT '' NOT NULL,
  "search_pattern" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL
);

ALTER SEQUENCE "oai_sets_id_seq" OWNED BY "oai_sets"."id";

CREATE FUNCTION "oai_sets_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('oai_sets_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "oai_sets_id_next" BEFORE INSERT ON "oai_sets" FOR EACH ROW EXECUTE FUNCTION "oai_sets_id_next"();

CREATE UNIQUE INDEX "oai_sets_spec_unique" ON "oai_sets" ("spec");

CREATE INDEX "oai_sets_name_idx" ON "oai_sets" ("name");

CREATE SEQUENCE "oai_token_keys_id_seq";

CREATE TABLE "oai_token_keys" (
  "id" bigint DEFAULT nextval('oai_token_keys_id_seq') PRIMARY KEY,
  "secret" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL
);

ALTER SEQUENCE "oai_token_keys_id_seq" OWNED BY "oai_token_keys"."id";

CREATE FUNCTION "oai_token_keys_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('oai_token_keys_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "oai_token_keys_id_next" BEFORE INSERT ON "oai_token_keys" FOR EACH ROW EXECUTE FUNCTION "oai_token_keys_id_next"();

CREATE TABLE "oai_tombstones" (
  "record_id" text COLLATE "C" PRIMARY KEY,
  "datestamp" bigint NOT NULL
);

CREATE INDEX "oai_tombstones_datestamp_idx" ON "oai_tombstones" ("datestamp", "record_id");

CREATE TABLE "pending_sign_ins" (
  "state_hash" text COLLATE "C" PRIMARY KEY,
  "provider" text COLLATE "C" NOT NULL,
  "browser_hash" text COLLATE "C" NOT NULL,
  "nonce" text COLLATE "C" NOT NULL,
  "code_verifier" text COLLATE "C" NOT NULL,
  "next" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL,
  "expires_at" bigint NOT NULL,
  "link_user_id" bigint
);

CREATE INDEX "pending_sign_ins_expiry_idx" ON "pending_sign_ins" ("expires_at");

CREATE TABLE "record_communities" (
  "parent_id" text COLLATE "C" NOT NULL,
  "community_id" text COLLATE "C" NOT NULL,
  "is_default" integer DEFAULT 0 NOT NULL,
  "created" bigint NOT NULL,
  PRIMARY KEY ("parent_id", "community_id")
);

CREATE INDEX "record_communities_community_idx" ON "record_communities" ("community_id", "parent_id");

CREATE UNIQUE INDEX "record_communities_one_default" ON "record_communities" ("parent_id") WHERE is_default = 1;

CREATE SEQUENCE "record_grants_id_seq";

CREATE TABLE "record_grants" (
  "id" bigint DEFAULT nextval('record_grants_id_seq') PRIMARY KEY,
  "parent_id" text COLLATE "C" NOT NULL,
  "subject_type" text COLLATE "C" NOT NULL,
  "subject_id" text COLLATE "C" NOT NULL,
  "permission" text COLLATE "C" NOT NULL,
  "origin" text COLLATE "C" DEFAULT '' NOT NULL,
  "message" text COLLATE "C",
  "expires_at" bigint,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL
);

ALTER SEQUENCE "record_grants_id_seq" OWNED BY "record_grants"."id";

CREATE FUNCTION "record_grants_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('record_grants_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "record_grants_id_next" BEFORE INSERT ON "record_grants" FOR EACH ROW EXECUTE FUNCTION "record_grants_id_next"();

CREATE UNIQUE INDEX "record_grants_subject_idx" ON "record_grants" ("parent_id", "subject_type", "subject_id");

CREATE INDEX "record_grants_holder_idx" ON "record_grants" ("subject_type", "subject_id");

CREATE SEQUENCE "record_index_key_seq";

CREATE TABLE "record_index" (
  "key" bigint DEFAULT nextval('record_index_key_seq') PRIMARY KEY,
  "record_id" text COLLATE "C" NOT NULL,
  "is_draft" integer DEFAULT 0 NOT NULL,
  "parent_id" text COLLATE "C" NOT NULL,
  "owner_id" bigint,
  "deleted" integer DEFAULT 0 NOT NULL,
  "present" bigint DEFAULT 0 NOT NULL,
  "is_latest" integer NOT NULL,
  "access_record" text COLLATE "C" NOT NULL,
  "access_status" text COLLATE "C" NOT NULL,
  "resource_type" text COLLATE "C",
  "resource_type_parent" text COLLATE "C",
  "languages" text COLLATE "C" DEFAULT '' NOT NULL,
  "file_types" text COLLATE "C" DEFAULT '' NOT NULL,
  "communities" text COLLATE "C" DEFAULT '' NOT NULL,
  "publication_date" text COLLATE "C",
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "created_iso" text COLLATE "C" NOT NULL,
  "updated_iso" text COLLATE "C" NOT NULL,
  "version_index" bigint NOT NULL,
  "views" bigint DEFAULT 0 NOT NULL,
  "downloads" bigint DEFAULT 0 NOT NULL
);

ALTER SEQUENCE "record_index_key_seq" OWNED BY "record_index"."key";

CREATE FUNCTION "record_index_key_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."key" IS NULL THEN NEW."key" := nextval('record_index_key_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "record_index_key_next" BEFORE INSERT ON "record_index" FOR EACH ROW EXECUTE FUNCTION "record_index_key_next"();

CREATE UNIQUE INDEX "record_index_record_draft" ON "record_index" ("record_id", "is_draft");

CREATE INDEX "record_index_parent" ON "record_index" ("parent_id", "version_index");

CREATE INDEX "record_index_latest_created" ON "record_index" ("is_latest", "created");

CREATE INDEX "record_index_latest_updated" ON "record_index" ("is_latest", "updated");

CREATE INDEX "record_index_owner" ON "record_index" ("owner_id");

CREATE INDEX "record_index_harvest" ON "record_index" ("is_draft", "access_record", "updated", "record_id");

CREATE TABLE "record_links" (
  "id" text COLLATE "C" PRIMARY KEY,
  "parent_id" text COLLATE "C" NOT NULL,
  "permission" text COLLATE "C" NOT NULL,
  "description" text COLLATE "C" DEFAULT '' NOT NULL,
  "origin" text COLLATE "C" DEFAULT '' NOT NULL,
  "token_hash" text COLLATE "C" NOT NULL,
  "expires_at" bigint,
  "created" bigint NOT NULL
);

CREATE UNIQUE INDEX "record_links_token_hash_unique" ON "record_links" ("token_hash");

CREATE INDEX "record_links_parent_idx" ON "record_links" ("parent_id");

CREATE TABLE "record_parents" (
  "id" text COLLATE "C" PRIMARY KEY,
  "owner_id" bigint,
  "latest_id" text COLLATE "C",
  "pids" json DEFAULT '{}'::json NOT NULL,
  "access_settings" json DEFAULT '{}'::json NOT NULL,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL
);

CREATE TABLE "record_terms" (
  "key" bigint NOT NULL,
  "field" text COLLATE "C" NOT NULL,
  "value" text COLLATE "C" NOT NULL
);

CREATE INDEX "record_terms_field_value" ON "record_terms" ("field", "value", "key");

CREATE INDEX "record_terms_key" ON "record_terms" ("key");

CREATE TABLE "records" (
  "id" text COLLATE "C" PRIMARY KEY,
  "parent_id" text COLLATE "C" NOT NULL,
  "owner_id" bigint,
  "is_published" integer DEFAULT 0 NOT NULL,
  "is_latest" integer DEFAULT 0 NOT NULL,
  "version_index" bigint DEFAULT 1 NOT NULL,
  "access_record" text COLLATE "C" DEFAULT 'public' NOT NULL,
  "embargo_until" text COLLATE "C",
  "document" json NOT NULL,
  "deletion_status" text COLLATE "C" DEFAULT 'P' NOT NULL,
  "tombstone" json,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL
);

CREATE INDEX "records_listing_idx" ON "records" ("is_published", "is_latest", "access_record", "created");

CREATE INDEX "records_parent_idx" ON "records" ("parent_id", "version_index");

CREATE INDEX "records_owner_idx" ON "records" ("owner_id");

CREATE INDEX "records_embargo_idx" ON "records" ("embargo_until");

CREATE TABLE "request_events" (
  "id" text COLLATE "C" PRIMARY KEY,
  "request_id" text COLLATE "C" NOT NULL,
  "type" text COLLATE "C" NOT NULL,
  "created_by_kind" text COLLATE "C" NOT NULL,
  "created_by_id" text COLLATE "C" NOT NULL,
  "payload" json NOT NULL,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL,
  "seq" bigint DEFAULT 0 NOT NULL
);

CREATE INDEX "request_events_request_idx" ON "request_events" ("request_id", "created");

CREATE TABLE "requests" (
  "id" text COLLATE "C" PRIMARY KEY,
  "number" bigint NOT NULL,
  "type" text COLLATE "C" NOT NULL,
  "title" text COLLATE "C" DEFAULT '' NOT NULL,
  "description" text COLLATE "C" DEFAULT '' NOT NULL,
  "status" text COLLATE "C" NOT NULL,
  "created_by_kind" text COLLATE "C" NOT NULL,
  "created_by_id" text COLLATE "C" NOT NULL,
  "receiver_kind" text COLLATE "C" NOT NULL,
  "receiver_id" text COLLATE "C" NOT NULL,
  "topic_kind" text COLLATE "C",
  "topic_id" text COLLATE "C",
  "payload" json DEFAULT '{}'::json NOT NULL,
  "expires_at" bigint,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL
);

CREATE UNIQUE INDEX "requests_number_unique" ON "requests" ("number");

CREATE INDEX "requests_created_by_idx" ON "requests" ("created_by_kind", "created_by_id");

CREATE INDEX "requests_receiver_idx" ON "requests" ("receiver_kind", "receiver_id");

CREATE INDEX "requests_topic_idx" ON "requests" ("topic_kind", "topic_id");

CREATE INDEX "requests_open_expiry_idx" ON "requests" ("status", "expires_at");

CREATE TABLE "saml_assertions_seen" (
  "idp" text COLLATE "C" NOT NULL,
  "assertion_id" text COLLATE "C" NOT NULL,
  "expires_at" bigint NOT NULL,
  PRIMARY KEY ("idp", "assertion_id")
);

CREATE INDEX "saml_assertions_seen_expiry_idx" ON "saml_assertions_seen" ("expires_at");

CREATE TABLE "saml_requests" (
  "request_id" text COLLATE "C" PRIMARY KEY,
  "idp" text COLLATE "C" NOT NULL,
  "browser_hash" text COLLATE "C" NOT NULL,
  "next" text COLLATE "C" NOT NULL,
  "link_user_id" bigint,
  "created" bigint NOT NULL,
  "expires_at" bigint NOT NULL
);

CREATE INDEX "saml_requests_expiry_idx" ON "saml_requests" ("expires_at");

CREATE TABLE "sessions" (
  "token_hash" text COLLATE "C" PRIMARY KEY,
  "user_id" bigint NOT NULL,
  "csrf_token" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL,
  "last_seen" bigint NOT NULL,
  "expires_at" bigint NOT NULL
);

CREATE INDEX "sessions_user_idx" ON "sessions" ("user_id");

CREATE INDEX "sessions_expiry_idx" ON "sessions" ("expires_at");

CREATE TABLE "sign_in_identities" (
  "provider" text COLLATE "C" NOT NULL,
  "subject" text COLLATE "C" NOT NULL,
  "user_id" bigint NOT NULL,
  "email" text COLLATE "C",
  "created" bigint NOT NULL,
  "last_sign_in" bigint NOT NULL,
  PRIMARY KEY ("provider", "subject")
);

CREATE INDEX "sign_in_identities_user_idx" ON "sign_in_identities" ("user_id");

CREATE TABLE "sign_in_throttles" (
  "key" text COLLATE "C" PRIMARY KEY,
  "failures" bigint NOT NULL,
  "last_attempt" bigint NOT NULL,
  "wait_until" bigint
);

CREATE INDEX "sign_in_throttles_last_attempt_idx" ON "sign_in_throttles" ("last_attempt");

CREATE SEQUENCE "sign_ins_id_seq";

CREATE TABLE "sign_ins" (
  "id" bigint DEFAULT nextval('sign_ins_id_seq') PRIMARY KEY,
  "user_id" bigint NOT NULL,
  "at" bigint NOT NULL,
  "method" text COLLATE "C" NOT NULL,
  "address" text COLLATE "C",
  "user_agent" text COLLATE "C"
);

ALTER SEQUENCE "sign_ins_id_seq" OWNED BY "sign_ins"."id";

CREATE FUNCTION "sign_ins_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('sign_ins_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "sign_ins_id_next" BEFORE INSERT ON "sign_ins" FOR EACH ROW EXECUTE FUNCTION "sign_ins_id_next"();

CREATE INDEX "sign_ins_user_idx" ON "sign_ins" ("user_id", "at");

CREATE TABLE "signing_keys" (
  "purpose" text COLLATE "C" PRIMARY KEY,
  "secret" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL
);

CREATE SEQUENCE "stats_events_id_seq";

CREATE TABLE "stats_events" (
  "id" bigint DEFAULT nextval('stats_events_id_seq') PRIMARY KEY,
  "kind" bigint NOT NULL,
  "ts" bigint NOT NULL,
  "record_id" text COLLATE "C" NOT NULL,
  "parent_id" text COLLATE "C" NOT NULL,
  "visitor" text COLLATE "C" NOT NULL,
  "file_key" text COLLATE "C",
  "bytes" bigint DEFAULT 0 NOT NULL,
  "is_machine" bigint DEFAULT 0 NOT NULL,
  "record_key" bigint,
  "visitor_key" bigint
);

ALTER SEQUENCE "stats_events_id_seq" OWNED BY "stats_events"."id";

CREATE FUNCTION "stats_events_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('stats_events_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "stats_events_id_next" BEFORE INSERT ON "stats_events" FOR EACH ROW EXECUTE FUNCTION "stats_events_id_next"();

CREATE INDEX "stats_events_ts" ON "stats_events" ("ts");

CREATE SEQUENCE "stats_keys_key_seq";

CREATE TABLE "stats_keys" (
  "key" bigint DEFAULT nextval('stats_keys_key_seq') PRIMARY KEY,
  "value" text COLLATE "C" NOT NULL
);

ALTER SEQUENCE "stats_keys_key_seq" OWNED BY "stats_keys"."key";

CREATE FUNCTION "stats_keys_key_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."key" IS NULL THEN NEW."key" := nextval('stats_keys_key_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "stats_keys_key_next" BEFORE INSERT ON "stats_keys" FOR EACH ROW EXECUTE FUNCTION "stats_keys_key_next"();

CREATE UNIQUE INDEX "stats_keys_value_unique" ON "stats_keys" ("value");

CREATE TABLE "stats_parent_daily" (
  "parent_id" text COLLATE "C" NOT NULL,
  "day" text COLLATE "C" NOT NULL,
  "views" bigint DEFAULT 0 NOT NULL,
  "unique_views" bigint DEFAULT 0 NOT NULL,
  "downloads" bigint DEFAULT 0 NOT NULL,
  "unique_downloads" bigint DEFAULT 0 NOT NULL,
  "volume" bigint DEFAULT 0 NOT NULL,
  PRIMARY KEY ("parent_id", "day")
);

CREATE TABLE "stats_record_daily" (
  "record_id" text COLLATE "C" NOT NULL,
  "day" text COLLATE "C" NOT NULL,
  "parent_id" text COLLATE "C" NOT NULL,
  "views" bigint DEFAULT 0 NOT NULL,
  "unique_views" bigint DEFAULT 0 NOT NULL,
  "downloads" bigint DEFAULT 0 NOT NULL,
  "unique_downloads" bigint DEFAULT 0 NOT NULL,
  "volume" bigint DEFAULT 0 NOT NULL,
  "unique_investigations" bigint DEFAULT 0 NOT NULL,
  "machine_downloads" bigint DEFAULT 0 NOT NULL,
  "machine_unique_downloads" bigint DEFAULT 0 NOT NULL,
  "machine_volume" bigint DEFAULT 0 NOT NULL,
  PRIMARY KEY ("record_id", "day")
);

CREATE INDEX "stats_record_daily_day" ON "stats_record_daily" ("day");

CREATE TABLE "stats_state" (
  "key" text COLLATE "C" PRIMARY KEY,
  "value" text COLLATE "C" NOT NULL
);

CREATE TABLE "stats_totals" (
  "scope" text COLLATE "C" NOT NULL,
  "id" text COLLATE "C" NOT NULL,
  "views" bigint DEFAULT 0 NOT NULL,
  "unique_views" bigint DEFAULT 0 NOT NULL,
  "downloads" bigint DEFAULT 0 NOT NULL,
  "unique_downloads" bigint DEFAULT 0 NOT NULL,
  "volume" bigint DEFAULT 0 NOT NULL,
  PRIMARY KEY ("scope", "id")
);

CREATE TABLE "storage_quotas" (
  "kind" text COLLATE "C" NOT NULL,
  "target_id" text COLLATE "C" NOT NULL,
  "quota_size" bigint NOT NULL,
  "max_file_size" bigint,
  "notes" text COLLATE "C" DEFAULT '' NOT NULL,
  "updated" bigint NOT NULL,
  "updated_by" bigint,
  PRIMARY KEY ("kind", "target_id")
);

CREATE SEQUENCE "tokens_id_seq";

CREATE TABLE "tokens" (
  "id" bigint DEFAULT nextval('tokens_id_seq') PRIMARY KEY,
  "user_id" bigint NOT NULL,
  "name" text COLLATE "C" NOT NULL,
  "secret_hash" text COLLATE "C" NOT NULL,
  "scopes" json DEFAULT '[]' NOT NULL,
  "created" bigint NOT NULL,
  "last_used" bigint,
  "expires_at" bigint,
  "revoked_at" bigint
);

ALTER SEQUENCE "tokens_id_seq" OWNED BY "tokens"."id";

CREATE FUNCTION "tokens_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('tokens_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "tokens_id_next" BEFORE INSERT ON "tokens" FOR EACH ROW EXECUTE FUNCTION "tokens_id_next"();

CREATE UNIQUE INDEX "tokens_secret_hash_unique" ON "tokens" ("secret_hash");

CREATE INDEX "tokens_user_idx" ON "tokens" ("user_id");

CREATE SEQUENCE "users_id_seq";

CREATE TABLE "users" (
  "id" bigint DEFAULT nextval('users_id_seq') PRIMARY KEY,
  "email" text COLLATE "C" NOT NULL,
  "username" text COLLATE "C",
  "password_hash" text COLLATE "C",
  "full_name" text COLLATE "C" DEFAULT '' NOT NULL,
  "affiliations" text COLLATE "C" DEFAULT '' NOT NULL,
  "orcid" text COLLATE "C",
  "is_admin" integer DEFAULT 0 NOT NULL,
  "active" integer DEFAULT 1 NOT NULL,
  "confirmed_at" bigint,
  "blocked_at" bigint,
  "verified_at" bigint,
  "is_placeholder" integer DEFAULT 0 NOT NULL,
  "visibility" text COLLATE "C" DEFAULT 'restricted' NOT NULL,
  "email_visibility" text COLLATE "C" DEFAULT 'restricted' NOT NULL,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL
);

ALTER SEQUENCE "users_id_seq" OWNED BY "users"."id";

CREATE FUNCTION "users_id_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."id" IS NULL THEN NEW."id" := nextval('users_id_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "users_id_next" BEFORE INSERT ON "users" FOR EACH ROW EXECUTE FUNCTION "users_id_next"();

CREATE UNIQUE INDEX "users_email_unique" ON "users" ((lower("email")));

CREATE UNIQUE INDEX "users_username_unique" ON "users" ((lower("username")));

CREATE TABLE "vocabulary_counts" (
  "type" text COLLATE "C" PRIMARY KEY,
  "entries" bigint DEFAULT 0 NOT NULL
);

CREATE SEQUENCE "vocabulary_entries_pk_seq";

CREATE TABLE "vocabulary_entries" (
  "pk" bigint DEFAULT nextval('vocabulary_entries_pk_seq') PRIMARY KEY,
  "type" text COLLATE "C" NOT NULL,
  "id" text COLLATE "C" NOT NULL,
  "data" json NOT NULL,
  "sort_key" text COLLATE "C" NOT NULL,
  "created" bigint NOT NULL,
  "updated" bigint NOT NULL,
  "revision_id" bigint DEFAULT 1 NOT NULL,
  "retired_at" bigint
);

ALTER SEQUENCE "vocabulary_entries_pk_seq" OWNED BY "vocabulary_entries"."pk";

CREATE FUNCTION "vocabulary_entries_pk_next"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."pk" IS NULL THEN NEW."pk" := nextval('vocabulary_entries_pk_seq'); END IF; RETURN NEW; END $$;

CREATE TRIGGER "vocabulary_entries_pk_next" BEFORE INSERT ON "vocabulary_entries" FOR EACH ROW EXECUTE FUNCTION "vocabulary_entries_pk_next"();

CREATE UNIQUE INDEX "vocabulary_entries_type_id" ON "vocabulary_entries" ("type", "id");

CREATE INDEX "vocabulary_entries_sort" ON "vocabulary_entries" ("type", "sort_key");

CREATE INDEX "vocabulary_entries_created" ON "vocabulary_entries" ("type", "created");

ALTER TABLE "account_tokens" ADD FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE;

ALTER TABLE "community_members" ADD FOREIGN KEY ("community_id") REFERENCES "communities" ("id") ON DELETE CASCADE;

ALTER TABLE "community_members" ADD FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE;

ALTER TABLE "community_members" ADD FOREIGN KEY ("group_id") REFERENCES "groups" ("id") ON DELETE CASCADE;

ALTER TABLE "drafts" ADD FOREIGN KEY ("owner_id") REFERENCES "users" ("id");

ALTER TABLE "featured_communities" ADD FOREIGN KEY ("community_id") REFERENCES "communities" ("id") ON DELETE CASCADE;

ALTER TABLE "file_entries" ADD FOREIGN KEY ("object_id") REFERENCES "file_objects" ("id");

ALTER TABLE "file_parts" ADD FOREIGN KEY ("entry_id") REFERENCES "file_entries" ("id") ON DELETE CASCADE;

ALTER TABLE "file_uploads" ADD FOREIGN KEY ("entry_id") REFERENCES "file_entries" ("id") ON DELETE CASCADE;

ALTER TABLE "group_members" ADD FOREIGN KEY ("group_id") REFERENCES "groups" ("id") ON DELETE CASCADE;

ALTER TABLE "group_members" ADD FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE;

ALTER TABLE "pending_sign_ins" ADD FOREIGN KEY ("link_user_id") REFERENCES "users" ("id") ON DELETE CASCADE;

ALTER TABLE "record_communities" ADD FOREIGN KEY ("parent_id") REFERENCES "record_parents" ("id") ON DELETE CASCADE;

ALTER TABLE "record_communities" ADD FOREIGN KEY ("community_id") REFERENCES "communities" ("id") ON DELETE CASCADE;

ALTER TABLE "record_grants" ADD FOREIGN KEY ("parent_id") REFERENCES "record_parents" ("id") ON DELETE CASCADE;

ALTER TABLE "record_links" ADD FOREIGN KEY ("parent_id") REFERENCES "record_parents" ("id") ON DELETE CASCADE;

ALTER TABLE "record_parents" ADD FOREIGN KEY ("owner_id") REFERENCES "users" ("id");

ALTER TABLE "records" ADD FOREIGN KEY ("owner_id") REFERENCES "users" ("id");

ALTER TABLE "request_events" ADD FOREIGN KEY ("request_id") REFERENCES "requests" ("id") ON DELETE CASCADE;

ALTER TABLE "saml_requests" ADD FOREIGN KEY ("link_user_id") REFERENCES "users" ("id") ON DELETE CASCADE;

ALTER TABLE "sessions" ADD FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE;

ALTER TABLE "sign_in_identities" ADD FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE;

ALTER TABLE "sign_ins" ADD FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE;

ALTER TABLE "tokens" ADD FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE;
