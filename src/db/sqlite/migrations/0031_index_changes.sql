CREATE TABLE `index_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`keys` text
);--> statement-breakpoint
DROP TABLE `search_state`;