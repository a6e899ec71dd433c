// Runs the cairn CLI from source in a child process, as a person would.
import { connect } from "node:net";
import { join } from "node:path";
import type { Clock } from "../../src/core/time";

// Where the CLI tests have always found it.
export { freePort } from "./free-port";

export const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const FAKE_NOW = join(import.meta.dir, "fake-now.ts");

/**
 * Runs `cairn ARGS`. With `clock` (a test app's), the child's clock starts at that clock's now:
 * a command run on a test app's data directory must not stamp rows with the real date.
 */
export function cairn(args: string[], env: Record<string, string> = {}, options: { clock?: Clock } = {}): CliResult {
  const preload = options.clock ? ["--preload", FAKE_NOW] : [];
  const clockEnv = options.clock ? { FAKE_NOW_MS: String(options.clock.now()) } : {};
  const proc = Bun.spawnSync([process.execPath, ...preload, MAIN, ...args], { env: { ...cleanEnv(), ...clockEnv, ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode ?? -1, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

/** The environment without any CAIRN_* (or DATABASE_URL, which Cairn also reads) the developer's shell may carry. */
export function cleanEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith("CAIRN_") && k !== "DATABASE_URL" && v !== undefined)) as Record<string, string>;
}

/**
 * Starts `cairn serve` as a process and resolves once it says it is serving (or gives up after 20 s).
 * With `clockAt` (ms since the epoch), the process's clock starts there (and the processes it starts inherit it).
 */
export async function serve(args: string[], env: Record<string, string> = {}, options: { clockAt?: number } = {}) {
  const preload = options.clockAt === undefined ? [] : ["--preload", FAKE_NOW];
  const clockEnv = options.clockAt === undefined ? {} : { FAKE_NOW_MS: String(options.clockAt) };
  const proc = Bun.spawn([process.execPath, ...preload, MAIN, "serve", ...args], { env: { ...cleanEnv(), ...clockEnv, ...env }, stdout: "pipe", stderr: "pipe" });
  let output = "";
  const reader = proc.stdout.getReader();
  const deadline = Date.now() + 20_000;
  while (!output.includes("Cairn serving") && Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    output += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, output };
}

/** A response read off the socket by `raw`. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request written byte for byte (fetch and browsers resolve dot segments before sending). */
/** One request written as raw HTTP/1.1 (fetch would resolve dot segments and normalise the target); the connection is closed after it. */
export function raw(port: number, method: string, target: string, headers: Record<string, string> = {}, body = ""): Promise<RawResponse> {
  const head = [
    `${method} ${target} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Connection: close",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head.join("\r\n")}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [top = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = top.split("\r\n");
      const parsed = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers: parsed, body: rest.join("\r\n\r\n") });
    });
  });
}
