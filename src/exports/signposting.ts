// FAIR Signposting (level 1) `Link` header of a record: cite-as, describedby per export format,
// type, author, license and item, as InvenioRDM's signposting serializer lists them.
import { citeAsUrl, filesOf, list, nonBlank, personOf, vocabProps } from "./record-fields";
import type { ExportContext, ExportFormat, ExportRecord } from "./types";

/** The value of the `Link` header; `describedBy` are the formats a client can ask the record API for. */
export function signpostingLinks(record: ExportRecord, ctx: ExportContext, describedBy: readonly ExportFormat[]): string {
  const metadata = record.metadata ?? {};
  const api = ctx.links.api(`/records/${record.id}`);
  const links: string[] = [link(citeAsUrl(record, ctx), "cite-as")];
  for (const format of describedBy) links.push(link(api, "describedby", format.mediaTypes[0]));
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

// RFC 8288: the target in angle brackets (no raw `>` or spaces inside), quoted parameters.
function link(target: string, rel: string, type?: string): string {
  const safe = target.replace(/[\s<>"]/g, (c) => encodeURIComponent(c));
  return `<${safe}>; rel="${rel}"${type ? `; type="${type}"` : ""}`;
}
