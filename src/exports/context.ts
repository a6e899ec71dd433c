// The context export formats render with, made per rendering: the vocabulary entries the rendered
// records name are read first, so that every format (and a whole OAI-PMH page) renders synchronously.
import type { RecordDocument } from "../core/record-document";
import { andThen } from "../core/settled";
import { readVocabularyEntries, type EntryNeeds, type KnownEntries } from "../pids/vocabulary-entries";
import type { ExportContext, ExportSettings } from "./types";

/** `needs` narrows the entries read to what one rendering looks up (the Signposting header's few); at once when there is nothing to read. */
export function renderContext(
  settings: ExportSettings,
  records: readonly RecordDocument[],
  params: Record<string, string> = {},
  needs?: EntryNeeds,
): ExportContext | Promise<ExportContext> {
  return contextWith(settings, readVocabularyEntries(records, settings.lookup, needs), params);
}

/** The context over entries read already, or being read. */
export function contextWith(settings: ExportSettings, entries: KnownEntries | Promise<KnownEntries>, params: Record<string, string> = {}): ExportContext | Promise<ExportContext> {
  return andThen(entries, (lookup) => ({ ...settings, lookup, params }));
}
