// Benchmark: N published records (default 100,000) with realistic metadata, bulk-indexed with
// `cairn reindex` (records/s), then the search issue's query mix over HTTP against `cairn serve`:
// common and rare terms, phrases, fielded queries, ranges, facets (every query computes them),
// sorts, page 1 and page 50. Usage: bun run bench:search [-- --count 1000000] [--queries 600]
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createServices } from "../src/app";
import { loadConfig } from "../src/config";
import { recordIdFromNumber } from "../src/records/ids";
import { createRandom, MAIN, measure, startServer } from "./lib";

const { values } = parseArgs({ options: { count: { type: "string" }, queries: { type: "string" }, keep: { type: "boolean" } } });
const COUNT = Number(values.count ?? 100_000);
const QUERIES = Number(values.queries ?? 600);
const dir = mkdtempSync(join(tmpdir(), "cairn-bench-search-"));
const data = join(dir, "data");

const { rand, pick } = createRandom(7);
// Zipf-like: a few very common words, a long tail of rare ones.
const VOCAB = ["data", "ocean", "temperature", "climate", "model", "analysis", "survey", "soil", "carbon", "genome", "protein", "river", "glacier", "coral", "forest", "urban", "health", "cohort", "language", "corpus", "archive", "images", "sensor", "network", "energy", "solar", "wind", "rainfall", "drought", "species", "biodiversity", "migration", "economy", "education", "history", "manuscript", "sequencing", "microbiome", "isotope", "sediment", "Meeresforschung", "Klimamodell", "données", "océan", "température", "océanographie", "datos", "clima", "気候", "海洋"];
const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * Math.pow(rand(), 2.2)))]!;
const RARE = Array.from({ length: 5000 }, (_, i) => `term${i.toString(36)}x`);
const TYPES: [string, string, string][] = [["dataset", "dataset", "Dataset"], ["image-photo", "image", "Photo"], ["image-plot", "image", "Plot"], ["publication-article", "publication", "Journal article"], ["software", "software", "Software"], ["poster", "poster", "Poster"]];
const LANGS: [string, string][] = [["eng", "English"], ["deu", "German"], ["fra", "French"], ["spa", "Spanish"], ["jpn", "Japanese"]];
const FAMILY = ["Lovelace", "Turing", "Hopper", "Curie", "Noether", "Franklin", "Meitner", "Bohr", "Wu", "Ramanujan", "Tanaka", "Obasanjo", "García", "Müller", "Kowalski", "Dubois"];
const GIVEN = ["Ada", "Alan", "Grace", "Marie", "Emmy", "Rosalind", "Lise", "Niels", "Wei", "Yuki", "Fatima", "José"];
const sentence = (n: number) => Array.from({ length: n }, () => (rand() < 0.03 ? pick(RARE) : zipf())).join(" ");

function document(i: number) {
  const [type, parent, typeTitle] = pick(TYPES);
  const [lang, langTitle] = pick(LANGS);
  const year = 2000 + Math.floor(rand() * 26);
  const date = `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, "0")}-${String(1 + Math.floor(rand() * 28)).padStart(2, "0")}`;
  const creators = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
    const [g, f] = [pick(GIVEN), pick(FAMILY)];
    return { person_or_org: { type: "personal", given_name: g, family_name: f, name: `${f}, ${g}`, identifiers: [] }, affiliations: [{ name: "University of Somewhere" }] };
  });
  const restricted = rand() < 0.05;
  return {
    access: { record: restricted ? "restricted" : "public", files: restricted ? "restricted" : "public", embargo: { active: false, until: null, reason: null } },
    files: { enabled: false, default_preview: null, order: [] },
    metadata: {
      resource_type: { id: type, title: { en: typeTitle }, props: { type: parent } },
      title: `${sentence(3 + Math.floor(rand() * 6))} ${i}`,
      publication_date: date,
      creators,
      publisher: "Cairn",
      description: `<p>${sentence(40 + Math.floor(rand() * 120))}</p>`,
      languages: [{ id: lang, title: { en: langTitle } }],
      subjects: [{ subject: zipf() }, { subject: zipf() }],
    },
    custom_fields: {},
    pids: {},
  };
}

function generate() {
  const config = loadConfig({ flags: { DATA_DIR: data, HTTP: true }, env: {} });
  createServices({ config }).close(); // migrate and load fixtures
  const db = new Database(join(data, "cairn.db"));
  const now = Date.now();
  const insertParent = db.query("INSERT INTO record_parents (id, owner_id, latest_id, pids, created, updated) VALUES (?, 1, ?, '{}', ?, ?)");
  const insertRecord = db.query("INSERT INTO records (id, parent_id, owner_id, is_published, is_latest, version_index, access_record, document, created, updated) VALUES (?, ?, 1, 1, 1, 1, ?, ?, ?, ?)");
  for (let start = 0; start < COUNT; start += 10_000) {
    db.transaction(() => {
      for (let i = start; i < Math.min(COUNT, start + 10_000); i++) {
        const id = recordIdFromNumber(2 * i + 1);
        const parent = recordIdFromNumber(2 * i + 2);
        const doc = document(i);
        const at = now - (COUNT - i) * 1000;
        insertParent.run(parent, id, at, at);
        insertRecord.run(id, parent, doc.access.record, JSON.stringify(doc), at, at);
      }
    })();
  }
  db.close();
}

function queryMix(): string[] {
  const out: string[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const page = i % 7 === 0 ? "&page=50" : "";
    const q = [
      `q=${encodeURIComponent(VOCAB[i % 3]!)}`, // common terms
      `q=${encodeURIComponent(pick(RARE))}`, // rare
      `q=${encodeURIComponent(`"${zipf()} ${zipf()}"`)}`, // phrase
      `q=${encodeURIComponent(`metadata.title:${zipf()}`)}`,
      `q=${encodeURIComponent(`metadata.creators.person_or_org.name:"${pick(FAMILY)}"`)}`,
      `q=${encodeURIComponent(`metadata.publication_date:[${2000 + (i % 20)} TO ${2005 + (i % 20)}-06]`)}`,
      `q=${encodeURIComponent(`${zipf()} AND ${zipf()}`)}&sort=newest`,
      `resource_type=${encodeURIComponent(pick(TYPES)[1])}&language=${pick(LANGS)[0]}`,
      `sort=${pick(["newest", "oldest", "updated-desc", "mostviewed"])}`,
      `q=${encodeURIComponent(`${zipf()} OR ${pick(RARE)}`)}&resource_type=dataset`,
    ][i % 10]!;
    out.push(`/api/records?${q}${page}`);
  }
  return out;
}

try {
  let t = performance.now();
  generate();
  const genSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  const reindex = Bun.spawnSync([process.execPath, MAIN, "reindex", "--data", data]);
  if (reindex.exitCode !== 0) throw new Error(reindex.stderr.toString());
  const reindexSeconds = (performance.now() - t) / 1000;
  const server = await startServer(data);
  const base = server.base;
  try {
    const urls = queryMix();
    for (const url of urls.slice(0, 50)) await (await fetch(base + url)).arrayBuffer(); // warm up
    const measured = await measure(base, urls);
    const result = {
      date: new Date().toISOString(),
      records: COUNT,
      generateSeconds: +genSeconds.toFixed(1),
      reindex: { seconds: +reindexSeconds.toFixed(1), perSecond: Math.round(COUNT / reindexSeconds) },
      queries: { count: QUERIES, p50: measured.p50, p95: measured.p95, p99: measured.p99, max: measured.max },
      slowest: measured.slowest.map((x) => `${x.ms.toFixed(0)} ms ${decodeURIComponent(x.url)}`),
    };
    console.log(`| measure | result |\n|---|---|`);
    console.log(`| records | ${COUNT.toLocaleString()} |`);
    console.log(`| cairn reindex | ${result.reindex.seconds} s (${result.reindex.perSecond.toLocaleString()} records/s) |`);
    console.log(`| query mix over HTTP (${QUERIES}) | p50 ${result.queries.p50} ms, p95 ${result.queries.p95} ms, p99 ${result.queries.p99} ms, max ${result.queries.max} ms |`);
    console.log("slowest:\n  " + result.slowest.join("\n  "));
    writeFileSync(join(import.meta.dir, "results", `search-${COUNT}-${result.date.slice(0, 10)}.json`), JSON.stringify(result, null, 2) + "\n");
  } finally {
    await server.stop();
  }
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
