// Dublin Core as oai_dc (the OAI-PMH 2.0 container of unqualified DC), following InvenioRDM's dublincore schema.
import { stripHtml } from "../../core/html";
import { list, type JsonObject } from "../../core/json";
import type { RecordDocument } from "../../core/record-document";
import { landingPage, nonBlank, personOf, titleOf, vocabProps } from "../record-fields";
import type { ExportContext, ExportFormat } from "../types";
import { XSI_NAMESPACE, renderXml, type XmlTree } from "./document";

export const OAI_DC_NAMESPACE = "http://www.openarchives.org/OAI/2.0/oai_dc/";
export const DC_NAMESPACE = "http://purl.org/dc/elements/1.1/";
export const OAI_DC_SCHEMA_LOCATION = "http://www.openarchives.org/OAI/2.0/oai_dc.xsd";

// access.status -> the info:eu-repo access-rights vocabulary (OpenAIRE guidelines); metadata-only is closed.
const EU_REPO_ACCESS: Record<string, string> = {
  open: "openAccess",
  embargoed: "embargoedAccess",
  restricted: "restrictedAccess",
  "metadata-only": "closedAccess",
};

/** `info:eu-repo/semantics/<status>Access` of a record (also used by MARCXML's 542 and DCAT's access rights). */
export function euRepoAccessRight(record: RecordDocument): string {
  return `info:eu-repo/semantics/${EU_REPO_ACCESS[record.access?.status] ?? "openAccess"}`;
}

/** `{"oai_dc:dc": ...}`: the oai_dc root element with the DC elements, namespaces and schema location on it. */
export function dublinCoreElement(record: RecordDocument, ctx: ExportContext): XmlTree {
  const m: JsonObject = record.metadata ?? {};
  const dc: XmlTree = {
    "@_xmlns:oai_dc": OAI_DC_NAMESPACE,
    "@_xmlns:dc": DC_NAMESPACE,
    "@_xmlns:xsi": XSI_NAMESPACE,
    "@_xsi:schemaLocation": `${OAI_DC_NAMESPACE} ${OAI_DC_SCHEMA_LOCATION}`,
    "dc:title": texts([m.title, ...list(m.additional_titles).map((t) => t.title)]),
    "dc:creator": texts(list(m.creators).map((c) => personOf(c).name)),
    "dc:contributor": texts(list(m.contributors).map((c) => personOf(c).name)),
    // Free-text keywords only, as InvenioRDM: controlled subjects are identified by URIs DC cannot carry.
    "dc:subject": texts(
      list(m.subjects)
        .filter((s) => !s.id)
        .map((s) => s.subject),
    ),
    "dc:description": texts([m.description, ...list(m.additional_descriptions).map((d) => d.description)].map((d) => (typeof d === "string" ? stripHtml(d) : d))),
    "dc:publisher": texts([m.publisher]),
    "dc:date": texts([m.publication_date, embargoEnd(record)]),
    "dc:type": texts([vocabProps(ctx, "resourcetypes", m.resource_type).eurepo]),
    "dc:format": texts(list(m.formats)),
    "dc:identifier": texts(identifiers(record, ctx)),
    "dc:language": texts(list(m.languages).map((l) => l.id)), // ISO 639-3
    "dc:relation": texts(relations(record)),
    "dc:coverage": texts(list(m.locations?.features).map((f) => f.place)),
    "dc:rights": texts(rights(record, ctx)),
  };
  return { "oai_dc:dc": dc };
}

// info:eu-repo/date/embargoEnd/<date> while an embargo is running (OpenAIRE guidelines)
function embargoEnd(record: RecordDocument): string | undefined {
  const until = nonBlank(record.access?.embargo?.until);
  return record.access?.embargo?.active && until ? `info:eu-repo/date/embargoEnd/${until}` : undefined;
}

// every pid value (DOI, OAI id...), the alternate identifiers, and the landing page
function identifiers(record: RecordDocument, ctx: ExportContext): unknown[] {
  const pids = Object.values(record.pids ?? {}).map((pid: any) => pid?.identifier);
  return [...pids, ...list(record.metadata?.identifiers).map((i) => i.identifier), landingPage(record, ctx)];
}

// `<scheme>:<identifier>` of related identifiers; a version points at its concept DOI
function relations(record: RecordDocument): string[] {
  const out = list(record.metadata?.related_identifiers).map((r) => `${r.scheme}:${r.identifier}`);
  const parentDoi = nonBlank(record.parent?.pids?.doi?.identifier);
  if (parentDoi && parentDoi !== record.pids?.doi?.identifier) out.push(`doi:${parentDoi}`);
  return out;
}

// the access right, then each licence's title and URL
function rights(record: RecordDocument, ctx: ExportContext): unknown[] {
  const out: unknown[] = [euRepoAccessRight(record)];
  for (const r of list(record.metadata?.rights)) {
    const entry = r.id ? { ...(ctx.lookup("licenses", r.id) ?? {}), ...r } : r;
    out.push(titleOf(entry), entry.props?.url ?? entry.link);
  }
  return out;
}

/** Non-blank strings, each once, in order; undefined when none (the element is then left out). */
function texts(values: unknown[]): string[] | undefined {
  const out = [...new Set(values.map(nonBlank).filter((v): v is string => v !== undefined))];
  return out.length ? out : undefined;
}

export const dublinCoreFormat: ExportFormat = {
  id: "dublincore",
  label: "Dublin Core",
  mediaTypes: ["application/x-dc+xml"],
  extension: "xml",
  oai: [
    {
      prefix: "oai_dc",
      schema: "http://www.openarchives.org/OAI/2.0/oai_dc.xsd",
      namespace: "http://www.openarchives.org/OAI/2.0/oai_dc/",
      payload: (record, ctx) => dublinCoreElement(record, ctx),
    },
  ],
  render: (record, ctx) => renderXml(dublinCoreElement(record, ctx)),
};
