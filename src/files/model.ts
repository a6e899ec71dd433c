// Wire shapes of the files endpoints: the longest file key, the body that starts uploads (schema
// and the typed items validate.ts reads it into).
import { t } from "elysia";
import type { FileTransfer } from "../db/tables";

/** Longest key accepted, in bytes of UTF-8 (file systems and ZIP names stay well within limits). */
export const MAX_KEY_BYTES = 1024;

/**
 * The body of `POST .../draft/files` as a schema: a list of items, or one item alone. Items are
 * checked by parseFileInits (validate.ts); the schema tells the JSON body reader a list is welcome here.
 */
export const fileInitsBody = t.Union([t.Array(t.Unknown()), t.Record(t.String(), t.Unknown())]);

/** One item of `POST .../draft/files`. */
export interface FileInit {
  key: string;
  size: number | null;
  checksum: string | null;
  storageClass: "L" | "F";
  uri: string | null;
  transfer: FileTransfer;
  metadata: Record<string, unknown> | null;
}
