// FAIR Signposting (level 1) `Link` header of a record: cite-as, describedby per export format,
// type, author, license and item, as InvenioRDM's signposting serializer lists them.
import { list } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { citeAsUrl, filesOf, nonBlank, personOf, vocabProps } from "./record-fields";
import type { ExportContext, ExportFormat } from "./types";

/** The value of the `Link` header; `describedBy` are the formats a client can ask the record API for. */
export function signpostingLinks(record: RecordDocument, ctx: ExportContext, describedBy: readonly ExportFormat[]): string {
  const metadata = record.metadata ?? {};
  const api = ctx.links.api(`/records/${record.id}`);
  const links: string[] = [link(citeAsUrl(record, ctx), "cite-as")];
  if (describedBy.length) links.push(describedByLinks(describedBy).join(safeTarget(api)));
  const schemaType = nonBlank(vocabProps(ctx, "resourcetypes", metadata.resource_type)["schema.org"]);
  if (schemaType) links.push(link(schemaType, "type"));
  // Every landing page is an AboutPage of the item it describes.
  links.push(link("https://schema.org/AboutPage", "type"));
  for (const creator of list(metadata.creators)) {
    const orcid = personOf(creator).orcid;
    if (orcid) links.push(link(`https://orcid.org/${orcid}`, "author"));
  }
  for (const right of list(metadata.rights)) {
    const url = nonBlank(vocabProps(ctx, "licenses", right).url) ?? nonBlank(right?.link);
    if (url) links.push(link(url, "license"));
  }
  for (const file of filesOf(record, ctx)) links.push(link(file.url, "item", file.mimetype));
  return links.join(", ");
}

// The describedby links differ from record to record only in the record's URL (on every record
// read): kept as the text around it, once per list of formats.
const describedByParts = new WeakMap<readonly ExportFormat[], string[]>();
function describedByLinks(formats: readonly ExportFormat[]): string[] {
  let parts = describedByParts.get(formats);
  if (!parts) {
    const after = formats.map((f) => `>; rel="describedby"; type="${f.mediaTypes[0]}"`);
    parts = ["<", ...after.map((text, i) => (i < after.length - 1 ? `${text}, <` : text))];
    describedByParts.set(formats, parts);
  }
  return parts;
}

// RFC 8288: the target in angle brackets (no raw `>` or spaces inside), quoted parameters.
const UNSAFE = /[\s<>"]/;
const safeTarget = (target: string) => (UNSAFE.test(target) ? target.replace(/[\s<>"]/g, (c) => encodeURIComponent(c)) : target);

function link(target: string, rel: string, type?: string): string {
  return `<${safeTarget(target)}>; rel="${rel}"${type ? `; type="${type}"` : ""}`;
}
