// Vocabulary entries as stored and imported: the generic controlled lists and the five
import { t } from "elysia";
// specific directories (funders, names, affiliations, subjects, awards).

export type Localized = Record<string, string>;
export interface Identifier {
  scheme: string;
  identifier: string;
}

/** Controlled lists served at /api/vocabularies/{type}. */
export const GENERIC_TYPES = [
  "resourcetypes",
  "languages",
  "licenses",
  "creatorsroles",
  "contributorsroles",
  "titletypes",
  "descriptiontypes",
  "datetypes",
  "relationtypes",
  "communitytypes",
  "removalreasons",
] as const;

/** Directories with their own endpoints (/api/funders ...) and dump importers. */
export const SPECIFIC_TYPES = ["funders", "names", "affiliations", "subjects", "awards"] as const;

export type GenericType = (typeof GENERIC_TYPES)[number];
export type SpecificType = (typeof SPECIFIC_TYPES)[number];
export type VocabularyType = GenericType | SpecificType;

export interface GenericEntry {
  id: string;
  title: Localized;
  description?: Localized;
  icon?: string;
  props?: Record<string, string>;
  tags?: string[];
}

export interface FunderEntry {
  id: string;
  name: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
  acronym?: string;
  identifiers: Identifier[];
  title: Localized;
}

export interface NameEntry {
  id: string;
  given_name?: string;
  family_name?: string;
  /** `family, given` for people; computed when not given. */
  name?: string;
  identifiers: Identifier[];
  affiliations: { id?: string; name: string }[];
}

export interface AffiliationEntry {
  id: string;
  name: string;
  acronym?: string;
  country?: string;
  identifiers: Identifier[];
  title: Localized;
}

export interface SubjectEntry {
  id: string;
  scheme: string;
  subject: string;
}

export interface AwardEntry {
  /** `<funder id>::<number>` */
  id: string;
  number: string;
  title: Localized;
  acronym?: string;
  program?: string;
  funder: { id: string; name?: string };
  identifiers: Identifier[];
}

export interface EntryByType {
  funders: FunderEntry;
  names: NameEntry;
  affiliations: AffiliationEntry;
  subjects: SubjectEntry;
  awards: AwardEntry;
}

export interface EditRule {
  /** New entries may be added. */
  add: boolean;
  /** Entries may be retired (and offered again). */
  retire: boolean;
  /** Which fields an edit may change: the whole entry, or its labels (`title`) only. */
  fields: "entry" | "title";
}

/** The types whose entries come from a dump file (the import job's types). */
export const IMPORTABLE_TYPES = ["affiliations", "funders", "names", "awards", "subjects"] as const;
export type ImportableType = (typeof IMPORTABLE_TYPES)[number];
export const isImportableType = (type: string): type is ImportableType => (IMPORTABLE_TYPES as readonly string[]).includes(type);

/** The types a publisher's latest release can be downloaded for (InvenioRDM's `--origin ror-http`). */
export const RELEASE_TYPES = ["affiliations", "funders"] as const;
export type ReleaseType = (typeof RELEASE_TYPES)[number];
export const isReleaseType = (type: string): type is ReleaseType => (RELEASE_TYPES as readonly string[]).includes(type);

/** A stored entry of any type as read back for records and exports: its `title`, `props`, `name`... */
export interface VocabularyEntry {
  title?: Record<string, string>;
  props?: Record<string, string>;
  [member: string]: any;
}

/**
 * The vocabularies service's `lookup`: an entry (`resourcetypes`, `licenses`, `funders`...) by id;
 * null (or undefined) when the id does not exist. Records validate against it, exports and DOIs
 * read titles and props from it. The service's answers a Promise (it reads the database); a
 * fixed in-memory lookup (tests, previews) may answer at once, so callers await either.
 */
export type VocabularyLookup = ((type: string, id: string) => Promise<VocabularyEntry | null | undefined> | VocabularyEntry | null | undefined) & {
  /**
   * The entry this lookup last answered for (type, id), the same object while its stored data is
   * unchanged: a guess that lets a check run before reading, confirmed by reading (entries.ts).
   */
  recent?(type: string, id: string): VocabularyEntry | undefined;
};

/** A stored vocabulary_entries row, as the store and the search engine read it. */
export interface EntryRow {
  pk: number;
  type: string;
  id: string;
  data: string;
  created: number;
  updated: number;
  revision_id: number;
  /** When it was retired (null: offered); read with the entry by id, not by searches. */
  retired_at?: number | null;
}

/** What an importer yields for each source item: an entry to write, or why it was skipped. */
export type ImportItem<E> = { entry: E } | { skip: string };

/** Query parameters of vocabulary searches; values are checked by the service. */
export const vocabularySearchQuery = t.Object(
  {
    q: t.Optional(t.String()),
    suggest: t.Optional(t.String()),
    tags: t.Optional(t.Union([t.String(), t.Array(t.String())])),
    sort: t.Optional(t.String()),
    size: t.Optional(t.String()),
    page: t.Optional(t.String()),
  },
  { additionalProperties: true },
);
