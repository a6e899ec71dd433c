// MD5 on a second thread: large uploads hash while the main thread receives and writes, so the
// two cores share the work. The worker runs from a Blob URL, so the single executable needs no
// extra entry point.

const WORKER_SOURCE = `
const hashers = new Map();
self.onmessage = (event) => {
  const m = event.data;
  if (m.op === "update") {
    let h = hashers.get(m.id);
    if (!h) hashers.set(m.id, (h = new Bun.CryptoHasher("md5")));
    h.update(new Uint8Array(m.buffer, 0, m.length));
    postMessage({ id: m.id, seq: m.seq });
  } else if (m.op === "digest") {
    const h = hashers.get(m.id) ?? new Bun.CryptoHasher("md5");
    hashers.delete(m.id);
    postMessage({ id: m.id, digest: h.digest("hex") });
  } else if (m.op === "drop") {
    hashers.delete(m.id);
  }
};`;

type Waiter = (value: { seq?: number; digest?: string }) => void;

let worker: Worker | null = null;
const waiting = new Map<string, Waiter>();
let nextId = 0;

function shared(): Worker {
  if (worker) return worker;
  worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" })));
  worker.onmessage = (event: MessageEvent) => {
    const m = event.data as { id: string; seq?: number; digest?: string };
    const key = m.digest !== undefined ? `${m.id}:digest` : `${m.id}:${m.seq}`;
    waiting.get(key)?.(m);
    waiting.delete(key);
  };
  // An idle worker must not keep the process (a CLI command, a test run) alive.
  worker.unref();
  return worker;
}

/** One upload's running MD5 on the worker; blocks are SharedArrayBuffers the caller does not touch until `update` resolves. */
export function createWorkerMd5() {
  const id = String(nextId++);
  let seq = 0;
  const w = shared();
  return {
    update(buffer: SharedArrayBuffer, length: number): Promise<unknown> {
      const n = seq++;
      const done = new Promise((resolve) => waiting.set(`${id}:${n}`, resolve));
      w.postMessage({ op: "update", id, seq: n, buffer, length });
      return done;
    },
    async digest(): Promise<string> {
      const done = new Promise<{ digest?: string }>((resolve) => waiting.set(`${id}:digest`, resolve));
      w.postMessage({ op: "digest", id });
      return (await done).digest!;
    },
    drop() {
      w.postMessage({ op: "drop", id });
    },
  };
}
