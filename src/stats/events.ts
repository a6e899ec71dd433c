// Recording views and downloads on the request path: robots dropped, machines flagged, the visitor
// pseudonymised, double clicks suppressed, and events buffered in memory and written in batches
// (on a short timer, when the batch is full, and on shutdown) so a request never waits for a write.
import { createHash, randomBytes } from "node:crypto";
import type { Actor } from "../core/actor";
import { DAY_MS, formatDate, type Clock } from "../core/time";
import type { Db } from "../db/port";
import { VIEW, type NewEvent, type RecordUse } from "./model";
import { classifyAgent } from "./robots";
import * as store from "./store";

/** COUNTER's double-click window: repeated requests for the same item by the same visitor count once. */
const DOUBLE_CLICK_MS = 30_000;
const FLUSH_INTERVAL_MS = 1000;
// Each write is a commit (and now and then a WAL checkpoint): a few large ones cost less than many.
const BATCH_SIZE = 5000;
/** Events kept when writes fail (database busy or closing); beyond it the oldest are dropped. */
const MAX_BUFFERED = 100_000;
/** Visitors hashed today, by address and user agent (memory only): a returning visitor is not hashed again. */
const VISITOR_CACHE = 10_000;

export interface RecorderDeps {
  db: Db;
  clock: Clock;
  /** Called after a batch was written (the aggregation is scheduled from it). */
  onWritten(count: number): void;
  log(message: string): void;
}

export interface RecordInput extends RecordUse {
  kind: NewEvent["kind"];
  fileKey: string | null;
  bytes: number;
}

export function createRecorder(deps: RecorderDeps) {
  const { db, clock } = deps;
  let buffer: NewEvent[] = [];
  // Last clicks in two generations of at least DOUBLE_CLICK_MS each: a click older than the previous
  // generation is past the window, so dropping that generation whole replaces a scan of every entry.
  // Keyed by a hash of (kind, item, visitor): tens of thousands of clicks a minute hold no strings.
  let clicks = new Map<number, number>();
  let olderClicks = new Map<number, number>();
  let clicksSince = -Infinity;
  let hashed = { day: -1, visitors: new Map<string, string>() };
  let timer: ReturnType<typeof setTimeout> | null = null;
  let salt: { day: number; value: string } | null = null;

  /** The day's salt, shared by processes through stats_state; older days' salts are deleted so old hashes cannot be redone. */
  async function saltOf(day: number): Promise<string> {
    if (salt?.day === day) return salt.value;
    const key = (d: number) => `salt:${formatDate(d * DAY_MS)}`;
    const value = await store.insertStateIfMissing(db, key(day), randomBytes(18).toString("base64url"));
    await store.deleteStatesLike(db, "salt:", [key(day), key(day - 1)]);
    salt = { day, value };
    return value;
  }

  /** The visitor's pseudonym: at once when this day already hashed it (most requests), else once the day's salt is read. */
  function pseudonymOf(actor: Actor, address: string | null, agent: string, ts: number): string | Promise<string> {
    if (actor.kind === "user") return `u:${actor.userId}`;
    if (actor.kind === "system") return "system";
    // In-process requests (tests, tools) have no address: they share one constant.
    address ??= "local";
    const day = Math.floor(ts / DAY_MS);
    if (hashed.day !== day || hashed.visitors.size >= VISITOR_CACHE) hashed = { day, visitors: new Map() };
    const key = `${address}\n${agent}`;
    return hashed.visitors.get(key) ?? hashVisitor(day, key);
  }

  /** A visitor not seen yet today: at once once the day's salt is known (every new visitor but the day's first). */
  function hashVisitor(day: number, key: string): string | Promise<string> {
    const hash = (daySalt: string) => {
      const visitor = createHash("sha256").update(`${daySalt}\n${key}`).digest("base64url").slice(0, 22);
      // The cache may have moved on to another day while the salt was read.
      if (hashed.day === day) hashed.visitors.set(key, visitor);
      return visitor;
    };
    return salt?.day === day ? hash(salt.value) : saltOf(day).then(hash);
  }

  /** True when the same visitor clicked the same item less than DOUBLE_CLICK_MS ago; remembers this click. */
  function isDoubleClick(click: string, ts: number): boolean {
    const key = store.hash52(click);
    if (ts - clicksSince >= DOUBLE_CLICK_MS) {
      olderClicks = ts - clicksSince >= 2 * DOUBLE_CLICK_MS ? new Map() : clicks;
      clicks = new Map();
      clicksSince = ts;
    }
    const last = clicks.get(key) ?? olderClicks.get(key);
    clicks.set(key, ts);
    return last !== undefined && ts >= last && ts - last < DOUBLE_CLICK_MS;
  }

  async function flush(): Promise<number> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (buffer.length === 0) return 0;
    const batch = buffer;
    buffer = [];
    try {
      await store.insertEvents(db, batch);
    } catch (err) {
      deps.log(`stats: writing ${batch.length} events failed, kept for the next try: ${(err as Error).message}`);
      buffer = [...batch, ...buffer].slice(-MAX_BUFFERED);
      arm();
      return 0;
    }
    deps.onWritten(batch.length);
    return batch.length;
  }

  /** Buffers the event unless it is a double click. */
  function keep(input: RecordInput, isMachine: boolean, ts: number, visitor: string): boolean {
    if (isDoubleClick(`${input.kind}\u0000${input.recordId}\u0000${input.fileKey ?? ""}\u0000${visitor}`, ts)) return false;
    buffer.push({ kind: input.kind, ts, recordId: input.recordId, parentId: input.parentId, visitor, fileKey: input.fileKey, bytes: input.bytes, isMachine });
    if (buffer.length >= BATCH_SIZE) {
      // Written right after this response, not during it.
      if (timer) clearTimeout(timer);
      timer = null;
      arm(0);
    } else arm();
    return true;
  }

  function arm(delay = FLUSH_INTERVAL_MS) {
    if (timer) return;
    timer = setTimeout(() => void flush(), delay);
    timer.unref?.();
  }

  return {
    /**
     * Buffers one event; false when it is not counted (robot, machine view, double click). Answers
     * at once once the day's salt is read: it is on every record read's way.
     */
    record(input: RecordInput): boolean | Promise<boolean> {
      const { address, userAgent } = input.visitor;
      const agent = classifyAgent(userAgent);
      if (agent === "robot" || (agent === "machine" && input.kind === VIEW)) return false;
      const ts = clock.now();
      const visitor = pseudonymOf(input.actor, address, userAgent, ts);
      return typeof visitor === "string" ? keep(input, agent === "machine", ts, visitor) : visitor.then((v) => keep(input, agent === "machine", ts, v));
    },

    flush,
    pending: () => buffer.length,

    /** Stops the timer and writes what is buffered (clean shutdown). */
    async close() {
      await flush();
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
