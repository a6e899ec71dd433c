// S3 multipart uploads driven part by part (create, upload part, complete, abort, list): Bun's
// S3Client runs multipart uploads only inside its own writer, so a Cairn multipart transfer whose
// parts arrive in any order, over hours and restarts, is signed here with aws4fetch instead.
import { AwsClient } from "aws4fetch";
import { XMLParser } from "fast-xml-parser";
import { ObjectStoreError, type MultipartUpload, type ObjectMultipart } from "./types";

export interface S3Endpoint {
  /** Path-style base: https://host[:port] (the bucket is the first path segment). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  prefix: string;
}

const MiB = 1024 * 1024;
const xml = new XMLParser({ isArray: (name) => name === "Upload", parseTagValue: false });
// Cairn's object ids: a sweep never touches an upload of another program sharing the bucket.
const OBJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `inFlightKeys`: keys the store is writing through Bun's writer right now (its own multipart uploads, whose ids we never see). */
export function createS3Multipart(s3: S3Endpoint, inFlightKeys: ReadonlySet<string>): ObjectMultipart {
  const aws = new AwsClient({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, region: s3.region, service: "s3", retries: 3 });
  const base = `${s3.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(s3.bucket)}`;
  const urlOf = (key: string, query: string) => `${base}/${key.split("/").map(encodeURIComponent).join("/")}?${query}`;
  const keyOf = (objectId: string) => s3.prefix + objectId;
  // Created by this process and not yet in a database row: a sweep must not take them for leftovers.
  const unrecorded = new Set<string>();

  async function call(what: string, url: string, init: RequestInit & { method: string }): Promise<Response> {
    let response: Response;
    try {
      response = await aws.fetch(url, init);
    } catch (error) {
      throw new ObjectStoreError(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) {
      const code = /<Code>([^<]+)<\/Code>/.exec(await response.text().catch(() => ""))?.[1] ?? null;
      throw new ObjectStoreError(`${what}: ${response.status} ${code ?? response.statusText}`, code);
    }
    return response;
  }

  async function storedSize(key: string): Promise<number | null> {
    const response = await aws.fetch(`${base}/${key.split("/").map(encodeURIComponent).join("/")}`, { method: "HEAD" }).catch((error: unknown) => {
      throw new ObjectStoreError(`size of ${key}: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (response.status === 404) return null;
    if (!response.ok) throw new ObjectStoreError(`size of ${key}: ${response.status}`);
    return Number(response.headers.get("content-length"));
  }

  async function abort(upload: MultipartUpload) {
    unrecorded.delete(upload.uploadId);
    const response = await aws.fetch(urlOf(keyOf(upload.objectId), `uploadId=${encodeURIComponent(upload.uploadId)}`), { method: "DELETE" });
    await response.body?.cancel();
    // Already gone (completed, aborted, expired by a lifecycle rule) is what we want.
    if (!response.ok && response.status !== 404) throw new ObjectStoreError(`abort of multipart upload ${upload.uploadId}: ${response.status}`);
  }

  /** Every upload under the prefix, page by page. */
  async function* listUploads(): AsyncGenerator<{ key: string; uploadId: string }> {
    let markers = "";
    for (;;) {
      const url = `${base}?uploads=&prefix=${encodeURIComponent(s3.prefix)}${markers}`;
      const text = await (await call("list of multipart uploads", url, { method: "GET" })).text();
      const result = xml.parse(text).ListMultipartUploadsResult ?? {};
      for (const u of (result.Upload ?? []) as { Key: string; UploadId: string }[]) yield { key: String(u.Key), uploadId: String(u.UploadId) };
      if (String(result.IsTruncated) !== "true") return;
      markers = `&key-marker=${encodeURIComponent(result.NextKeyMarker ?? "")}&upload-id-marker=${encodeURIComponent(result.NextUploadIdMarker ?? "")}`;
    }
  }

  return {
    // S3's limits: parts of 5 MiB to 5 GiB (the last may be smaller), at most 10,000 of them.
    minPartSize: 5 * MiB,
    maxPartSize: 5 * 1024 * MiB,

    async create(objectId) {
      const response = await call("start of a multipart upload", urlOf(keyOf(objectId), "uploads="), { method: "POST", headers: { "Content-Type": "application/octet-stream" } });
      const uploadId = xml.parse(await response.text()).InitiateMultipartUploadResult?.UploadId;
      if (!uploadId) throw new ObjectStoreError("start of a multipart upload: no UploadId in the answer");
      unrecorded.add(String(uploadId));
      return { objectId, uploadId: String(uploadId) };
    },

    recorded: (upload) => void unrecorded.delete(upload.uploadId),

    async uploadPart(upload, part, path, position, size) {
      // A Blob of the local file: Bun streams it from disk, and a retry can read it again.
      const body = Bun.file(path).slice(position, position + size);
      const url = urlOf(keyOf(upload.objectId), `partNumber=${part}&uploadId=${encodeURIComponent(upload.uploadId)}`);
      const response = await call(`part ${part} of multipart upload ${upload.uploadId}`, url, { method: "PUT", body, headers: { "Content-Length": String(size) } });
      await response.body?.cancel();
      const etag = response.headers.get("etag");
      if (!etag) throw new ObjectStoreError(`part ${part} of multipart upload ${upload.uploadId}: no ETag in the answer`);
      return etag;
    },

    async complete(upload, parts, size) {
      const body = `<CompleteMultipartUpload>${[...parts]
        .sort((a, b) => a.part - b.part)
        .map((p) => `<Part><PartNumber>${p.part}</PartNumber><ETag>${p.etag.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</ETag></Part>`)
        .join("")}</CompleteMultipartUpload>`;
      const key = keyOf(upload.objectId);
      const what = `completion of multipart upload ${upload.uploadId}`;
      try {
        const response = await call(what, urlOf(key, `uploadId=${encodeURIComponent(upload.uploadId)}`), { method: "POST", body, headers: { "Content-Type": "application/xml" } });
        // S3 may answer 200 and still report an error in the body (a completion that failed late).
        const code = /<Error>[\s\S]*?<Code>([^<]+)<\/Code>/.exec(await response.text())?.[1];
        if (code) throw new ObjectStoreError(`${what}: ${code}`, code);
      } catch (error) {
        // Completed before, by a commit whose answer was lost (a stop before the row was written)?
        if ((await storedSize(key)) !== size) throw error;
      }
      unrecorded.delete(upload.uploadId);
      const stored = await storedSize(key);
      if (stored !== size) throw new ObjectStoreError(`object ${key} has ${stored} bytes after completion, not ${size}`);
    },

    abort,

    async sweep(keep) {
      let aborted = 0;
      for await (const u of listUploads()) {
        if (!u.key.startsWith(s3.prefix) || !OBJECT_ID.test(u.key.slice(s3.prefix.length))) continue;
        if (keep.has(u.uploadId) || unrecorded.has(u.uploadId) || inFlightKeys.has(u.key)) continue;
        await abort({ objectId: u.key.slice(s3.prefix.length), uploadId: u.uploadId });
        aborted++;
      }
      return aborted;
    },
  };
}
