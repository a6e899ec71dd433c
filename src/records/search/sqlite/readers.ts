// Reader workers for record search: each search runs on a worker's own read-only connection (WAL
// lets it read beside the writer), so the request thread stays free for every other request, and
// a search that runs past its time budget is stopped by ending its worker (SQLite offers bun no
// interrupt) and answered 503. A new worker takes the ended one's place.
import type { Page } from "../../../core/paging";
import { HttpError, type FieldError } from "../../../core/errors";
import type { RecordScope } from "../../policy";
import type { FoundRecords } from "../facets";
import type { RecordSearchInput } from "../index";

/** What the server sends a reader worker. */
export type ReaderMessage = { op: "open"; path: string } | { op: "search"; id: number; scope: RecordScope; input: RecordSearchInput; page: Page } | { op: "close" };

type Reply = { id: number; found?: FoundRecords; error?: { status: number; message: string; errors?: FieldError[] } } | { closed: true };

interface Pending {
  resolve(found: FoundRecords): void;
  reject(err: Error): void;
  timer: unknown;
}

/** How a search's time budget is timed (tests hand in timers they fire by hand). */
export interface ReaderTimers {
  set(fire: () => void, ms: number): unknown;
  clear(timer: unknown): void;
}

const realTimers: ReaderTimers = {
  set: (fire, ms) => setTimeout(fire, ms),
  clear: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

interface Reader {
  worker: Worker;
  pending: Map<number, Pending>;
}

export interface ReaderOptions {
  /** The database file the workers open. */
  path: string;
  /** Workers in the pool. */
  count: number;
  /** A search's time budget in milliseconds. */
  timeoutMs: number;
  log(message: string): void;
  timers?: ReaderTimers;
}

/**
 * The worker's entry: beside this file when run from source; in the single executable, the entry
 * build.ts bundles, named by its path under src/ (the build's root).
 */
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./records/search/sqlite/reader-worker.ts" : new URL("./reader-worker.ts", import.meta.url).href;

export function createSearchReaders(options: ReaderOptions) {
  let nextId = 1;
  let closed = false;
  const timers = options.timers ?? realTimers;

  function spawn(): Reader {
    const worker = new Worker(WORKER_ENTRY);
    const reader: Reader = { worker, pending: new Map() };
    worker.onmessage = (event: MessageEvent<Reply>) => {
      const reply = event.data;
      if ("closed" in reply) return;
      const pending = reader.pending.get(reply.id);
      if (!pending) return;
      reader.pending.delete(reply.id);
      timers.clear(pending.timer);
      if (reply.found) pending.resolve(reply.found);
      else if (reply.error!.status >= 500) pending.reject(new Error(`search worker: ${reply.error!.message}`));
      else pending.reject(new HttpError(reply.error!.status, reply.error!.message, reply.error!.errors));
    };
    worker.onerror = (event) => replace(reader, new Error(`search worker failed: ${event.message}`));
    worker.postMessage({ op: "open", path: options.path } satisfies ReaderMessage);
    // A worker waiting for work must not keep a stopping process alive.
    worker.unref();
    return reader;
  }

  // Spawned at the first search: a server nobody searches does without their threads (~7 MB each).
  const readers: Reader[] = [];
  const pool = () => {
    if (readers.length === 0 && !closed) for (let i = 0; i < options.count; i++) readers.push(spawn());
    return readers;
  };

  /** Ends a worker (and every search it holds) and puts a fresh one in its place. */
  function replace(reader: Reader, err: Error) {
    reader.worker.terminate();
    for (const pending of reader.pending.values()) {
      timers.clear(pending.timer);
      pending.reject(err);
    }
    reader.pending.clear();
    const at = readers.indexOf(reader);
    if (at >= 0 && !closed) readers[at] = spawn();
  }

  const timedOut = () =>
    new HttpError(503, `The search took longer than its time budget of ${options.timeoutMs} ms (SEARCH_TIMEOUT_MS) and was stopped: narrow the query and try again.`);

  return {
    /** Runs a search on the least busy worker (its copy follows the index's change log as the server's would). */
    search(scope: RecordScope, input: RecordSearchInput, page: Page): Promise<FoundRecords> {
      if (closed) return Promise.reject(new Error("search readers are closed"));
      const reader = pool().reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const id = nextId++;
      return new Promise<FoundRecords>((resolve, reject) => {
        // Handed over first, timed after: a search the worker never got (postMessage throws for
        // what it cannot copy) must leave no time-out behind to end the worker, and every other
        // search on it, later.
        reader.worker.postMessage({ op: "search", id, scope, input, page } satisfies ReaderMessage);
        const timer = timers.set(() => {
          options.log(`search stopped after ${options.timeoutMs} ms: ${JSON.stringify(input.q ?? "").slice(0, 200)}`);
          replace(reader, timedOut());
        }, options.timeoutMs);
        reader.pending.set(id, { resolve, reject, timer });
      });
    },

    close() {
      closed = true;
      for (const reader of readers) replace(reader, new Error("search readers are closed"));
    },
  };
}

export type SearchReaders = ReturnType<typeof createSearchReaders>;
