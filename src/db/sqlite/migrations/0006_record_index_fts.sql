-- Full-text index of published records, keyed by record_index.key. Title counts most in ranking.
CREATE VIRTUAL TABLE `record_fts` USING fts5(title, description, creators, subjects, other, content='', contentless_delete=1, prefix='2 3', tokenize='unicode61 remove_diacritics 2');
