CREATE TABLE `communities` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`visibility` text NOT NULL,
	`member_policy` text NOT NULL,
	`record_policy` text NOT NULL,
	`metadata` text NOT NULL,
	`logo_object_id` text,
	`logo_mimetype` text,
	`logo_size` integer,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`revision_id` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `communities_slug_unique` ON `communities` (lower("slug"));--> statement-breakpoint
CREATE INDEX `communities_created_idx` ON `communities` (`created`);--> statement-breakpoint
CREATE TABLE `community_members` (
	`id` text PRIMARY KEY NOT NULL,
	`community_id` text NOT NULL,
	`user_id` integer,
	`group_id` text,
	`role` text NOT NULL,
	`visible` integer DEFAULT true NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`revision_id` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_members_user_unique` ON `community_members` (`community_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `community_members_group_unique` ON `community_members` (`community_id`,`group_id`);--> statement-breakpoint
CREATE INDEX `community_members_user_idx` ON `community_members` (`user_id`);--> statement-breakpoint
CREATE INDEX `community_members_group_idx` ON `community_members` (`group_id`);--> statement-breakpoint
CREATE TABLE `featured_communities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`community_id` text NOT NULL,
	`start_date` integer NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `featured_communities_start_idx` ON `featured_communities` (`start_date`);--> statement-breakpoint
CREATE INDEX `featured_communities_community_idx` ON `featured_communities` (`community_id`);--> statement-breakpoint
CREATE TABLE `request_events` (
	`id` text PRIMARY KEY NOT NULL,
	`request_id` text NOT NULL,
	`type` text NOT NULL,
	`created_by_kind` text NOT NULL,
	`created_by_id` text NOT NULL,
	`payload` text NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`revision_id` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `request_events_request_idx` ON `request_events` (`request_id`,`created`);--> statement-breakpoint
CREATE TABLE `requests` (
	`id` text PRIMARY KEY NOT NULL,
	`number` integer NOT NULL,
	`type` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`created_by_kind` text NOT NULL,
	`created_by_id` text NOT NULL,
	`receiver_kind` text NOT NULL,
	`receiver_id` text NOT NULL,
	`topic_kind` text,
	`topic_id` text,
	`payload` text DEFAULT '{}' NOT NULL,
	`expires_at` integer,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`revision_id` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `requests_number_unique` ON `requests` (`number`);--> statement-breakpoint
CREATE INDEX `requests_created_by_idx` ON `requests` (`created_by_kind`,`created_by_id`);--> statement-breakpoint
CREATE INDEX `requests_receiver_idx` ON `requests` (`receiver_kind`,`receiver_id`);--> statement-breakpoint
CREATE INDEX `requests_topic_idx` ON `requests` (`topic_kind`,`topic_id`);--> statement-breakpoint
CREATE INDEX `requests_open_expiry_idx` ON `requests` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`topic` text DEFAULT '' NOT NULL,
	`created` integer NOT NULL,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_pending_idx` ON `mail_outbox` (`sent_at`,`id`);--> statement-breakpoint
CREATE INDEX `mail_outbox_topic_idx` ON `mail_outbox` (`topic`);