CREATE TABLE `drafts` (
	`id` text PRIMARY KEY NOT NULL,
	`parent_id` text NOT NULL,
	`owner_id` integer,
	`version_index` integer DEFAULT 1 NOT NULL,
	`document` text NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`revision_id` integer DEFAULT 1 NOT NULL,
	`expires_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `drafts_parent_idx` ON `drafts` (`parent_id`);--> statement-breakpoint
CREATE INDEX `drafts_owner_idx` ON `drafts` (`owner_id`,`updated`);--> statement-breakpoint
CREATE TABLE `record_parents` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` integer,
	`latest_id` text,
	`pids` text DEFAULT '{}' NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`revision_id` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `records` ADD `embargo_until` text;--> statement-breakpoint
CREATE INDEX `records_embargo_idx` ON `records` (`embargo_until`);