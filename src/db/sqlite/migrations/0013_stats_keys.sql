CREATE TABLE `stats_keys` (
	`key` integer PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stats_keys_value_unique` ON `stats_keys` (`value`);--> statement-breakpoint
ALTER TABLE `stats_events` ADD `record_key` integer;--> statement-breakpoint
ALTER TABLE `stats_events` ADD `visitor_key` integer;