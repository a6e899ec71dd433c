// Compiles src/main.ts into one self-contained executable: dist/cairn.
// Migrations, fixtures and the API docs' assets are imported as text, so nothing is read from disk.
import { mkdirSync } from "node:fs";

const outfile = process.argv[2] ?? "dist/cairn";
mkdirSync("dist", { recursive: true });
const started = performance.now();
const result = await Bun.build({
  // Each worker's entry is bundled beside the main one (Bun resolves `new Worker(new URL(...))` to it).
  entrypoints: ["./src/main.ts", "./src/records/search/reader-worker.ts"],
  // Paths inside the executable are relative to src/ (records/search/readers.ts names its worker so).
  root: "./src",
  compile: { outfile },
  minify: true,
  sourcemap: "none",
  // Precompiled bytecode: the runtime skips parsing the bundle at start (about half the start-up time).
  bytecode: true,
  format: "esm",
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const size = Bun.file(outfile).size;
console.log(`built ${outfile}: ${(size / 1024 / 1024).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms`);
