// The round trip: a repository with records, files, a community with a logo and statistics is
// backed up while records go on being published, restored into a new directory and started there;
// every record, file byte, search hit, statistic and OAI-PMH record matches the original.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { ManualClock } from "../../src/core/time";
import { BASE_URL, createTestApp, type TestApp, type Who } from "../helpers/app";
import { readManifest, runCairn, seedRecords, snapshotsIn, startCairn } from "../helpers/backup";
import { COMMUNITY_BODY } from "../helpers/communities";
import { databaseEnv, dropDataDirDatabases, readRows, testEngine } from "../helpers/data-dir";
import { publishableDraft, publishRecord } from "../helpers/records";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

let root = "";
let original: TestApp;
let restored: ReturnType<typeof createApp>;
let seeded: { id: string; md5: string }[] = [];
let restoredConfig = "";
let restoredUrl = "";
let duringBackup = 0;
let manifest: any;

/** A request to the restored server with the same users' tokens (they are in the restored database). */
async function callRestored(method: string, path: string, as: Who = "anonymous", headers: Record<string, string> = {}) {
  const token = as === "anonymous" ? undefined : original.users[as].token;
  const res = await restored.app.handle(new Request(BASE_URL + path, { method, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } }));
  return { status: res.status, text: await res.text() };
}
const callOriginal = async (method: string, path: string, as: Who = "anonymous") => {
  const res = await original.call(method, path, { as });
  return { status: res.status, text: res.text };
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-roundtrip-"));
  original = await createTestApp();
  // A second apart: records of one same instant are ordered by their index rows' numbering, which
  // an index rebuilt (a restore into PostgreSQL rebuilds it) makes anew in record-id order.
  seeded = await seedRecords(original, 8, { bytes: 50_000, random: true, apartMs: 1000 });
  // A community with a logo: an object the database keeps no MD5 for.
  expect((await original.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("survey-lab") })).status).toBe(201);
  expect((await original.call("PUT", "/api/communities/survey-lab/logo", { as: "alice", rawBody: PNG, headers: { "content-type": "application/octet-stream" } })).status).toBe(200);
  // Views by two visitors an hour apart, folded into the statistics.
  for (const [i, { id }] of seeded.entries()) {
    for (let v = 0; v <= i % 3; v++) await original.call("GET", `/api/records/${id}`, { headers: { "user-agent": FIREFOX } });
  }
  original.clock.advance(3_600_000);
  await original.call("GET", `/api/records/${seeded[0]!.id}`, { headers: { "user-agent": FIREFOX } });
  await original.services.stats.aggregate();

  // The backup runs while records go on being published.
  const dest = join(root, "backups");
  const backup = startCairn(["backup", dest, "--data", original.dataDir], { clock: original.clock });
  let done = false;
  // Either way the loop ends: a failed backup is reported by the `await backup.result` below.
  const settled = () => (done = true);
  backup.result.then(settled, settled);
  while (!done || duringBackup === 0) {
    const body = publishableDraft();
    (body.metadata as Record<string, unknown>).title = `Published during the backup ${duringBackup}`;
    await publishRecord(original, body);
    duringBackup++;
    // In-process calls settle as microtasks only: a timer turn lets the child's exit be noticed.
    await Bun.sleep(1);
  }
  const made = await backup.result;
  expect(made.stderr).toBe("");
  expect(made.code).toBe(0);
  manifest = readManifest(join(dest, snapshotsIn(dest)[0]!));

  const target = join(root, "restored");
  const env = await databaseEnv(target, { empty: true });
  const restore = await runCairn(["restore", dest, "--data", target], { env });
  expect(restore.stderr).toBe("");
  expect(restore.code).toBe(0);
  // The restored cairn.toml names the database restored into (on PostgreSQL the backed-up one named
  // the original's), so the server below, given no DATABASE_URL, reads the restored data.
  restoredConfig = existsSync(join(target, "cairn.toml")) ? readFileSync(join(target, "cairn.toml"), "utf8") : "";
  restoredUrl = env.DATABASE_URL ?? "";
  restored = createApp({ config: loadConfig({ flags: { DATA_DIR: target, HTTP: true, BASE_URL }, env: {} }), clock: new ManualClock(original.clock.now()), log: () => {} });
});
afterAll(async () => {
  await restored?.services.close();
  await original?.close();
  await dropDataDirDatabases();
  rmSync(root, { recursive: true, force: true });
});

const restoredIds = async () => (await restored.services.deps.db.statements.all<{ id: string }>("SELECT id FROM records ORDER BY id")).map(({ id }) => id);

describe("a backup taken while records were published, restored and started", () => {
  test("the restored cairn.toml names the database restored into, not the backed-up installation's", () => {
    const named = [...restoredConfig.matchAll(/^\s*DATABASE_URL\s*=\s*"([^"]*)"/gm)].map((m) => m[1]);
    expect(named).toEqual(testEngine() === "postgres" ? [restoredUrl] : []);
    if (testEngine() === "postgres") expect(restoredUrl).not.toBe(original.config.DATABASE_URL);
  });

  test("holds what its manifest counts: every seeded record, and some of those published meanwhile", async () => {
    const ids = await restoredIds();
    expect(ids.length).toBe(manifest.counts.records);
    for (const { id } of seeded) expect(ids).toContain(id);
    expect(ids.length).toBeGreaterThanOrEqual(seeded.length);
    expect(ids.length).toBeLessThanOrEqual(seeded.length + duringBackup);
    expect(manifest.counts).toMatchObject({ communities: 1, users: 3, objects: 9 });
  });

  test("every record's JSON is the original's, statistics included", async () => {
    for (const id of await restoredIds()) {
      const [a, b] = [await callOriginal("GET", `/api/records/${id}`, "alice"), await callRestored("GET", `/api/records/${id}`, "alice")];
      expect(b.status).toBe(200);
      expect(JSON.parse(b.text)).toEqual(JSON.parse(a.text));
    }
    expect(JSON.parse((await callRestored("GET", `/api/records/${seeded[0]!.id}`)).text).stats.this_version).toMatchObject({ views: 2, unique_views: 2 });
    const query = { views: { stat: "record-view", params: { recid: seeded[2]!.id } } };
    const stats = async (call: typeof original.app) =>
      (await call.handle(new Request(`${BASE_URL}/api/stats`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(query) }))).json();
    expect(await stats(restored.app)).toEqual(await stats(original.app));
  });

  test("search finds the same records in the same order", async () => {
    for (const q of ["Seeded", '"Seeded survey 3"', "title:survey", "Seeded&sort=mostviewed", "Seeded&sort=oldest&size=3&page=2"]) {
      const [a, b] = [await callOriginal("GET", `/api/records?q=${q}`), await callRestored("GET", `/api/records?q=${q}`)];
      const hits = (text: string) => JSON.parse(text).hits;
      expect(hits(b.text).total).toBe(hits(a.text).total);
      expect(hits(b.text).hits.map((h: { id: string }) => h.id)).toEqual(hits(a.text).hits.map((h: { id: string }) => h.id));
    }
    expect(JSON.parse((await callRestored("GET", "/api/records?q=Seeded")).text).hits.total).toBe(8);
  });

  test("OAI-PMH ListRecords gives the original's records, byte for byte", async () => {
    // Every page, following the resumption tokens.
    const harvest = async (call: (method: string, path: string) => Promise<{ text: string }>) => {
      const records = new Map<string, string>();
      let path = "/oai2d?verb=ListRecords&metadataPrefix=oai_dc";
      for (;;) {
        const xml = (await call("GET", path)).text;
        for (const [record] of xml.matchAll(/<record>[\s\S]*?<\/record>/g)) records.set(/<identifier>([^<]+)<\/identifier>/.exec(record)![1]!, record);
        const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
        if (!token) return records;
        path = `/oai2d?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
      }
    };
    const [a, b] = [await harvest(callOriginal), await harvest(callRestored)];
    expect(b.size).toBe((await restoredIds()).length);
    for (const [identifier, xml] of b) expect(xml).toBe(a.get(identifier)!);
  });

  test("every file's bytes, and the community's logo, are the original's", async () => {
    for (const { id, md5 } of seeded) {
      const file = await restored.app.handle(new Request(`${BASE_URL}/api/records/${id}/files/data-${seeded.findIndex((s) => s.id === id)}.txt/content`));
      expect(file.status).toBe(200);
      expect(
        createHash("md5")
          .update(new Uint8Array(await file.arrayBuffer()))
          .digest("hex"),
      ).toBe(md5);
    }
    const logo = await restored.app.handle(new Request(`${BASE_URL}/api/communities/survey-lab/logo`));
    expect(Buffer.from(await logo.arrayBuffer()).equals(PNG)).toBe(true);
  });

  test("the restored server accepts the original's tokens and carries on writing", async () => {
    const created = await restored.app.handle(
      new Request(`${BASE_URL}/api/records`, {
        method: "POST",
        headers: { authorization: `Bearer ${original.users.bob.token}`, "content-type": "application/json" },
        body: JSON.stringify(publishableDraft()),
      }),
    );
    expect(created.status).toBe(201);
    expect(await readRows(join(root, "restored"), "SELECT count(*) AS n FROM file_parts")).toEqual([{ n: 0 }]);
  });
});
