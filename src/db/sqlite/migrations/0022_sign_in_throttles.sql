CREATE TABLE `sign_in_throttles` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`last_attempt` integer NOT NULL,
	`wait_until` integer
);
--> statement-breakpoint
CREATE INDEX `sign_in_throttles_last_attempt_idx` ON `sign_in_throttles` (`last_attempt`);--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `failed_logins`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `locked_until`;