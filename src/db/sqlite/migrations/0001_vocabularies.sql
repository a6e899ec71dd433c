CREATE TABLE `fixture_versions` (
	`name` text PRIMARY KEY NOT NULL,
	`version` text NOT NULL,
	`loaded_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `vocabulary_entries` (
	`pk` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`id` text NOT NULL,
	`data` text NOT NULL,
	`sort_key` text NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`revision_id` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vocabulary_entries_type_id` ON `vocabulary_entries` (`type`,`id`);--> statement-breakpoint
CREATE INDEX `vocabulary_entries_sort` ON `vocabulary_entries` (`type`,`sort_key`);--> statement-breakpoint
CREATE INDEX `vocabulary_entries_created` ON `vocabulary_entries` (`type`,`created`);