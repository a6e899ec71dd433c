// DCAT-AP 2.1.1 in RDF/XML: one dcat:Dataset with a dcat:Distribution per file, shaped to conform to the
// 2.1.1 SHACL shapes (mandatory, ranges, controlled vocabularies), mapped from the record as InvenioRDM's DCAT-AP export.
import { stripHtml } from "../../core/html";
import { list, ownEntry, type JsonObject } from "../../core/json";
import type { RecordDocument } from "../../core/record-document";
import { edtfParts, filesOf, landingPage, nonBlank, personOf, recordDoi, titleOf, type FileItem, type Person } from "../record-fields";
import type { ExportContext, ExportFormat } from "../types";
import { renderXml, type XmlTree } from "./document";

const NS = {
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  dcat: "http://www.w3.org/ns/dcat#",
  dct: "http://purl.org/dc/terms/",
  foaf: "http://xmlns.com/foaf/0.1/",
  skos: "http://www.w3.org/2004/02/skos/core#",
  spdx: "http://spdx.org/rdf/terms#",
  adms: "http://www.w3.org/ns/adms#",
  owl: "http://www.w3.org/2002/07/owl#",
};
const XSD = "http://www.w3.org/2001/XMLSchema#";
const EU_AUTHORITY = "http://publications.europa.eu/resource/authority";

// access.status -> EU access-right authority table (the controlled vocabulary the shapes require)
const ACCESS_RIGHTS: Record<string, string> = { open: "PUBLIC", embargoed: "RESTRICTED", restricted: "RESTRICTED", "metadata-only": "NON_PUBLIC" };
// Schemes whose identifiers have a resolvable IRI, for dct:relation (an IRI, not a literal, in DCAT-AP).
const RESOLVERS: Record<string, (id: string) => string> = {
  doi: (id) => `https://doi.org/${id}`,
  handle: (id) => `https://hdl.handle.net/${id}`,
  arxiv: (id) => `https://arxiv.org/abs/${id.replace(/^arxiv:/i, "")}`,
  url: (id) => id,
  purl: (id) => id,
  w3id: (id) => id,
};

/** `{"rdf:RDF": ...}`: the RDF/XML root holding the dataset. */
export function dcatRdf(record: RecordDocument, ctx: ExportContext): XmlTree {
  const namespaces = Object.fromEntries(Object.entries(NS).map(([prefix, uri]) => [`@_xmlns:${prefix}`, uri]));
  return { "rdf:RDF": { ...namespaces, "dcat:Dataset": dataset(record, ctx) } };
}

function dataset(record: RecordDocument, ctx: ExportContext): XmlTree {
  const m: JsonObject = record.metadata ?? {};
  const doi = recordDoi(record);
  const id = doi ? ctx.doiUrl(doi) : landingPage(record, ctx);
  const description = stripHtml(m.description ?? "");
  const parentDoi = nonBlank(record.parent?.pids?.doi?.identifier);
  return {
    "@_rdf:about": id,
    "dct:identifier": { "@_rdf:datatype": `${XSD}anyURI`, "#text": id },
    "adms:identifier": list(m.identifiers).map((i) => ({ "adms:Identifier": { "skos:notation": i.identifier, "adms:schemaAgency": i.scheme } })),
    "dct:title": m.title,
    // dct:description is mandatory: a record without one is described by its title.
    "dct:description": [description || m.title, ...list(m.additional_descriptions).map((d) => stripHtml(d.description ?? ""))].filter(Boolean),
    "dct:issued": dateLiteral(m.publication_date),
    "dct:modified": dateTimeLiteral(record.updated),
    "owl:versionInfo": nonBlank(m.version),
    "dct:creator": list(m.creators).map((c) => agent(personOf(c))),
    "dct:contributor": list(m.contributors).map((c) => agent(personOf(c))),
    "dcat:keyword": [
      ...new Set(
        list(m.subjects)
          .map((s) => nonBlank(s.subject))
          .filter(Boolean),
      ),
    ],
    "dct:language": list(m.languages).map((l) => concept("dct:LinguisticSystem", `language/${String(l.id).toUpperCase()}`)),
    "dct:license": licences(record, ctx).map((l) => ({ "dct:LicenseDocument": { "@_rdf:about": l.url, "rdfs:label": l.title } })),
    "dct:rights": freeRights(record).map((text) => ({ "dct:RightsStatement": { "rdfs:label": text } })),
    "dct:accessRights": concept("dct:RightsStatement", `access-right/${ACCESS_RIGHTS[record.access?.status] ?? "PUBLIC"}`),
    "dct:temporal": list(m.dates)
      .filter((d) => d.type?.id === "collected")
      .map((d) => period(d.date))
      .filter(Boolean),
    // The concept DOI too: dct:isVersionOf would need it typed as a dcat:Dataset, with its own title and description.
    "dct:relation": [...relations(m), ...(parentDoi && parentDoi !== doi ? [{ "@_rdf:resource": ctx.doiUrl(parentDoi) }] : [])],
    "dcat:landingPage": { "foaf:Document": { "@_rdf:about": landingPage(record, ctx) } },
    "dcat:distribution": filesOf(record, ctx).map((f) => ({ "dcat:Distribution": distribution(f, record, ctx) })),
  };
}

// foaf:Agent (typed foaf:Person / foaf:Organization too), identified by its ORCID / ROR / ISNI IRI when known
function agent(p: Person): XmlTree {
  const iri = agentIri(p);
  return {
    "foaf:Agent": {
      "@_rdf:about": iri,
      "rdf:type": { "@_rdf:resource": `${NS.foaf}${p.personal ? "Person" : "Organization"}` },
      "foaf:name": p.name,
      "foaf:givenName": p.given,
      "foaf:familyName": p.family,
    },
  };
}

function agentIri(p: Person): string | undefined {
  const by = (scheme: string) => p.identifiers.find((i) => i.scheme === scheme)?.identifier;
  const orcid = by("orcid");
  const ror = by("ror");
  const isni = by("isni");
  if (orcid) return `https://orcid.org/${orcid}`;
  if (ror) return ror.startsWith("https://") ? ror : `https://ror.org/${ror}`;
  return isni ? `https://isni.org/isni/${isni.replace(/\s/g, "")}` : undefined;
}

/** A concept of an EU authority table, with the skos:inScheme the controlled-vocabulary shapes check. */
function concept(element: string, path: string): XmlTree {
  const [table] = path.split("/");
  return { [element]: { "@_rdf:about": `${EU_AUTHORITY}/${path}`, "skos:inScheme": { "@_rdf:resource": `${EU_AUTHORITY}/${table}` } } };
}

interface Licence {
  url: string;
  title?: string;
}

/** Licences with a URL (vocabulary props.url or a free right's link): dct:LicenseDocument needs an IRI. */
function licences(record: RecordDocument, ctx: ExportContext): Licence[] {
  return list(record.metadata?.rights)
    .map((r) => (r.id ? { ...(ctx.lookup("licenses", r.id) ?? {}), ...r } : r))
    .flatMap((e): Licence[] => {
      const url = nonBlank(e.props?.url) ?? nonBlank(e.link);
      return url ? [{ url, title: titleOf(e) }] : [];
    });
}

/** Free-text rights without a link: a statement, not a licence document. */
function freeRights(record: RecordDocument): string[] {
  return list(record.metadata?.rights)
    .filter((r) => !r.id && !nonBlank(r.link))
    .map((r) => titleOf(r))
    .filter((t): t is string => t !== undefined);
}

function relations(m: JsonObject): XmlTree[] {
  return list(m.related_identifiers)
    .map((r) => ownEntry(RESOLVERS, r.scheme)?.(String(r.identifier)))
    .filter((iri): iri is string => iri !== undefined && /^https?:\/\/\S+$/.test(iri))
    .map((iri) => ({ "@_rdf:resource": iri }));
}

// dcat:Distribution: accessURL (mandatory: the landing page), downloadURL, title, mediaType, byteSize, checksum, licence
function distribution(file: FileItem, record: RecordDocument, ctx: ExportContext): XmlTree {
  const mediaType = file.mimetype && /^[\w.+-]+\/[\w.+-]+$/.test(file.mimetype) ? file.mimetype : undefined;
  const licence = licences(record, ctx)[0]; // at most one per distribution
  return {
    "@_rdf:about": file.url,
    "dcat:accessURL": { "@_rdf:resource": landingPage(record, ctx) },
    "dcat:downloadURL": { "@_rdf:resource": file.url },
    "dct:title": file.key,
    "dcat:mediaType": mediaType ? { "dct:MediaType": { "@_rdf:about": `https://www.iana.org/assignments/media-types/${mediaType}` } } : undefined,
    "dcat:byteSize": file.size === undefined ? undefined : { "@_rdf:datatype": `${XSD}decimal`, "#text": String(file.size) },
    "spdx:checksum": checksum(file.checksum),
    "dct:license": licence ? { "dct:LicenseDocument": { "@_rdf:about": licence.url } } : undefined,
  };
}

/**
 * spdx:Checksum. DCAT-AP 2.1.1's Checksum shape only admits SHA-1 (sh:hasValue
 * spdx:checksumAlgorithm_sha1), so an MD5 checksum (what uploads get) is left out rather than
 * make the document non-conforming.
 */
function checksum(value: string | undefined): XmlTree | undefined {
  const m = /^sha1:([0-9a-f]{40})$/i.exec(value ?? "");
  if (!m) return undefined;
  return {
    "spdx:Checksum": {
      "spdx:algorithm": { "spdx:ChecksumAlgorithm": { "@_rdf:about": `${NS.spdx}checksumAlgorithm_sha1` } },
      "spdx:checksumValue": { "@_rdf:datatype": `${XSD}hexBinary`, "#text": m[1]!.toLowerCase() },
    },
  };
}

/** An EDTF date (an interval's lower bound) as xsd:date, xsd:gYearMonth or xsd:gYear. */
function dateLiteral(value: unknown, bound: 0 | 1 = 0): XmlTree | undefined {
  const parts = edtfParts(value)[bound];
  if (!parts) return undefined;
  const [y, mo, d] = parts.map((n) => String(n).padStart(2, "0"));
  const type = d ? "date" : mo ? "gYearMonth" : "gYear";
  return { "@_rdf:datatype": `${XSD}${type}`, "#text": [y, mo, d].filter(Boolean).join("-") };
}

/** `2024-06-02 10:00:00.000000` (the record's `updated`, UTC) as xsd:dateTime. */
function dateTimeLiteral(value: unknown): XmlTree | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(String(value ?? ""));
  return m ? { "@_rdf:datatype": `${XSD}dateTime`, "#text": `${m[1]}T${m[2]}Z` } : undefined;
}

// dct:PeriodOfTime with dcat:startDate / dcat:endDate (a single date is both)
function period(date: unknown): XmlTree | undefined {
  const start = dateLiteral(date, 0);
  if (!start) return undefined;
  return { "dct:PeriodOfTime": { "dcat:startDate": start, "dcat:endDate": dateLiteral(date, 1) ?? start } };
}

export const dcatFormat: ExportFormat = {
  id: "dcat-ap",
  label: "DCAT-AP",
  mediaTypes: ["application/dcat+xml"],
  extension: "rdf",
  // RDF has no XSD, so the schema named is the DCAT vocabulary's RDF.
  oai: [{ prefix: "dcat", schema: "https://www.w3.org/ns/dcat.rdf", namespace: "http://www.w3.org/ns/dcat#", payload: (record, ctx) => dcatRdf(record, ctx) }],
  render: (record, ctx) => renderXml(dcatRdf(record, ctx)),
};
