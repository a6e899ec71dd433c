// CSL JSON export (CSL-data 1.0 input schema), after InvenioRDM's csl/schema.py; also the item
// the formatted citations are rendered from.
import { list, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { creatorsOf, edtfParts, landingPage, nonBlank, plainDescription, recordDoi, vocabProps, titleOf, type Person } from "./record-fields";
import type { ExportContext, ExportFormat } from "./types";

export const cslJsonFormat: ExportFormat = {
  id: "csl",
  label: "CSL JSON",
  mediaTypes: ["application/vnd.citationstyles.csl+json"],
  extension: "json",
  render: (record, ctx) => JSON.stringify(cslItem(record, ctx)),
};

// The `type` enumeration of csl-data.json: a resource type's `csl` prop outside it (e.g. "journal") falls back.
const CSL_TYPES = new Set(
  (
    "article article-journal article-magazine article-newspaper bill book broadcast chapter classic collection dataset document entry " +
    "entry-dictionary entry-encyclopedia event figure graphic hearing interview legal_case legislation manuscript map motion_picture " +
    "musical_score pamphlet paper-conference patent performance periodical personal_communication post post-weblog regulation report " +
    "review review-book software song speech standard thesis treaty webpage"
  ).split(" "),
);

export function cslItem(record: RecordDocument, ctx: ExportContext): JsonObject {
  const metadata: JsonObject = record.metadata ?? {};
  const csl = vocabProps(ctx, "resourcetypes", metadata.resource_type).csl;
  const issued = edtfParts(metadata.publication_date);
  const doi = recordDoi(record);
  const item: JsonObject = {
    id: record.id,
    type: csl && CSL_TYPES.has(csl) ? csl : "article", // InvenioRDM's fallback
    title: nonBlank(metadata.title),
    abstract: plainDescription(record),
    author: list(metadata.creators).length ? creatorsOf(record).map(cslName) : undefined,
    issued: issued.length ? { "date-parts": issued } : undefined,
    language: nonBlank(list(metadata.languages)[0]?.id), // the first language only
    version: nonBlank(metadata.version),
    note: fundingNote(metadata, ctx),
    DOI: doi,
    // Without a DOI the landing page is what a citation points to.
    URL: doi ? undefined : landingPage(record, ctx),
    ISBN: identifier(metadata, "isbn") ?? nonBlank(record.custom_fields?.["imprint:imprint"]?.isbn),
    ISSN: identifier(metadata, "issn") ?? nonBlank(record.custom_fields?.["journal:journal"]?.issn),
    publisher: nonBlank(metadata.publisher),
    ...containerFields(record.custom_fields ?? {}),
  };
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined));
}

// author: persons as family/given; organisations by name in `family`, as InvenioRDM does.
function cslName(person: Person): JsonObject {
  if (!person.personal) return { family: person.name };
  const name: JsonObject = { family: person.family ?? person.name };
  if (person.given) name.given = person.given;
  return name;
}

// note: "Funding by <funder> <SCHEME> <id>." from the first funding entry.
function fundingNote(metadata: JsonObject, ctx: ExportContext): string | undefined {
  const first = list(metadata.funding)[0];
  if (!first?.funder) return undefined;
  const funder: JsonObject = first.funder.id ? { ...(ctx.lookup("funders", first.funder.id) ?? {}), ...first.funder } : first.funder;
  const name = nonBlank(funder.name) ?? titleOf(funder);
  if (!name) return undefined;
  const id = list(funder.identifiers)[0];
  return `Funding by ${[name, id ? `${String(id.scheme).toUpperCase()} ${id.identifier}` : undefined].filter(Boolean).join(" ")}.`;
}

// ISBN / ISSN from the alternate identifiers (InvenioRDM looks them up with upper-case scheme
// names and so never finds the stored lower-case ones; we read them as stored).
const identifier = (metadata: JsonObject, scheme: string): string | undefined => nonBlank(list(metadata.identifiers).find((i) => i?.scheme === scheme)?.identifier);

// The contrib custom fields a citation needs: journal, book (imprint), thesis and meeting.
function containerFields(custom: JsonObject): JsonObject {
  const journal: JsonObject = custom["journal:journal"] ?? {};
  const imprint: JsonObject = custom["imprint:imprint"] ?? {};
  const meeting: JsonObject = custom["meeting:meeting"] ?? {};
  return {
    "container-title": nonBlank(journal.title) ?? nonBlank(imprint.title),
    volume: nonBlank(journal.volume),
    issue: nonBlank(journal.issue),
    page: nonBlank(journal.pages) ?? nonBlank(imprint.pages),
    "publisher-place": nonBlank(imprint.place),
    edition: nonBlank(imprint.edition),
    "event-title": nonBlank(meeting.title),
    "event-place": nonBlank(meeting.place),
  };
}
