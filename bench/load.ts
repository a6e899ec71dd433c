// The benchmarks' HTTP load generator: N keep-alive connections, each a loop of one request at a
// time over raw HTTP/1.1 (Bun.connect), for a fixed time; requests/s and latency percentiles.
// Raw sockets rather than fetch because the generator shares 2 cores with the server and must be
// cheaper than the fastest server it drives (run.ts checks it drives the bare baseline faster).
import { percentile } from "./lib";

export interface LoadResult {
  connections: number;
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export interface LoadOptions {
  base: string; // http://host:port
  connections: number;
  seconds: number;
  /** The path of the next request (called once per request). */
  path: () => string;
  headers?: Record<string, string>;
  /** Requests before the clock starts, per connection (JIT, caches). */
  warmup?: number;
}

const CRLF2 = Buffer.from("\r\n\r\n");

/** Length of the first complete response in `buf`, or -1 while it is incomplete. Throws on a non-200. */
function responseLength(buf: Buffer): number {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd < 0) return -1;
  const head = buf.toString("latin1", 0, headEnd);
  const status = Number(head.slice(9, 12));
  if (status !== 200) throw new Error(`answered ${head.split("\r\n")[0]}`);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const total = headEnd + 4 + Number(length[1]);
    return buf.length >= total ? total : -1;
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) throw new Error("response has neither Content-Length nor chunked encoding");
  let at = headEnd + 4;
  for (;;) {
    const lineEnd = buf.indexOf("\r\n", at, "latin1");
    if (lineEnd < 0) return -1;
    const size = parseInt(buf.toString("latin1", at, lineEnd), 16);
    at = lineEnd + 2 + size + 2;
    if (buf.length < at) return -1;
    if (size === 0) return at;
  }
}

/** One connection's loop: warm up, wait for `ready()` (the deadline, once every connection is
 * warm), then send, wait for the whole response, repeat until the deadline. */
async function connectionLoop(options: LoadOptions, host: string, port: number, ready: () => Promise<number>, latencies: number[]) {
  const extra = Object.entries(options.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  let pending: Buffer = Buffer.alloc(0);
  let wake: ((err?: Error) => void) | null = null;
  const socket = await Bun.connect({
    hostname: host,
    port,
    socket: {
      data(_s, chunk) {
        pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
        wake?.();
      },
      close() {
        wake?.(new Error("connection closed by the server"));
      },
      error(_s, err) {
        wake?.(err);
      },
    },
  });
  const once = async () => {
    const started = performance.now();
    socket.write(`GET ${options.path()} HTTP/1.1\r\nHost: ${host}:${port}\r\n${extra}\r\n`);
    for (;;) {
      const length = responseLength(pending);
      if (length >= 0) {
        pending = pending.subarray(length);
        return performance.now() - started;
      }
      await new Promise<void>((resolve, reject) => (wake = (err) => ((wake = null), err ? reject(err) : resolve())));
    }
  };
  try {
    for (let i = 0; i < (options.warmup ?? 0); i++) await once();
    const deadline = await ready();
    while (performance.now() < deadline) latencies.push(await once());
  } finally {
    socket.end();
  }
}

/** Drives `connections` parallel request loops for `seconds`; GET only. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.base);
  const perConnection: number[][] = Array.from({ length: options.connections }, () => []);
  let warm = 0;
  let started = 0;
  let open: (deadline: number) => void = () => {};
  const opened = new Promise<number>((resolve) => (open = resolve));
  // The measured window opens once every connection is warm, so all of them run through all of it.
  const ready = () => {
    if (++warm === options.connections) {
      started = performance.now();
      open(started + options.seconds * 1000);
    }
    return opened;
  };
  await Promise.all(perConnection.map((latencies) => connectionLoop(options, url.hostname, Number(url.port), ready, latencies)));
  const seconds = (performance.now() - started) / 1000;
  const all = perConnection.flat().sort((a, b) => a - b);
  const round = (x: number) => +x.toFixed(2);
  return {
    connections: options.connections,
    requests: all.length,
    seconds: round(seconds),
    perSecond: Math.round(all.length / seconds),
    p50: round(percentile(all, 50)),
    p99: round(percentile(all, 99)),
  };
}
