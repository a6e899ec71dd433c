// DataCite JSON export (kernel 4.5 JSON schema): the same attributes the DOI registration sends.
import { dataciteAttributes } from "../pids/datacite-attributes";
import { landingPage, recordDoi } from "./record-fields";
import type { ExportFormat } from "./types";

export const dataciteJsonFormat: ExportFormat = {
  id: "datacite-json",
  label: "DataCite JSON",
  mediaTypes: ["application/vnd.datacite.datacite+json"],
  extension: "json",
  render(record, ctx) {
    const attributes = dataciteAttributes(record, {
      doi: recordDoi(record) ?? "",
      url: landingPage(record, ctx),
      publisherFallback: ctx.siteName,
      vocabulary: ctx.lookup,
    });
    // A record without a DOI (DOIs off, or an external one absent) is still described, without `doi`.
    if (!attributes.doi) delete attributes.doi;
    return JSON.stringify(attributes);
  },
};
