// Backup tests: the CLI as a child process that runs while the test goes on writing, a data
// directory seeded with published records and files, and a data directory's listing with hashes.
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Clock } from "../../src/core/time";
import type { TestApp } from "./app";
import { MAIN, cleanEnv, type CliResult } from "./cli";
import { publishableDraft, publishRecord } from "./records";

const FAKE_NOW = join(import.meta.dir, "fake-now.ts");

/** `cairn ARGS` without blocking this process (cli.ts's cairn() does): in-process writes go on meanwhile. `env` adds to the clean environment. */
export function startCairn(args: string[], options: { clock?: Clock; env?: Record<string, string> } = {}) {
  const preload = options.clock ? ["--preload", FAKE_NOW] : [];
  const clockEnv: Record<string, string> = options.clock ? { FAKE_NOW_MS: String(options.clock.now()) } : {};
  const proc = Bun.spawn([process.execPath, ...preload, MAIN, ...args], { env: { ...cleanEnv(), ...clockEnv, ...options.env }, stdout: "pipe", stderr: "pipe" });
  const result = (async (): Promise<CliResult> => {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  })();
  return { proc, result };
}

export const runCairn = (args: string[], options: { clock?: Clock; env?: Record<string, string> } = {}) => startCairn(args, options).result;

/**
 * Publishes `count` records as alice, each with one file of `bytes` bytes (random base64 with
 * `random`, which compresses little); returns their ids and files' MD5s.
 */
export async function seedRecords(app: TestApp, count: number, { bytes = 2000, title = "Seeded survey", random = false, apartMs = 0 } = {}) {
  const records: { id: string; md5: string }[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && apartMs) app.clock.advance(apartMs);
    const filler = random ? randomBytes(bytes).toString("base64").slice(0, bytes) : String.fromCharCode(97 + (i % 26));
    const content = `${title} ${i}\n`.padEnd(bytes, filler);
    const body = publishableDraft({ files: { enabled: true } });
    (body.metadata as Record<string, unknown>).title = `${title} ${i}`;
    const record = await publishRecord(app, body, { files: [[`data-${i}.txt`, content]] });
    records.push({ id: record.id, md5: createHash("md5").update(content).digest("hex") });
  }
  return records;
}

/** Every file under `dir` with its size and MD5, but SQLite's -wal/-shm (a reader's shared-memory index, not data). */
export function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (!/-(wal|shm)$/.test(name)) out[relative(dir, full)] = `${statSync(full).size}:${createHash("md5").update(readFileSync(full)).digest("hex")}`;
    }
  };
  walk(dir);
  return out;
}

export const readManifest = (snapshot: string) => JSON.parse(readFileSync(join(snapshot, "manifest.json"), "utf8"));

/** The complete snapshot folders of a backup folder, oldest first. */
export const snapshotsIn = (dest: string) =>
  readdirSync(dest)
    .filter((n) => !n.startsWith(".") && n !== "objects")
    .sort();
