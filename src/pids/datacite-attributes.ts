// Record JSON -> DataCite JSON attributes (kernel 4.5), following InvenioRDM's DataCite serializer.
// Pure: vocabulary props come from the record itself or from the lookup the caller passes.
import { compact } from "../core/compact";
import { stripHtml } from "../core/html";
import { list, ownEntry, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import type { KnownEntries } from "./vocabulary-entries";

export interface DataciteAttributeOptions {
  doi: string;
  /** The landing page the DOI resolves to. */
  url: string;
  /** DataCite requires a publisher; used when the record has none. */
  publisherFallback: string;
  /** Vocabulary entries the record names, read beforehand (vocabulary-entries.ts). */
  vocabulary?: KnownEntries;
  /** Set for the concept (parent) DOI: it gets `HasVersion` links to these version DOIs. */
  versionDois?: string[];
}

export const DATACITE_SCHEMA_VERSION = "http://datacite.org/schema/kernel-4";

// RDM_RECORDS_IDENTIFIERS_SCHEMES -> DataCite identifier types.
const IDENTIFIER_TYPES: Record<string, string> = {
  ark: "ARK",
  arxiv: "arXiv",
  ads: "bibcode",
  crossreffunderid: "Crossref Funder ID",
  doi: "DOI",
  ean13: "EAN13",
  eissn: "EISSN",
  grid: "GRID",
  handle: "Handle",
  igsn: "IGSN",
  isbn: "ISBN",
  isni: "ISNI",
  issn: "ISSN",
  istc: "ISTC",
  lissn: "LISSN",
  lsid: "LSID",
  pmid: "PMID",
  purl: "PURL",
  upc: "UPC",
  url: "URL",
  urn: "URN",
  w3id: "w3id",
};
// relatedIdentifierType is a closed list in the schema; other schemes are left out.
const RELATED_TYPES = new Set([
  "ARK",
  "arXiv",
  "bibcode",
  "DOI",
  "EAN13",
  "EISSN",
  "Handle",
  "IGSN",
  "ISBN",
  "ISSN",
  "ISTC",
  "LISSN",
  "LSID",
  "PMID",
  "PURL",
  "UPC",
  "URL",
  "URN",
  "w3id",
]);
// RDM_RECORDS_PERSONORG_SCHEMES -> nameIdentifierScheme.
const NAME_SCHEMES: Record<string, string> = { orcid: "ORCID", isni: "ISNI", gnd: "GND", ror: "ROR" };
const FUNDER_ID_PRIORITY = ["ror", "doi", "grid", "isni", "gnd"];
// funderIdentifierType is a closed list (ISNI, GRID, ROR, Crossref Funder ID, Other): GND ids are "Other".
const FUNDER_ID_TYPES: Record<string, string> = { ror: "ROR", doi: "Crossref Funder ID", grid: "GRID", isni: "ISNI" };
// Vocabulary values newer than kernel 4.5 (4.6 added Translator, HasTranslation, IsTranslationOf).
const NOT_IN_KERNEL_45 = new Set(["Translator", "HasTranslation", "IsTranslationOf"]);
const ROR_ID = /^0[a-hj-km-np-tv-z0-9]{6}\d{2}$/;

/** DataCite JSON attributes for PUT /dois/{doi}; also the body of the DataCite JSON export. */
export function dataciteAttributes(record: RecordDocument, options: DataciteAttributeOptions): JsonObject {
  const metadata: JsonObject = record.metadata ?? {};
  const vocab = vocabularyReader(options.vocabulary);
  const out: JsonObject = {
    doi: options.doi,
    url: options.url,
    types: resourceTypes(metadata.resource_type, vocab),
    creators: list(metadata.creators).map((c) => personOrOrg(c)),
    titles: titles(metadata, vocab),
    // 4.5 publisher is an object (DataCite's REST API takes it, or the legacy string).
    publisher: { name: nonBlank(metadata.publisher) ?? options.publisherFallback },
    publicationYear: edtfYear(metadata.publication_date),
    contributors: list(metadata.contributors).map((c) => contributor(c, vocab)),
    descriptions: descriptions(metadata, vocab),
    dates: dates(record, vocab),
    language: list(metadata.languages)[0]?.id, // DataCite takes one language: the first
    alternateIdentifiers: alternateIdentifiers(record, options.url),
    relatedIdentifiers: relatedIdentifiers(record, vocab, options.versionDois),
    sizes: list(metadata.sizes),
    formats: list(metadata.formats),
    version: nonBlank(metadata.version),
    rightsList: list(metadata.rights).map((r) => rights(r, vocab)),
    subjects: list(metadata.subjects).map((s) => subject(s, vocab)),
    geoLocations: list(metadata.locations?.features)
      .map(geoLocation)
      .filter((g) => Object.keys(compact(g)).length > 0),
    fundingReferences: list(metadata.funding).map((f) => fundingReference(f, vocab)),
    schemaVersion: DATACITE_SCHEMA_VERSION,
  };
  return compact(out);
}

function vocabularyReader(lookup: KnownEntries | undefined) {
  return {
    /** A vocabulary-backed value: its own dumped props first, then the vocabulary's. */
    props(type: string, ref: JsonObject | undefined): Record<string, string> {
      if (!ref?.id) return {};
      return ref.props ?? lookup?.(type, ref.id)?.props ?? {};
    },
    entry(type: string, ref: JsonObject | undefined): JsonObject {
      if (!ref?.id) return ref ?? {};
      return { ...(lookup?.(type, ref.id) ?? {}), ...ref };
    },
  };
}
type Vocab = ReturnType<typeof vocabularyReader>;

function resourceTypes(resourceType: JsonObject | undefined, vocab: Vocab) {
  const props = vocab.props("resourcetypes", resourceType);
  return { resourceTypeGeneral: props.datacite_general || "Other", resourceType: props.datacite_type ?? "" };
}

// creators/contributors: name, nameType, givenName, familyName, nameIdentifiers, affiliation
function personOrOrg(entry: JsonObject): JsonObject {
  const p: JsonObject = entry.person_or_org ?? {};
  const personal = p.type !== "organizational";
  const name = nonBlank(p.name) ?? (personal ? [p.family_name, p.given_name].filter(Boolean).join(", ") : "");
  return {
    name,
    nameType: personal ? "Personal" : "Organizational",
    givenName: personal ? nonBlank(p.given_name) : undefined,
    familyName: personal ? nonBlank(p.family_name) : undefined,
    nameIdentifiers: list(p.identifiers).map((id) => ({
      nameIdentifier: id.identifier,
      nameIdentifierScheme: ownEntry(NAME_SCHEMES, id.scheme) ?? id.scheme,
    })),
    affiliation: list(entry.affiliations).map(affiliation),
  };
}

function affiliation(a: JsonObject): JsonObject {
  const out: JsonObject = { name: a.name ?? a.id };
  // Affiliation ids are ROR ids without the URL (behaviour §3.3); DataCite wants the full URI.
  const ror = list(a.identifiers).find((i) => i.scheme === "ror")?.identifier ?? (ROR_ID.test(a.id ?? "") ? a.id : undefined);
  if (ror) {
    out.affiliationIdentifier = String(ror).startsWith("https://") ? ror : `https://ror.org/${ror}`;
    out.affiliationIdentifierScheme = "ROR";
    out.schemeUri = "https://ror.org";
  }
  return out;
}

function contributor(entry: JsonObject, vocab: Vocab): JsonObject {
  const role = vocab.props("contributorsroles", entry.role).datacite;
  return { ...personOrOrg(entry), contributorType: role && !NOT_IN_KERNEL_45.has(role) ? role : "Other" };
}

// titles = title + additional titles (titleType from the vocabulary)
function titles(metadata: JsonObject, vocab: Vocab): JsonObject[] {
  const main = nonBlank(metadata.title) ? [{ title: metadata.title }] : [];
  return [...main, ...list(metadata.additional_titles).map((t) => typedText("title", t, vocab.props("titletypes", t.type)))];
}

// descriptions = description (Abstract) + additional descriptions, HTML stripped
function descriptions(metadata: JsonObject, vocab: Vocab): JsonObject[] {
  const main = nonBlank(metadata.description) ? [{ description: stripHtml(metadata.description), descriptionType: "Abstract" }] : [];
  const more = list(metadata.additional_descriptions).map((d) => ({
    ...typedText("description", { ...d, description: stripHtml(d.description ?? "") }, vocab.props("descriptiontypes", d.type)),
  }));
  return [...main, ...more];
}

function typedText(field: "title" | "description", item: JsonObject, props: Record<string, string>): JsonObject {
  const fallbackType = field === "description" ? "Other" : undefined;
  return { [field]: item[field], [`${field}Type`]: props.datacite ?? fallbackType, lang: item.lang?.id };
}

// dates: publication_date as Issued, listed dates, and Updated from the record unless given
function dates(record: RecordDocument, vocab: Vocab): JsonObject[] {
  const metadata: JsonObject = record.metadata ?? {};
  const out: JsonObject[] = metadata.publication_date ? [{ date: metadata.publication_date, dateType: "Issued" }] : [];
  for (const d of list(metadata.dates)) {
    out.push({ date: d.date, dateType: vocab.props("datetypes", d.type).datacite || "Other", dateInformation: nonBlank(d.description) });
  }
  const updated = typeof record.updated === "string" ? /^\d{4}-\d{2}-\d{2}/.exec(record.updated)?.[0] : undefined;
  if (updated && !list(metadata.dates).some((d) => d.type?.id === "updated")) out.push({ date: updated, dateType: "Updated" });
  return out;
}

// alternateIdentifiers: the landing page, other pids (oai...), the record's alternate identifiers
function alternateIdentifiers(record: RecordDocument, url: string): JsonObject[] {
  const out: JsonObject[] = [{ alternateIdentifier: url, alternateIdentifierType: "URL" }];
  for (const [scheme, pid] of Object.entries(record.pids ?? {}) as [string, JsonObject][]) {
    if (scheme !== "doi" && pid?.identifier) out.push({ alternateIdentifier: pid.identifier, alternateIdentifierType: IDENTIFIER_TYPES[scheme] ?? scheme });
  }
  for (const id of list(record.metadata?.identifiers)) {
    out.push({ alternateIdentifier: id.identifier, alternateIdentifierType: IDENTIFIER_TYPES[id.scheme] ?? id.scheme });
  }
  return out;
}

// relatedIdentifiers: listed ones (DataCite schemes only) + version <-> concept DOI links
function relatedIdentifiers(record: RecordDocument, vocab: Vocab, versionDois: string[] | undefined): JsonObject[] {
  const out: JsonObject[] = [];
  for (const r of list(record.metadata?.related_identifiers)) {
    const type = IDENTIFIER_TYPES[r.scheme];
    const relationType = vocab.props("relationtypes", r.relation_type).datacite ?? "";
    // Like schemes outside the closed list, a relation kernel 4.5 cannot name is left out.
    if (!type || !RELATED_TYPES.has(type) || NOT_IN_KERNEL_45.has(relationType)) continue;
    const general = r.resource_type?.id ? vocab.props("resourcetypes", r.resource_type).datacite_general || "Other" : undefined;
    out.push({
      relatedIdentifier: r.identifier,
      relatedIdentifierType: type,
      relationType,
      resourceTypeGeneral: general,
    });
  }
  if (versionDois) {
    for (const doi of versionDois) out.push({ relatedIdentifier: doi, relatedIdentifierType: "DOI", relationType: "HasVersion" });
  } else if (record.parent?.pids?.doi?.identifier) {
    out.push({ relatedIdentifier: record.parent.pids.doi.identifier, relatedIdentifierType: "DOI", relationType: "IsVersionOf" });
  }
  return out;
}

// rightsList: rights (English title), rightsUri, rightsIdentifier + scheme for licences
function rights(right: JsonObject, vocab: Vocab): JsonObject {
  const entry = vocab.entry("licenses", right);
  const title = entry.title?.en ?? Object.values(entry.title ?? {})[0];
  return {
    rights: title,
    rightsUri: entry.props?.url ?? entry.link,
    rightsIdentifier: right.id,
    rightsIdentifierScheme: right.id ? entry.props?.scheme : undefined,
  };
}

// subjects: subject, subjectScheme and valueUri (when the vocabulary id is a URI); the 4.5 JSON names are camel-case "Uri"
function subject(s: JsonObject, vocab: Vocab): JsonObject {
  const entry = vocab.entry("subjects", s);
  return {
    subject: entry.subject ?? entry.title?.en,
    subjectScheme: s.id ? entry.scheme : undefined,
    valueUri: s.id && /^https?:\/\//.test(s.id) ? s.id : undefined,
  };
}

// geoLocations: place, point, box (a rectangular polygon) or polygon; GeoJSON is lon/lat; 4.5 JSON wants numbers
function geoLocation(feature: JsonObject): JsonObject {
  const out: JsonObject = { geoLocationPlace: nonBlank(feature.place) };
  const g = feature.geometry;
  const point = (c: number[]) => ({ pointLongitude: Number(c[0]), pointLatitude: Number(c[1]) });
  if (g?.type === "Point") out.geoLocationPoint = point(g.coordinates);
  if (g?.type === "Polygon") {
    const ring: number[][] = g.coordinates?.[0] ?? [];
    const xs = [...new Set(ring.map((c) => c[0]!))].sort((a, b) => a - b);
    const ys = [...new Set(ring.map((c) => c[1]!))].sort((a, b) => a - b);
    if ((ring.length === 4 || ring.length === 5) && xs.length === 2 && ys.length === 2) {
      out.geoLocationBox = { westBoundLongitude: xs[0], eastBoundLongitude: xs[1], southBoundLatitude: ys[0], northBoundLatitude: ys[1] };
    } else {
      out.geoLocationPolygon = ring.map((c) => ({ polygonPoint: point(c) }));
    }
  }
  return out;
}

// fundingReferences: funderName, funderIdentifier (+type by priority), award number/title/URI
function fundingReference(f: JsonObject, vocab: Vocab): JsonObject {
  const funder = vocab.entry("funders", f.funder);
  const ids = list(funder.identifiers);
  const funderId = FUNDER_ID_PRIORITY.map((s) => ids.find((i) => i.scheme === s)).find(Boolean) ?? ids[0];
  const award = f.award ? vocab.entry("awards", f.award) : undefined;
  const awardIds = list(award?.identifiers);
  return {
    funderName: funder.name ?? funder.title?.en,
    funderIdentifier: funderId?.identifier,
    funderIdentifierType: funderId ? (FUNDER_ID_TYPES[funderId.scheme] ?? "Other") : undefined,
    awardNumber: award?.number,
    awardTitle: award?.title?.en,
    awardUri: (awardIds.find((i) => i.scheme === "doi") ?? awardIds.find((i) => i.scheme === "url"))?.identifier,
  };
}

/** Year of the EDTF date or of an interval's lower bound (`1939-09/1945` -> "1939"). */
export function edtfYear(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const [lower, upper] = value.split("/");
  return /^-?\d{4}/.exec(lower ?? "")?.[0] ?? /^-?\d{4}/.exec(upper ?? "")?.[0];
}

const nonBlank = (value: unknown): string | undefined => (typeof value === "string" && value.trim() ? value : undefined);
