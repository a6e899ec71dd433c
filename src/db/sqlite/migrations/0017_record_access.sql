CREATE TABLE `access_verifications` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`record_id` text NOT NULL,
	`email` text NOT NULL,
	`full_name` text DEFAULT '' NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`consent` integer DEFAULT false NOT NULL,
	`created` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `access_verifications_expiry_idx` ON `access_verifications` (`expires_at`);--> statement-breakpoint
CREATE TABLE `record_grants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`parent_id` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`permission` text NOT NULL,
	`origin` text DEFAULT '' NOT NULL,
	`message` text,
	`expires_at` integer,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	FOREIGN KEY (`parent_id`) REFERENCES `record_parents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `record_grants_subject_idx` ON `record_grants` (`parent_id`,`subject_type`,`subject_id`);--> statement-breakpoint
CREATE INDEX `record_grants_holder_idx` ON `record_grants` (`subject_type`,`subject_id`);--> statement-breakpoint
CREATE TABLE `record_links` (
	`id` text PRIMARY KEY NOT NULL,
	`parent_id` text NOT NULL,
	`permission` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`origin` text DEFAULT '' NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer,
	`created` integer NOT NULL,
	FOREIGN KEY (`parent_id`) REFERENCES `record_parents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `record_links_token_hash_unique` ON `record_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `record_links_parent_idx` ON `record_links` (`parent_id`);--> statement-breakpoint
CREATE TABLE `signing_keys` (
	`purpose` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `record_parents` ADD `access_settings` text DEFAULT '{}' NOT NULL;