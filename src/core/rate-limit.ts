// Request rate limits as InvenioRDM ships them (Flask-Limiter's fixed windows): limits written as
// "1000 per minute", counters per client kept in memory, bounded, on the injected clock.
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
  /** Per limit: the window index (now / period) and the requests counted in it. */
  windows: number[];
  counts: number[];
  /** When every window has ended: the counter is then worth nothing and may go. */
  expiresAt: number;
}

/** Most clients tracked; beyond it expired counters go first, then the least recently renewed. */
export const MAX_TRACKED_CLIENTS = 100_000;
const SWEEP_EVERY_MS = 60_000;

export function createRateLimiter(clock: Clock, maxClients = MAX_TRACKED_CLIENTS) {
  // Map order is insertion order: counters move to the end when their window renews, so the
  // front holds the stalest, evicted first when the map is full.
  const counters = new Map<string, Counter>();
  let nextSweep = 0;

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

  return {
    /** Counts one request of `key` against `limits` (always the same list for one key), unless one is exhausted. */
    take(key: string, limits: RateLimit[]): RateDecision {
      const now = clock.now();
      if (now >= nextSweep || counters.size >= maxClients) sweep(now);
      let c = counters.get(key);
      if (!c) {
        c = { windows: limits.map(() => -1), counts: limits.map(() => 0), expiresAt: 0 };
        counters.set(key, c);
      }
      let allowed = true;
      for (let i = 0; i < limits.length; i++) {
        const window = Math.floor(now / limits[i]!.periodMs);
        if (c.windows[i] !== window) {
          if (i === 0 && c.windows[0] !== -1) {
            counters.delete(key);
            counters.set(key, c);
          }
          c.windows[i] = window;
          c.counts[i] = 0;
        }
        if (c.counts[i]! >= limits[i]!.count) allowed = false;
      }
      let shown = -1;
      let shownRemaining = 0;
      let shownReset = 0;
      let expiresAt = 0;
      for (let i = 0; i < limits.length; i++) {
        const limit = limits[i]!;
        if (allowed) c.counts[i]!++;
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
      return { allowed, limit: limits[shown]!, remaining: Math.max(0, shownRemaining), resetAt: shownReset };
    },
    /** Clients currently tracked (tests, and the bound's check). */
    size: () => counters.size,
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
