// Benchmark: a full OAI-PMH harvest. N published records (default 100,000; 5% restricted, 1% of
// them reported deleted) bulk-written and indexed with `cairn reindex`, then `cairn serve` harvested
// with ListRecords + oai_dc, following resumption tokens page by page as a harvester does:
// records/s over the whole harvest and the time of every page. Checks every public record came
// exactly once. Usage: bun run bench:oai [-- --count 100000] [--keep]
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createServices } from "../src/app";
import { loadConfig } from "../src/config";
import { recordIdFromNumber } from "../src/records/ids";
import { bulkInsertRecords, createRandom, percentile, seedAndServe } from "./lib";

const { values } = parseArgs({ options: { count: { type: "string" }, keep: { type: "boolean" } } });
const COUNT = Number(values.count ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), "cairn-bench-oai-"));
const data = join(dir, "data");
const { rand, pick } = createRandom(11);

const WORDS = [
  "ocean",
  "temperature",
  "climate",
  "model",
  "survey",
  "soil",
  "carbon",
  "genome",
  "river",
  "glacier",
  "coral",
  "forest",
  "urban",
  "health",
  "corpus",
  "sensor",
  "energy",
  "drought",
  "species",
  "sediment",
];
const FAMILY = ["Lovelace", "Turing", "Hopper", "Curie", "Noether", "Franklin", "Meitner", "Bohr", "Wu", "Tanaka", "García", "Müller"];
const GIVEN = ["Ada", "Alan", "Grace", "Marie", "Emmy", "Rosalind", "Lise", "Niels", "Wei", "Yuki"];
const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");

/** A record as a depositor would fill it: several creators, an HTML description, subjects, licence. */
function document(i: number) {
  const restricted = i % 20 === 7;
  return {
    access: { record: restricted ? "restricted" : "public", files: restricted ? "restricted" : "public", embargo: { active: false, until: null, reason: null } },
    files: { enabled: false, default_preview: null, order: [] },
    metadata: {
      resource_type: { id: "dataset", title: { en: "Dataset" } },
      title: `${words(6)} ${i}`,
      publication_date: `${2000 + (i % 26)}-0${1 + (i % 9)}-1${i % 10}`,
      creators: Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
        const [g, f] = [pick(GIVEN), pick(FAMILY)];
        return { person_or_org: { type: "personal", given_name: g, family_name: f, name: `${f}, ${g}`, identifiers: [] }, affiliations: [{ name: "University of Somewhere" }] };
      }),
      publisher: "Cairn",
      description: `<p>${words(60 + Math.floor(rand() * 60))}</p>`,
      languages: [{ id: "eng", title: { en: "English" } }],
      subjects: [{ subject: pick(WORDS) }, { subject: pick(WORDS) }],
      rights: [{ id: "cc-by-4.0", title: { en: "Creative Commons Attribution 4.0 International" } }],
    },
    custom_fields: {},
    pids: {},
  };
}

async function generate() {
  const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true }, env: {} });
  await createServices({ config }).close(); // migrate and load fixtures
  const now = Date.now();
  bulkInsertRecords(data, COUNT, document, (i) => now - (COUNT - i) * 1000);
  // A fifth of the restricted records were public once: OAI reports them deleted.
  const db = new Database(join(data, "cairn.db"));
  const tombstone = db.query("INSERT INTO oai_tombstones (record_id, datestamp) VALUES (?, ?)");
  db.transaction(() => {
    for (let i = 7; i < COUNT; i += 100) tombstone.run(recordIdFromNumber(2 * i + 1), now - (COUNT - i) * 1000 + 500);
  })();
  db.close();
}

async function harvestAll(base: string) {
  const pageMs: number[] = [];
  const seen = new Set<string>();
  let deleted = 0;
  let url = `${base}/oai2d?verb=ListRecords&metadataPrefix=oai_dc`;
  const started = performance.now();
  for (;;) {
    const t = performance.now();
    const res = await fetch(url);
    const text = await res.text();
    pageMs.push(performance.now() - t);
    if (res.status !== 200 || text.includes("<error")) throw new Error(`${url}: ${text.slice(0, 500)}`);
    for (const m of text.matchAll(/<identifier>oai:[^:]+:([^<]+)<\/identifier>/g)) {
      if (seen.has(m[1]!)) throw new Error(`${m[1]} harvested twice`);
      seen.add(m[1]!);
    }
    deleted += text.split('status="deleted"').length - 1;
    const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(text)?.[1];
    if (!token) break;
    url = `${base}/oai2d?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
  }
  return { seconds: (performance.now() - started) / 1000, pageMs, items: seen.size, deleted };
}

try {
  const { genSeconds, reindexSeconds, server } = await seedAndServe(data, generate);
  try {
    await (await fetch(`${server.base}/oai2d?verb=Identify`)).text(); // warm up
    const run = await harvestAll(server.base);
    const restricted = Math.ceil((COUNT - 7) / 20);
    const expectedPublic = COUNT - restricted;
    const records = run.items - run.deleted;
    if (records !== expectedPublic) throw new Error(`harvested ${records} records, expected ${expectedPublic}`);
    const sorted = [...run.pageMs].sort((a, b) => a - b);
    const round = (x: number) => +x.toFixed(1);
    const result = {
      date: new Date().toISOString(),
      records: COUNT,
      harvested: { records, deleted: run.deleted, pages: run.pageMs.length },
      generateSeconds: +genSeconds.toFixed(1),
      reindexSeconds: +reindexSeconds.toFixed(1),
      harvest: { seconds: +run.seconds.toFixed(1), recordsPerSecond: Math.round(run.items / run.seconds) },
      pageMs: { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1]!) },
    };
    console.log(`| measure | result |\n|---|---|`);
    console.log(`| records (public / deleted harvested) | ${COUNT.toLocaleString()} (${records.toLocaleString()} / ${run.deleted.toLocaleString()}) |`);
    console.log(`| ListRecords oai_dc, full harvest | ${result.harvest.seconds} s, ${result.harvest.recordsPerSecond.toLocaleString()} records/s, ${run.pageMs.length} pages |`);
    console.log(`| page time | p50 ${result.pageMs.p50} ms, p95 ${result.pageMs.p95} ms, p99 ${result.pageMs.p99} ms, max ${result.pageMs.max} ms |`);
    writeFileSync(join(import.meta.dir, "results", `oai-${COUNT}-${result.date.slice(0, 10)}.json`), JSON.stringify(result, null, 2) + "\n");
  } finally {
    await server.stop();
  }
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
