// A data directory made on SQLite, copied with `cairn db copy`, serves the same answers from the
// copy: the JSON of every record, search pages (with facets) and vocabulary searches, and the
// OAI-PMH pages byte for byte. Both legs run the command as a person would; SQLite -> SQLite
// proves the comparison itself.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { ManualClock } from "../../src/core/time";
import { BASE_URL, createTestApp, type TestApp, type Who } from "../helpers/app";
import { runCairn, seedRecords } from "../helpers/backup";
import { COMMUNITY_BODY } from "../helpers/communities";
import { emptyPostgresDatabase, type TestDatabase } from "../helpers/postgres";
import { createDraft, publishableDraft, publishRecord } from "../helpers/records";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";

let root = "";
let original: TestApp;
let ids: string[] = [];
let before: Map<string, string>;

/** What is compared: [who, path]. Filled once the records exist. */
let requests: [Who, string][] = [];

function requestList(): [Who, string][] {
  const searches = [
    "/api/records",
    "/api/records?size=2&page=2&sort=newest",
    "/api/records?q=survey&sort=bestmatch",
    "/api/records?q=title:%22Seeded%20survey%201%200%22",
    "/api/records?q=metadata.subjects.subject:oceans",
    "/api/records?q=lovelac*",
    "/api/records?sort=mostviewed",
    "/api/records?allversions=true&sort=oldest",
    "/api/records?resource_type=dataset&q=-survey",
    "/api/communities",
    "/api/communities/copy-lab/records",
    "/api/vocabularies/licenses?q=cc-by&size=5",
    "/api/vocabularies/languages?q=english",
    "/api/vocabularies/resourcetypes?size=100",
  ];
  const oai = [
    "/oai2d?verb=Identify",
    "/oai2d?verb=ListSets",
    "/oai2d?verb=ListIdentifiers&metadataPrefix=oai_dc",
    "/oai2d?verb=ListRecords&metadataPrefix=oai_datacite",
    "/oai2d?verb=ListRecords&metadataPrefix=oai_dc&set=community-copy-lab",
  ];
  return [
    ...ids.flatMap((id): [Who, string][] => [
      ["alice", `/api/records/${id}`],
      ["alice", `/api/records/${id}/versions`],
      ["anonymous", `/oai2d?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:127.0.0.1:${id}`],
    ]),
    ...searches.map((p): [Who, string] => ["anonymous", p]),
    ["alice", "/api/user/records"],
    ["alice", "/api/user/records?q=survey&sort=newest"],
    ["admin", "/api/records?q=survey"],
    ...oai.map((p): [Who, string] => ["anonymous", p]),
  ];
}

type Handle = (who: Who, path: string) => Promise<string>;

async function answers(handle: Handle): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [who, path] of requests) out.set(`${who} ${path}`, await handle(who, path));
  return out;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-copy-answers-"));
  original = await createTestApp({ DATABASE_URL: "" });
  // A minute apart: the newest/oldest sorts order them without ties (ties fall to an index's own order).
  for (let i = 0; i < 4; i++) {
    original.clock.advance(60_000);
    ids.push(...(await seedRecords(original, 1, { title: `Seeded survey ${i}` })).map((r) => r.id));
  }
  original.clock.advance(60_000);
  const subjects = publishableDraft();
  (subjects.metadata as Record<string, unknown>).subjects = [{ subject: "Oceans" }, { subject: "Sea ice" }];
  (subjects.metadata as Record<string, unknown>).title = "Arctic buoys";
  ids.push((await publishRecord(original, subjects)).id);
  original.clock.advance(60_000);
  ids.push((await publishRecord(original, publishableDraft({ access: { record: "restricted", files: "restricted" } }))).id);
  await createDraft(original);
  expect((await original.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("copy-lab") })).status).toBe(201);
  // Views folded into the statistics: the popularity sort and the records' stats.
  for (const [i, id] of ids.entries()) for (let v = 0; v <= i % 3; v++) await original.call("GET", `/api/records/${id}`, { headers: { "user-agent": FIREFOX } });
  original.clock.advance(3_600_000);
  await original.services.stats.aggregate();
  await original.services.stats.refreshPopularity();
  requests = requestList();
  before = await answers(async (who, path) => {
    const res = await original.call("GET", path, { as: who });
    expect(`${path} ${res.status}`).toBe(`${path} 200`);
    return res.text;
  });
  // What is compared holds what it should: searches that find, facets that count, a harvest.
  const total = (key: string) => JSON.parse(before.get(key)!).hits.total;
  expect(total("anonymous /api/records")).toBe(5);
  expect(total("anonymous /api/records?q=survey&sort=bestmatch")).toBe(4);
  expect(total("anonymous /api/records?q=metadata.subjects.subject:oceans")).toBe(1);
  expect(total("alice /api/user/records")).toBe(7);
  expect(total("anonymous /api/vocabularies/licenses?q=cc-by&size=5")).toBeGreaterThan(0);
  expect(JSON.parse(before.get("anonymous /api/records")!).aggregations.file_type.buckets).toEqual([{ key: "txt", doc_count: 4, label: "TXT", is_selected: false }]);
  expect(before.get("anonymous /oai2d?verb=ListIdentifiers&metadataPrefix=oai_dc")!.match(/<header>/g)).toHaveLength(5);
}, 120_000);

afterAll(async () => {
  await original?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The answers of an app on the copy (the same users' tokens: they are in the copied database), at the original's time. */
async function answersOfCopy(flags: Record<string, unknown>) {
  const config = loadConfig({ flags: { HTTP: true, BASE_URL, ...flags }, env: {} });
  const { app, services } = createApp({ config, clock: new ManualClock(original.clock.now()), log: () => {} });
  try {
    await services.ready;
    return await answers(async (who, path) => {
      const token = who === "anonymous" ? undefined : original.users[who].token;
      const res = await app.handle(new Request(BASE_URL + path, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
      return `${res.status === 200 ? "" : `${res.status} `}${await res.text()}`;
    });
  } finally {
    await services.close();
  }
}

/**
 * JSON answers compared as JSON (the same values, arrays in the same order; PostgreSQL's jsonb
 * gives a stored document's keys in its own order, which no JSON client reads), XML as text.
 */
function expectSameAnswers(after: Map<string, string>) {
  expect(after.size).toBe(requests.length);
  for (const [key, text] of before) {
    const got = after.get(key)!;
    if (text.startsWith("{")) expect({ key, answer: parsed(got) }).toEqual({ key, answer: JSON.parse(text) });
    else expect(`${key}\n${got}`).toBe(`${key}\n${text}`);
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

describe("a SQLite data directory copied with cairn db copy serves the same answers", () => {
  test("to SQLite", async () => {
    const target = join(root, "copy");
    const res = await runCairn(["db", "copy", "--data", original.dataDir, "--to", `sqlite:${target}`], { clock: original.clock });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expectSameAnswers(await answersOfCopy({ DATA_DIR: target, DATABASE_URL: "" }));
  }, 120_000);

  test("to PostgreSQL", async () => {
    const database: TestDatabase = await emptyPostgresDatabase();
    try {
      const res = await runCairn(["db", "copy", "--data", original.dataDir, "--to", database.url], { clock: original.clock });
      expect(res.stderr).toBe("");
      expect(res.code).toBe(0);
      expectSameAnswers(await answersOfCopy({ DATA_DIR: original.dataDir, DATABASE_URL: database.url }));
    } finally {
      await database.drop();
    }
  }, 120_000);
});
