// What the records module asks of files as drafts and records change: the rules checked before
// publishing, moving entries at publish / edit / delete (inside the records' transactions), and
// the `files` field of record JSON. Bytes are shared between entries, never copied. Built before
// the records service from the file store alone; the files service shares its removal of bytes.
import type { FieldError } from "../core/errors";
import { newUuid } from "../core/ids";
import type { Clock } from "../core/time";
import type { Db } from "../db/port";
import type { FileStore } from "../storage/file-store";
import { extensionOf, presentFilesField, type FilesSettings } from "./present";
import * as store from "./store";

export interface FileHooksDeps {
  db: Db;
  clock: Clock;
  files: FileStore;
  log(message: string): void;
  /** "" for the spec's path-only file links, the site's base URL for absolute ones (FILES_LINKS_ABSOLUTE). */
  linkBase: string;
}

export type FileHooks = ReturnType<typeof createLifecycleHooks>;

/** Why a file that is not completed blocks publishing, and what its owner can do. */
function blockingMessage(e: store.EntryWithObject): string {
  if (e.storageClass !== "F") return `The file '${e.key}' has not been committed.`;
  if (e.transfer.status === "failed") {
    return `The file '${e.key}' could not be fetched from ${e.uri}: ${e.transfer.error} Delete it, or delete it and add it again.`;
  }
  return `The file '${e.key}' is still being fetched from ${e.uri}${e.transfer.error ? ` (last attempt failed: ${e.transfer.error})` : ""}.`;
}

export function createLifecycleHooks(deps: FileHooksDeps) {
  const { db, clock } = deps;

  /** Moves `from`'s entries to `to`, replacing what `to` had; returns objects left unreferenced. */
  async function replaceSide(id: string, from: boolean, to: boolean, dropFrom: boolean): Promise<string[]> {
    const dropped = (await store.listEntries(db, id, to)).map((e) => e.objectId);
    await store.deleteEntries(db, id, to);
    await store.copyEntries(db, { recordId: id, isDraft: from }, { recordId: id, isDraft: to }, clock.now(), newUuid);
    if (dropFrom) await store.deleteEntries(db, id, from);
    return store.deleteUnreferencedObjects(db, dropped);
  }

  return {
    /** How file links are written (see FileHooksDeps.linkBase); the files service presents with the same. */
    linkBase: deps.linkBase,
    /** Keys of a draft's completed files, and why its files block publishing (pending uploads, running fetches). */
    async draftFiles(id: string): Promise<{ completedKeys: string[]; blocking: FieldError[] }> {
      const entries = await store.listEntries(db, id, true);
      const blocking: FieldError[] = entries
        .filter((e) => e.status !== "completed")
        .map((e) => ({
          field: "files.entries",
          messages: [blockingMessage(e)],
        }));
      return { completedKeys: entries.filter((e) => e.status === "completed").map((e) => e.key), blocking };
    },
    /** In the publish transaction: the record's files become the draft's. */
    publish: (id: string) => replaceSide(id, true, false, true),
    /** In the edit transaction: the draft starts with the record's files. */
    edit: async (id: string): Promise<void> => void (await replaceSide(id, false, true, false)),
    /** In the draft-delete transaction: the draft's entries go; their bytes too when nothing else uses them. */
    async discardDraft(id: string): Promise<string[]> {
      const dropped = (await store.listEntries(db, id, true)).map((e) => e.objectId);
      await store.deleteEntries(db, id, true);
      return store.deleteUnreferencedObjects(db, dropped);
    },
    /** Deletes bytes of objects nothing references; call after the transaction that dropped them committed. */
    removeObjects(ids: string[]) {
      for (const id of ids) {
        deps.files.removeObject(id).catch((error) => deps.log(`files: could not remove object ${id}: ${error}`));
      }
    },
    /** The `files` field of a draft or record; entries only for callers who may read the files. */
    filesField(id: string, isDraft: boolean, settings: FilesSettings, visible: boolean): Record<string, unknown> | Promise<Record<string, unknown>> {
      // A metadata-only record (or files the caller may not see) has no entries: no query, and the
      // field at once, on every read of it.
      if (!(visible && settings.enabled)) return presentFilesField(deps.linkBase, settings, null);
      return store.listEntries(db, id, isDraft).then((entries) => presentFilesField(deps.linkBase, settings, entries));
    },
    /** File extensions, for the search index's file_type facet. */
    fileTypes: async (id: string, isDraft: boolean) => [
      ...new Set((await store.listEntries(db, id, isDraft)).map((e) => extensionOf(e.key)).filter((x): x is string => x !== null)),
    ],
  };
}
