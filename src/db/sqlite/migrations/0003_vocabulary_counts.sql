CREATE TABLE `vocabulary_counts` (
	`type` text PRIMARY KEY NOT NULL,
	`entries` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `vocabulary_counts` (`type`, `entries`) SELECT `type`, count(*) FROM `vocabulary_entries` GROUP BY `type`;
