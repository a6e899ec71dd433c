// File entries -> the API's JSON: the entry shape, listings, and the record's `files` summary.
import { createHash } from "node:crypto";
import { formatRecordTime } from "../core/time";
import type { EntryWithObject, PartRow } from "./store";

/**
 * Links of file endpoints: path-only as the spec gives them (`linkBase` ""), or absolute with the
 * site's base URL (FILES_LINKS_ABSOLUTE); keys are percent-encoded per segment.
 */
export function filePath(linkBase: string, recordId: string, isDraft: boolean, key?: string) {
  const base = `${linkBase}/api/records/${recordId}${isDraft ? "/draft" : ""}/files`;
  return key === undefined ? base : `${base}/${key.split("/").map(encodeURIComponent).join("/")}`;
}

/** A stable bucket id per draft or record (InvenioRDM's bucket: the container of its files). */
export function bucketId(recordId: string, isDraft: boolean): string {
  const h = createHash("md5")
    .update(`${recordId}/${isDraft ? "draft" : "record"}`)
    .digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function presentEntry(linkBase: string, e: EntryWithObject, parts: PartRow[] = []) {
  const self = filePath(linkBase, e.recordId, e.isDraft, e.key);
  const completed = e.status === "completed";
  const transfer = e.transfer.type === "M" ? { ...e.transfer, uploaded_parts: parts.map((p) => p.part) } : e.transfer;
  return {
    id: e.versionId,
    key: e.key,
    created: formatRecordTime(e.created),
    updated: formatRecordTime(e.updated),
    status: e.status,
    metadata: e.metadata ?? null,
    ...(completed ? { checksum: e.checksum, mimetype: e.mimetype, size: e.size, ext: extensionOf(e.key) } : {}),
    ...(e.status === "pending" && e.declaredSize !== null ? { size: e.declaredSize } : {}),
    file_id: e.objectId,
    version_id: e.versionId,
    bucket_id: bucketId(e.recordId, e.isDraft),
    storage_class: e.storageClass,
    ...(e.uri ? { uri: e.uri } : {}),
    transfer,
    access: { hidden: false },
    links: {
      self,
      content: `${self}/content`,
      ...(e.isDraft ? { commit: `${self}/commit` } : {}),
      ...(e.isDraft && e.transfer.type === "M" && e.status === "pending"
        ? { parts: Array.from({ length: e.transfer.parts ?? 0 }, (_, i) => ({ part: i + 1, url: `${self}/content/${i + 1}` })) }
        : {}),
    },
  };
}

/** The lower-case extension InvenioRDM shows as `ext` and facets as file type. */
export function extensionOf(key: string): string | null {
  const name = key.slice(key.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : null;
}

export interface FilesSettings {
  enabled: boolean;
  default_preview: string | null;
  order: string[];
}

/** `GET .../files`: settings, entries (in `order` first, then upload order), links. */
export function presentListing(linkBase: string, recordId: string, isDraft: boolean, settings: FilesSettings, entries: EntryWithObject[]) {
  return {
    enabled: settings.enabled,
    default_preview: settings.default_preview,
    order: settings.order,
    entries: ordered(entries, settings.order).map((e) => presentEntry(linkBase, e)),
    links: { self: filePath(linkBase, recordId, isDraft) },
  };
}

function ordered(entries: EntryWithObject[], order: string[]) {
  const rank = new Map(order.map((k, i) => [k, i]));
  return [...entries].sort((a, b) => (rank.get(a.key) ?? Infinity) - (rank.get(b.key) ?? Infinity) || a.id - b.id);
}

/** The `files` object inside a record or draft: entries keyed by name, count and total size. */
export function presentFilesField(linkBase: string, settings: FilesSettings, entries: EntryWithObject[] | null) {
  const shown = entries ? ordered(entries, settings.order) : [];
  return {
    ...settings,
    count: shown.length,
    total_bytes: shown.reduce((n, e) => n + (e.size ?? 0), 0),
    entries: Object.fromEntries(shown.map((e) => [e.key, presentEntry(linkBase, e)])),
  };
}
