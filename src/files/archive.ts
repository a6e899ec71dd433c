// `GET .../files-archive`: every completed file of a draft or record as one ZIP, streamed from
// disk as it is sent (stored, not compressed: research data is mostly compressed already, and the
// length is then known in advance). Zip64 is used where sizes need it.
import { downloadZip, predictLength } from "client-zip";
import type { FileStore } from "../storage/file-store";
import type { EntryWithObject } from "./store";

export function archiveResponse(name: string, entries: EntryWithObject[], files: FileStore): Response {
  const items = entries
    .filter((e) => e.status === "completed" && e.objectId)
    .map((e) => ({ name: e.key, size: e.size ?? 0, lastModified: new Date(e.updated), objectId: e.objectId! }));
  const length = predictLength(items.map(({ name, size, lastModified }) => ({ name, size, lastModified })));
  const headers = {
    "Content-Type": "application/zip",
    "Content-Disposition": `attachment; filename="${name}.zip"`,
    "Content-Length": String(length),
  };
  const zip = downloadZip(
    items.map(({ name, size, lastModified, objectId }) => ({ name, size, lastModified, input: Bun.file(files.objectPath(objectId)).stream() })),
    { length },
  );
  return new Response(zip.body, { status: 200, headers });
}
