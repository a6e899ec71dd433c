// File operations of drafts and records: listings, starting uploads (local, multipart, fetched),
// file metadata, deletion, content downloads, archives and importing a previous version's files.
// Uploading bytes and committing live in uploads.ts; the record lifecycle hooks in lifecycle.ts.
import { requireUser, type Actor } from "../core/actor";
import { badRequest, payloadTooLarge, validationError, type FieldError } from "../core/errors";
import { newUuid } from "../core/ids";
import type { Visitor } from "../core/visitor";
import type { Db } from "../db/port";
import { archiveResponse } from "./archive";
import { createFilesContext, type FilesDeps } from "./context";
import { downloadResponse, presignedDisposition, type ContentRequest } from "./download";
import { matchAllowedDomain, refusePublishedWrite, requireFilesEnabled, requireUnlocked, type FileTarget } from "./policy";
import { presentEntry, presentListing } from "./present";
import * as store from "./store";
import { createStoreParts } from "./store-parts";
import { createUploadOperations } from "./uploads";
import { checkKey, parseFileInits } from "./validate";
import { createFetchTransfer } from "./fetch";
import { createVerifier } from "./verify";
import { migrateToS3, type MigrateOptions } from "../storage/migrate";

export const FETCH_JOB = "files-fetch";

export type FilesService = ReturnType<typeof createFilesService>;

export function createFilesService(deps: FilesDeps) {
  const ctx = createFilesContext(deps);
  const { db, clock, config, files, owners } = deps;
  const storeParts = createStoreParts(ctx);

  const target = (actor: Actor, id: string, isDraft: boolean): Promise<FileTarget> => (isDraft ? owners.draftTarget(actor, id) : owners.recordTarget(actor, id));

  /** Refuses the whole request before anything is written: count, sizes and quotas, duplicate keys, untrusted hosts. */
  async function checkInits(tx: Db, id: string, inits: ReturnType<typeof parseFileInits>) {
    const max = config.RDM_RECORDS_MAX_FILES_COUNT;
    if ((await store.countEntries(tx, id, true)) + inits.length > max) throw badRequest(`A record can have at most ${max} files.`);
    // Announced sizes are refused here, before any byte (the record's and its owner's quotas; each file's largest size).
    const room = await deps.quotas.room(tx, id, null);
    for (const f of inits) if (f.size !== null && f.size > room.maxFileSize) throw payloadTooLarge(room.maxFileSize);
    const announced = inits.filter((f) => f.size !== null);
    const refusal = deps.quotas.refusal(
      room,
      announced.reduce((sum, f) => sum + f.size!, 0),
      announced.length,
    );
    if (announced.length && refusal) throw refusal;
    const errors: FieldError[] = [];
    for (const [i, f] of inits.entries()) {
      if (await store.findEntry(tx, id, true, f.key)) {
        errors.push({ field: `${i}.key`, messages: [`A file with the key '${f.key}' already exists.`] });
      } else if (f.uri && !matchAllowedDomain(new URL(f.uri).hostname, config.RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS)) {
        errors.push({
          field: `${i}.uri`,
          messages: [`Fetching from '${new URL(f.uri).hostname}' is not allowed: it is not in the trusted domains (RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS).`],
        });
      }
    }
    if (errors.length) throw validationError(errors);
  }

  /** Counts a download; a failure to count never fails the response. */
  function countDownload(event: Parameters<FilesDeps["onDownload"]>[0]) {
    Promise.resolve(deps.onDownload(event)).catch((error) => deps.log(`files: could not count a download: ${error}`));
  }

  /**
   * A file's bytes (whole, ranges, or 304); sending bytes of a published record counts a download
   * by `visitor` (null: not a download, e.g. a page's inline preview).
   */
  async function content(actor: Actor, id: string, isDraft: boolean, key: string, request: ContentRequest, visitor: Visitor | null) {
    const t = await target(actor, id, isDraft);
    const entry = await ctx.loadEntry(id, isDraft, key);
    if (entry.status !== "completed" || !entry.objectId) throw badRequest(`The file '${key}' has no committed content yet.`);
    const objectId = entry.objectId;
    const mimetype = entry.mimetype ?? "application/octet-stream";
    const presign = () => files.presign(objectId, { expiresIn: config.S3_PRESIGNED_EXPIRES_SECONDS, contentDisposition: presignedDisposition(key), contentType: mimetype });
    const download = {
      open: (range?: { start: number; end: number }) => files.read(objectId, range),
      // Only after the permission checks above: the URL itself is the right to read.
      redirect: config.S3_PRESIGNED_DOWNLOADS ? presign : undefined,
      key,
      size: entry.size!,
      checksum: entry.checksum!,
      mimetype,
      lastModified: entry.updated,
    };
    return downloadResponse(request, download, (bytes, firstRange) => {
      if (visitor && firstRange && !isDraft && !request.head) countDownload({ actor, visitor, recordId: id, parentId: t.parentId, fileKey: key, bytes });
    });
  }

  return {
    ...createUploadOperations(ctx),
    /** What the records module was built with (see lifecycle.ts). */
    hooks: deps.hooks,

    /** Any write to a published record's files: read as the caller may (401/403/404 first), then refused. */
    async refuseRecordWrite(actor: Actor, id: string): Promise<never> {
      requireUser(actor);
      await target(actor, id, false);
      return refusePublishedWrite();
    },

    async listFiles(actor: Actor, id: string, isDraft: boolean) {
      const t = await target(actor, id, isDraft);
      return presentListing(ctx.linkBase, id, isDraft, t.settings, await store.listEntries(db, id, isDraft));
    },

    async readFile(actor: Actor, id: string, isDraft: boolean, key: string) {
      await target(actor, id, isDraft);
      const entry = await ctx.loadEntry(id, isDraft, key);
      return presentEntry(ctx.linkBase, entry, entry.transfer.type === "M" ? await store.listParts(db, entry.id) : []);
    },

    /** `POST .../draft/files`: pending entries for the keys; fetched ones are queued for transfer. */
    async initFiles(actor: Actor, id: string, body: unknown) {
      const t = await owners.draftTarget(actor, id);
      requireUnlocked(t);
      requireFilesEnabled(t);
      const inits = parseFileInits(body);
      const now = clock.now();
      const created = await db.write(async (tx) => {
        await checkInits(tx, id, inits);
        const ids: number[] = [];
        for (const f of inits) {
          ids.push(
            await store.insertEntry(tx, {
              recordId: id,
              isDraft: true,
              key: f.key,
              status: "pending",
              storageClass: f.storageClass,
              uri: f.uri,
              metadata: f.metadata,
              declaredSize: f.size,
              declaredChecksum: f.checksum,
              transfer: f.transfer,
              versionId: newUuid(),
              created: now,
              updated: now,
            }),
          );
        }
        return ids;
      });
      for (const [i, entryId] of created.entries()) if (inits[i]!.storageClass === "F") await deps.enqueue(FETCH_JOB, { entryId });
      const entries: store.EntryWithObject[] = [];
      for (const entryId of created) entries.push((await store.findEntryById(db, entryId))!);
      return presentListing(ctx.linkBase, id, true, t.settings, entries);
    },

    /** `PUT .../draft/files/{key}`: replaces the free `metadata` of the entry. */
    async updateFileMetadata(actor: Actor, id: string, key: string, body: unknown) {
      requireUnlocked(await owners.draftTarget(actor, id));
      const entry = await ctx.loadEntry(id, true, key);
      const metadata = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).metadata : undefined;
      if (metadata !== null && (typeof metadata !== "object" || Array.isArray(metadata))) {
        throw validationError([{ field: "metadata", messages: ["Must be an object (or null)."] }]);
      }
      await store.updateEntry(db, entry.id, { metadata: metadata as Record<string, unknown> | null, updated: clock.now() });
      return presentEntry(ctx.linkBase, await ctx.loadEntry(id, true, key));
    },

    async deleteFile(actor: Actor, id: string, key: string) {
      requireUnlocked(await owners.draftTarget(actor, id));
      const entry = await ctx.loadEntry(id, true, key);
      const parts = await store.listParts(db, entry.id);
      const upload = await store.findUpload(db, entry.id);
      const orphans = await db.write(async (tx) => {
        await store.deleteEntry(tx, entry.id);
        return store.deleteUnreferencedObjects(tx, [entry.objectId]);
      });
      ctx.removeObjects(orphans);
      for (const path of new Set(parts.map((p) => p.path))) await files.removeFile(path);
      if (upload) await storeParts.abandon(upload);
    },

    content,

    /** `head`: the answer to a HEAD, headers only. */
    async archive(actor: Actor, id: string, isDraft: boolean, head = false) {
      await target(actor, id, isDraft);
      return archiveResponse(id, await store.listEntries(db, id, isDraft), files, head);
    },

    /** `POST .../draft/actions/files-import`: the previous version's files, shared, not copied on disk. */
    async importFiles(actor: Actor, id: string) {
      const t = await owners.draftTarget(actor, id);
      requireUnlocked(t);
      requireFilesEnabled(t);
      const source = await owners.importSource(id);
      if (!source) throw badRequest("There is no published version to import files from.");
      const now = clock.now();
      const orphans = await db.write(async (tx) => {
        const dropped = (await store.listEntries(tx, id, true)).map((e) => e.objectId);
        await store.deleteEntries(tx, id, true);
        await store.copyEntries(tx, { recordId: source, isDraft: false }, { recordId: id, isDraft: true }, now, newUuid);
        return store.deleteUnreferencedObjects(tx, dropped);
      });
      ctx.removeObjects(orphans);
      return presentListing(ctx.linkBase, id, true, t.settings, await store.listEntries(db, id, true));
    },

    /** Key check for routes (so a bad key is a 400 before any lookup). */
    checkKey,

    /** Statistics: bytes stored before `fromMs`, and per UTC day number in [fromMs, toMs) (the caller checks who asks). */
    storedBytes: {
      before: (fromMs: number) => store.sumStoredBefore(db, fromMs),
      perDay: (fromMs: number, toMs: number) => store.sumStoredPerDay(db, fromMs, toMs),
    },

    /** The fetch job's work (see fetch.ts). */
    fetchFile: createFetchTransfer(ctx),
    /** The integrity job and `cairn files verify`. */
    verifyFiles: createVerifier(ctx),

    /** `cairn files migrate --to s3`: the local objects into the bucket, each checked against the MD5 recorded for it (see storage/migrate.ts). */
    migrateToS3: (options: Omit<MigrateOptions, "expected">) => migrateToS3(config, { ...options, expected: (objectId) => store.findObject(db, objectId) }),

    /**
     * At server start: temporary files of cut-off uploads, part files no upload refers to, and (in
     * the background) object-storage multipart uploads no entry refers to; resolves to how many of those.
     */
    async cleanStore(): Promise<number> {
      files.clearTemporary();
      files.clearParts(new Set(await store.listPartPaths(db)));
      if (!files.multipart) return 0;
      const uploadIds = new Set(await store.listUploadIds(db));
      return files.multipart.sweep(uploadIds).then(
        (aborted) => {
          if (aborted) deps.log(`files: aborted ${aborted} multipart upload(s) in the object storage that no file refers to`);
          return aborted;
        },
        (error) => {
          deps.log(`files: could not list the object storage's multipart uploads: ${error}`);
          return 0;
        },
      );
    },
  };
}
