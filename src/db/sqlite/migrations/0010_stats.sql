CREATE TABLE `stats_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` integer NOT NULL,
	`ts` integer NOT NULL,
	`record_id` text NOT NULL,
	`parent_id` text NOT NULL,
	`visitor` text NOT NULL,
	`file_key` text,
	`bytes` integer DEFAULT 0 NOT NULL,
	`is_machine` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `stats_events_ts` ON `stats_events` (`ts`);--> statement-breakpoint
CREATE TABLE `stats_parent_daily` (
	`parent_id` text NOT NULL,
	`day` text NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`unique_views` integer DEFAULT 0 NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL,
	`unique_downloads` integer DEFAULT 0 NOT NULL,
	`volume` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`parent_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `stats_record_daily` (
	`record_id` text NOT NULL,
	`day` text NOT NULL,
	`parent_id` text NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`unique_views` integer DEFAULT 0 NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL,
	`unique_downloads` integer DEFAULT 0 NOT NULL,
	`volume` integer DEFAULT 0 NOT NULL,
	`unique_investigations` integer DEFAULT 0 NOT NULL,
	`machine_downloads` integer DEFAULT 0 NOT NULL,
	`machine_unique_downloads` integer DEFAULT 0 NOT NULL,
	`machine_volume` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`record_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `stats_record_daily_day` ON `stats_record_daily` (`day`);--> statement-breakpoint
CREATE TABLE `stats_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `stats_totals` (
	`scope` text NOT NULL,
	`id` text NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`unique_views` integer DEFAULT 0 NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL,
	`unique_downloads` integer DEFAULT 0 NOT NULL,
	`volume` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`scope`, `id`)
) WITHOUT ROWID;
