// A stored file's media type: from its name when the extension is known, otherwise from the
// first bytes (magic numbers of common research file formats).

const MAGIC: [bytes: number[], type: string][] = [
  [[0x25, 0x50, 0x44, 0x46, 0x2d], "application/pdf"],
  [[0x89, 0x50, 0x4e, 0x47], "image/png"],
  [[0xff, 0xd8, 0xff], "image/jpeg"],
  [[0x47, 0x49, 0x46, 0x38], "image/gif"],
  [[0x49, 0x49, 0x2a, 0x00], "image/tiff"],
  [[0x4d, 0x4d, 0x00, 0x2a], "image/tiff"],
  [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
  [[0x1f, 0x8b], "application/gzip"],
  [[0x42, 0x5a, 0x68], "application/x-bzip2"],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], "application/x-xz"],
  [[0x28, 0xb5, 0x2f, 0xfd], "application/zstd"],
  [[0x89, 0x48, 0x44, 0x46], "application/x-hdf5"],
  [[0x43, 0x44, 0x46, 0x01], "application/x-netcdf"],
  [[0x43, 0x44, 0x46, 0x02], "application/x-netcdf"],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], "application/vnd.sqlite3"],
];

const startsWith = (head: Uint8Array, bytes: number[]) => bytes.every((b, i) => head[i] === b);

/** Text when the head is valid UTF-8 with no NUL bytes. */
function looksLikeText(head: Uint8Array) {
  if (head.length === 0 || head.includes(0)) return false;
  try {
    // A multi-byte character cut at the end of the head is not an error: drop up to 3 bytes.
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 3)));
    return true;
  } catch {
    return false;
  }
}

/** `readHead(n)`: the stored object's first n bytes, read only when the name does not tell. */
export async function detectMimetype(key: string, readHead: (bytes: number) => Promise<Uint8Array>): Promise<string> {
  const byName = Bun.file(key.slice(key.lastIndexOf("/") + 1)).type.split(";")[0]!;
  if (byName && byName !== "application/octet-stream") return byName;
  const head = await readHead(512);
  for (const [bytes, type] of MAGIC) if (startsWith(head, bytes)) return type;
  return looksLikeText(head) ? "text/plain" : "application/octet-stream";
}
