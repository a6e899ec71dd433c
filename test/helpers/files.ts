// File helpers for record tests: checksums as the API reports them, and the upload sequence of a draft file.
import { createHash } from "node:crypto";
import { expectStatus, type Caller, type Who } from "./app";

/** Hex MD5, as in a file entry's `md5:` checksum. */
export const md5 = (data: string | Uint8Array) => createHash("md5").update(data).digest("hex");

/** The content type the file content routes accept. */
export const octet = { "content-type": "application/octet-stream" };

/** Starts, uploads and commits one file of draft `id` (each step checked); returns the committed entry. */
export async function uploadFile<As extends string = Who>(app: Caller<As>, id: string, key: string, content: string, { as = "alice" as As }: { as?: As } = {}): Promise<any> {
  const path = `/api/records/${id}/draft/files`;
  expectStatus(await app.call("POST", path, { as, body: [{ key }] }), 201);
  const encoded = key.split("/").map(encodeURIComponent).join("/");
  expectStatus(await app.call("PUT", `${path}/${encoded}/content`, { as, rawBody: content, headers: octet }), 200);
  const committed = await app.call("POST", `${path}/${encoded}/commit`, { as });
  expectStatus(committed, 200);
  return committed.json;
}
