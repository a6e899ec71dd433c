ALTER TABLE `communities` ADD `members_visibility` text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE `communities` ADD `review_policy` text DEFAULT 'closed' NOT NULL;--> statement-breakpoint
-- Communities made before review_policy keep how their record_policy treated submissions: open let every member's records in without review.
UPDATE `communities` SET `review_policy` = CASE `record_policy` WHEN 'open' THEN 'members' ELSE 'closed' END;
