// Reader workers' hand-over: a search the worker never received (postMessage cannot copy it) arms no
// time-out, so no timer fires later to end the worker and fail the searches then running on it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { publicScope } from "../../src/records/policy";
import { createSearchReaders, type ReaderTimers } from "../../src/records/search/sqlite/readers";
import type { RecordSearchInput } from "../../src/records/search";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SEARCH_READERS: 0 });
});
afterAll(() => t.close());

/** Timers that fire only when the test says so. */
function manualTimers() {
  const armed = new Map<number, () => void>();
  let next = 1;
  const timers: ReaderTimers = {
    set: (fire) => {
      armed.set(next, fire);
      return next++;
    },
    clear: (timer) => void armed.delete(timer as number),
  };
  /** Fires these timers (all armed so far by default) if not cleared, as if their time had come. */
  const fire = (ids = [...armed.keys()]) => {
    let fired = 0;
    for (const id of ids) {
      const due = armed.get(id);
      if (!due) continue;
      armed.delete(id);
      due();
      fired++;
    }
    return fired;
  };
  return { timers, fire, armed: () => [...armed.keys()] };
}

const input = (query: Record<string, unknown>): RecordSearchInput => ({ sortOptions: ["newest"], defaultSort: "newest", query });
const page = { page: 1, size: 10, offset: 0 };

test("a search that cannot be handed over arms no time-out; other searches on the worker still answer", async () => {
  const clock = manualTimers();
  const logs: string[] = [];
  const readers = createSearchReaders({ path: join(t.dataDir, "cairn.db"), count: 1, timeoutMs: 10_000, log: (m) => logs.push(m), timers: clock.timers });
  try {
    // What a plain object made of `?constructor=1` held: a function, which no worker can be sent.
    await expect(readers.search(publicScope, input({ constructor: [Object, "1"] }), page)).rejects.toThrow();
    const leftBehind = clock.armed();
    // Another search runs on the same worker; then the failed search's 10 s are up.
    const other = readers.search(publicScope, input({}), page);
    clock.fire(leftBehind);
    expect((await other).total).toBe(0);
    expect(leftBehind).toEqual([]);
    expect(logs).toEqual([]);
  } finally {
    readers.close();
  }
});

test("a search handed over is timed, and its time-out ends it with a 503", async () => {
  const clock = manualTimers();
  const readers = createSearchReaders({ path: join(t.dataDir, "cairn.db"), count: 1, timeoutMs: 10_000, log: () => {}, timers: clock.timers });
  try {
    const running = readers.search(publicScope, input({}), page);
    expect(clock.armed()).toHaveLength(1);
    expect(clock.fire()).toBe(1);
    await expect(running).rejects.toMatchObject({ status: 503 });
  } finally {
    readers.close();
  }
});
