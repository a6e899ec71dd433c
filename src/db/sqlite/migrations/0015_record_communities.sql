CREATE TABLE `record_communities` (
	`parent_id` text NOT NULL,
	`community_id` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created` integer NOT NULL,
	PRIMARY KEY(`parent_id`, `community_id`),
	FOREIGN KEY (`parent_id`) REFERENCES `record_parents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `record_communities_community_idx` ON `record_communities` (`community_id`,`parent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `record_communities_one_default` ON `record_communities` (`parent_id`) WHERE is_default = 1;