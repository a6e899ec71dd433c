// CodeMeta 3.0 (JSON-LD, context https://w3id.org/codemeta/3.0) export, after InvenioRDM's
// codemeta/schema.py (which writes the 2.0 context): every key a CodeMeta 3.0 term, so the
// document reads the same in any JSON-LD processor.
import { compact } from "../core/compact";
import { list, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { citeAsUrl, edtfParts, filesOf, landingPage, nonBlank, personOf, plainDescription, recordDoi, titleOf, vocabProps, type Person } from "./record-fields";
import { codeRepositoryOf, isSoftware, keywordsOf, licencesOf, orcidUrl } from "./software-fields";
import type { ExportContext, ExportFormat } from "./types";

export const codemetaFormat: ExportFormat = {
  id: "codemeta",
  label: "CodeMeta",
  // InvenioRDM downloads CodeMeta as application/ld+json, which is the Schema.org JSON-LD's type
  // here; the vendor type is the one DataCite's content negotiation serves CodeMeta under.
  mediaTypes: ["application/vnd.codemeta.ld+json"],
  extension: "json",
  render: (record, ctx) => JSON.stringify(codemeta(record, ctx)),
};

export const CODEMETA_CONTEXT = "https://w3id.org/codemeta/3.0";

export function codemeta(record: RecordDocument, ctx: ExportContext): JsonObject {
  const metadata: JsonObject = record.metadata ?? {};
  const doi = recordDoi(record);
  const published = edtfParts(metadata.publication_date).length ? String(metadata.publication_date).split("/")[0] : undefined;
  const embargo: JsonObject = record.access?.embargo ?? {};
  return compact({
    "@context": CODEMETA_CONTEXT,
    "@type": codemetaType(record, ctx), // type
    "@id": citeAsUrl(record, ctx), // id
    identifier: doi ? ctx.doiUrl(doi) : landingPage(record, ctx), // identifier
    name: nonBlank(metadata.title), // name
    description: plainDescription(record), // description
    author: list(metadata.creators).map((c) => agent(personOf(c))), // author
    contributor: list(metadata.contributors).map((c) => agent(personOf(c))), // contributor
    publisher: { "@type": "Organization", name: nonBlank(metadata.publisher) ?? ctx.siteName }, // publisher
    datePublished: published, // datePublished
    dateCreated: nonBlank(list(metadata.dates).find((d) => d?.type?.id === "created")?.date), // dateCreated
    dateModified: nonBlank(record.updated)?.slice(0, 10), // dateModified (a schema:Date)
    version: nonBlank(metadata.version), // version
    keywords: keywordsOf(record), // keywords
    // license: the SPDX URL of an SPDX licence (CodeMeta's convention), else the licence's own URL.
    license: licencesOf(record, ctx).map((l) => (l.spdx ? `https://spdx.org/licenses/${l.spdx}` : l.url)),
    codeRepository: codeRepositoryOf(record), // codeRepository
    url: landingPage(record, ctx), // url
    downloadUrl: filesOf(record, ctx).map((f) => f.url), // downloadUrl: the files the caller may see
    funder: list(metadata.funding)
      .map((f) => funderOf(f, ctx))
      .filter((o) => o.name || o["@id"]), // funder
    funding: list(metadata.funding)
      .map((f) => grantOf(f, ctx))
      .filter(Boolean), // codemeta:funding (text)
    isAccessibleForFree: record.access?.record === "public" && record.access?.files === "public" ? true : undefined, // isAccessibleForFree
    embargoEndDate: embargo.active ? nonBlank(embargo.until) : undefined, // codemeta:embargoEndDate (3.0's name for embargoDate)
  });
}

// @type: software is SoftwareSourceCode (a CodeMeta term); anything else its Schema.org type as a
// `schema:` compact IRI, which the CodeMeta context's `schema` prefix expands.
function codemetaType(record: RecordDocument, ctx: ExportContext): string {
  if (isSoftware(record)) return "SoftwareSourceCode";
  const type = nonBlank(vocabProps(ctx, "resourcetypes", record.metadata?.resource_type)["schema.org"])?.replace(/^https?:\/\/schema\.org\//, "");
  return `schema:${type && /^[A-Za-z]+$/.test(type) ? type : "CreativeWork"}`;
}

// author/contributor: a Person or Organization with its ORCID (or ROR) URL as @id.
function agent(p: Person): JsonObject {
  const ror = p.identifiers.find((i) => i.scheme === "ror")?.identifier;
  return {
    "@type": p.personal ? "Person" : "Organization",
    "@id": orcidUrl(p.orcid) ?? (ror ? `https://ror.org/${ror}` : undefined),
    givenName: p.given, // givenName
    familyName: p.family, // familyName
    name: p.personal && (p.given || p.family) ? undefined : p.name, // name: organisations, and people without name parts
    affiliation: p.affiliations.map((name) => ({ "@type": "Organization", name })), // affiliation
  };
}

const funderEntry = (f: JsonObject, ctx: ExportContext): JsonObject => (f?.funder?.id ? { ...(ctx.lookup("funders", f.funder.id) ?? {}), ...f.funder } : (f?.funder ?? {}));

// funder: an Organization, with its ROR URL as @id when the funder has one.
function funderOf(f: JsonObject, ctx: ExportContext): JsonObject {
  const funder = funderEntry(f, ctx);
  const ror = list(funder.identifiers).find((i) => i?.scheme === "ror")?.identifier;
  return {
    "@type": "Organization",
    "@id": ror ? `https://ror.org/${ror}` : undefined,
    name: nonBlank(funder.name) ?? (funder.title ? titleOf({ title: funder.title }) : undefined),
  };
}

// codemeta:funding: "Funder, award number: award title", as much of it as is known.
function grantOf(f: JsonObject, ctx: ExportContext): string | undefined {
  const award: JsonObject = f?.award?.id ? { ...(ctx.lookup("awards", f.award.id) ?? {}), ...f.award } : (f?.award ?? {});
  const funder = funderEntry(f, ctx);
  const number = nonBlank(award.number);
  const title = award.title ? titleOf({ title: award.title }) : undefined;
  const grant = [number, title].filter(Boolean).join(": ");
  return [nonBlank(funder.name), grant].filter(Boolean).join(", ") || undefined;
}
