// Vocabulary imports as jobs (administrators): an uploaded dump is streamed to a folder of the data
// directory (never held in memory) and queued; a publisher download is queued with an empty
// folder the job fills. The screen lists the newest imports with their progress and result. Each
// queueing is audited (`vocabulary.import`) with the way it came in.
import { closeSync, mkdirSync, openSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createWriteStream } from "node:fs";
import { randomUUID } from "node:crypto";
import type { Config } from "../config";
import type { Db } from "../db/port";
import { requireAdmin, type Actor } from "../core/actor";
import { badRequest } from "../core/errors";
import type { JobsService } from "../jobs/service";
import type { AuditService } from "../audit/service";
import type { VocabularyOrigin } from "./service";
import { readerFor, DUMP_FORMATS } from "./importers/readers";
import { VOCABULARY_IMPORT_JOB, importFolder, type ImportPayload } from "./import-job";
import { IMPORTABLE_TYPES, isImportableType, isReleaseType, RELEASE_TYPES, type ImportableType } from "./model";

export type VocabularyImports = ReturnType<typeof createVocabularyImports>;

/** The stored name keeps the upload's extensions (`.json.gz`, `.tar.gz`): the reader is chosen by them. */
function storedName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const ext = /(\.[A-Za-z0-9]{1,8}){1,2}$/.exec(base)?.[0] ?? "";
  return `dump${ext.toLowerCase()}`;
}

function importableType(type: string): ImportableType {
  if (!isImportableType(type)) throw badRequest(`type: Must be one of: ${IMPORTABLE_TYPES.join(", ")}.`);
  return type;
}

export function createVocabularyImports(deps: { db: Db; config: Config; jobs: JobsService; audit: Pick<AuditService, "record"> }) {
  const { config, jobs } = deps;

  /** Queues the import's job and writes its audit entry in one transaction: both or neither. */
  const queueAudited = (actor: Actor, type: string, origin: VocabularyOrigin, payload: ImportPayload, options: { maxAttempts?: number }, details: Record<string, unknown>) =>
    deps.db.write(async (tx) => {
      const job = await jobs.enqueue(VOCABULARY_IMPORT_JOB, payload, { ...options, tx });
      await audited(actor, type, origin, { job: job.id, ...details }, tx);
      return job;
    });

  const audited = (actor: Actor, type: string, origin: VocabularyOrigin, details: Record<string, unknown>, tx?: Db) =>
    deps.audit.record(actor, { action: "vocabulary.import", targetType: "vocabulary", targetId: type, details, via: origin.via, address: origin.address ?? null }, tx);

  function newFolder(): { folder: string; path: string } {
    const folder = randomUUID();
    const path = importFolder(config, folder);
    mkdirSync(path, { recursive: true });
    return { folder, path };
  }

  return {
    /**
     * Streams an uploaded dump to a new import folder and queues its import (one attempt: a file
     * fails the same way each time). A name that does not fit the type is refused before any byte
     * is stored; a broken upload leaves nothing behind.
     */
    async queueUpload(actor: Actor, rawType: string, rawName: string, body: ReadableStream<Uint8Array> | null, origin: VocabularyOrigin) {
      requireAdmin(actor);
      const type = importableType(rawType);
      if (!body) throw badRequest("Send the dump as the request body (Content-Type: application/octet-stream).");
      const name = rawName.trim();
      if (!name) throw badRequest("name: the dump's file name is needed (its extension says its format).");
      const { folder, path } = newFolder();
      const file = storedName(name);
      const dest = join(path, file);
      try {
        // The reader is chosen (and a name that fits no reader refused) on an empty file first.
        closeSync(openSync(dest, "w"));
        try {
          readerFor(type, dest, () => {});
        } catch (err) {
          throw badRequest(`${name} is not a ${type} dump: ${type} are read from ${DUMP_FORMATS[type]}. (${(err as Error).message})`);
        }
        await pipeline(Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>), createWriteStream(`${dest}.part`));
        await rename(`${dest}.part`, dest);
      } catch (err) {
        await rm(path, { recursive: true, force: true });
        throw err;
      }
      const payload: ImportPayload = { type, source: "upload", folder, file, name };
      return queueAudited(actor, type, origin, payload, { maxAttempts: 1 }, { source: "upload", name });
    },

    /** Queues the download and import of the publisher's newest release (ROR, for affiliations or funders). */
    async queueRelease(actor: Actor, rawType: string, origin: VocabularyOrigin) {
      requireAdmin(actor);
      if (!isReleaseType(rawType)) throw badRequest(`type: the newest release is downloaded for ${RELEASE_TYPES.join(" and ")} (ROR) only.`);
      const { folder } = newFolder();
      const payload: ImportPayload = { type: rawType, source: "release", folder, name: "ROR's newest release" };
      return queueAudited(actor, rawType, origin, payload, {}, { source: "release" });
    },

    /** Downloads and imports the newest release now, in this process (`cairn vocabularies update`); the finished job. */
    async runRelease(actor: Actor, rawType: string, origin: VocabularyOrigin) {
      requireAdmin(actor);
      if (!isReleaseType(rawType)) throw badRequest(`type: the newest release is downloaded for ${RELEASE_TYPES.join(" and ")} (ROR) only.`);
      const payload: ImportPayload = { type: rawType, source: "release", folder: newFolder().folder, name: "ROR's newest release" };
      // Recorded before it runs: the download may fail, the administrator's attempt stays in the log.
      await audited(actor, rawType, origin, { source: "release" });
      return jobs.runNow(actor, VOCABULARY_IMPORT_JOB, payload);
    },

    /** The newest imports, newest first. */
    listImports: (actor: Actor, limit = 20) => jobs.listJobsNamed(actor, VOCABULARY_IMPORT_JOB, limit),
  };
}
