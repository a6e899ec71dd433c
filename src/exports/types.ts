// The shapes every export format shares: the record it renders and what it may look up.
import type { Links } from "../core/links";
import type { RecordDocument } from "../core/record-document";
import type { KnownEntries } from "../pids/vocabulary-entries";
import type { VocabularyLookup } from "../vocabularies/model";
import type { XmlTree } from "./xml/document";

export interface ExportContext {
  links: Links;
  /** Repository name, the publisher fallback and DCAT catalogue title. */
  siteName: string;
  /**
   * Vocabulary entries by type and id (resource types' DataCite/CSL/COAR props, licences...),
   * answered at once from the entries the rendered records name, read before rendering (a format
   * renders synchronously, so a page of records costs no read per record).
   */
  lookup: KnownEntries;
  /** Resolver URL of a DOI (test or production resolver). */
  doiUrl(doi: string): string;
  /** Request query parameters a format reads (the formatted citation: `style`, `locale`). */
  params?: Readonly<Record<string, string>>;
}

/** What an export context is made from, per rendering (exports/service.ts renderContext): `lookup` is the vocabularies service's. */
export type ExportSettings = Omit<ExportContext, "lookup" | "params"> & { lookup: VocabularyLookup };

/** The settings an OAI-PMH payload may need beyond the export context. */
export interface OaiSettings {
  /** The DataCite data centre symbol `oai_datacite` names. */
  datacentreSymbol: string;
}

/** One OAI-PMH metadata format (metadataPrefix, schema, namespace) disseminating an export's XML. */
export interface OaiDissemination {
  prefix: string;
  schema: string;
  namespace: string;
  /** The `<metadata>` element's child for the record. */
  payload(record: RecordDocument, ctx: ExportContext, settings: OaiSettings): XmlTree;
}

/** One serialisation: used by Accept negotiation, `/records/{id}/export/{id}` and OAI-PMH. */
export interface ExportFormat {
  /** InvenioRDM's export name: json, json-ld, csl, datacite-json, datacite-xml, dublincore, marcxml, bibtex, geojson, dcat-ap. */
  id: string;
  /** Other names `/records/{id}/export/{name}` answers to: Zenodo's legacy ones, which zen4R uses (`xm` for MARCXML). */
  aliases?: string[];
  /** How people know it: the landing page's export links. */
  label: string;
  /** The OAI-PMH metadata formats that disseminate it (none: not served over OAI-PMH). */
  oai?: readonly OaiDissemination[];
  /** Media types served, the preferred first. */
  mediaTypes: string[];
  /** File extension of the download, without the dot. */
  extension: string;
  /** Content-Type sent instead of the negotiated media type (InvenioRDM answers text/x-bibliography as text/plain). */
  contentType?: string;
  /** `record` as `GET /api/records/{id}` presents it to the caller: only the files they may see are listed. */
  render(record: RecordDocument, ctx: ExportContext): string;
}
