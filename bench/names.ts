// --reuse DIR (a folder left by --keep) skips generating and importing, to measure queries only.
// Benchmark: import N names (default 1,000,000) with `cairn vocabularies import`, measuring wall
// time and the importer's peak resident memory, then search them over HTTP (suggest and q) and
// report latency percentiles. Usage: bun run bench:names [-- --count 100000] [--queries 2000]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createRandom, MAIN, measure, startServer } from "./lib";

const { values } = parseArgs({ options: { count: { type: "string" }, queries: { type: "string" }, keep: { type: "boolean" }, reuse: { type: "string" } } });
const COUNT = Number(values.count ?? 1_000_000);
const QUERIES = Number(values.queries ?? 2000);
const dir = values.reuse ?? mkdtempSync(join(tmpdir(), "cairn-bench-names-"));

const { rand, pick } = createRandom(42);
const GIVEN = [
  "Ada",
  "Alan",
  "Grace",
  "Marie",
  "Emmy",
  "Rosalind",
  "Lise",
  "Niels",
  "Chien-Shiung",
  "Srinivasa",
  "Hedy",
  "Katherine",
  "Dorothy",
  "Barbara",
  "Tim",
  "Linus",
  "Margaret",
  "Mary",
  "John",
  "Wei",
  "Yuki",
  "Olusegun",
  "Fatima",
  "Ingrid",
  "José",
  "Zoë",
  "Łukasz",
  "Søren",
  "Anaïs",
  "Björn",
];
const FAMILY_STEMS = [
  "Lovel",
  "Tur",
  "Hop",
  "Curi",
  "Noeth",
  "Frankl",
  "Meitn",
  "Bohr",
  "Wu",
  "Ramanuj",
  "Lamarr",
  "Johns",
  "Hodgk",
  "McClint",
  "Bern",
  "Torv",
  "Hamilt",
  "Somerv",
  "Smith",
  "Zhang",
  "Tanak",
  "Obas",
  "Hass",
  "Bergm",
  "García",
  "Müll",
  "Kowalsk",
  "Kierkeg",
  "Dubo",
  "Andersś",
];
const SUFFIXES = [
  "ace",
  "ing",
  "per",
  "e",
  "er",
  "in",
  "ner",
  "",
  "an",
  "son",
  "kin",
  "ock",
  "ers",
  "alds",
  "ton",
  "ille",
  "",
  "ova",
  "ahi",
  "anjo",
  "ani",
  "ström",
  "ez",
  "er",
  "i",
  "is",
  "ard",
  "sen",
  "lund",
  "ov",
];
const ORGS = [
  "University of Oslo",
  "CERN",
  "Max Planck Society",
  "University of Cape Town",
  "Kyoto University",
  "Universidad de Chile",
  "ETH Zurich",
  "Sorbonne University",
  "University of Toronto",
  "Indian Institute of Science",
];

function orcid(n: number) {
  const digits = String(n).padStart(15, "0");
  return `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 15)}X`;
}

async function generate(path: string) {
  const started = performance.now();
  const chunk: string[] = [];
  const file = Bun.file(path).writer();
  for (let i = 0; i < COUNT; i++) {
    const id = orcid(i + 1);
    chunk.push(
      JSON.stringify({
        id,
        given_name: pick(GIVEN),
        family_name: pick(FAMILY_STEMS) + pick(SUFFIXES),
        identifiers: [{ scheme: "orcid", identifier: id }],
        affiliations: [{ name: pick(ORGS) }],
      }),
    );
    if (chunk.length === 10_000) {
      await file.write(chunk.join("\n") + "\n");
      chunk.length = 0;
    }
  }
  await file.write(chunk.join("\n") + "\n");
  await file.end();
  return performance.now() - started;
}

/** Peak VmRSS (kB -> MB) of a process, sampled every 50 ms until it exits. */
async function runMeasured(cmd: string[]) {
  const started = performance.now();
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {}
  }, 50);
  const code = await proc.exited;
  clearInterval(timer);
  const out = await new Response(proc.stdout).text();
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${await new Response(proc.stderr).text()}`);
  return { ms: performance.now() - started, peakMb: peak, out: out.trim() };
}

const file = join(dir, "names.jsonl");
const data = join(dir, "data");
try {
  const skip = { ms: NaN, peakMb: NaN, out: "skipped (--reuse)" };
  if (!values.reuse) {
    const genMs = await generate(file);
    console.log(`generated ${COUNT.toLocaleString()} names (${(Bun.file(file).size / 1024 / 1024).toFixed(0)} MB) in ${(genMs / 1000).toFixed(1)} s`);
  }
  const imported = values.reuse ? skip : await runMeasured([process.execPath, MAIN, "vocabularies", "import", "names", file, "--data", data]);
  console.log(imported.out);
  const again = values.reuse ? skip : await runMeasured([process.execPath, MAIN, "vocabularies", "import", "names", file, "--data", data]);

  const server = await startServer(data);
  const base = server.base;
  try {
    const suggest: string[] = [];
    const query: string[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const family = pick(FAMILY_STEMS) + pick(SUFFIXES);
      const prefix = family.slice(0, 2 + Math.floor(rand() * 4));
      suggest.push(`/api/names?suggest=${encodeURIComponent(rand() < 0.3 ? `${pick(GIVEN).slice(0, 3)} ${prefix}` : prefix)}`);
      const q = [
        family,
        `family_name:${family}`,
        `${pick(GIVEN)} ${family}`,
        `"${orcid(1 + Math.floor(rand() * COUNT))}"`,
        `affiliations.name:${pick(ORGS).split(" ")[0]} AND ${family}`,
      ][i % 5]!;
      query.push(`/api/names?q=${encodeURIComponent(q)}`);
    }
    await measure(base, suggest.slice(0, 100)); // warm the page cache
    const { slowest: _s, ...s } = await measure(base, suggest);
    const { slowest: _q, ...q } = await measure(base, query);
    const fmt = (x: { p50: number; p95: number; p99: number; max: number }) =>
      `p50 ${x.p50.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms, max ${x.max.toFixed(1)} ms`;
    const result = {
      date: new Date().toISOString(),
      names: COUNT,
      import: { seconds: +(imported.ms / 1000).toFixed(1), peakRssMb: Math.round(imported.peakMb), perSecond: Math.round(COUNT / (imported.ms / 1000)) },
      reimport: { seconds: +(again.ms / 1000).toFixed(1), peakRssMb: Math.round(again.peakMb), summary: again.out },
      suggest: s,
      q,
    };
    console.log(`| measure | result |\n|---|---|`);
    console.log(`| import ${COUNT.toLocaleString()} names | ${result.import.seconds} s (${result.import.perSecond.toLocaleString()}/s), peak RSS ${result.import.peakRssMb} MB |`);
    console.log(`| re-import (all unchanged) | ${result.reimport.seconds} s, peak RSS ${result.reimport.peakRssMb} MB |`);
    console.log(`| suggest over HTTP (${QUERIES}) | ${fmt(s)} |`);
    console.log(`| q over HTTP (${QUERIES}) | ${fmt(q)} |`);
    writeFileSync(join(import.meta.dir, "results", `names-${COUNT}-${result.date.slice(0, 10)}.json`), JSON.stringify(result, null, 2) + "\n");
  } finally {
    await server.stop();
  }
} finally {
  if (!values.keep && !values.reuse) rmSync(dir, { recursive: true, force: true });
}
