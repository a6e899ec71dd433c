// A community's logo: raw bytes streamed into the file store, limited in size, accepted only when
// they are an image (PNG, JPEG, GIF, WebP or SVG, told from the bytes, never from a header).
import type { Actor } from "../core/actor";
import { matchesIfNoneMatch } from "../core/etag";
import { badRequest, HttpError, notFound } from "../core/errors";
import { newUuid } from "../core/ids";
import { ContentLengthMismatchError, ContentTooLargeError, ObjectStoreError, type ByteSource, type FileStore, type Received } from "../storage/file-store";
import type { Deps } from "../core/deps";
import { HEAD_BYTES, sniffImageType } from "../core/image-type";
import { presentLogo } from "./present";
import * as store from "./store";
import type { CommunityRow } from "./store";

export interface LogoContext {
  deps: Deps & { files: FileStore };
  /** The community the actor may change the logo of (401, 404, 403 otherwise). */
  loadOwned(actor: Actor, key: string): Promise<CommunityRow>;
  /** The community the actor may read (404 otherwise). */
  loadReadable(actor: Actor, key: string): Promise<CommunityRow>;
}

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg" };

export function createLogoOperations(ctx: LogoContext) {
  const { db, clock, config, files } = ctx.deps;
  const limit = config.COMMUNITIES_LOGO_MAX_FILE_SIZE;
  // InvenioRDM's LogoSizeLimitError is a 400, not a 413.
  const tooLarge = (given?: number) => badRequest(`Logo size limit exceeded. Limit: ${limit} bytes${given === undefined ? "" : ` Given: ${given} bytes`}.`);

  async function receive(body: ByteSource, contentLength: number | null): Promise<Received> {
    try {
      return await files.receive(body, { maxBytes: limit, expectedBytes: contentLength });
    } catch (error) {
      if (error instanceof ContentTooLargeError) throw tooLarge();
      if (error instanceof ContentLengthMismatchError) throw badRequest(`The upload ended after ${error.received} of ${error.expected} bytes; nothing was stored.`);
      throw badRequest("The upload was interrupted; nothing was stored. Send the logo again.");
    }
  }

  async function sniff(path: string): Promise<string | null> {
    return sniffImageType(new Uint8Array(await Bun.file(path).slice(0, HEAD_BYTES).arrayBuffer()));
  }

  return {
    async updateLogo(actor: Actor, key: string, body: ByteSource, contentLength: number | null) {
      const community = await ctx.loadOwned(actor, key);
      if (contentLength !== null && contentLength > limit) throw tooLarge(contentLength);
      const received = await receive(body, contentLength);
      const mimetype = received.size > 0 ? await sniff(received.path) : null;
      if (!mimetype) {
        await files.removeFile(received.path);
        throw badRequest("The logo must be a PNG, JPEG, GIF, WebP or SVG image.");
      }
      const objectId = newUuid();
      await files.adopt(received, objectId).catch((error) => {
        if (error instanceof ObjectStoreError) throw new HttpError(503, `The file storage did not take the logo (${error.message}); send it again.`);
        throw error;
      });
      const now = clock.now();
      // Only database work inside: the bytes are stored before, old ones removed after commit.
      const result = await db.write(async (tx) => {
        // Deleted while the bytes arrived: nothing to attach them to.
        const current = await store.findCommunityById(tx, community.id);
        if (!current) return null;
        const row = (await store.updateCommunity(tx, community.id, { logoObjectId: objectId, logoMimetype: mimetype, logoSize: received.size, updated: now }))!;
        return { row, previous: current.logoObjectId };
      });
      if (!result) {
        await files.removeObject(objectId);
        throw notFound("The persistent identifier does not exist.");
      }
      if (result.previous) await files.removeObject(result.previous);
      return presentLogo(result.row, received.md5);
    },

    /** The logo's bytes with their sniffed type; 304 when the caller's copy (ETag: the stored object) is current. */
    async readLogo(actor: Actor, key: string, ifNoneMatch: string | null): Promise<Response> {
      const community = await ctx.loadReadable(actor, key);
      if (!community.logoObjectId) throw notFound("No logo exists for this community.");
      const etag = `"${community.logoObjectId}"`;
      // Revalidated on every use: a restricted community's logo must not outlive a lost membership in a cache.
      const headers: Record<string, string> = { ETag: etag, "Cache-Control": "private, no-cache" };
      if (matchesIfNoneMatch(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
      const type = community.logoMimetype ?? "application/octet-stream";
      return new Response(files.read(community.logoObjectId), {
        headers: {
          ...headers,
          "Content-Type": type,
          "Content-Length": String(community.logoSize ?? 0),
          "Content-Disposition": `inline; filename=logo.${EXTENSIONS[type] ?? "bin"}`,
        },
      });
    },

    async deleteLogo(actor: Actor, key: string) {
      const community = await ctx.loadOwned(actor, key);
      const removed = await db.write(async (tx) => {
        const objectId = (await store.findCommunityById(tx, community.id))?.logoObjectId;
        if (objectId) await store.updateCommunity(tx, community.id, { logoObjectId: null, logoMimetype: null, logoSize: null, updated: clock.now() });
        return objectId;
      });
      if (!removed) throw notFound("No logo exists for this community.");
      await files.removeObject(removed);
    },
  };
}
