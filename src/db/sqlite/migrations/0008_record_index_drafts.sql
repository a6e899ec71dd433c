DROP INDEX `record_index_record`;--> statement-breakpoint
ALTER TABLE `record_index` ADD `is_draft` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `record_index_record_draft` ON `record_index` (`record_id`,`is_draft`);