// What the file benchmarks share (bench:files, bench): a source file of random-looking bytes, the
// disk's own speed (Bun.write + fsync, a streamed read), the upload's limits (a bare streaming
// server with MD5 + fsync, MD5 alone), one streamed upload and download through the API, and a
// server's resident memory from /proc.
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const mibPerSecond = (bytes: number, ms: number) => bytes / 1024 / 1024 / (ms / 1000);

/** Writes `size` bytes: 64 KiB of random bytes repeated (incompressible enough, cheap to make). */
export function makeSource(path: string, size: number) {
  const fd = openSync(path, "w");
  const block = new Uint8Array(8 * 1024 * 1024);
  crypto.getRandomValues(block.subarray(0, 65536));
  for (let i = 65536; i < block.length; i += 65536) block.copyWithin(i, 0, 65536);
  for (let written = 0; written < size; written += block.length) writeFileSync(fd, block.subarray(0, Math.min(block.length, size - written)));
  closeSync(fd);
}

/** MiB (what /proc counts in) as decimal MB (what the targets say). */
export const MB = (mib: number) => +((mib * 1024 * 1024) / 1e6).toFixed(1);

/** Peak and current resident memory of a process, in MiB, from /proc. */
export function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** Tracks the highest RSS seen while `work` runs (VmHWM cannot be reset between phases). */
export async function withPeakRss<T>(pid: number, work: () => Promise<T>) {
  let peak = memory(pid).rss;
  const timer = setInterval(() => (peak = Math.max(peak, memory(pid).rss)), 20);
  try {
    return { result: await work(), peakMiB: peak };
  } finally {
    clearInterval(timer);
    peak = Math.max(peak, memory(pid).rss);
  }
}

/** The write limit: ms to copy `source` with Bun.write and fsync it (the server fsyncs too). */
export async function bunWriteMs(source: string, copy: string) {
  const started = performance.now();
  await Bun.write(copy, Bun.file(source));
  const fd = openSync(copy, "r");
  fsyncSync(fd);
  closeSync(fd);
  const ms = performance.now() - started;
  rmSync(copy);
  return ms;
}

/** Reads a stream to its end; returns the number of bytes. */
export async function drain(stream: ReadableStream<Uint8Array> | null) {
  let n = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) n += chunk.byteLength;
  return n;
}

/** The read limit: ms to stream `source` from disk (page cache warm, like the server's). */
export async function diskReadMs(source: string, size: number) {
  const started = performance.now();
  if ((await drain(Bun.file(source).stream())) !== size) throw new Error("short read");
  return performance.now() - started;
}

/** ms of one `PUT {url}` streaming `body` as application/octet-stream. */
export async function uploadMs(url: string, headers: Record<string, string>, body: Blob) {
  const started = performance.now();
  const r = await fetch(url, { method: "PUT", headers: { ...headers, "Content-Type": "application/octet-stream" }, body });
  if (!r.ok) throw new Error(`upload: ${r.status} ${await r.text()}`);
  await r.arrayBuffer();
  return performance.now() - started;
}

/** ms of one `GET {url}` read to its end, checking that `size` bytes came. */
export async function downloadMs(url: string, headers: Record<string, string>, size: number) {
  const started = performance.now();
  const r = await fetch(url, { headers });
  if (!r.ok) throw new Error(`download: ${r.status} ${await r.text()}`);
  const n = await drain(r.body);
  if (n !== size) throw new Error(`download: ${n} bytes`);
  return performance.now() - started;
}

/** bench/bare-upload-server.ts in its own process (as Cairn is), writing its files under `dir`. */
export async function startBareUploadServer(dir: string) {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "bare-upload-server.ts"), "--dir", dir], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`bare upload server exited (${await proc.exited}) before listening`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { url: `http://127.0.0.1:${Number(text.trim())}/upload`, stop: async () => void (proc.kill("SIGTERM"), await proc.exited) };
}

/** ms of one streamed PUT of `body` to the bare upload server and the MD5 it answered; its file is removed after the clock stops. */
export async function bareUploadMs(url: string, body: Blob) {
  const started = performance.now();
  const r = await fetch(url, { method: "PUT", headers: { "Content-Type": "application/octet-stream" }, body });
  if (!r.ok) throw new Error(`bare upload: ${r.status} ${await r.text()}`);
  const answer = (await r.json()) as { path: string; size: number; md5: string };
  const ms = performance.now() - started;
  rmSync(answer.path);
  if (answer.size !== body.size) throw new Error(`bare upload: ${answer.size} of ${body.size} bytes`);
  return { ms, md5: answer.md5 };
}

/**
 * The upload's ceiling: ms of `Bun.CryptoHasher("md5")` alone over the bytes of `source`, which are
 * read in 16 MiB slices outside the clock (so the figure is the hash, not the disk); and the digest.
 */
export async function md5AloneMs(source: string) {
  const file = Bun.file(source);
  const hasher = new Bun.CryptoHasher("md5");
  let ms = 0;
  for (let at = 0; at < file.size; at += 16 * 1024 * 1024) {
    const bytes = await file.slice(at, at + 16 * 1024 * 1024).bytes();
    const t = performance.now();
    hasher.update(bytes);
    ms += performance.now() - t;
  }
  const t = performance.now();
  const md5 = hasher.digest("hex");
  return { ms: ms + performance.now() - t, md5 };
}
