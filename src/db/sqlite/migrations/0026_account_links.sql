ALTER TABLE `external_sign_ups` ADD `purpose` text DEFAULT 'sign-up' NOT NULL;--> statement-breakpoint
ALTER TABLE `pending_sign_ins` ADD `link_user_id` integer REFERENCES users(id) ON DELETE cascade;