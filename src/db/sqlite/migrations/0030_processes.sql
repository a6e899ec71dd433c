CREATE TABLE `server_instances` (
	`name` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`pid` integer NOT NULL,
	`started_at` integer NOT NULL,
	`seen_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `search_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rate_counts` (
	`key` text PRIMARY KEY NOT NULL,
	`window_index` integer NOT NULL,
	`count` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_counts_expires_idx` ON `rate_counts` (`expires_at`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `file_parts` ADD `host` text;