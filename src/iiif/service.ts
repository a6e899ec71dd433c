// IIIF Presentation resources of records and drafts (`/api/iiif/{record|draft}:{id}/...`): read
// as the caller may read the record (restricted files give no canvases), image sizes read from
// the stored files' headers and remembered per stored object (an object's bytes never change).
import type { Actor } from "../core/actor";
import { setBounded } from "../core/bounded";
import { HttpError, notFound } from "../core/errors";
import type { Links } from "../core/links";
import { queryString } from "../core/links";
import type { FileStore } from "../storage/file-store";
import { readImageSize, type ImageSize, type ReadAt } from "./image-header";
import { presentCanvas, presentManifest, presentSequence, standalone, type IiifImage, type IiifRecord } from "./present";

/** The record (or draft) JSON as the records service presents it to the caller; only what IIIF reads. */
interface RecordJson {
  id: string;
  metadata?: Record<string, any>;
  files?: { entries?: Record<string, { key: string; mimetype?: string | null; file_id?: string | null; size?: number | null; status?: string }> };
}

export interface IiifDeps {
  links: Links;
  /** The records service's reads, with their permission checks (401/403/404/410 as for the record's own URL). */
  records: { readRecord(actor: Actor, id: string): Promise<unknown>; readDraft(actor: Actor, id: string): Promise<unknown> };
  files: Pick<FileStore, "read">;
  log(message: string): void;
}

/** Image types whose headers image-header.ts reads; other files get no canvas. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/tiff", "image/webp", "image/bmp"]);
/** Sizes remembered, by stored object id; the oldest is forgotten first. */
const SIZE_CACHE_ENTRIES = 10_000;

export type IiifService = ReturnType<typeof createIiifService>;

export function createIiifService(deps: IiifDeps) {
  const { links, records, files } = deps;
  const sizes = new Map<string, ImageSize | null>();

  /** `record:{id}` or `draft:{id}`, InvenioRDM's IIIF identifiers of a record's resources. */
  function parseUuid(uuid: string): { kind: "record" | "draft"; id: string } {
    const m = /^(record|draft):([^:/]+)$/.exec(uuid);
    if (!m) throw notFound(`No IIIF resource '${uuid}': the identifier is record:{id} or draft:{id}.`);
    return { kind: m[1] as "record" | "draft", id: m[2]! };
  }

  function readAtOf(objectId: string, size: number): ReadAt {
    return async (offset, length) => {
      if (offset >= size || length <= 0) return new Uint8Array(0);
      const body = files.read(objectId, { start: offset, end: Math.min(size, offset + length) - 1 });
      return new Uint8Array(await new Response(body).arrayBuffer());
    };
  }

  async function sizeOf(objectId: string, size: number): Promise<ImageSize | null> {
    if (sizes.has(objectId)) return sizes.get(objectId)!;
    const found = await readImageSize(readAtOf(objectId, size)).catch((error: unknown) => {
      // A missing or unreadable object: no canvas for it, and not remembered (it may come back).
      deps.log(`iiif: could not read the image header of object ${objectId}: ${error}`);
      return undefined;
    });
    if (found === undefined) return null;
    setBounded(sizes, objectId, found, SIZE_CACHE_ENTRIES);
    return found;
  }

  async function readJson(actor: Actor, kind: "record" | "draft", id: string): Promise<RecordJson> {
    try {
      return (await (kind === "record" ? records.readRecord(actor, id) : records.readDraft(actor, id))) as RecordJson;
    } catch (error) {
      // A parent id redirects to its latest record's JSON: not this resource, and no IIIF identifier.
      if (error instanceof HttpError && (error.status === 301 || error.status === 302)) throw notFound(`No IIIF resource '${kind}:${id}'.`);
      throw error;
    }
  }

  /** The record as the caller sees it, and its image files (only `onlyKey`, when given) in the record's file order. */
  async function load(actor: Actor, uuid: string, onlyKey?: string) {
    const { kind, id } = parseUuid(uuid);
    const json = await readJson(actor, kind, id);
    const base = links.api(`/iiif/${kind}:${id}`);
    const filesPath = `/records/${id}${kind === "draft" ? "/draft" : ""}/files`;
    // A secret link's holder reads the images with the same token they read the manifest with.
    const token = queryString({ token: actor.linkToken });
    const images: IiifImage[] = [];
    for (const entry of Object.values(json.files?.entries ?? {})) {
      if (onlyKey !== undefined && entry.key !== onlyKey) continue;
      if (entry.status !== "completed" || !entry.file_id || !entry.mimetype || !IMAGE_TYPES.has(entry.mimetype)) continue;
      const size = await sizeOf(entry.file_id, entry.size ?? 0);
      if (!size) continue;
      const encoded = entry.key.split("/").map(encodeURIComponent).join("/");
      images.push({ key: entry.key, mimetype: entry.mimetype, size, canvasUrl: `${base}/canvas/${encoded}`, contentUrl: links.api(`${filesPath}/${encoded}/content`) + token });
    }
    const metadata = json.metadata ?? {};
    const rights = Array.isArray(metadata.rights) ? metadata.rights[0] : undefined;
    const record: IiifRecord = {
      title: typeof metadata.title === "string" ? metadata.title : "",
      publicationDate: typeof metadata.publication_date === "string" ? metadata.publication_date : null,
      description: typeof metadata.description === "string" && metadata.description ? metadata.description : null,
      license: rights?.link ?? rights?.props?.url ?? null,
      manifestUrl: `${base}/manifest`,
      sequenceUrl: `${base}/sequence/default`,
    };
    return { record, images };
  }

  return {
    /** `GET /api/iiif/{uuid}/manifest`. */
    async manifest(actor: Actor, uuid: string) {
      const { record, images } = await load(actor, uuid);
      return presentManifest(record, images);
    },

    /** `GET /api/iiif/{uuid}/sequence/default`: the manifest's one sequence, alone. */
    async sequence(actor: Actor, uuid: string) {
      const { record, images } = await load(actor, uuid);
      return standalone(presentSequence(record, images));
    },

    /** `GET /api/iiif/{uuid}/canvas/{key}`: the canvas of one image file (each canvas's `@id`). */
    async canvas(actor: Actor, uuid: string, key: string) {
      const image = (await load(actor, uuid, key)).images[0];
      if (!image) throw notFound(`The record has no image file '${key}'.`);
      return standalone(presentCanvas(image));
    },
  };
}
