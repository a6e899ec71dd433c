-- Full-text indexes of vocabulary entries, one per kind so a search never wades through another
-- type's rows. Contentless (the text lives in vocabulary_entries.data) with contentless_delete so
-- rows can be replaced by rowid = vocabulary_entries.pk. Prefix indexes serve search-as-you-type.
CREATE VIRTUAL TABLE `vocab_generic_fts` USING fts5(title, ident, description, tags, content='', contentless_delete=1, prefix='2 3', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `vocab_names_fts` USING fts5(name, given_name, family_name, affiliations, identifiers, content='', contentless_delete=1, prefix='2 3', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `vocab_funders_fts` USING fts5(name, acronym, title, country, identifiers, content='', contentless_delete=1, prefix='2 3', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `vocab_affiliations_fts` USING fts5(name, acronym, title, country, identifiers, content='', contentless_delete=1, prefix='2 3', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `vocab_subjects_fts` USING fts5(subject, scheme, ident, content='', contentless_delete=1, prefix='2 3', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `vocab_awards_fts` USING fts5(title, number, acronym, funder, identifiers, content='', contentless_delete=1, prefix='2 3', tokenize='unicode61 remove_diacritics 2');
