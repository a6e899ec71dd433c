// Per-type search settings: which text columns an entry's index row holds, the field names clients
// query by, the columns search-as-you-type looks at, their relevance weights, and the sorts (the
// indexes themselves: sqlite/fts.ts, postgres/index.ts).
import { GENERIC_TYPES, SPECIFIC_TYPES, type VocabularyType } from "./model";

type Entry = Record<string, any>;

export interface Kind {
  columns: string[];
  /** Query fields (InvenioRDM's names) -> column. */
  fields: Record<string, string>;
  suggestColumns: string[];
  /** Relevance weight of each column, in `columns` order: the name/title counts most. */
  weights: number[];
  /** Column texts, in `columns` order. */
  texts(entry: Entry): string[];
  sortKey(entry: Entry): string;
  /** Sort options besides bestmatch/newest/oldest, and the default without q. */
  nameSort: "title" | "name" | "subject";
  /** Base of the entry's links.self. */
  path(type: string): string;
}

const join = (values: unknown[]) => values.filter((v) => typeof v === "string" && v).join(" ");
const identifiers = (e: Entry) => join((e.identifiers ?? []).map((i: { identifier?: string }) => i.identifier));
const localized = (title: unknown) => (title && typeof title === "object" ? join(Object.values(title)) : "");
const firstTitle = (e: Entry) => (e.title?.en ?? Object.values(e.title ?? {})[0] ?? e.id ?? "") as string;

const generic: Kind = {
  columns: ["title", "ident", "description", "tags"],
  fields: { title: "title", "title.en": "title", id: "ident", description: "description", tags: "tags", "props.subtype": "ident" },
  suggestColumns: ["title", "ident"],
  weights: [10, 5, 1, 1],
  texts: (e) => [localized(e.title), e.id, localized(e.description), join(e.tags ?? [])],
  sortKey: (e) => firstTitle(e).toLowerCase(),
  nameSort: "title",
  path: (type) => `/vocabularies/${type}`,
};

const organisation: Kind = {
  columns: ["name", "acronym", "title", "country", "identifiers"],
  fields: { name: "name", acronym: "acronym", title: "title", "title.en": "title", country: "country", "identifiers.identifier": "identifiers", id: "identifiers" },
  suggestColumns: ["name", "acronym", "title"],
  weights: [10, 5, 3, 1, 1],
  texts: (e) => [e.name ?? "", e.acronym ?? "", localized(e.title), e.country ?? "", join([e.id, identifiers(e)])],
  sortKey: (e) => String(e.name ?? "").toLowerCase(),
  nameSort: "name",
  path: (type) => `/${type}`,
};

export const KINDS: Record<VocabularyType, Kind> = {
  ...(Object.fromEntries(GENERIC_TYPES.map((t) => [t, generic])) as Record<(typeof GENERIC_TYPES)[number], Kind>),
  funders: organisation,
  affiliations: organisation,
  names: {
    columns: ["name", "given_name", "family_name", "affiliations", "identifiers"],
    fields: { name: "name", given_name: "given_name", family_name: "family_name", "affiliations.name": "affiliations", "identifiers.identifier": "identifiers", id: "identifiers" },
    suggestColumns: ["name", "given_name", "family_name"],
    weights: [10, 5, 5, 2, 1],
    texts: (e) => [e.name ?? "", e.given_name ?? "", e.family_name ?? "", join((e.affiliations ?? []).map((a: { name?: string }) => a.name)), join([e.id, identifiers(e)])],
    sortKey: (e) => String(e.name ?? "").toLowerCase(),
    nameSort: "name",
    path: () => "/names",
  },
  subjects: {
    columns: ["subject", "scheme", "ident"],
    fields: { subject: "subject", scheme: "scheme", id: "ident" },
    suggestColumns: ["subject"],
    weights: [10, 1, 1],
    texts: (e) => [e.subject ?? "", e.scheme ?? "", e.id ?? ""],
    sortKey: (e) => String(e.subject ?? "").toLowerCase(),
    nameSort: "subject",
    path: () => "/subjects",
  },
  awards: {
    columns: ["title", "number", "acronym", "funder", "identifiers"],
    fields: {
      title: "title",
      "title.en": "title",
      number: "number",
      acronym: "acronym",
      "funder.id": "funder",
      "funder.name": "funder",
      "identifiers.identifier": "identifiers",
      id: "number",
    },
    suggestColumns: ["title", "number", "acronym"],
    weights: [10, 5, 5, 1, 1],
    texts: (e) => [localized(e.title), e.number ?? "", e.acronym ?? "", join([e.funder?.id, e.funder?.name]), identifiers(e)],
    sortKey: (e) => firstTitle(e).toLowerCase(),
    nameSort: "title",
    path: () => "/awards",
  },
};

export const isVocabularyType = (type: string): type is VocabularyType => Object.hasOwn(KINDS, type);
export const isSpecificType = (type: string) => (SPECIFIC_TYPES as readonly string[]).includes(type);

/** Sort options a type offers; the first is the default without q. */
export const sortOptions = (kind: Kind) => [kind.nameSort, "bestmatch", "newest", "oldest"];
