// Builds the stored document of a draft from what a client sent: access, files, metadata,
// custom fields and pids, normalised, with every problem found (drafts save with errors).
import type { Config } from "../config";
import type { FieldError } from "../core/errors";
import type { JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { hasPrefix, normalizeDoi } from "../pids/doi";
import { withEntries } from "../vocabularies/entries";
import type { VocabularyEntry } from "../vocabularies/model";
import { normalizeAccess } from "./access";
import { checkMetadata } from "./metadata/check";

/** The vocabularies service's lookup, which reads the database. */
export type EntryReader = (type: string, id: string) => Promise<VocabularyEntry | null | undefined>;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

export interface BuiltDocument {
  document: RecordDocument;
  errors: FieldError[];
  /** Unknown vocabulary ids: refused at once, even on a draft. */
  unknownIds: FieldError[];
}

function normalizeFiles(input: unknown, errors: FieldError[], config: Config) {
  const files = { enabled: true, default_preview: null as string | null, order: [] as string[] };
  if (input === undefined || input === null) return files;
  if (!isObject(input)) {
    errors.push({ field: "files", messages: ["Must be an object."] });
    return files;
  }
  if (input.enabled !== undefined) {
    if (typeof input.enabled === "boolean") files.enabled = input.enabled;
    else errors.push({ field: "files.enabled", messages: ["Not a valid boolean."] });
  }
  if (!files.enabled && !config.RDM_ALLOW_METADATA_ONLY_RECORDS) {
    errors.push({ field: "files.enabled", messages: ["Metadata-only records are not allowed on this repository: enable files and upload at least one."] });
  }
  if (input.default_preview !== undefined && input.default_preview !== null) {
    if (typeof input.default_preview === "string") files.default_preview = input.default_preview;
    else errors.push({ field: "files.default_preview", messages: ["Not a valid string."] });
  }
  if (input.order !== undefined) {
    if (Array.isArray(input.order) && input.order.every((k) => typeof k === "string")) files.order = input.order;
    else errors.push({ field: "files.order", messages: ["Must be a list of file names."] });
  }
  return files;
}

/**
 * The DOI part of `pids`: an external DOI as sent (validated, normalised, not under our own
 * prefix); a DOI this repository manages is kept from the previous document whatever the client
 * sends, so a GET-modify-PUT round trip cannot forge or drop it.
 */
function normalizePids(input: unknown, previous: JsonObject | undefined, errors: FieldError[], config: Config) {
  const pids: JsonObject = {};
  const managed = previous?.doi && previous.doi.provider !== "external" ? previous.doi : null;
  if (managed) pids.doi = managed;
  if (!isObject(input) || !isObject(input.doi)) return pids;
  const sent = input.doi;
  if (sent.provider !== "external") return pids;
  if (managed) {
    errors.push({ field: "pids.doi", messages: ["This draft has a DOI reserved by the repository; discard it before setting an external one."] });
    return pids;
  }
  const doi = typeof sent.identifier === "string" ? normalizeDoi(sent.identifier) : null;
  if (!doi) errors.push({ field: "pids.doi.identifier", messages: ["Not a valid DOI."] });
  else {
    // Kept in the draft as sent, so publishing (which checks the draft again) refuses it too.
    pids.doi = { identifier: doi, provider: "external" };
    if (config.DATACITE_PREFIX && hasPrefix(doi, config.DATACITE_PREFIX)) {
      errors.push({ field: "pids.doi", messages: [`The prefix ${config.DATACITE_PREFIX} is managed by this repository: reserve a DOI instead of supplying one.`] });
    }
  }
  return pids;
}

export async function buildDocument(
  input: unknown,
  options: { previous?: RecordDocument; config: Config; lookup: EntryReader; publisherRequired: boolean },
): Promise<BuiltDocument> {
  const body = isObject(input) ? input : {};
  const errors: FieldError[] = [];
  if (!isObject(input) && input !== undefined && input !== null) errors.push({ field: "", messages: ["The body must be a JSON object."] });
  const access = normalizeAccess(body.access, errors, options.config.RDM_ALLOW_RESTRICTED_RECORDS);
  const files = normalizeFiles(body.files, errors, options.config);
  const pids = normalizePids(body.pids, options.previous?.pids, errors, options.config);
  const checked = await withEntries(options.lookup, (lookup) =>
    checkMetadata({ metadata: body.metadata ?? {}, custom_fields: body.custom_fields ?? {} }, lookup, {
      publisherRequired: options.publisherRequired || pids.doi?.provider === "datacite",
    }),
  );
  return {
    document: { access, files, metadata: checked.metadata, custom_fields: checked.customFields, pids },
    errors: [...errors, ...checked.errors],
    unknownIds: checked.unknownIds,
  };
}
