// BibTeX export, after InvenioRDM's bibtex/schema.py and schema_formats.py: the entry type by
// resource type (the first whose required fields are all present, else @misc), the citation key,
// LaTeX escaping, month macros.
import { stripHtml } from "../core/html";
import { list, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { citeAsUrl, creatorsOf, edtfParts, nonBlank, recordDoi, type Person } from "./record-fields";
import type { ExportContext, ExportFormat } from "./types";

export const bibtexFormat: ExportFormat = {
  id: "bibtex",
  label: "BibTeX",
  aliases: ["hx"],
  mediaTypes: ["application/x-bibtex"],
  extension: "bib",
  render: (record, ctx) => bibtexEntry(record, ctx),
};

interface EntryType {
  name: string;
  required: string[];
  optional: string[];
}

const entry = (name: string, required: string[], optional: string[]): EntryType => ({ name, required, optional });
// Field lists of schema_formats.py (BibTeX's standard types plus biblatex's @dataset and @software).
const BOOK = entry("book", ["author", "title", "publisher", "year"], ["volume", "series", "address", "edition", "month", "note", "doi", "url"]);
const BOOKLET = entry("booklet", ["title"], ["author", "howpublished", "address", "month", "year", "note", "doi", "url"]);
const INPROCEEDINGS = entry("inproceedings", ["author", "title", "booktitle", "year"], ["pages", "venue", "address", "month", "publisher", "note", "doi", "url"]);
const PROCEEDINGS = entry("proceedings", ["title", "year"], ["venue", "address", "month", "publisher", "note", "doi", "url"]);
const ARTICLE = entry("article", ["author", "title", "journal", "year"], ["volume", "number", "pages", "month", "note", "doi", "url"]);
const UNPUBLISHED = entry("unpublished", ["author", "title", "note"], ["month", "year", "doi", "url"]);
const THESIS = entry("phdthesis", ["author", "title", "school", "year"], ["address", "month", "note", "doi", "url"]);
const MANUAL = entry("manual", ["title"], ["author", "address", "edition", "month", "year", "note", "doi", "url"]);
const GENERIC = ["author", "title", "month", "year", "note", "publisher", "version", "doi", "url"];
const SOFTWARE = entry("software", [], GENERIC);
const DATASET = entry("dataset", [], GENERIC);
const MISC = entry("misc", [], GENERIC);

const TYPES_BY_RESOURCE_TYPE: Record<string, EntryType[]> = {
  "publication-conferencepaper": [INPROCEEDINGS],
  "publication-conferenceproceeding": [PROCEEDINGS],
  "publication-book": [BOOK, BOOKLET],
  "publication-article": [ARTICLE],
  "publication-preprint": [UNPUBLISHED],
  "publication-workingpaper": [UNPUBLISHED],
  "publication-thesis": [THESIS],
  "publication-dissertation": [THESIS],
  "publication-technicalnote": [MANUAL],
  software: [SOFTWARE],
  dataset: [DATASET],
};

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
// Fields written as they are: months are macros, year a number, url and doi verbatim.
const RAW_FIELDS = new Set(["month", "year"]);
const VERBATIM_FIELDS = new Set(["url", "doi"]);

export function bibtexEntry(record: RecordDocument, ctx: ExportContext): string {
  const fields = fieldValues(record, ctx);
  const candidates = TYPES_BY_RESOURCE_TYPE[record.metadata?.resource_type?.id ?? ""] ?? [];
  const type = candidates.find((t) => t.required.every((f) => fields[f] !== undefined)) ?? MISC;
  // Pages of a conference paper are those in the proceedings (imprint), not in a journal.
  if (type === INPROCEEDINGS) fields.pages = nonBlank(record.custom_fields?.["imprint:imprint"]?.pages) ?? fields.pages;
  const lines = [...type.required, ...type.optional.filter((f) => !type.required.includes(f))]
    .filter((f) => fields[f] !== undefined)
    .map((f) => `  ${f.padEnd(12)} = ${fieldText(f, fields[f]!)},`);
  return `@${type.name}{${citationKey(record)},\n${lines.join("\n")}\n}\n`;
}

function fieldValues(record: RecordDocument, ctx: ExportContext): Record<string, string | undefined> {
  const metadata: JsonObject = record.metadata ?? {};
  const custom: JsonObject = record.custom_fields ?? {};
  const journal: JsonObject = custom["journal:journal"] ?? {};
  const imprint: JsonObject = custom["imprint:imprint"] ?? {};
  const [date] = edtfParts(metadata.publication_date);
  const month = date?.[1];
  const creators = creatorsOf(record);
  return {
    author: creators.length ? creators.map(bibtexName).join(" and ") : undefined,
    title: nonBlank(metadata.title),
    year: date ? String(date[0]) : undefined,
    month: month ? MONTHS[month - 1] : undefined,
    publisher: nonBlank(metadata.publisher),
    version: nonBlank(metadata.version),
    doi: recordDoi(record),
    url: citeAsUrl(record, ctx),
    note: otherDescriptions(metadata),
    journal: nonBlank(journal.title),
    volume: nonBlank(journal.volume),
    number: nonBlank(journal.issue),
    pages: nonBlank(journal.pages) ?? nonBlank(imprint.pages),
    booktitle: nonBlank(imprint.title),
    address: nonBlank(imprint.place),
    edition: nonBlank(imprint.edition),
    school: nonBlank(custom["thesis:university"]),
    venue: nonBlank(custom["meeting:meeting"]?.place),
  };
}

// "Family, Given"; an organisation is braced so BibTeX does not split it into name parts.
const bibtexName = (p: Person) => (p.personal ? escapeLatex(p.name) : `{${escapeLatex(p.name)}}`);

// note: the additional descriptions of type `other`, HTML stripped.
function otherDescriptions(metadata: JsonObject): string | undefined {
  const notes = list(metadata.additional_descriptions)
    .filter((d) => d?.type?.id === "other")
    .map((d) => stripHtml(String(d.description ?? "")))
    .filter(Boolean);
  return notes.length ? notes.join(" ") : undefined;
}

function fieldText(field: string, value: string): string {
  if (RAW_FIELDS.has(field)) return value;
  if (field === "author" || VERBATIM_FIELDS.has(field)) return `{${value}}`;
  return `{${wrap(escapeLatex(value))}}`;
}

/** LaTeX's special characters in text fields (InvenioRDM escapes & % $ _ #; braces and the rest would break the entry). */
export function escapeLatex(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[\\{}&%$#_~^]/g, (c) => {
    if (c === "\\") return "\\textbackslash{}";
    if (c === "~") return "\\textasciitilde{}";
    if (c === "^") return "\\textasciicircum{}";
    return `\\${c}`;
  });
}

// Long values are wrapped at 50 characters, as InvenioRDM writes them (whitespace is insignificant in BibTeX).
function wrap(text: string): string {
  if (text.length < 50) return text;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > 50) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${" ".repeat(17)}`);
}

/** `<first creator's family name or name, slugged, at most 40>_<year>_<record id>`. */
export function citationKey(record: RecordDocument): string {
  const first = creatorsOf(record)[0];
  const name = slug(first?.family ?? first?.name ?? "")
    .slice(0, 40)
    .replace(/_+$/, "");
  const year = edtfParts(record.metadata?.publication_date)[0]?.[0];
  return [name, year, record.id].filter((part) => part !== undefined && part !== "").join("_");
}

const slug = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
