// `GET .../files-archive`: every completed file of a draft or record as one ZIP, streamed from
// the file store as it is sent (stored, not compressed: research data is mostly compressed already, and the
// length is then known in advance). Zip64 is used where sizes need it.
import { downloadZip, predictLength } from "client-zip";
import type { FileStore } from "../storage/file-store";
import type { EntryWithObject } from "./store";

/** The ZIP of `entries`; for a HEAD (`head`) its headers only, with nothing opened or zipped. */
export function archiveResponse(name: string, entries: EntryWithObject[], files: FileStore, head = false): Response {
  const items = entries
    .filter((e) => e.status === "completed" && e.objectId)
    .map((e) => ({ name: e.key, size: e.size ?? 0, lastModified: new Date(e.updated), objectId: e.objectId! }));
  const length = predictLength(items.map(({ name, size, lastModified }) => ({ name, size, lastModified })));
  const headers = {
    "Content-Type": "application/zip",
    "Content-Disposition": `attachment; filename="${name}.zip"`,
    "Content-Length": String(length),
  };
  if (head) return new Response(null, { status: 200, headers });
  // Each file is opened only when the ZIP reaches it (an object-storage read is a request of its own).
  async function* inputs() {
    for (const { name, size, lastModified, objectId } of items) yield { name, size, lastModified, input: files.read(objectId) };
  }
  const zip = downloadZip(inputs(), { length });
  return new Response(zip.body, { status: 200, headers });
}
