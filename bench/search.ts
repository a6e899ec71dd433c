// Benchmark: N published records (default 100,000) with realistic metadata, bulk-indexed with
// `cairn reindex` (records/s), then the search issue's query mix over HTTP against `cairn serve`:
// common and rare terms, phrases, fielded queries, ranges, facets (every query computes them),
// sorts, page 1 and page 50 — anonymously, then side by side as a signed-in user who is a member
// of communities holding 1% of the records and has grants on another 1% (the visibility rule's
// granted parts). Usage: bun run bench:search [-- --count 1000000] [--queries 600]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createServices } from "../src/app";
import { loadConfig } from "../src/config";
import { type Actor, systemActor } from "../src/core/actor";
import { recordCommunitiesTable, recordGrantsTable } from "../src/db/tables";
import { bulkInsertRecords, measure, reindexData, startServer } from "./lib";
import { createRecordsData } from "./records-data";

const { values } = parseArgs({ options: { count: { type: "string" }, queries: { type: "string" }, keep: { type: "boolean" } } });
const COUNT = Number(values.count ?? 100_000);
const QUERIES = Number(values.queries ?? 600);
const dir = mkdtempSync(join(tmpdir(), "cairn-bench-search-"));
const data = join(dir, "data");

const records = createRecordsData(7);

/** The records, straight into a migrated data directory; their ids in order. */
async function generate() {
  const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true }, env: {} });
  await createServices({ config }).close(); // migrate and load fixtures
  const now = Date.now();
  return bulkInsertRecords(data, COUNT, records.document, (i) => now - (COUNT - i) * 1000);
}

/**
 * A signed-in member of two communities that hold 1% of the records each, with view grants on
 * another 1%: a search as them runs the visibility rule's granted parts. Returns their token.
 */
async function makeMember(ids: string[]): Promise<string> {
  const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true }, env: {} });
  const services = createServices({ config });
  try {
    const user = await services.users.createUser(systemActor, { email: "member@example.org", username: "member", password: "member-password" });
    const actor: Actor = { kind: "user", userId: user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    const db = services.deps.db;
    const now = Date.now();
    const communities: string[] = [];
    for (const slug of ["lagoon", "reef"])
      communities.push(
        (await services.communities.createCommunity(actor, { slug, access: { visibility: "public", member_policy: "open", record_policy: "open" }, metadata: { title: slug } })).id,
      );
    const parentOf = async (id: string) => (await db.statements.get<{ parent_id: string }>("SELECT parent_id FROM records WHERE id = ?", [id]))!.parent_id;
    await db.write(async (tx) => {
      for (const [i, id] of ids.entries()) {
        if (i % 100 === 1)
          await tx
            .insert(recordCommunitiesTable)
            .values({ parentId: await parentOf(id), communityId: communities[i % 200 === 1 ? 0 : 1]!, isDefault: true, created: now })
            .run();
        if (i % 100 === 2)
          await tx
            .insert(recordGrantsTable)
            .values({ parentId: await parentOf(id), subjectType: "user", subjectId: String(user.id), permission: "view", created: now, updated: now })
            .run();
      }
    });
    return (await services.tokens.createToken(systemActor, { userId: user.id, name: "bench" })).secret;
  } finally {
    await services.close();
  }
}

try {
  const started = performance.now();
  const ids = await generate();
  const token = await makeMember(ids);
  const genSeconds = (performance.now() - started) / 1000;
  const reindexSeconds = reindexData(data);
  const server = await startServer(data);
  const base = server.base;
  try {
    const urls = records.queryMix(QUERIES);
    const member = { authorization: `Bearer ${token}` };
    for (const url of urls.slice(0, 50)) await (await fetch(base + url)).arrayBuffer(); // warm up
    for (const url of urls.slice(0, 50)) await (await fetch(base + url, { headers: member })).arrayBuffer();
    // Side by side in one run: the mix anonymously, then as the member.
    const measured = await measure(base, urls);
    const signedIn = await measure(base, urls, member);
    // zen4R's page size: 1,000 records in one answer (pages 1, 5 and 10 of the 10,000 window, five times each).
    const bigPages = await measure(
      base,
      [1, 5, 10].flatMap((page) => Array.from({ length: 5 }, () => `/api/records?size=1000&page=${page}`)),
    );
    const result = {
      date: new Date().toISOString(),
      records: COUNT,
      generateSeconds: +genSeconds.toFixed(1),
      reindex: { seconds: +reindexSeconds.toFixed(1), perSecond: Math.round(COUNT / reindexSeconds) },
      queries: { count: QUERIES, p50: measured.p50, p95: measured.p95, p99: measured.p99, max: measured.max },
      signedInMember: { p50: signedIn.p50, p95: signedIn.p95, p99: signedIn.p99, max: signedIn.max },
      pageOf1000: { p50: bigPages.p50, max: bigPages.max },
      slowest: measured.slowest.map((x) => `${x.ms.toFixed(0)} ms ${decodeURIComponent(x.url)}`),
    };
    console.log(`| measure | result |\n|---|---|`);
    console.log(`| records | ${COUNT.toLocaleString()} |`);
    console.log(`| cairn reindex | ${result.reindex.seconds} s (${result.reindex.perSecond.toLocaleString()} records/s) |`);
    console.log(
      `| query mix over HTTP (${QUERIES}), anonymous | p50 ${result.queries.p50} ms, p95 ${result.queries.p95} ms, p99 ${result.queries.p99} ms, max ${result.queries.max} ms |`,
    );
    const m = result.signedInMember;
    console.log(`| the same, as a member of 2 communities with 1,000 grants | p50 ${m.p50} ms, p95 ${m.p95} ms, p99 ${m.p99} ms, max ${m.max} ms |`);
    console.log(`| a page of 1,000 records (size=1000, pages 1, 5, 10) | p50 ${result.pageOf1000.p50} ms, max ${result.pageOf1000.max} ms |`);
    console.log("slowest:\n  " + result.slowest.join("\n  "));
    writeFileSync(join(import.meta.dir, "results", `search-${COUNT}-${result.date.slice(0, 10)}.json`), JSON.stringify(result, null, 2) + "\n");
  } finally {
    await server.stop();
  }
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
