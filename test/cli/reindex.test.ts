// `cairn reindex` killed at any point leaves search and OAI-PMH complete after a restart; a server
// that finds its index incomplete says so and rebuilds it in the background.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { ManualClock } from "../../src/core/time";
import { startServer } from "../../src/server/serve";
import { createTestApp, type TestApp } from "../helpers/app";
import { cleanEnv, freePort } from "../helpers/cli";
import { MINIMAL_METADATA } from "../helpers/records";

const CHILD = join(import.meta.dir, "..", "helpers", "reindex-child.ts");
const RECORDS = 35;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const alice = (await t.services.tokens.authenticate(t.users.alice.token))!;
  for (let i = 0; i < RECORDS; i++) {
    const draft = await t.services.records.createDraft(alice, { files: { enabled: false }, metadata: { ...MINIMAL_METADATA, title: `Basalt column survey ${i}` } });
    t.clock.advance(1000);
    await t.services.records.publish(alice, draft.id);
  }
  await t.services.records.createDraft(alice, { files: { enabled: false }, metadata: { ...MINIMAL_METADATA, title: "Basalt draft" } });
  await t.services.close(); // the data directory stays; each case opens it again as a restarted server would
});
afterAll(() => t.close());

/** The data directory opened again: search hits, OAI identifiers and the index check. */
async function afterRestart() {
  const { app, services } = createApp({ config: t.config, clock: new ManualClock(t.clock.now()) });
  try {
    const search = (await (await app.handle(new Request("http://127.0.0.1:5000/api/records?q=basalt&size=1"))).json()) as { hits: { total: number } };
    const oai = await (await app.handle(new Request("http://127.0.0.1:5000/oai2d?verb=ListIdentifiers&metadataPrefix=oai_dc"))).text();
    return { hits: search.hits.total as number, identifiers: (oai.match(/<identifier>/g) ?? []).length, index: await services.records.checkIndex() };
  } finally {
    await services.close();
  }
}

describe("a killed reindex", () => {
  for (const stage of ["before", "mid", "swap"]) {
    test(`killed ${stage === "before" ? "before the first batch" : stage === "mid" ? "mid-way" : "at the swap"}: search and OAI are complete after a restart`, async () => {
      const child = Bun.spawnSync([process.execPath, CHILD, t.dataDir, stage], { env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
      expect(child.signalCode).toBe("SIGKILL");
      expect(child.stdout.toString()).not.toContain("finished");
      const after = await afterRestart();
      expect(after).toEqual({
        hits: RECORDS,
        identifiers: RECORDS,
        index: { records: RECORDS, drafts: 1, indexedRecords: RECORDS, indexedDrafts: 1, outdated: false, complete: true },
      });
    });
  }

  test("a reindex that runs to the end replaces the index and drops the leftover shadow tables", async () => {
    const { services } = createApp({ config: t.config, clock: new ManualClock(t.clock.now()) });
    try {
      expect(await services.records.reindex({ kind: "system" })).toBe(RECORDS);
      // SQLite's rebuild writes shadow tables and swaps them in; PostgreSQL's rewrites the index in
      // one transaction and makes none: the tables of either catalogue named like them.
      const catalogue =
        services.deps.db.engine === "sqlite"
          ? "SELECT name FROM sqlite_master WHERE name LIKE '%_rebuild%'"
          : "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE '%_rebuild%'";
      expect(await services.deps.db.statements.all<{ name: string }>(catalogue)).toEqual([]);
    } finally {
      await services.close();
    }
    expect((await afterRestart()).hits).toBe(RECORDS);
  });
});

describe("a server that finds its index incomplete", () => {
  test("says so and rebuilds it in the background", async () => {
    const { services } = createApp({ config: t.config, clock: new ManualClock(t.clock.now()) });
    await services.deps.db.statements.run("DELETE FROM record_index WHERE key % 3 = 0");
    expect((await services.records.checkIndex()).complete).toBe(false);
    await services.close();

    const lines: string[] = [];
    const config = loadConfig({ flags: { DATA_DIR: t.dataDir, HTTP: true, PORT: freePort(), JOBS_POLL_INTERVAL_MS: 50 }, env: {} });
    const server = await startServer(config, (line) => lines.push(line));
    try {
      expect(lines.find((l) => l.startsWith("WARNING: the search index holds"))).toContain(`of ${RECORDS} records`);
      // Waits for the background job's work, not for time: it polls the result.
      let hits = 0;
      for (let i = 0; i < 200 && hits !== RECORDS; i++) {
        await Bun.sleep(25);
        hits = ((await (await fetch(`${server.url}/api/records?q=basalt&size=1`)).json()) as { hits: { total: number } }).hits.total;
      }
      expect(hits).toBe(RECORDS);
    } finally {
      await server.stop();
    }
  });
});
