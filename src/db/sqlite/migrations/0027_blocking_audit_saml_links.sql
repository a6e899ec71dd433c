CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_id` integer,
	`actor_label` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`details` text NOT NULL,
	`address` text,
	`via` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target_type`,`target_id`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `blocked_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `verified_at` integer;--> statement-breakpoint
ALTER TABLE `saml_requests` ADD `link_user_id` integer REFERENCES users(id) ON DELETE cascade;