CREATE TABLE `storage_quotas` (
	`kind` text NOT NULL,
	`target_id` text NOT NULL,
	`quota_size` integer NOT NULL,
	`max_file_size` integer,
	`notes` text DEFAULT '' NOT NULL,
	`updated` integer NOT NULL,
	`updated_by` integer,
	PRIMARY KEY(`kind`, `target_id`)
);
--> statement-breakpoint
CREATE TABLE `sign_ins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`at` integer NOT NULL,
	`method` text NOT NULL,
	`address` text,
	`user_agent` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sign_ins_user_idx` ON `sign_ins` (`user_id`,`at`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `progress` text;--> statement-breakpoint
ALTER TABLE `users` ADD `is_placeholder` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `vocabulary_entries` ADD `retired_at` integer;--> statement-breakpoint
ALTER TABLE `featured_communities` ADD `end_date` integer;