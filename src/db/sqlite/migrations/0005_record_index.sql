CREATE TABLE `record_index` (
	`key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`record_id` text NOT NULL,
	`parent_id` text NOT NULL,
	`owner_id` integer,
	`is_latest` integer NOT NULL,
	`access_record` text NOT NULL,
	`access_status` text NOT NULL,
	`resource_type` text,
	`resource_type_parent` text,
	`publication_date` text,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`created_iso` text NOT NULL,
	`updated_iso` text NOT NULL,
	`version_index` integer NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `record_index_record` ON `record_index` (`record_id`);--> statement-breakpoint
CREATE INDEX `record_index_parent` ON `record_index` (`parent_id`,`version_index`);--> statement-breakpoint
CREATE INDEX `record_index_latest_created` ON `record_index` (`is_latest`,`created`);--> statement-breakpoint
CREATE INDEX `record_index_latest_updated` ON `record_index` (`is_latest`,`updated`);--> statement-breakpoint
CREATE INDEX `record_index_owner` ON `record_index` (`owner_id`);--> statement-breakpoint
CREATE TABLE `record_terms` (
	`key` integer NOT NULL,
	`field` text NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `record_terms_field_value` ON `record_terms` (`field`,`value`,`key`);--> statement-breakpoint
CREATE INDEX `record_terms_key` ON `record_terms` (`key`);