// Records and drafts as a rebuild of the index reads them, for every engine: a row of `records` or
// `drafts` read with its parent's pids and community ids (each engine's SQL names them
// `parent_pids` and `parent_communities`, comma-joined), shaped as the index takes it.
import { indexedRecord, type IndexedParent, type IndexedRow } from "./index";
import { rowOf } from "./document";

/** A record's or draft's file extensions (the files service's; it reads the database). */
export type FileTypes = (id: string, isDraft: boolean) => string[] | Promise<string[]>;
export type Raw = Record<string, any>;

/** The parent's pids and community ids, read with each row (PARENT_COLUMNS): no per-record lookups. */
export function parentOf(raw: Raw): IndexedParent {
  return { pids: raw.parent_pids ? JSON.parse(raw.parent_pids) : {}, communities: raw.parent_communities ? String(raw.parent_communities).split(",") : [] };
}

/** A record or draft to index, read and shaped before its batch's transaction. */
export interface Indexed {
  row: IndexedRow;
  parent: IndexedParent;
}

/** A published record's row as the index takes it. */
export const publishedOf = (raw: Raw): Indexed => ({ row: indexedRecord(rowOf(raw)), parent: parentOf(raw) });

/** A draft's row as the index takes it. */
export function draftOf(raw: Raw): Indexed {
  const document = JSON.parse(raw.document);
  const row: IndexedRow = {
    id: raw.id,
    parentId: raw.parent_id,
    ownerId: raw.owner_id,
    isLatest: raw.is_latest === 1,
    isDraft: true,
    accessRecord: document.access?.record ?? "public",
    versionIndex: raw.version_index,
    document,
    created: raw.created,
    updated: raw.updated,
  };
  return { row, parent: parentOf(raw) };
}

/**
 * The file types of each record or draft (the files service reads them from the database), asked
 * before the rows are written so that the batch's writes run with no await between them.
 */
export async function withFileTypes(items: Indexed[], fileTypes: FileTypes): Promise<Indexed[]> {
  // Metadata-only records have no files to look up.
  const types = await Promise.all(
    items.map(async ({ row }) => (!row.isDraft && (row.document as { files?: { enabled?: boolean } }).files?.enabled === false ? [] : fileTypes(row.id, row.isDraft))),
  );
  return items.map((item, i) => ({ ...item, row: { ...item.row, fileTypes: types[i]! } }));
}
