// Rate limits shared by several serving processes: two limiters (two processes) on one database
// count a client together, exactly while two share it; windows start again in both; a database
// that cannot be reached leaves each counting alone.
import { describe, expect, test } from "bun:test";
import { createRateLimiter, parseRateLimits, SHARED_EXACT_FROM, type SharedCounts } from "../../src/core/rate-limit";
import { ManualClock } from "../../src/core/time";
import { openDatabase } from "../../src/db/sqlite/connection";
import { createSharedRateCounts } from "../../src/rate-limits/store";

const T0 = Date.UTC(2026, 0, 1, 9, 0, 0);

function twoProcesses(limitText = "10 per minute") {
  const clock = new ManualClock(T0);
  const db = openDatabase(":memory:", clock.now());
  const shared = createSharedRateCounts(db);
  const limits = parseRateLimits(limitText);
  const logs: string[] = [];
  const a = createRateLimiter(clock, 1000, shared, (line) => logs.push(line));
  const b = createRateLimiter(clock, 1000, shared, (line) => logs.push(line));
  return { clock, db, limits, logs, a, b };
}

const allowed = async (decision: ReturnType<ReturnType<typeof createRateLimiter>["take"]>) => (await decision).allowed;

describe("shared rate counts", () => {
  test("two processes taking turns admit the limit between them, then refuse in both", async () => {
    const { a, b, limits } = twoProcesses();
    const answers: boolean[] = [];
    for (let i = 0; i < 14; i++) answers.push(await allowed((i % 2 ? b : a).take("a:203.0.113.9", limits)));
    expect(answers).toEqual([...Array(10).fill(true), ...Array(4).fill(false)]);
  });

  test("a process meeting a client for the first time starts from what the other counted", async () => {
    const { a, b, limits } = twoProcesses();
    for (let i = 0; i < 8; i++) expect(await allowed(a.take("u:7", limits))).toBe(true);
    const onB = [await b.take("u:7", limits), await b.take("u:7", limits), await b.take("u:7", limits)];
    expect(onB.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    // A, past half its limit, asks the shared count before deciding: nothing is left.
    expect(8 + 1 > 10 * SHARED_EXACT_FROM).toBe(true);
    expect(await allowed(a.take("u:7", limits))).toBe(false);
    // Another client is counted apart.
    expect(await allowed(b.take("u:8", limits))).toBe(true);
  });

  test("requests one process counted alone reach the shared count right after: the other sees them", async () => {
    const { a, b, limits } = twoProcesses();
    for (let i = 0; i < 4; i++) expect(await allowed(a.take("a:198.51.100.4", limits))).toBe(true);
    // What a server does between two requests: the rest of the event loop's turn.
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    const onB: boolean[] = [];
    for (let i = 0; i < 8; i++) onB.push(await allowed(b.take("a:198.51.100.4", limits)));
    expect(onB).toEqual([true, true, true, true, true, true, false, false]);
  });

  test("a refusal is not counted: the shared count stays at the limit", async () => {
    const { a, b, db, limits } = twoProcesses("3 per minute");
    for (const limiter of [a, b, a, b, a]) await limiter.take("a:192.0.2.1", limits);
    const row = await db.statements.get<{ count: number }>("SELECT count FROM rate_counts WHERE key = ?", ["a:192.0.2.1|60000|0"]);
    expect(row?.count).toBe(3);
  });

  test("a new window starts again in both processes", async () => {
    const { a, b, clock, limits } = twoProcesses("2 per minute");
    expect([await allowed(a.take("a:x", limits)), await allowed(b.take("a:x", limits)), await allowed(a.take("a:x", limits))]).toEqual([true, true, false]);
    clock.advance(60_000);
    expect([await allowed(b.take("a:x", limits)), await allowed(a.take("a:x", limits)), await allowed(b.take("a:x", limits))]).toEqual([true, true, false]);
  });

  test("every limit of a list is shared: the hour's outlasts the minute's", async () => {
    const { a, b, clock, limits } = twoProcesses("3 per hour;2 per minute");
    expect([await allowed(a.take("a:y", limits)), await allowed(b.take("a:y", limits)), await allowed(a.take("a:y", limits))]).toEqual([true, true, false]);
    clock.advance(60_000);
    expect([await allowed(b.take("a:y", limits)), await allowed(a.take("a:y", limits))]).toEqual([true, false]);
  });

  test("when the shared counts cannot be reached, each process counts alone and says so once", async () => {
    const clock = new ManualClock(T0);
    const down: SharedCounts = { add: () => Promise.reject(new Error("database away")), prune: async () => {} };
    const logs: string[] = [];
    const limiter = createRateLimiter(clock, 1000, down, (line) => logs.push(line));
    const limits = parseRateLimits("3 per minute");
    const answers: boolean[] = [];
    for (let i = 0; i < 5; i++) answers.push(await allowed(limiter.take("a:z", limits)));
    expect(answers).toEqual([true, true, true, false, false]);
    expect(logs).toEqual(["rate limits: the shared counts could not be updated (database away); counting in this process until they can"]);
  });
  test("a background share and a request's share of one client are never in flight together: no request is lost when answers cross", async () => {
    const clock = new ManualClock(T0);
    const real = createSharedRateCounts(openDatabase(":memory:", clock.now()));
    // A server engine runs statements on several connections: a later statement may run and
    // answer first. Here every add waits until the test lets it run.
    const held: (() => void)[] = [];
    const crossing: SharedCounts = {
      add: async (entries) => {
        await new Promise<void>((resolve) => held.push(resolve));
        return real.add(entries);
      },
      prune: (now) => real.prune(now),
    };
    const limits = parseRateLimits("4 per minute");
    const limiter = createRateLimiter(clock, 1000, crossing);
    const take = async () => {
      // The rest of the event loop's turn between two requests: the background share starts.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const decision = limiter.take("u:1", limits);
      if (!(decision instanceof Promise)) return decision;
      // Lets the held adds run, newest first, until this decision is made.
      let done = false;
      const result = decision.then((d) => ((done = true), d));
      while (!done) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        held.pop()?.();
      }
      return result;
    };
    const seen: [boolean, number][] = [];
    for (let i = 0; i < 5; i++) {
      const d = await take();
      seen.push([d.allowed, d.remaining]);
    }
    expect(seen).toEqual([
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
  });
});
