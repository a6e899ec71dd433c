ALTER TABLE `request_events` ADD `seq` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Events written so far keep the order SQLite wrote them in.
UPDATE `request_events` SET `seq` = rowid;
