CREATE TABLE `file_uploads` (
	`entry_id` integer PRIMARY KEY NOT NULL,
	`object_id` text NOT NULL,
	`upload_id` text NOT NULL,
	`created` integer NOT NULL,
	FOREIGN KEY (`entry_id`) REFERENCES `file_entries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `file_parts` ADD `etag` text;