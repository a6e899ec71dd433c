ALTER TABLE `records` ADD `deletion_status` text DEFAULT 'P' NOT NULL;--> statement-breakpoint
ALTER TABLE `records` ADD `tombstone` text;--> statement-breakpoint
ALTER TABLE `record_index` ADD `deleted` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `record_index` ADD `present` integer DEFAULT 0 NOT NULL;