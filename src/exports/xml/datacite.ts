// DataCite XML (Metadata Schema kernel 4.5): the DataCite JSON mapping of pids/datacite-attributes.ts written as XML.
import { list, type JsonObject } from "../../core/json";
import type { RecordDocument } from "../../core/record-document";
import { dataciteAttributes } from "../../pids/datacite-attributes";
import { landingPage, recordDoi } from "../record-fields";
import type { ExportContext, ExportFormat, OaiSettings } from "../types";
import { XSI_NAMESPACE, renderXml, type XmlTree } from "./document";

export const DATACITE_NAMESPACE = "http://datacite.org/schema/kernel-4";
export const DATACITE_SCHEMA_LOCATION = "http://schema.datacite.org/meta/kernel-4.5/metadata.xsd";

/** `{resource: ...}`: the DataCite `<resource>` element, namespaces and schema location on it. */
export function dataciteResource(record: RecordDocument, ctx: ExportContext): XmlTree {
  const doi = recordDoi(record);
  const url = landingPage(record, ctx);
  const a = dataciteAttributes(record, { doi: doi ?? "", url, publisherFallback: ctx.siteName, vocabulary: ctx.lookup });
  // <identifier> is mandatory: without a DOI the landing page stands in (and is not repeated as an alternate).
  const identifier = doi ? { "@_identifierType": "DOI", "#text": doi } : { "@_identifierType": "URL", "#text": url };
  const alternates = list(a.alternateIdentifiers).filter((i) => doi || i.alternateIdentifier !== url);
  return {
    resource: {
      "@_xmlns": DATACITE_NAMESPACE,
      "@_xmlns:xsi": XSI_NAMESPACE,
      "@_xsi:schemaLocation": `${DATACITE_NAMESPACE} ${DATACITE_SCHEMA_LOCATION}`,
      identifier, // 1 Identifier
      creators: wrap(
        "creator",
        list(a.creators).map((c) => creatibutor(c, "creatorName")),
      ), // 2 Creator
      titles: wrap(
        "title",
        list(a.titles).map((t) => ({ "@_xml:lang": t.lang, "@_titleType": t.titleType, "#text": t.title })),
      ), // 3 Title
      publisher: { "#text": a.publisher?.name }, // 4 Publisher
      publicationYear: a.publicationYear, // 5 PublicationYear
      resourceType: { "@_resourceTypeGeneral": a.types.resourceTypeGeneral, "#text": a.types.resourceType }, // 10 ResourceType
      subjects: wrap("subject", list(a.subjects).map(subject)), // 6 Subject
      contributors: wrap(
        "contributor",
        list(a.contributors).map((c) => ({ "@_contributorType": c.contributorType, ...creatibutor(c, "contributorName") })),
      ), // 7 Contributor
      dates: wrap(
        "date",
        list(a.dates).map((d) => ({ "@_dateType": d.dateType, "@_dateInformation": d.dateInformation, "#text": d.date })),
      ), // 8 Date
      language: a.language, // 9 Language
      alternateIdentifiers: wrap(
        "alternateIdentifier",
        alternates.map((i) => ({ "@_alternateIdentifierType": i.alternateIdentifierType, "#text": i.alternateIdentifier })),
      ), // 11
      relatedIdentifiers: wrap("relatedIdentifier", list(a.relatedIdentifiers).map(relatedIdentifier)), // 12 RelatedIdentifier
      sizes: wrap("size", list(a.sizes)), // 13 Size
      formats: wrap("format", list(a.formats)), // 14 Format
      version: a.version, // 15 Version
      rightsList: wrap("rights", list(a.rightsList).map(rights)), // 16 Rights
      descriptions: wrap(
        "description",
        list(a.descriptions).map((d) => ({ "@_xml:lang": d.lang, "@_descriptionType": d.descriptionType, "#text": d.description })),
      ), // 17
      geoLocations: wrap("geoLocation", list(a.geoLocations).map(geoLocation)), // 18 GeoLocation
      fundingReferences: wrap("fundingReference", list(a.fundingReferences).map(fundingReference)), // 19 FundingReference
    },
  };
}

// creatorName/contributorName (nameType), givenName, familyName, nameIdentifier*, affiliation*, in the schema's sequence
function creatibutor(c: JsonObject, nameElement: "creatorName" | "contributorName"): XmlTree {
  return {
    [nameElement]: { "@_nameType": c.nameType, "#text": c.name },
    givenName: c.givenName,
    familyName: c.familyName,
    nameIdentifier: list(c.nameIdentifiers).map((i) => ({ "@_nameIdentifierScheme": i.nameIdentifierScheme, "@_schemeURI": i.schemeUri, "#text": i.nameIdentifier })),
    affiliation: list(c.affiliation).map((af) => ({
      "@_affiliationIdentifier": af.affiliationIdentifier,
      "@_affiliationIdentifierScheme": af.affiliationIdentifierScheme,
      "@_schemeURI": af.schemeUri,
      "#text": af.name,
    })),
  };
}

const subject = (s: JsonObject): XmlTree => ({ "@_subjectScheme": s.subjectScheme, "@_schemeURI": s.schemeUri, "@_valueURI": s.valueUri, "#text": s.subject });

const relatedIdentifier = (r: JsonObject): XmlTree => ({
  "@_relatedIdentifierType": r.relatedIdentifierType,
  "@_relationType": r.relationType,
  "@_resourceTypeGeneral": r.resourceTypeGeneral,
  "#text": r.relatedIdentifier,
});

const rights = (r: JsonObject): XmlTree => ({
  "@_rightsURI": r.rightsUri,
  "@_rightsIdentifier": r.rightsIdentifier,
  "@_rightsIdentifierScheme": r.rightsIdentifierScheme,
  "#text": r.rights ?? "",
});

// geoLocationPlace, geoLocationPoint, geoLocationBox, geoLocationPolygon (polygonPoint x4+)
function geoLocation(g: JsonObject): XmlTree {
  return {
    geoLocationPlace: g.geoLocationPlace,
    geoLocationPoint: g.geoLocationPoint,
    geoLocationBox: g.geoLocationBox,
    geoLocationPolygon: g.geoLocationPolygon ? { polygonPoint: list(g.geoLocationPolygon).map((p) => p.polygonPoint) } : undefined,
  };
}

// funderName, funderIdentifier (funderIdentifierType), awardNumber (awardURI), awardTitle
function fundingReference(f: JsonObject): XmlTree {
  return {
    funderName: f.funderName,
    funderIdentifier: f.funderIdentifier ? { "@_funderIdentifierType": f.funderIdentifierType, "#text": f.funderIdentifier } : undefined,
    awardNumber: f.awardNumber || f.awardUri ? { "@_awardURI": f.awardUri, "#text": f.awardNumber ?? "" } : undefined,
    awardTitle: f.awardTitle,
  };
}

/** A wrapper element (`<titles>`) around repeated children, left out when there are none. */
function wrap(child: string, items: unknown[]): XmlTree | undefined {
  return items.length ? { [child]: items } : undefined;
}

const OAI_DATACITE_NAMESPACE = "http://schema.datacite.org/oai/oai-1.1/";
const OAI_DATACITE_SCHEMA = "http://schema.datacite.org/oai/oai-1.1/oai.xsd";

export const dataciteXmlFormat: ExportFormat = {
  id: "datacite-xml",
  label: "DataCite XML",
  aliases: ["xd", "dcite4"],
  mediaTypes: ["application/vnd.datacite.datacite+xml"],
  extension: "xml",
  oai: [
    { prefix: "datacite", schema: DATACITE_SCHEMA_LOCATION, namespace: DATACITE_NAMESPACE, payload: (record, ctx) => dataciteResource(record, ctx) },
    { prefix: "oai_datacite", schema: OAI_DATACITE_SCHEMA, namespace: OAI_DATACITE_NAMESPACE, payload: oaiDatacite },
  ],
  render: (record, ctx) => renderXml(dataciteResource(record, ctx)),
};

/** oai_datacite 1.1 (oai.xsd): the DataCite resource wrapped with the schema version and the data centre symbol. */
function oaiDatacite(record: RecordDocument, ctx: ExportContext, settings: OaiSettings): XmlTree {
  return {
    oai_datacite: {
      "@_xmlns": OAI_DATACITE_NAMESPACE,
      "@_xmlns:xsi": XSI_NAMESPACE,
      "@_xsi:schemaLocation": `${OAI_DATACITE_NAMESPACE} ${OAI_DATACITE_SCHEMA}`,
      schemaVersion: "4.5", // the kernel dataciteResource writes
      datacentreSymbol: settings.datacentreSymbol,
      payload: dataciteResource(record, ctx),
    },
  };
}
