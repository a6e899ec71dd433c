-- SQLite's 0030_processes: the serving processes, which one claimed a job, the SQLite index's write count, the shared rate-limit counts, and which machine holds a multipart part.
CREATE TABLE "server_instances" (
  "name" text COLLATE "C" PRIMARY KEY,
  "host" text COLLATE "C" NOT NULL,
  "pid" bigint NOT NULL,
  "started_at" bigint NOT NULL,
  "seen_at" bigint NOT NULL
);

-- Written by SQLite's search index only (its in-memory copy's count of index writes); here for one schema.
CREATE TABLE "search_state" (
  "key" text COLLATE "C" PRIMARY KEY,
  "value" bigint NOT NULL
);

CREATE TABLE "rate_counts" (
  "key" text COLLATE "C" PRIMARY KEY,
  "window_index" bigint NOT NULL,
  "count" bigint NOT NULL,
  "expires_at" bigint NOT NULL
);

CREATE INDEX "rate_counts_expires_idx" ON "rate_counts" ("expires_at");

ALTER TABLE "jobs" ADD "claimed_by" text COLLATE "C";

ALTER TABLE "file_parts" ADD "host" text COLLATE "C";
