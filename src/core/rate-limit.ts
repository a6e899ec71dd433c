// Request rate limits as InvenioRDM ships them (Flask-Limiter's fixed windows): limits written as
// "1000 per minute", counters per client kept in memory, bounded, on the injected clock, and
// shared with the other serving processes through the database when there are any.
import type { Clock } from "./time";

export interface RateLimit {
  count: number;
  periodMs: number;
  /** As shown in messages: "1000 per 1 minute". */
  text: string;
}

const UNITS = new Map([
  ["second", 1_000],
  ["minute", 60_000],
  ["hour", 3_600_000],
  ["day", 86_400_000],
]);

/** Flask-Limiter's notation: "25000 per hour;1000 per minute", "1000/minute", "10 per 5 minutes". */
export function parseRateLimits(text: string): RateLimit[] {
  const limits: RateLimit[] = [];
  for (const item of text
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(\d+)\s*(?:per\s+|\/\s*)(\d+\s*)?([a-z]+?)s?$/i.exec(item);
    const unitMs = m ? UNITS.get(m[3]!.toLowerCase()) : undefined;
    const count = m ? Number(m[1]) : 0;
    const times = m?.[2] ? Number(m[2]) : 1;
    if (!m || !unitMs || count < 1 || times < 1) {
      throw new Error(`'${item}' is not a rate limit such as "1000 per minute" (units: second, minute, hour, day)`);
    }
    limits.push({ count, periodMs: times * unitMs, text: `${count} per ${times} ${m[3]!.toLowerCase()}${times > 1 ? "s" : ""}` });
  }
  if (limits.length === 0) throw new Error('no rate limit given; write one such as "1000 per minute"');
  return limits;
}

export interface RateDecision {
  allowed: boolean;
  /** The limit to report: on a refusal the one that must reset first before anything passes. */
  limit: RateLimit;
  remaining: number;
  /** When `limit`'s window ends (ms since the epoch). */
  resetAt: number;
}

interface Counter {
  limits: RateLimit[];
  /** Per limit: the window index (now / period) and the requests counted in it (as far as this process knows). */
  windows: number[];
  counts: number[];
  /** Per limit: this process's requests in the window not yet added to the shared count (negative: refusals taken back). */
  unsynced: number[];
  /** False until the shared count of this window was read once: a client another process has been counting starts there. */
  synced: boolean;
  /** The shared count's read under way for this client: decisions that need it wait in line. */
  syncing: Promise<unknown> | null;
  /** When every window has ended: the counter is then worth nothing and may go. */
  expiresAt: number;
}

/** One limit's entry in the counts every serving process shares (the database's rate_counts). */
export interface SharedCount {
  /** The client, the limit's period and its place: `a:192.0.2.1|60000|1`. */
  key: string;
  windowIndex: number;
  /** Requests to add (negative: refusals taken back). */
  add: number;
  expiresAt: number;
}

/** The counts every serving process adds to: several processes (workers, machines) limit a client together. */
export interface SharedCounts {
  /** Adds each entry to its key's count in its window (a newer window starts again); the counts after, by key. */
  add(entries: SharedCount[]): Promise<Map<string, number>>;
  /** Forgets the counts of windows that ended before `now`. */
  prune(now: number): Promise<void>;
}

/** Most clients tracked; beyond it expired counters go first, then the least recently renewed. */
export const MAX_TRACKED_CLIENTS = 100_000;
const SWEEP_EVERY_MS = 60_000;
/**
 * How long this process's counted requests wait before they are added to the shared counts (and
 * the others' read back): none but the rest of the event loop's turn, so the requests of one
 * burst go in one statement, and what another process cannot see yet is at most a write's time old.
 */
export const SHARED_SYNC_MS = 0;
/**
 * Past this share of a limit, every request of the client reads and adds to the shared count
 * before it is decided, so two processes admit exactly the limit between them. Below it requests
 * are counted in memory and shared right after (see the README's "Growing past one machine").
 */
export const SHARED_EXACT_FROM = 0.5;
const SHARED_BATCH = 200;
/** After the shared counts could not be reached, the next try waits this long. */
const RETRY_MS = 1000;

/** A limit's shared count: the client, the period and the limit's place in its list (two limits may share a period). */
const sharedKey = (key: string, limit: RateLimit, i: number) => `${key}|${limit.periodMs}|${i}`;

/**
 * Request counters per client under fixed windows. Alone, a process counts in memory. With
 * `shared`, several processes limit a client together: each counts in memory and adds its counts
 * to the shared ones every SHARED_SYNC_MS; a client's first request in a window, and every
 * request once a count is past SHARED_EXACT_FROM of its limit, waits for the shared count first.
 */
export function createRateLimiter<Shared extends SharedCounts | null = null>(
  clock: Clock,
  maxClients = MAX_TRACKED_CLIENTS,
  shared: Shared = null as Shared,
  log: (line: string) => void = () => {},
) {
  /** Alone, a decision is at once; shared, it may wait for the shared count. */
  type Decided = Shared extends null ? RateDecision : RateDecision | Promise<RateDecision>;
  // Map order is insertion order: counters move to the end when their window renews, so the
  // front holds the stalest, evicted first when the map is full.
  const counters = new Map<string, Counter>();
  let nextSweep = 0;
  /** Clients with requests not yet shared. */
  const dirty = new Map<string, Counter>();
  let syncTimer: ReturnType<typeof setTimeout> | null = null;
  let syncing = false;
  let nextPrune = 0;
  let failing = false;

  function sweep(now: number) {
    nextSweep = now + SWEEP_EVERY_MS;
    for (const [key, c] of counters) if (c.expiresAt <= now) counters.delete(key);
    if (counters.size < maxClients) return;
    let excess = counters.size - Math.floor(maxClients * 0.9);
    for (const key of counters.keys()) {
      if (excess-- <= 0) break;
      counters.delete(key);
    }
  }

  /** The client's counter, its windows moved to `now`. */
  function counterOf(key: string, limits: RateLimit[], now: number): Counter {
    let c = counters.get(key);
    if (!c) {
      c = { limits, windows: limits.map(() => -1), counts: limits.map(() => 0), unsynced: limits.map(() => 0), synced: false, syncing: null, expiresAt: 0 };
      counters.set(key, c);
    }
    roll(key, c, now);
    return c;
  }

  /** Moves the counter's windows to `now`: a new window counts from 0 and is read from the shared counts again. */
  function roll(key: string, c: Counter, now: number) {
    for (let i = 0; i < c.limits.length; i++) {
      const window = Math.floor(now / c.limits[i]!.periodMs);
      if (c.windows[i] === window) continue;
      if (i === 0 && c.windows[0] !== -1 && counters.get(key) === c) {
        counters.delete(key);
        counters.set(key, c);
      }
      c.windows[i] = window;
      c.counts[i] = 0;
      c.unsynced[i] = 0;
      c.synced = false;
    }
  }

  /** The answer for the counts as they stand (this request already counted when allowed). */
  function decision(c: Counter, allowed: boolean): RateDecision {
    let shown = -1;
    let shownRemaining = 0;
    let shownReset = 0;
    let expiresAt = 0;
    for (let i = 0; i < c.limits.length; i++) {
      const limit = c.limits[i]!;
      const remaining = limit.count - c.counts[i]!;
      const resetAt = (c.windows[i]! + 1) * limit.periodMs;
      if (resetAt > expiresAt) expiresAt = resetAt;
      // Allowed: the limit nearest to running out. Refused: of the exhausted ones, the last to reset.
      const better = allowed
        ? shown < 0 || remaining < shownRemaining || (remaining === shownRemaining && resetAt < shownReset)
        : remaining <= 0 && (shown < 0 || resetAt > shownReset);
      if (better) {
        shown = i;
        shownRemaining = remaining;
        shownReset = resetAt;
      }
    }
    c.expiresAt = expiresAt;
    return { allowed, limit: c.limits[shown]!, remaining: Math.max(0, shownRemaining), resetAt: shownReset };
  }

  /** Decides on the counts this process knows: refused when one is exhausted, else counted. */
  function decideHere(key: string, c: Counter): RateDecision {
    const allowed = c.counts.every((n, i) => n < c.limits[i]!.count);
    if (allowed) {
      for (let i = 0; i < c.limits.length; i++) {
        c.counts[i]!++;
        c.unsynced[i]!++;
      }
      if (shared) markDirty(key, c);
    }
    return decision(c, allowed);
  }

  /** Adds the counter's unshared requests (and `extra` more) to the shared counts; its counts become the shared ones plus what arrived since. */
  async function share(batch: [string, Counter][], extra: number): Promise<void> {
    const entries: SharedCount[] = [];
    // What each counter had unshared, given back if the statement fails (`extra` is the caller's to count).
    const taken: { c: Counter; i: number; window: number; add: number }[] = [];
    for (const [key, c] of batch) {
      for (let i = 0; i < c.limits.length; i++) {
        const limit = c.limits[i]!;
        const add = c.unsynced[i]! + extra;
        entries.push({ key: sharedKey(key, limit, i), windowIndex: c.windows[i]!, add, expiresAt: (c.windows[i]! + 1) * limit.periodMs });
        taken.push({ c, i, window: c.windows[i]!, add: c.unsynced[i]! });
        c.unsynced[i] = 0;
      }
    }
    let totals: Map<string, number>;
    try {
      totals = await shared!.add(entries);
      failing = false;
    } catch (error) {
      // The database away or busy: this process goes on counting alone, and shares later.
      for (const t of taken) if (t.c.windows[t.i] === t.window) t.c.unsynced[t.i]! += t.add;
      if (!failing) log(`rate limits: the shared counts could not be updated (${(error as Error).message}); counting in this process until they can`);
      failing = true;
      throw error;
    }
    for (let n = 0; n < taken.length; n++) {
      const { c, i, window } = taken[n]!;
      const total = totals.get(entries[n]!.key);
      // A window that ended during the wait counts afresh; the answer is of the old one.
      if (total === undefined || c.windows[i] !== window) continue;
      c.counts[i] = total + c.unsynced[i]!;
    }
    for (const [, c] of batch) c.synced = true;
  }

  /**
   * Runs `work` once the counters' earlier shares have answered, and holds their next ones until
   * it has: one share of a client in flight at a time, so the total each answers includes every
   * earlier one of this process. (Two in flight, the later could answer first with a total missing
   * the earlier's requests, which this process no longer counted as unshared: a request lost.)
   */
  function inTurn<T>(batch: Counter[], work: () => Promise<T>): Promise<T> {
    const earlier: Promise<unknown>[] = [];
    for (const c of batch) if (c.syncing) earlier.push(c.syncing);
    const run = earlier.length ? Promise.all(earlier).then(work) : work();
    // The next share of these clients waits for this one, whatever its end.
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    for (const c of batch) c.syncing = settled;
    void settled.then(() => {
      for (const c of batch) if (c.syncing === settled) c.syncing = null;
    });
    return run;
  }

  /** Decides after reading (and adding this request to) the shared counts, one decision per client at a time. */
  function decideShared(key: string, c: Counter): Promise<RateDecision> {
    return inTurn([c], async () => {
      roll(key, c, clock.now());
      if (c.counts.some((n, i) => n >= c.limits[i]!.count)) return decision(c, false);
      try {
        await share([[key, c]], 1);
      } catch {
        return decideHere(key, c);
      }
      // This request is in the shared counts now: over a limit, it is taken back at once (a
      // refusal counts against no limit, and another process must not see it counted).
      const allowed = c.counts.every((n, i) => n <= c.limits[i]!.count);
      if (!allowed) {
        for (let i = 0; i < c.limits.length; i++) {
          c.counts[i]!--;
          c.unsynced[i]!--;
        }
        await share([[key, c]], 0).catch(() => markDirty(key, c));
      }
      return decision(c, allowed);
    });
  }

  function markDirty(key: string, c: Counter) {
    dirty.set(key, c);
    if (syncTimer || syncing) return;
    syncTimer = setTimeout(() => void syncAll(), SHARED_SYNC_MS);
    // Shared counts never keep a process alive.
    (syncTimer as { unref?: () => void }).unref?.();
  }

  /**
   * Shares every client's unshared requests, in batches; one run at a time (requests counted
   * meanwhile go with the next run, right after). After a failure the next run waits a second.
   */
  async function syncAll() {
    syncTimer = null;
    syncing = true;
    const batch = [...dirty];
    dirty.clear();
    let failed = false;
    for (let at = 0; at < batch.length && !failed; at += SHARED_BATCH) {
      const part = batch.slice(at, at + SHARED_BATCH);
      await inTurn(
        part.map(([, c]) => c),
        () => share(part, 0),
      ).catch(() => {
        for (const [key, c] of batch.slice(at)) dirty.set(key, c);
        failed = true;
      });
    }
    const now = clock.now();
    if (!failed && now >= nextPrune) {
      nextPrune = now + SWEEP_EVERY_MS;
      await shared!.prune(now).catch(() => {});
    }
    syncing = false;
    if (dirty.size) {
      syncTimer = setTimeout(() => void syncAll(), failed ? RETRY_MS : SHARED_SYNC_MS);
      (syncTimer as { unref?: () => void }).unref?.();
    }
  }

  return {
    /**
     * Counts one request of `key` against `limits` (always the same list for one key), unless one
     * is exhausted. At once, or (shared counts) a Promise when the shared count must be read first.
     */
    take(key: string, limits: RateLimit[]): Decided {
      const now = clock.now();
      if (now >= nextSweep || counters.size >= maxClients) sweep(now);
      const c = counterOf(key, limits, now);
      if (!shared) return decideHere(key, c) as Decided;
      const exhausted = c.counts.some((n, i) => n >= limits[i]!.count);
      const near = c.counts.some((n, i) => n + 1 > limits[i]!.count * SHARED_EXACT_FROM);
      if (c.syncing || (!exhausted && (!c.synced || near))) return decideShared(key, c) as Decided;
      return (exhausted ? decision(c, false) : decideHere(key, c)) as Decided;
    },
    /** Clients currently tracked (tests, and the bound's check). */
    size: () => counters.size,
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
