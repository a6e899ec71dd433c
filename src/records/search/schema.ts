// How record queries map onto the index, for every engine: full-text fields (the columns of the
// full-text index record_fts), exact keyword fields (record_terms), range columns (record_index),
// and the short names clients use.
import type { SearchSchema } from "../../search/compile";

/** Full-text fields and the record_fts column each is indexed in. */
const FULL_TEXT_COLUMNS: Record<string, string> = {
  "metadata.title": "title",
  "metadata.additional_titles.title": "title",
  "metadata.description": "description",
  "metadata.additional_descriptions.description": "description",
  "metadata.creators.person_or_org.name": "creators",
  "metadata.creators.person_or_org.given_name": "creators",
  "metadata.creators.person_or_org.family_name": "creators",
  "metadata.creators.affiliations.name": "creators",
  "metadata.contributors.person_or_org.name": "creators",
  "metadata.subjects.subject": "subjects",
  "metadata.publisher": "other",
  "metadata.version": "other",
  "metadata.funding.funder.name": "other",
};

export const RECORD_SEARCH_SCHEMA: SearchSchema = {
  key: "r.key",
  fts: {
    table: "record_fts",
    columns: FULL_TEXT_COLUMNS,
    defaultColumns: null,
    // A bit per full-text field the record has a value for (document.ts), in the order of `columns` above.
    presence: { column: "r.present", fields: Object.keys(FULL_TEXT_COLUMNS) },
  },
  keywords: {
    table: "record_terms",
    keyColumn: "key",
    fields: Object.fromEntries(
      [
        "id",
        "parent.id",
        "pids.doi.identifier",
        "parent.pids.doi.identifier",
        "parent.communities.ids",
        "access.record",
        "access.files",
        "metadata.resource_type.id",
        "metadata.languages.id",
        "metadata.rights.id",
        "metadata.subjects.id",
        "metadata.creators.person_or_org.identifiers.identifier",
        "metadata.creators.affiliations.id",
        "metadata.funding.funder.id",
        "metadata.funding.award.id",
        "metadata.identifiers.identifier",
        "metadata.related_identifiers.identifier",
      ].map((f) => [f, f]),
    ),
  },
  columns: {
    "metadata.publication_date": "r.publication_date",
    created: "r.created_iso",
    updated: "r.updated_iso",
    "versions.index": "r.version_index",
    "access.status": "r.access_status",
    "stats.all_versions.unique_views": "r.views",
    "stats.all_versions.unique_downloads": "r.downloads",
  },
  aliases: {
    doi: "pids.doi.identifier",
    conceptdoi: "parent.pids.doi.identifier",
    recid: "id",
    conceptrecid: "parent.id",
    title: "metadata.title",
    description: "metadata.description",
    "creators.name": "metadata.creators.person_or_org.name",
    "creators.orcid": "metadata.creators.person_or_org.identifiers.identifier",
    "creators.affiliation": "metadata.creators.affiliations.name",
    keywords: "metadata.subjects.subject",
    subjects: "metadata.subjects.subject",
    publication_date: "metadata.publication_date",
    resource_type: "metadata.resource_type.id",
    "resource_type.id": "metadata.resource_type.id",
    language: "metadata.languages.id",
    publisher: "metadata.publisher",
    version: "metadata.version",
    access_status: "access.status",
    communities: "parent.communities.ids",
  },
};
