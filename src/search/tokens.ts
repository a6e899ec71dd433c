// How full text is cut into terms, as SQLite's FTS5 tokenizer (unicode61 remove_diacritics 2)
// cuts it: runs of letters, digits and private-use characters, lower-cased, diacritics removed.
// Wildcard patterns are cut the same way (wildcards.ts), and the PostgreSQL engine builds its
// tsvectors and tsqueries from these terms, so both engines index and search the same words.

/** As the tokenizer stores terms: lower case, no diacritics. */
export const foldTerm = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Characters the tokenizer does not keep in a term: they separate words. */
export const SEPARATORS = /[^\p{L}\p{N}\p{Co}]+/u;

/** The terms of a text, in order. */
export const termsOf = (text: string): string[] => foldTerm(text).split(SEPARATORS).filter(Boolean);
