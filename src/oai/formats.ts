// The metadata formats OAI-PMH disseminates (metadataPrefix, schema, namespace) and the payload
// element of each, built by the export mappings (src/exports/xml/*) from the record JSON.
import type { RecordDocument } from "../core/record-document";
import type { ExportContext } from "../exports/types";
import { dataciteResource } from "../exports/xml/datacite";
import { dcatRdf } from "../exports/xml/dcat";
import { XSI_NAMESPACE, type XmlTree } from "../exports/xml/document";
import { dublinCoreElement } from "../exports/xml/dublin-core";
import { marcxmlRecord } from "../exports/xml/marcxml";

export type PayloadBuilder = (record: RecordDocument, ctx: ExportContext) => XmlTree;

export interface MetadataFormat {
  prefix: string;
  schema: string;
  namespace: string;
  payload: PayloadBuilder;
}

const OAI_DATACITE_NAMESPACE = "http://schema.datacite.org/oai/oai-1.1/";
const OAI_DATACITE_SCHEMA = "http://schema.datacite.org/oai/oai-1.1/oai.xsd";
const MARC_SCHEMA = "http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd";
const MARC_NAMESPACE = "http://www.loc.gov/MARC21/slim";

/** oai_datacite 1.1 (oai.xsd): the DataCite resource wrapped with the schema version and the data centre symbol. */
function oaiDatacite(datacite: PayloadBuilder, datacentreSymbol: string): PayloadBuilder {
  return (record, ctx) => ({
    oai_datacite: {
      "@_xmlns": OAI_DATACITE_NAMESPACE,
      "@_xmlns:xsi": XSI_NAMESPACE,
      "@_xsi:schemaLocation": `${OAI_DATACITE_NAMESPACE} ${OAI_DATACITE_SCHEMA}`,
      schemaVersion: "4.5", // the kernel dataciteResource writes
      datacentreSymbol,
      payload: datacite(record, ctx),
    },
  });
}

/** InvenioRDM's prefixes: oai_dc, datacite, oai_datacite, marcxml and its alias marc21, dcat. */
export function metadataFormats(datacentreSymbol: string): MetadataFormat[] {
  return [
    { prefix: "oai_dc", schema: "http://www.openarchives.org/OAI/2.0/oai_dc.xsd", namespace: "http://www.openarchives.org/OAI/2.0/oai_dc/", payload: dublinCoreElement },
    { prefix: "datacite", schema: "http://schema.datacite.org/meta/kernel-4.5/metadata.xsd", namespace: "http://datacite.org/schema/kernel-4", payload: dataciteResource },
    { prefix: "oai_datacite", schema: OAI_DATACITE_SCHEMA, namespace: OAI_DATACITE_NAMESPACE, payload: oaiDatacite(dataciteResource, datacentreSymbol) },
    { prefix: "marcxml", schema: MARC_SCHEMA, namespace: MARC_NAMESPACE, payload: marcxmlRecord },
    { prefix: "marc21", schema: MARC_SCHEMA, namespace: MARC_NAMESPACE, payload: marcxmlRecord },
    // DCAT-AP 2.1.1 as RDF/XML; RDF has no XSD, so the schema named is the DCAT vocabulary's RDF.
    { prefix: "dcat", schema: "https://www.w3.org/ns/dcat.rdf", namespace: "http://www.w3.org/ns/dcat#", payload: dcatRdf },
  ];
}
