// Benchmark: file transfers through `cairn serve` beside the disk's own speed, in one run.
// - upload: one `PUT .../content` stream of SIZE bytes vs a bare Bun.serve streaming the same PUT to
//   disk with MD5 + fsync (bench/bare-upload-server.ts, the target's baseline), `Bun.write` of the
//   same bytes (+ fsync) and MD5 alone over them (the ceiling of any upload that hashes);
// - multipart: the same file as 8 parts sent in parallel vs one stream;
// - download: `GET .../content` of the file vs reading it straight from disk;
// with the server's peak resident memory (VmHWM) during each. Usage:
//   bun run bench:files [-- --size-mib 2048]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  bareUploadMs,
  bunWriteMs,
  diskReadMs,
  downloadMs,
  makeSource,
  md5AloneMs,
  memory,
  mibPerSecond as mib,
  startBareUploadServer,
  uploadMs,
  withPeakRss,
} from "./file-transfers";
import { MAIN } from "./lib";

const { values } = parseArgs({ options: { "size-mib": { type: "string" } } });
const SIZE = Number(values["size-mib"] ?? 2048) * 1024 * 1024;
const PARTS = 8;
// On the data disk (not tmpfs), so both sides write to the same device.
const root = mkdtempSync(join(import.meta.dir, "..", ".bench-files-"));
const data = join(root, "data");
const source = join(root, "source.bin");

async function startServer() {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = Bun.spawn([process.execPath, MAIN, "serve", "--http", "--port", String(port), "--data", data], { stdout: "ignore", stderr: "inherit" });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${base}/ping`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await Bun.sleep(50);
  }
  const token = /token=(\S+)/.exec(readFileSync(join(data, "admin-credentials.txt"), "utf8"))![1]!;
  return { base, pid: server.pid, token, stop: () => (server.kill("SIGTERM"), server.exited) };
}

async function main() {
  mkdirSync(data, { recursive: true });
  makeSource(source, SIZE);
  const server = await startServer();
  const auth = { Authorization: `Bearer ${server.token}` };
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${server.base}/api${path}`, {
      method,
      headers: { ...auth, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<any>;
  };
  const draft = await api("POST", "/records", { files: { enabled: true }, metadata: {} });
  const files = `/records/${draft.id}/draft/files`;
  const idle = memory(server.pid);

  // Baseline: the same bytes written by Bun.write, then fsynced (the server fsyncs too).
  const baselineMs = await bunWriteMs(source, join(root, "copy.bin"));
  // The upload target's baseline: the same PUT streamed to disk with MD5 and fsync by a bare server.
  const bareServer = await startBareUploadServer(join(root, "bare"));
  const bare = await bareUploadMs(bareServer.url, Bun.file(source)).finally(bareServer.stop);
  const md5 = await md5AloneMs(source);
  if (md5.md5 !== bare.md5) throw new Error(`the bare server's MD5 ${bare.md5} is not the file's ${md5.md5}`);

  // One stream.
  await api("POST", files, [{ key: "one.bin" }]);
  const upload = await withPeakRss(server.pid, async () => {
    const ms = await uploadMs(`${server.base}/api${files}/one.bin/content`, auth, Bun.file(source));
    const committed = await api("POST", `${files}/one.bin/commit`);
    if (committed.checksum !== `md5:${bare.md5}`) throw new Error(`Cairn's checksum ${committed.checksum} is not the bare server's md5:${bare.md5}`);
    return ms;
  });

  // Eight parts in parallel.
  const partSize = Math.ceil(SIZE / PARTS);
  await api("POST", files, [{ key: "parts.bin", size: SIZE, transfer: { type: "M", parts: PARTS, part_size: partSize } }]);
  const multipart = await withPeakRss(server.pid, async () => {
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: PARTS }, async (_, i) => {
        const body = Bun.file(source).slice(i * partSize, Math.min(SIZE, (i + 1) * partSize));
        const r = await fetch(`${server.base}/api${files}/parts.bin/content/${i + 1}`, { method: "PUT", headers: { ...auth, "Content-Type": "application/octet-stream" }, body });
        if (!r.ok) throw new Error(`part ${i + 1}: ${r.status} ${await r.text()}`);
      }),
    );
    const partsMs = performance.now() - t0;
    await api("POST", `${files}/parts.bin/commit`);
    return { partsMs, totalMs: performance.now() - t0 };
  });

  // Download, beside reading the file from disk (page cache warm for both).
  const diskMs = await diskReadMs(source, SIZE);
  const download = await withPeakRss(server.pid, () => downloadMs(`${server.base}/api${files}/one.bin/content`, auth, SIZE));
  await server.stop();

  const rows = [
    ["MD5 alone on the same bytes (the ceiling)", mib(SIZE, md5.ms), "—"],
    ["bare Bun.serve: PUT streamed to disk + MD5 + fsync (the limit)", mib(SIZE, bare.ms), "—"],
    ["Bun.write + fsync", mib(SIZE, baselineMs), "—"],
    ["PUT .../content, one stream", mib(SIZE, upload.result), upload.peakMiB],
    [`${PARTS} parts in parallel (parts only)`, mib(SIZE, multipart.result.partsMs), multipart.peakMiB],
    [`${PARTS} parts + commit (assembly)`, mib(SIZE, multipart.result.totalMs), multipart.peakMiB],
    ["read from disk (the limit)", mib(SIZE, diskMs), "—"],
    ["GET .../content", mib(SIZE, download.result), download.peakMiB],
  ] as const;
  console.log(`\nfile of ${SIZE / 1024 / 1024} MiB; server idle RSS ${idle.rss.toFixed(0)} MiB\n`);
  console.log("| transfer | MiB/s | server peak RSS (MiB) |\n|---|---|---|");
  for (const [name, speed, rss] of rows) console.log(`| ${name} | ${speed.toFixed(0)} | ${typeof rss === "number" ? rss.toFixed(0) : rss} |`);
  console.log(`\nupload / bare streaming server: ${((bare.ms / upload.result) * 100).toFixed(0)}% (target >= 80%)`);
  console.log(`upload / Bun.write: ${((baselineMs / upload.result) * 100).toFixed(0)}%; upload / MD5 alone: ${((md5.ms / upload.result) * 100).toFixed(0)}%`);
  console.log(`download / disk read: ${((diskMs / download.result) * 100).toFixed(0)}%`);
  const result = {
    date: new Date().toISOString(),
    sizeMiB: SIZE / 1024 / 1024,
    idleRssMiB: idle.rss,
    rows: rows.map(([name, speed, rss]) => ({ name, mibPerSecond: Math.round(speed), peakRssMiB: typeof rss === "number" ? Math.round(rss) : null })),
  };
  mkdirSync(join(import.meta.dir, "results"), { recursive: true });
  writeFileSync(join(import.meta.dir, "results", `files-${SIZE / 1024 / 1024}MiB-${result.date.slice(0, 10)}.json`), `${JSON.stringify(result, null, 2)}\n`);
}

try {
  await main();
} finally {
  rmSync(root, { recursive: true, force: true });
}
