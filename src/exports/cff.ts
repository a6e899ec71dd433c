// Citation File Format 1.2.0 export (CITATION.cff, YAML), after InvenioRDM's cff/schema.py with
// the changes its output needs to validate against the CFF 1.2.0 JSON schema: ORCID as a URL,
// SPDX ids in SPDX's case, only full dates, no empty lists.
import { stringify } from "yaml";
import { compact } from "../core/compact";
import { list, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { edtfParts, landingPage, nonBlank, personOf, plainDescription, recordDoi } from "./record-fields";
import { codeRepositoryOf, isSoftware, keywordsOf, licencesOf, orcidUrl } from "./software-fields";
import type { ExportContext, ExportFormat } from "./types";

export const cffFormat: ExportFormat = {
  id: "cff",
  label: "Citation File Format",
  // InvenioRDM serves its CFF export as application/x-yaml; application/vnd.cff+yaml is the type
  // commonmeta and DataCite's content negotiation use for CFF.
  mediaTypes: ["application/x-yaml", "application/vnd.cff+yaml"],
  // InvenioRDM's download name is `{id}.yaml`.
  extension: "yaml",
  render: (record, ctx) => stringify(citationFile(record, ctx), { lineWidth: 0 }),
};

// The schema's patterns for a DOI, a URL and a Software Heritage id: values that do not match go to `identifiers` as `other` (or nowhere).
const DOI = /^10\.\d{4,9}(\.\d+)?\/[A-Za-z0-9:/_;\-.()[\]\\]+$/;
const URL_PATTERN = /^(https|http|ftp|sftp):\/\/.+/;
const SWH = /^swh:1:(snp|rel|rev|dir|cnt):[0-9a-fA-F]{40}$/;

export function citationFile(record: RecordDocument, ctx: ExportContext): JsonObject {
  const metadata: JsonObject = record.metadata ?? {};
  const type = cffType(record);
  const doi = recordDoi(record);
  const licences = licencesOf(record, ctx);
  const spdx = [...new Set(licences.flatMap((l) => (l.spdx ? [l.spdx] : [])))]; // the schema wants each once
  const [date] = edtfParts(metadata.publication_date);
  return compact({
    "cff-version": "1.2.0", // cff-version
    message: `If you use this ${type ?? "work"}, please cite it using the metadata from this file.`, // message
    title: nonBlank(metadata.title) ?? record.id, // title
    authors: authors(record, ctx), // authors
    type, // type: dataset | software, else left out
    doi: doi && DOI.test(doi) ? doi : undefined, // doi
    identifiers: identifiers(record), // identifiers
    "date-released": date?.length === 3 ? date.map((n) => String(n).padStart(2, "0")).join("-") : undefined, // date-released: YYYY-MM-DD only
    version: nonBlank(metadata.version), // version
    license: spdx.length > 1 ? spdx : spdx[0], // license: one SPDX id, or a list of alternatives
    "license-url": licences.find((l) => !l.spdx && l.url && URL_PATTERN.test(l.url))?.url, // license-url: the (first) licence outside the SPDX list
    keywords: keywordsOf(record), // keywords
    abstract: plainDescription(record), // abstract
    "repository-code": codeRepositoryOf(record), // repository-code
    url: landingPage(record, ctx), // url
  });
}

const cffType = (record: RecordDocument) => (isSoftware(record) ? "software" : record.metadata?.resource_type?.id === "dataset" ? "dataset" : undefined);

// authors: the creators, persons by name parts and ORCID URL, organisations as entities. Contributors
// (editors, supervisors...) are not authors of the cited work, so unlike InvenioRDM they are left out.
function authors(record: RecordDocument, ctx: ExportContext): JsonObject[] {
  const people = list(record.metadata?.creators).map((creator) => {
    const p = personOf(creator);
    if (!p.personal || (!p.family && !p.given)) return compact({ name: p.name || undefined }); // entity: name
    return compact({
      "family-names": p.family, // person: family-names
      "given-names": p.given, // person: given-names
      orcid: orcidUrl(p.orcid), // person: orcid (a URL in CFF 1.2.0)
      affiliation: p.affiliations[0], // person: affiliation (CFF has one)
    });
  });
  // The schema wants at least one author, each once: a record without creators is cited by its publisher.
  const unique = [...new Map(people.filter((a) => Object.keys(a).length).map((a) => [JSON.stringify(a), a])).values()];
  return unique.length ? unique : [{ name: nonBlank(record.metadata?.publisher) ?? ctx.siteName }];
}

// identifiers: the alternate identifiers by CFF type (doi, url, swh), the rest as `other` described by their scheme.
function identifiers(record: RecordDocument): JsonObject[] {
  const out = list(record.metadata?.identifiers).flatMap((i: JsonObject) => {
    const value = nonBlank(i?.identifier);
    const scheme = nonBlank(i?.scheme)?.toLowerCase();
    if (!value || !scheme) return [];
    if (scheme === "doi" && DOI.test(value)) return [{ type: "doi", value }];
    if (scheme === "url" && URL_PATTERN.test(value)) return [{ type: "url", value }];
    if (scheme === "swh" && SWH.test(value)) return [{ type: "swh", value }];
    return [{ type: "other", value, description: scheme }];
  });
  return [...new Map(out.map((i) => [JSON.stringify(i), i])).values()];
}
