// The one export registry: every format in InvenioRDM's order (the Data Package, which it lacks,
// after CFF), lookup by id and media type, and Accept negotiation over them for
// `GET /api/records/{id}` (also used by downloads and OAI-PMH).
import { notAcceptable } from "../core/errors";
import { JSON_MEDIA_TYPES, negotiate } from "../core/negotiation";
import { bibtexFormat } from "./bibtex";
import { cffFormat } from "./cff";
import { citationFormat } from "./citation";
import { codemetaFormat } from "./codemeta";
import { cslJsonFormat } from "./csl";
import { dataciteJsonFormat } from "./datacite-json";
import { dataPackageFormat } from "./datapackage";
import { geojsonFormat } from "./geojson";
import { jsonFormat } from "./json";
import { jsonLdFormat } from "./json-ld";
import type { ExportFormat } from "./types";
import { dataciteXmlFormat } from "./xml/datacite";
import { dcatFormat } from "./xml/dcat";
import { dublinCoreFormat } from "./xml/dublin-core";
import { marcxmlFormat } from "./xml/marcxml";

export const EXPORT_FORMATS: readonly ExportFormat[] = [
  jsonFormat,
  jsonLdFormat,
  cslJsonFormat,
  dataciteJsonFormat,
  dataciteXmlFormat,
  dublinCoreFormat,
  marcxmlFormat,
  bibtexFormat,
  geojsonFormat,
  dcatFormat,
  codemetaFormat,
  cffFormat,
  dataPackageFormat,
  citationFormat,
];

const byId = new Map(EXPORT_FORMATS.flatMap((f) => [f.id, ...(f.aliases ?? [])].map((name) => [name, f] as const)));
const byMediaType = new Map(EXPORT_FORMATS.flatMap((f) => f.mediaTypes.map((t) => [t, f] as const)));
// The record API's own JSON types (the vendor ones included) all mean the record JSON.
for (const type of JSON_MEDIA_TYPES) byMediaType.set(type, jsonFormat);

/** Every media type `GET /api/records/{id}` serves, JSON first. */
export const RECORD_MEDIA_TYPES: readonly string[] = [...new Set([...JSON_MEDIA_TYPES, ...EXPORT_FORMATS.flatMap((f) => f.mediaTypes)])];

export const formatById = (id: string): ExportFormat | undefined => byId.get(id);

/** The format serving a media type; parameters (`;charset=UTF-8`) and case are ignored. */
export function formatByMediaType(mediaType: string): ExportFormat | undefined {
  return byMediaType.get(mediaType.split(";")[0]!.trim().toLowerCase());
}

export interface Negotiated {
  format: ExportFormat;
  /** The media type chosen, as the client named it (`application/vnd.geo+json` stays so). */
  mediaType: string;
}

/**
 * The format an `Accept` header asks for (quality values honoured, parameters ignored); the
 * record JSON when there is no preference. With `preferCitation` (a `style` query parameter)
 * the formatted citation comes first. None acceptable: 406 listing the supported types.
 */
export function negotiateFormat(accept: string | null | undefined, options: { preferCitation?: boolean } = {}): Negotiated {
  const citation = citationFormat.mediaTypes[0]!;
  const offered = options.preferCitation ? [citation, ...RECORD_MEDIA_TYPES.filter((t) => t !== citation)] : RECORD_MEDIA_TYPES;
  const mediaType = negotiate(accept, offered);
  if (!mediaType) throw notAcceptable([...RECORD_MEDIA_TYPES]);
  return { format: formatByMediaType(mediaType)!, mediaType };
}
