// The context export formats render with, made per rendering: the vocabulary entries the rendered
// records name are read first, so that every format (and a whole OAI-PMH page) renders synchronously.
import type { RecordDocument } from "../core/record-document";
import { readVocabularyEntries, type EntryNeeds } from "../pids/vocabulary-entries";
import type { ExportContext, ExportSettings } from "./types";

/** `needs` narrows the entries read to what one rendering looks up (the Signposting header's few). */
export async function renderContext(settings: ExportSettings, records: readonly RecordDocument[], params: Record<string, string> = {}, needs?: EntryNeeds): Promise<ExportContext> {
  return { ...settings, lookup: await readVocabularyEntries(records, settings.lookup, needs), params };
}
