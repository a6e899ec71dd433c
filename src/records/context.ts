// What the record operations share: the deps, presenting rows with their parent and versions,
// and the rules that depend on configuration (DOIs, files).
import type { Deps } from "../core/deps";
import type { FieldError } from "../core/errors";
import { notFound } from "../core/errors";
import { formatDate } from "../core/time";
import { doiResolverUrl } from "../pids/doi";
import type { VocabularyLookup } from "./metadata/check";
import { presentDraft, presentListedRecord, presentRecord, type PresentContext } from "./present";
import { indexedRecord, indexRecord, unindexRecord } from "./search-index";
import * as store from "./store";

export interface RecordsDeps extends Deps {
  lookup: VocabularyLookup;
  /** Queues a background job after the transaction that calls for it has committed. */
  enqueue(name: string, payload: unknown): void;
  /** Completed files of a draft (files arrive with the files module; until then, none). */
  fileCount(recordId: string): number;
}

export function createRecordsContext(deps: RecordsDeps) {
  const { db, config, links, clock } = deps;

  function presentContext(parentId: string): PresentContext {
    const parent = store.findParent(db, parentId);
    if (!parent) throw new Error(`record parent ${parentId} is missing`);
    return { links, parent, maxVersionIndex: store.maxVersionIndex(db, parentId), doiUrl: (doi) => doiResolverUrl(doi, config.DATACITE_TEST_MODE) };
  }

  return {
    deps,
    /** DOIs are minted only once a prefix is configured, so a fresh install never shows unresolvable DOIs. */
    doisEnabled: () => Boolean(config.DATACITE_PREFIX),
    today: () => formatDate(clock.now()),

    loadDraft(id: string) {
      const draft = store.findDraft(db, id);
      if (!draft) throw notFound("The draft does not exist.");
      return draft;
    },

    loadRecord(id: string) {
      const record = store.findRecord(db, id);
      if (!record) throw notFound("The persistent identifier does not exist.");
      return record;
    },

    /** Rules about files that need the file list: at least one file unless metadata-only, a real default preview. */
    fileErrors(recordId: string, document: Record<string, any>): FieldError[] {
      const count = deps.fileCount(recordId);
      const errors: FieldError[] = [];
      if (document.files?.enabled !== false && count === 0) {
        errors.push({ field: "files.enabled", messages: ["Missing uploaded files. To disable files for this record please mark it as metadata-only."] });
      }
      if (document.files?.default_preview && count === 0) {
        errors.push({ field: "files.default_preview", messages: ["Default preview must be one of the uploaded files."] });
      }
      return errors;
    },

    /** Re-indexes a draft (or drops it from the index when it is gone); call inside the write's transaction. */
    reindexDraft(id: string) {
      const draft = store.findDraft(db, id);
      if (!draft) return unindexRecord(db, id, true);
      const doc = draft.document as Record<string, any>;
      const isLatest = draft.versionIndex >= store.maxVersionIndex(db, draft.parentId);
      indexRecord(db, { ...draft, isDraft: true, isLatest, accessRecord: doc.access?.record ?? "public" }, store.findParent(db, draft.parentId)?.pids ?? {});
    },

    /** Re-indexes a published record; call inside the write's transaction. */
    reindexRecord(id: string) {
      const record = store.findRecord(db, id)!;
      indexRecord(db, indexedRecord(record), store.findParent(db, record.parentId)?.pids ?? {});
    },

    draftJson(row: store.DraftRow, errors: FieldError[] = []) {
      return presentDraft(row, presentContext(row.parentId), store.findRecord(db, row.id) !== null, errors);
    },
    recordJson: (row: store.RecordRow) => presentRecord(row, presentContext(row.parentId)),
    listedRecordJson: (row: store.RecordRow) => presentListedRecord(row, presentContext(row.parentId)),
  };
}

export type RecordsContext = ReturnType<typeof createRecordsContext>;
