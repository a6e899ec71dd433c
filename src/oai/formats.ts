// The metadata formats OAI-PMH disseminates: the `oai` entries of the export registry's formats,
// with the settings their payloads need.
import type { RecordDocument } from "../core/record-document";
import { EXPORT_FORMATS } from "../exports/registry";
import type { ExportContext, OaiSettings } from "../exports/types";
import type { XmlTree } from "../exports/xml/document";

export type PayloadBuilder = (record: RecordDocument, ctx: ExportContext) => XmlTree;

export interface MetadataFormat {
  prefix: string;
  schema: string;
  namespace: string;
  payload: PayloadBuilder;
}

/** Every format with an OAI entry, oai_dc first (the one format OAI-PMH requires), then in the registry's order. */
export function metadataFormats(settings: OaiSettings): MetadataFormat[] {
  const entries = EXPORT_FORMATS.flatMap((format) => format.oai ?? []);
  const ordered = [...entries.filter((e) => e.prefix === "oai_dc"), ...entries.filter((e) => e.prefix !== "oai_dc")];
  return ordered.map((e) => ({ prefix: e.prefix, schema: e.schema, namespace: e.namespace, payload: (record, ctx) => e.payload(record, ctx, settings) }));
}
