// Record searches on reader workers: the same answers as on the request thread, and a search past
// its time budget is stopped with a 503 in the error shape while the server goes on answering.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { ManualClock } from "../../src/core/time";
import { bulkInsertRecords } from "../../bench/lib";
import { createRecordsData } from "../../bench/records-data";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app";

const COUNT = 5000;
let t: TestApp;
let ids: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ SEARCH_READERS: 0 });
  const records = createRecordsData(11);
  ids = bulkInsertRecords(t.dataDir, COUNT, records.document, (i) => t.clock.now() - (COUNT - i) * 1000);
  await t.services.records.reindex({ kind: "system" });
});
afterAll(() => t.close());

/** The test's data directory served by another app with these settings (the test app keeps it). */
function appWith(overrides: Record<string, unknown>) {
  const config = loadConfig({ flags: { DATA_DIR: t.dataDir, HTTP: true, BASE_URL, ...overrides }, env: {} });
  return createApp({ config, clock: new ManualClock(t.clock.now()), log: (m) => logs.push(m) });
}
const logs: string[] = [];
const get = async (app: { handle(r: Request): Promise<Response> | Response }, path: string) => {
  const res = await app.handle(new Request(BASE_URL + path));
  return { status: res.status, json: (await res.json()) as any };
};

const QUERIES = [
  "",
  "?q=data",
  "?q=ocean%20OR%20soil&sort=mostviewed",
  "?q=-data&size=3",
  "?q=publication_date:[2015%20TO%202020]&resource_type=dataset",
  "?q=survey*&page=3&size=7&sort=oldest",
];

/**
 * Reader workers constructed while `run` runs. Counted at the Worker constructor by their entry,
 * not by the process's threads: another app's WAL checkpointer may start its own worker meanwhile.
 */
async function readersStartedDuring(run: (started: () => number) => Promise<void>) {
  const Original = globalThis.Worker;
  let started = 0;
  globalThis.Worker = class extends Original {
    constructor(url: string | URL, options?: WorkerOptions) {
      if (String(url).includes("reader-worker")) started++;
      super(url, options);
    }
  } as typeof Worker;
  try {
    await run(() => started);
  } finally {
    globalThis.Worker = Original;
  }
}

describe("reader workers", () => {
  test("start at the first search, not with the server", async () => {
    await readersStartedDuring(async (started) => {
      const { app, services } = appWith({ SEARCH_READERS: 2 });
      try {
        expect(started()).toBe(0);
        const found = await get(app, "/api/records?q=data&size=1");
        expect(found.status).toBe(200);
        expect(found.json.hits.total).toBeGreaterThan(0);
        expect(started()).toBe(2);
        await get(app, "/api/records?q=soil&size=1");
        expect(started()).toBe(2);
      } finally {
        await services.close();
      }
    });
  });

  test("answer exactly as the request thread does", async () => {
    const { app, services } = appWith({ SEARCH_READERS: 2 });
    try {
      for (const query of QUERIES) {
        const onThread = await get(t.app, `/api/records${query}`);
        const onWorker = await get(app, `/api/records${query}`);
        expect(onWorker.status).toBe(200);
        expect(onWorker.json).toEqual(onThread.json);
      }
    } finally {
      await services.close();
    }
  });

  test("a search past its budget is a 503 naming the budget; the server goes on answering", async () => {
    const { app, services } = appWith({ SEARCH_READERS: 1, SEARCH_TIMEOUT_MS: 1 });
    try {
      const costly = `/api/records?q=${encodeURIComponent(
        "abcdefghijklmnopqrstuvwxyz"
          .split("")
          .map((c) => `${c}*`)
          .join(" OR "),
      )}`;
      const stopped = await get(app, costly);
      expect(stopped).toEqual({
        status: 503,
        json: { status: 503, message: "The search took longer than its time budget of 1 ms (SEARCH_TIMEOUT_MS) and was stopped: narrow the query and try again." },
      });
      expect(logs.some((l) => l.startsWith("search stopped after 1 ms"))).toBe(true);
      const record = await get(app, `/api/records/${ids[0]}`);
      expect(record.status).toBe(200);
      expect(record.json.id).toBe(ids[0]);
    } finally {
      await services.close();
    }
  });
});
