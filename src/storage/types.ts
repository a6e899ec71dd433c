// What every file store offers (the local disk, S3-compatible object storage) and the errors of
// receiving bytes. Callers hold a FileStore and never a path to an object.

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface Received {
  /** The local file holding the bytes (a temporary file, or a multipart upload's file), durable on disk. */
  path: string;
  size: number;
  /** Lower-case hex MD5 of the bytes (empty for multipart parts, which are hashed when joined). */
  md5: string;
}

export interface ReceiveLimits {
  maxBytes: number;
  expectedBytes?: number | null;
  hash?: boolean;
  into?: { path: string; position: number };
}

/** The stream went past the allowed size: the bytes are discarded. */
export class ContentTooLargeError extends Error {}
/** The stream ended with another length than announced (a cut connection, a wrong Content-Length). */
export class ContentLengthMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`expected ${expected} bytes, received ${received}`);
  }
}

/** The object store failed or refused a request (unreachable, denied, a size that did not arrive whole). */
export class ObjectStoreError extends Error {
  constructor(
    message: string,
    /** The store's error code when it gave one (NoSuchUpload, NoSuchKey, AccessDenied...). */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** Inclusive byte offsets, as in a Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** An object's bytes as a response body: a file Blob (sent with sendfile) or a stream. */
export type ObjectBody = Blob | ReadableStream<Uint8Array>;

export interface PresignOptions {
  expiresIn: number;
  contentDisposition: string;
  contentType: string;
}

/** An object-store multipart upload under way: the object it will become and the store's upload id. */
export interface MultipartUpload {
  objectId: string;
  uploadId: string;
}

/** Multipart uploads of the object store (S3's): parts sent as they arrive, joined at commit. */
export interface ObjectMultipart {
  /** Smallest part the store accepts (except the last) and the largest. */
  minPartSize: number;
  maxPartSize: number;
  /** Starts an upload that will become object `objectId`. */
  create(objectId: string): Promise<MultipartUpload>;
  /** The upload is now recorded in the database: a sweep may judge it by the rows from here on. */
  recorded(upload: MultipartUpload): void;
  /** Sends `size` bytes at `position` of the local file `path` as part `part`; resolves to its ETag once stored. */
  uploadPart(upload: MultipartUpload, part: number, path: string, position: number, size: number): Promise<string>;
  /** Joins the parts into the object and checks its size; the object is durable when this resolves. */
  complete(upload: MultipartUpload, parts: { part: number; etag: string }[], size: number): Promise<void>;
  abort(upload: MultipartUpload): Promise<void>;
  /** Aborts every upload of this store that is neither in `keep` (upload ids) nor under way in this process; resolves to how many. */
  sweep(keep: Set<string>): Promise<number>;
}

export interface FileStore {
  readonly kind: "local" | "s3";
  /** Streams bytes to a new local temporary file, hashing them; nothing is left behind on failure. */
  receive(source: ByteSource, limits: ReceiveLimits): Promise<Received>;
  /** Makes received bytes the object `id`, durable when this resolves; the temporary file is gone then. */
  adopt(received: Received, id: string): Promise<void>;
  /** Removes a local file of an upload (a temporary file, a multipart upload's file). */
  removeFile(path: string): Promise<void>;
  /** The object's bytes, whole or one range. */
  read(id: string, range?: ByteRange): ObjectBody;
  /** The first `bytes` bytes of the object (fewer when it is shorter). */
  readHead(id: string, bytes: number): Promise<Uint8Array>;
  /** Size and MD5 of the object as stored now; null when it is missing. */
  hashObject(id: string): Promise<{ size: number; md5: string } | null>;
  /** A short-lived URL the client can fetch the object from itself; null when the store has none (local disk). */
  presign(id: string, options: PresignOptions): string | null;
  removeObject(id: string): Promise<void>;
  /** Where a multipart upload's parts are written locally, each at its offset (survives restarts). */
  partsPath(uploadKey: string): string;
  /** A multipart part, written in place at `position` and fsynced; hashed only at commit, as a whole. */
  receivePart(source: ByteSource, limits: { maxBytes: number; expectedBytes: number; path: string; position: number }): Promise<Received>;
  hashFile(path: string): Promise<Received>;
  /** The object store's own multipart uploads, or null (the local disk joins parts in place). */
  multipart: ObjectMultipart | null;
  /** Part files not in `keep` (their upload was deleted while a part was arriving). */
  clearParts(keep: Set<string>): void;
  /** Temporary files of uploads that were cut off by a stop: nothing refers to them. */
  clearTemporary(): void;
}
