ALTER TABLE `records` ADD `deletion_status` text DEFAULT 'P' NOT NULL;--> statement-breakpoint
ALTER TABLE `records` ADD `tombstone` text;