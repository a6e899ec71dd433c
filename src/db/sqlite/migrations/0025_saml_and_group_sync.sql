CREATE TABLE `saml_assertions_seen` (
	`idp` text NOT NULL,
	`assertion_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`idp`, `assertion_id`)
);
--> statement-breakpoint
CREATE INDEX `saml_assertions_seen_expiry_idx` ON `saml_assertions_seen` (`expires_at`);--> statement-breakpoint
CREATE TABLE `saml_requests` (
	`request_id` text PRIMARY KEY NOT NULL,
	`idp` text NOT NULL,
	`browser_hash` text NOT NULL,
	`next` text NOT NULL,
	`created` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `saml_requests_expiry_idx` ON `saml_requests` (`expires_at`);--> statement-breakpoint
ALTER TABLE `group_members` ADD `source` text;