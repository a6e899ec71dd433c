CREATE TABLE `file_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`record_id` text NOT NULL,
	`is_draft` integer NOT NULL,
	`key` text NOT NULL,
	`object_id` text,
	`status` text NOT NULL,
	`storage_class` text DEFAULT 'L' NOT NULL,
	`uri` text,
	`metadata` text,
	`mimetype` text,
	`declared_size` integer,
	`declared_checksum` text,
	`transfer` text NOT NULL,
	`version_id` text NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	FOREIGN KEY (`object_id`) REFERENCES `file_objects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `file_entries_key_idx` ON `file_entries` (`record_id`,`is_draft`,`key`);--> statement-breakpoint
CREATE INDEX `file_entries_object_idx` ON `file_entries` (`object_id`);--> statement-breakpoint
CREATE TABLE `file_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`size` integer NOT NULL,
	`checksum` text NOT NULL,
	`created` integer NOT NULL,
	`verified_at` integer,
	`verify_error` text
);
--> statement-breakpoint
CREATE TABLE `file_parts` (
	`entry_id` integer NOT NULL,
	`part` integer NOT NULL,
	`size` integer NOT NULL,
	`path` text NOT NULL,
	`created` integer NOT NULL,
	PRIMARY KEY(`entry_id`, `part`),
	FOREIGN KEY (`entry_id`) REFERENCES `file_entries`(`id`) ON UPDATE no action ON DELETE cascade
);
