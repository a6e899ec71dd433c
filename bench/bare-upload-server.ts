// The upload path's limit: a bare Bun.serve that streams each PUT body to a new file through Bun's
// file writer, hashing it with MD5 on the way, fsyncs it and answers `{path, size, md5}` — an upload
// with an integrity check and nothing else (no framework, auth, database or MD5 worker thread).
// Run as its own process by the file benches: bun bench/bare-upload-server.ts --dir DIR
// It prints its port on the first line of stdout; the caller removes the files it reports.
import { closeSync, fsyncSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { dir: { type: "string" } } });
if (!values.dir) throw new Error("usage: bare-upload-server.ts --dir DIR");
const dir = values.dir;
mkdirSync(dir, { recursive: true });
let uploads = 0;

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  // Bun's default limit is 128 MiB; the benches send files of several GiB.
  maxRequestBodySize: 64 * 1024 ** 3,
  async fetch(request) {
    if (request.method !== "PUT" || !request.body) return new Response("OK");
    const path = join(dir, `upload-${++uploads}.bin`);
    const hasher = new Bun.CryptoHasher("md5");
    // 1 MiB buffer, as Cairn's own writer uses: fewer system calls than one per network chunk.
    const writer = Bun.file(path).writer({ highWaterMark: 1024 * 1024 });
    let size = 0;
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      hasher.update(chunk);
      size += chunk.byteLength;
      const pending = writer.write(chunk);
      if (typeof pending !== "number") await pending;
    }
    await writer.end();
    const fd = openSync(path, "r");
    fsyncSync(fd);
    closeSync(fd);
    return Response.json({ path, size, md5: hasher.digest("hex") });
  },
});
console.log(server.port);
