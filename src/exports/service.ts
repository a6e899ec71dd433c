// Export operations: the record in a negotiated or named format, rendered from the record JSON the
// records service gives (it decides access and which files are listed), and Signposting links.
import type { Actor } from "../core/actor";
import { notFound } from "../core/errors";
import type { Links } from "../core/links";
import type { RecordDocument } from "../core/record-document";
import { andThen } from "../core/settled";
import type { VocabularyLookup } from "../vocabularies/model";
import { EXPORT_FORMATS, formatById, negotiateFormat } from "./registry";
import { signpostingLinks } from "./signposting";
import { contextWith, renderContext } from "./context";
import type { ExportFormat, ExportSettings } from "./types";
import { readVocabularyEntries, type EntryNeeds, type KnownEntries } from "../pids/vocabulary-entries";

export interface ExportsDeps {
  /** `records.readRecord`: the published record JSON, or 401/403/404/redirect as usual. */
  readRecord(actor: Actor, id: string): Promise<RecordDocument>;
  links: Links;
  siteName: string;
  lookup: VocabularyLookup;
  doiUrl(doi: string): string;
}

/** A record export chosen for `GET /api/records/{id}`, ready to render the record it was chosen for. */
export interface ChosenExport {
  contentType: string;
  render(record: RecordDocument): Promise<string>;
}

// Formats a client can fetch from the record API with Accept: every one except the citation,
// which is a rendering, not metadata.
const DESCRIBED_BY = EXPORT_FORMATS.filter((f) => f.id !== "citation");

// The Signposting header (sent with every record read) reads only resource types' and licences' props (signposting.ts).
const SIGNPOSTING_NEEDS: EntryNeeds = { types: ["resourcetypes", "licenses"], propsOnly: true };

const contentTypeOf = (format: ExportFormat, mediaType: string) => `${format.contentType ?? mediaType}; charset=utf-8`;

export type ExportsService = ReturnType<typeof createExportsService>;

export function createExportsService(deps: ExportsDeps) {
  const settings: ExportSettings = { links: deps.links, siteName: deps.siteName, lookup: deps.lookup, doiUrl: deps.doiUrl };
  // The entries a record JSON names, read once for all its full renderings (a landing page renders
  // the same record object's citation and JSON-LD); kept as long as that object (one request).
  const entriesRead = new WeakMap<RecordDocument, KnownEntries | Promise<KnownEntries>>();
  function entriesOf(record: RecordDocument): KnownEntries | Promise<KnownEntries> {
    let entries = entriesRead.get(record);
    if (!entries) entriesRead.set(record, (entries = readVocabularyEntries([record], deps.lookup)));
    return entries;
  }
  /** A rendering's context: all the record's entries, or with `needs` only those (read afresh: the Signposting header's are few). */
  const context = (record: RecordDocument, params?: Record<string, string>, needs?: EntryNeeds) =>
    needs ? renderContext(settings, [record], params, needs) : contextWith(settings, entriesOf(record), params);

  return {
    /** What renderings are made with (OAI-PMH makes one context per page with renderContext). */
    context: () => settings,

    /**
     * The format `GET /api/records/{id}` answers in, from its Accept header and query parameters
     * (`?style=` prefers the formatted citation): null for the record JSON itself; 406 when
     * nothing offered is acceptable.
     */
    chooseFormat(accept: string | null, params: Record<string, string>): ChosenExport | null {
      const { format, mediaType } = negotiateFormat(accept, { preferCitation: Boolean(params.style) });
      if (format.id === "json") return null;
      return { contentType: contentTypeOf(format, mediaType), render: async (record) => format.render(record, await context(record, params)) };
    },

    /** A record JSON in a registered format (the formatted citation of a tombstone). */
    render: async (formatId: string, record: RecordDocument, params: Record<string, string> = {}) => formatById(formatId)!.render(record, await context(record, params)),

    /** The Signposting `Link` header of a record, whatever format it is served in. */
    signposting(record: RecordDocument): string | Promise<string> {
      return andThen(context(record, {}, SIGNPOSTING_NEEDS), (ctx) => signpostingLinks(record, ctx, DESCRIBED_BY));
    },

    /** `GET /records/{id}/export/{format}`: a download named `<id>.<extension>`; `params` as for chooseFormat. */
    async exportRecord(actor: Actor, id: string, formatId: string, params: Record<string, string>) {
      const format = formatById(formatId);
      if (!format) throw notFound(`Export format '${formatId}' does not exist. Available formats: ${EXPORT_FORMATS.map((f) => f.id).join(", ")}.`);
      const record = await deps.readRecord(actor, id);
      return {
        body: format.render(record, await context(record, params)),
        contentType: contentTypeOf(format, format.mediaTypes[0]!),
        filename: `${record.id}.${format.extension}`,
        etag: `"${record.revision_id}-${format.id}"`,
      };
    },
  };
}
