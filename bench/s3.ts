// Benchmark: files through Cairn on S3 (FILES_STORAGE = s3) beside the S3 server's own speed with
// a plain client (Bun's S3Client straight to the server), the same bytes in the same run:
// - upload: COUNT × SIZE, each `PUT .../content` + commit (Cairn stages, hashes, then sends to S3)
//   vs `S3Client.write` of the same file (same part size and parallel parts as Cairn's store);
// - download: `GET .../content` of each (Cairn streams a GET of the object) vs `S3Client.file().stream()`;
// with Cairn's peak resident memory. The S3 server (test/helpers/s3-server.ts: s3rver on a local
// directory) runs in its own process. Usage: bun run bench:s3 [-- --count 20 --size-mib 50]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { drain, makeSource, MB, mibPerSecond, uploadMs, withPeakRss } from "./file-transfers";
import { MAIN } from "./lib";

const MiB = 1024 * 1024;
const HELPER = join(import.meta.dir, "..", "test", "helpers", "s3-server.ts");

export interface S3BenchResult {
  count: number;
  sizeMiB: number;
  upload: { cairnMiBs: number; plainMiBs: number; cairnPeakRssMB: number };
  download: { cairnMiBs: number; plainMiBs: number; cairnPeakRssMB: number };
}

/** The S3 test server in a process of its own, so it does not share a thread with either client. */
async function startS3(root: string) {
  const proc = Bun.spawn([process.execPath, HELPER, root], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let line = "";
  while (!line.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the S3 server stopped before it said where it listens");
    line += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const { endpoint } = JSON.parse(line) as { endpoint: string };
  return { endpoint, stop: () => (proc.kill("SIGTERM"), proc.exited) };
}

/** `cairn serve` on S3 (the executable, or the sources with `command` [bun, src/main.ts]). */
async function startCairn(data: string, env: Record<string, string>, command: string[]) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const proc = Bun.spawn([...command, "serve", "--http", "--port", String(port), "--data", data], { stdout: "ignore", stderr: "inherit", env: { ...process.env, ...env } });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    if (
      await fetch(`${base}/ping`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await Bun.sleep(25);
  }
  const token = /token=(\S+)/.exec(readFileSync(join(data, "admin-credentials.txt"), "utf8"))![1]!;
  return { base, pid: proc.pid, auth: { Authorization: `Bearer ${token}` }, stop: () => (proc.kill("SIGTERM"), proc.exited) };
}

export async function measureS3Transfers(options: { root: string; count: number; sizeMiB: number; command?: string[] }): Promise<S3BenchResult> {
  const { root, count } = options;
  const size = options.sizeMiB * MiB;
  const source = join(root, "s3-source.bin");
  makeSource(source, size);
  const s3 = await startS3(root);
  const settings = { FILES_STORAGE: "s3", S3_ENDPOINT: s3.endpoint, S3_BUCKET: "cairn-test", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER", S3_PREFIX: "cairn/" };
  const env = Object.fromEntries(Object.entries(settings).map(([k, v]) => [`CAIRN_${k}`, v]));
  const cairn = await startCairn(join(root, "s3-data"), env, options.command ?? [process.execPath, MAIN]);
  const plain = new Bun.S3Client({ endpoint: s3.endpoint, bucket: "cairn-test", region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER" });
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${cairn.base}/api${path}`, { method, headers: { ...cairn.auth, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }).then(
      async (r) => {
        if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
        return r.json() as Promise<any>;
      },
    );
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  try {
    const draft = await api("POST", "/records", { access: { record: "public", files: "public" }, files: { enabled: true }, metadata: {} });
    const files = `/records/${draft.id}/draft/files`;
    await api(
      "POST",
      files,
      Array.from({ length: count }, (_, i) => ({ key: `f${i}.bin` })),
    );
    // Plain first: the server's directory then holds as much as it will when Cairn writes.
    const plainUp = await timed(async () => {
      for (let i = 0; i < count; i++) await plain.write(`plain/f${i}.bin`, Bun.file(source), { partSize: 8 * MiB, queueSize: 2 });
    });
    const cairnUp = await withPeakRss(cairn.pid, () =>
      timed(async () => {
        for (let i = 0; i < count; i++) {
          await uploadMs(`${cairn.base}/api${files}/f${i}.bin/content`, cairn.auth, Bun.file(source));
          await api("POST", `${files}/f${i}.bin/commit`);
        }
      }),
    );
    const plainDown = await timed(async () => {
      for (let i = 0; i < count; i++) if ((await drain(plain.file(`plain/f${i}.bin`).stream())) !== size) throw new Error("short plain read");
    });
    const cairnDown = await withPeakRss(cairn.pid, () =>
      timed(async () => {
        for (let i = 0; i < count; i++) {
          const r = await fetch(`${cairn.base}/api${files}/f${i}.bin/content`, { headers: cairn.auth });
          if ((await drain(r.body)) !== size) throw new Error(`short Cairn read: ${r.status}`);
        }
      }),
    );
    const speed = (ms: number) => Math.round(mibPerSecond(count * size, ms));
    return {
      count,
      sizeMiB: options.sizeMiB,
      upload: { cairnMiBs: speed(cairnUp.result), plainMiBs: speed(plainUp), cairnPeakRssMB: MB(cairnUp.peakMiB) },
      download: { cairnMiBs: speed(cairnDown.result), plainMiBs: speed(plainDown), cairnPeakRssMB: MB(cairnDown.peakMiB) },
    };
  } finally {
    await cairn.stop();
    await s3.stop();
    rmSync(source, { force: true });
  }
}

/** Rows of the `bun run bench` table: measure, Cairn, limit, ratio, target. */
export function s3Rows(r: S3BenchResult): string[][] {
  const what = `${r.count} × ${r.sizeMiB} MiB`;
  const pct = (a: number, b: number) => `${Math.round((a / b) * 100)}%`;
  return [
    [
      `upload through Cairn to S3 (PUT content + commit), ${what}`,
      `${r.upload.cairnMiBs} MiB/s, peak RSS ${r.upload.cairnPeakRssMB} MB`,
      `plain S3 client: ${r.upload.plainMiBs} MiB/s`,
      pct(r.upload.cairnMiBs, r.upload.plainMiBs),
      "",
    ],
    [
      `download through Cairn from S3 (GET content), ${what}`,
      `${r.download.cairnMiBs} MiB/s, peak RSS ${r.download.cairnPeakRssMB} MB`,
      `plain S3 client: ${r.download.plainMiBs} MiB/s`,
      pct(r.download.cairnMiBs, r.download.plainMiBs),
      "",
    ],
  ];
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { count: { type: "string" }, "size-mib": { type: "string" } } });
  // The system's temporary folder (on the data disk here, not tmpfs).
  const root = mkdtempSync(join(tmpdir(), "cairn-bench-s3-"));
  try {
    const result = await measureS3Transfers({ root, count: Number(values.count ?? 20), sizeMiB: Number(values["size-mib"] ?? 50) });
    console.log("| measure | Cairn | limit (same run) | ratio |\n|---|---|---|---|");
    for (const row of s3Rows(result)) console.log(`| ${row.slice(0, 4).join(" | ")} |`);
    mkdirSync(join(import.meta.dir, "results"), { recursive: true });
    const file = join(import.meta.dir, "results", `s3-${new Date().toISOString().slice(0, 10)}.json`);
    writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, ...result }, null, 2)}\n`);
    console.error(`wrote ${file}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
