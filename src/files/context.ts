// What the file operations share: deps, the store on disk, the records module's answers about
// drafts and records, and removing bytes no entry needs any more.
import type { Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { notFound } from "../core/errors";
import type { Visitor } from "../core/visitor";
import type { QuotaLimits } from "../quotas/limits";
import type { FileStore } from "../storage/file-store";
import type { FileHooks } from "./lifecycle";
import type { FileTarget } from "./policy";
import * as store from "./store";

/** Answers of the records module (which owns drafts, records and their permissions). */
export interface FileOwners {
  /** A draft whose files the actor may manage; 404, 401 or 403 otherwise. */
  draftTarget(actor: Actor, id: string): Promise<FileTarget>;
  /** A published record whose files the actor may read (restricted files and embargoes applied); 404, 401 or 403 otherwise. */
  recordTarget(actor: Actor, id: string): Promise<FileTarget>;
  /** The published version a new-version draft imports files from (the latest), or null. */
  importSource(draftId: string): Promise<string | null>;
}

export interface DownloadEvent {
  actor: Actor;
  visitor: Visitor;
  recordId: string;
  parentId: string;
  fileKey: string;
  /** Bytes sent (the whole file, or the first range). */
  bytes: number;
}

export interface FilesDeps extends Deps {
  files: FileStore;
  /** The hooks the records module was built with, on the same store (their removal of bytes is shared). */
  hooks: FileHooks;
  owners: FileOwners;
  /** The record and user quotas every way of storing bytes checks before and while it stores them. */
  quotas: QuotaLimits;
  enqueue(name: string, payload: unknown): Promise<unknown>;
  /** Told of every content response that sends bytes of a published record (statistics count downloads). */
  onDownload(event: DownloadEvent): unknown;
  log(message: string): void;
}

export function createFilesContext(deps: FilesDeps) {
  const { db } = deps;
  return {
    deps,
    async loadEntry(recordId: string, isDraft: boolean, key: string) {
      const entry = await store.findEntry(db, recordId, isDraft, key);
      if (!entry) throw notFound(`The file '${key}' does not exist.`);
      return entry;
    },
    removeObjects: deps.hooks.removeObjects,
    /** "" (path-only file links, the spec's form) or the base URL (FILES_LINKS_ABSOLUTE). */
    linkBase: deps.hooks.linkBase,
  };
}

export type FilesContext = ReturnType<typeof createFilesContext>;
