CREATE TABLE `oai_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`spec` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`search_pattern` text NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oai_sets_spec_unique` ON `oai_sets` (`spec`);--> statement-breakpoint
CREATE INDEX `oai_sets_name_idx` ON `oai_sets` (`name`);--> statement-breakpoint
CREATE TABLE `oai_token_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`secret` text NOT NULL,
	`created` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `oai_tombstones` (
	`record_id` text PRIMARY KEY NOT NULL,
	`datestamp` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oai_tombstones_datestamp_idx` ON `oai_tombstones` (`datestamp`,`record_id`);--> statement-breakpoint
CREATE INDEX `record_index_harvest` ON `record_index` (`is_draft`,`access_record`,`updated`,`record_id`);