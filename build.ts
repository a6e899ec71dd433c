// Compiles src/main.ts into one self-contained executable: dist/cairn (release.ts compiles the
// same way for every platform). Migrations, fixtures and the API docs' assets are imported as
// text, so nothing is read from disk at run time.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

/** The short git commit of the tree being built, with `+dirty` when it has uncommitted changes; `unknown` outside git. */
export function gitCommit(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short=7", "HEAD"], { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src", "data", "build.ts", "package.json", "package-lock.json"], {
      stdio: ["ignore", "pipe", "ignore"],
    })
      .toString()
      .trim();
    return dirty ? `${commit}+dirty` : commit;
  } catch {
    return "unknown";
  }
}

/** Compiles the executable for `target` (a `bun-<os>-<arch>[-baseline]` name; default this machine). Returns the written path. */
export async function compile(outfile: string, options: { target?: string; commit?: string } = {}): Promise<string> {
  mkdirSync(dirname(outfile), { recursive: true });
  const result = await Bun.build({
    // Each worker's entry is bundled beside the main one (Bun resolves `new Worker(new URL(...))` to it).
    entrypoints: ["./src/main.ts", "./src/records/search/sqlite/reader-worker.ts"],
    // Paths inside the executable are relative to src/ (records/search/sqlite/readers.ts names its worker so).
    root: "./src",
    compile: { outfile, ...(options.target ? { target: options.target as Bun.Build.CompileTarget } : {}) },
    minify: true,
    sourcemap: "none",
    // Precompiled bytecode: the runtime skips parsing the bundle at start (about half the start-up time).
    bytecode: true,
    format: "esm",
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      // `cairn --version` names the commit it was built from (src/version.ts; "(source)" without a build).
      CAIRN_COMMIT: JSON.stringify(options.commit ?? gitCommit()),
    },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`bun build failed for ${options.target ?? "this machine"}`);
  }
  // Bun adds .exe to a Windows executable's name when it is missing.
  return result.outputs[0]?.path ?? outfile;
}

if (import.meta.main) {
  const outfile = process.argv[2] ?? "dist/cairn";
  const started = performance.now();
  const path = await compile(outfile);
  console.log(`built ${path}: ${(Bun.file(path).size / 1024 / 1024).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms`);
}
