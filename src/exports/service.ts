// Export operations: read a record through the records service (it decides access and which
// files are listed), then render it in the negotiated or named format.
import type { Actor } from "../core/actor";
import { notFound } from "../core/errors";
import type { Links } from "../core/links";
import type { VocabularyLookup } from "../pids/datacite-attributes";
import { EXPORT_FORMATS, formatById, negotiateFormat } from "./registry";
import { signpostingLinks } from "./signposting";
import type { ExportContext, ExportFormat, ExportRecord } from "./types";

export interface ExportsDeps {
  /** `records.readRecord`: the published record JSON, or 401/403/404/redirect as usual. */
  readRecord(actor: Actor, id: string): ExportRecord;
  links: Links;
  siteName: string;
  lookup: VocabularyLookup;
  doiUrl(doi: string): string;
}

// Formats a client can fetch from the record API with Accept: every one except the citation,
// which is a rendering, not metadata.
const DESCRIBED_BY = EXPORT_FORMATS.filter((f) => f.id !== "citation");

const contentTypeOf = (format: ExportFormat, mediaType: string) => `${format.contentType ?? mediaType}; charset=utf-8`;

/** A request's query parameters, the first value of each (`style`, `locale`). */
const firstParams = (url: string): Record<string, string> => Object.fromEntries(new URL(url).searchParams);

export type ExportsService = ReturnType<typeof createExportsService>;

export function createExportsService(deps: ExportsDeps) {
  function context(params: Record<string, string> = {}): ExportContext {
    return { links: deps.links, siteName: deps.siteName, lookup: deps.lookup, doiUrl: deps.doiUrl, params };
  }

  return {
    context,

    /**
     * `GET /api/records/{id}` with any `Accept` (or `?style=`): negotiates before reading (406
     * first), then the record JSON (`body` null: the API's JSON path renders it) or an export,
     * with the Signposting `Link` header either way.
     */
    readRecord(actor: Actor, id: string, request: Request) {
      const params = firstParams(request.url);
      const { format, mediaType } = negotiateFormat(request.headers.get("accept"), { preferCitation: Boolean(params.style) });
      const record = deps.readRecord(actor, id);
      const ctx = context(params);
      return {
        record,
        body: format.id === "json" ? null : format.render(record, ctx),
        contentType: contentTypeOf(format, mediaType),
        signposting: signpostingLinks(record, ctx, DESCRIBED_BY),
      };
    },

    /** `GET /records/{id}/export/{format}`: a download named `<id>.<extension>`. */
    exportRecord(actor: Actor, id: string, formatId: string, request: Request) {
      const format = formatById(formatId);
      if (!format) throw notFound(`Export format '${formatId}' does not exist. Available formats: ${EXPORT_FORMATS.map((f) => f.id).join(", ")}.`);
      const record = deps.readRecord(actor, id);
      return {
        body: format.render(record, context(firstParams(request.url))),
        contentType: contentTypeOf(format, format.mediaTypes[0]!),
        filename: `${record.id}.${format.extension}`,
        etag: `"${record.revision_id}-${format.id}"`,
      };
    },
  };
}
