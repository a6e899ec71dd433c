CREATE TABLE `external_sign_ups` (
	`ticket_hash` text PRIMARY KEY NOT NULL,
	`mail_hash` text,
	`provider` text NOT NULL,
	`subject` text NOT NULL,
	`full_name` text NOT NULL,
	`orcid` text,
	`email` text,
	`next` text NOT NULL,
	`created` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `external_sign_ups_mail_hash_unique` ON `external_sign_ups` (`mail_hash`);--> statement-breakpoint
CREATE INDEX `external_sign_ups_expiry_idx` ON `external_sign_ups` (`expires_at`);--> statement-breakpoint
CREATE TABLE `pending_sign_ins` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`browser_hash` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`next` text NOT NULL,
	`created` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pending_sign_ins_expiry_idx` ON `pending_sign_ins` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sign_in_identities` (
	`provider` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` integer NOT NULL,
	`email` text,
	`created` integer NOT NULL,
	`last_sign_in` integer NOT NULL,
	PRIMARY KEY(`provider`, `subject`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sign_in_identities_user_idx` ON `sign_in_identities` (`user_id`);