// WAL checkpoints on a second thread while the server runs. A checkpoint copies the WAL into the
// database file and fsyncs both; SQLite's default runs it inside whichever commit crosses 1,000
// pages, stalling that request and every request queued behind it on the one JS thread. Here the
// server's connection never checkpoints, and a worker with its own connection does, in PASSIVE
// mode (writers go on meanwhile), every CHECKPOINT_EVERY_MS. If the worker fails or hangs, the
// server's connection takes checkpoints back, so the WAL never grows without bound.
import { statSync } from "node:fs";
import type { Database } from "bun:sqlite";

const CHECKPOINT_EVERY_MS = 1000;
/** A checkpoint that has not answered by then is taken as a hung worker. */
const HUNG_AFTER_MS = 60_000;
/** How long a stop waits for the worker to finish its checkpoint and close its connection. */
const CLOSE_WAIT_MS = 5000;
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/** WAL length (pages) past which a checkpoint makes the log start again (~32 MB of 4 KiB pages). */
const RESTART_AFTER_FRAMES = 8192;
/** A RESTART is tried only when a passive checkpoint left at most this many frames behind. */
const RESTART_WITHIN_FRAMES = 2048;

// Runs from a Blob URL, so the single executable needs no extra entry point.
const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
let db = null;
self.onmessage = (event) => {
  const m = event.data;
  if (m.op === "open") {
    db = new Database(m.path);
    db.exec("PRAGMA busy_timeout = 250"); // the longest a RESTART holds writers back
    return;
  }
  if (m.op === "close") {
    db?.close();
    db = null;
    postMessage({ closed: true });
    return;
  }
  let result = null, error = null, restarted = false;
  try {
    result = db.query("PRAGMA wal_checkpoint(PASSIVE)").values()[0];
    // Under steady writes a passive checkpoint never catches the last frames, and the WAL starts
    // again from its beginning only after a complete one: once it is long, a RESTART finishes the
    // few frames left so the next commit rewinds the log. Writers wait while it runs, so only when
    // little is left (a reader pinning an old snapshot leaves much more) and never for long.
    if (result[1] >= m.restartAfterFrames && result[1] - result[2] <= m.restartWithinFrames) {
      result = db.query("PRAGMA wal_checkpoint(RESTART)").values()[0];
      restarted = result[0] === 0;
    }
  } catch (err) {
    error = String(err && err.message || err);
  }
  postMessage({ seq: m.seq, result, error, restarted });
};`;

export interface Checkpointer {
  /** Checkpoints taken by the worker and the frames they copied (tests, diagnostics). */
  stats(): { checkpoints: number; restarts: number; framesCopied: number; walFrames: number; fallenBack: boolean; workerStarted: boolean };
  /** Runs the periodic step now, as the timer does (tests). */
  poll(): void;
  /** Waits for the next checkpoint to finish (tests). */
  checkpointNow(): Promise<void>;
  /** Lets a running checkpoint finish and the worker close its connection; the writer checkpoints again. */
  stop(): Promise<void>;
}

/** A log this long (bytes) left by an earlier run gets a checkpoint even before this run writes. */
const LEFTOVER_WAL_BYTES = 4 * 1024 * 1024;

/**
 * Starts checkpointing the server's connection `sqlite` (the file at `path`). The worker itself starts at the first tick that
 * finds something to do (a row written by this connection, or a long log left by an earlier run):
 * a server nobody writes to does without its thread and its ~6 MB.
 */
export function startCheckpointer(sqlite: Database, path: string, log: (message: string) => void): Checkpointer {
  const changes = sqlite.query<{ n: number }, []>("SELECT total_changes() AS n");
  const changesAtStart = changes.get()!.n;
  const walBytes = () => {
    try {
      return statSync(`${path}-wal`).size;
    } catch {
      return 0;
    }
  };
  let worker: Worker | null = null;
  sqlite.exec("PRAGMA wal_autocheckpoint = 0");
  // When the log starts again, its file is cut back to this size (it keeps its longest length otherwise).
  sqlite.exec(`PRAGMA journal_size_limit = ${64 * 1024 * 1024}`);
  let seq = 0;
  let pending: { seq: number; since: number; done: Array<() => void> } | null = null;
  let fallenBack = false;
  let checkpoints = 0;
  let restarts = 0;
  let framesCopied = 0;
  let walFrames = 0;
  let walCopied = 0;

  function fallBack(reason: string) {
    if (fallenBack) return;
    fallenBack = true;
    clearInterval(timer);
    worker?.terminate();
    sqlite.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    log(`database: background checkpoints stopped (${reason}); the server's connection checkpoints again`);
    for (const done of pending?.done ?? []) done();
    pending = null;
  }

  let onClosed: (() => void) | null = null;
  const onMessage = (event: MessageEvent) => {
    const m = event.data as { seq: number; result: number[] | null; error: string | null; restarted?: boolean; closed?: boolean };
    if (m.closed) return onClosed?.();
    if (!pending || m.seq !== pending.seq) return;
    const done = pending.done;
    pending = null;
    // A busy database (another process's long transaction) is retried on the next tick.
    if (m.error && !/busy|locked/i.test(m.error)) return fallBack(m.error);
    let progressed = false;
    if (m.result) {
      // [busy, frames in the log, frames of it in the database]; the log may have rewound since.
      const [, log = 0, copied = 0] = m.result;
      const rewound = log < walFrames;
      const gained = rewound ? copied : copied - walCopied;
      progressed = gained > 0;
      checkpoints++;
      if (m.restarted) restarts++;
      framesCopied += Math.max(0, gained);
      [walFrames, walCopied] = [log, copied];
    }
    for (const d of done) d();
    // Heavy writing: the next checkpoint follows at once rather than a second later, as long as
    // checkpoints get somewhere (a reader that pins the log would otherwise make this a busy loop).
    if (progressed && walFrames >= RESTART_AFTER_FRAMES / 4) setTimeout(tick, 0).unref?.();
  };

  /** The worker, started on first need. */
  function started(): Worker {
    if (worker) return worker;
    worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" })));
    worker.unref();
    worker.onmessage = onMessage;
    worker.onerror = (event: ErrorEvent) => fallBack(event.message || "worker error");
    worker.postMessage({ op: "open", path });
    return worker;
  }

  function tick() {
    if (fallenBack) return;
    if (pending) {
      if (performance.now() - pending.since > HUNG_AFTER_MS) fallBack("a checkpoint did not answer");
      return;
    }
    if (!worker && changes.get()!.n === changesAtStart && walBytes() < LEFTOVER_WAL_BYTES) return;
    pending = { seq: ++seq, since: performance.now(), done: [] };
    started().postMessage({ op: "checkpoint", seq: pending.seq, restartAfterFrames: RESTART_AFTER_FRAMES, restartWithinFrames: RESTART_WITHIN_FRAMES });
  }

  const timer = setInterval(tick, CHECKPOINT_EVERY_MS);
  timer.unref?.();

  return {
    stats: () => ({ checkpoints, restarts, framesCopied, walFrames, fallenBack, workerStarted: worker !== null }),
    poll: tick,
    checkpointNow() {
      if (fallenBack) return Promise.resolve();
      started();
      return new Promise<void>((resolve) => {
        if (!pending) tick();
        if (pending) pending.done.push(resolve);
        else resolve();
      });
    },
    async stop() {
      if (fallenBack) return;
      fallenBack = true; // no more ticks; the closing connection checkpoints what is left
      clearInterval(timer);
      if (!worker) return void sqlite.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
      const running = worker;
      // Messages are handled in order: the close follows any checkpoint under way, so the worker
      // never dies holding a checkpoint lock.
      const closed = new Promise<void>((resolve) => {
        onClosed = resolve;
        setTimeout(resolve, CLOSE_WAIT_MS).unref?.();
      });
      running.postMessage({ op: "close" });
      await closed;
      running.terminate();
      for (const done of pending?.done ?? []) done();
      pending = null;
      sqlite.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    },
  };
}
