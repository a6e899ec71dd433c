// `npm run release`: the executables for every desktop platform in dist/release/, their SHA256SUMS,
// and a check of each one's format and embedded version (the Linux ones are run by the smoke test).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import pkg from "./package.json" with { type: "json" };
import { compile, gitCommit } from "./build";

const OUT = join("dist", "release");

/** Bun's compile targets, the file each becomes, and what `file` must say of it. Baseline: x64 CPUs without AVX2. */
export const RELEASE_TARGETS = [
  { target: "bun-linux-x64", file: "cairn-linux-x64", format: /ELF 64-bit LSB executable, x86-64/ },
  { target: "bun-linux-x64-baseline", file: "cairn-linux-x64-baseline", format: /ELF 64-bit LSB executable, x86-64/ },
  { target: "bun-linux-arm64", file: "cairn-linux-arm64", format: /ELF 64-bit LSB executable, ARM aarch64/ },
  { target: "bun-darwin-x64", file: "cairn-darwin-x64", format: /Mach-O 64-bit x86_64 executable/ },
  { target: "bun-darwin-x64-baseline", file: "cairn-darwin-x64-baseline", format: /Mach-O 64-bit x86_64 executable/ },
  { target: "bun-darwin-arm64", file: "cairn-darwin-arm64", format: /Mach-O 64-bit arm64 executable/ },
  { target: "bun-windows-x64", file: "cairn-windows-x64.exe", format: /PE32\+ executable \(console\) x86-64, for MS Windows/ },
  { target: "bun-windows-x64-baseline", file: "cairn-windows-x64-baseline.exe", format: /PE32\+ executable \(console\) x86-64, for MS Windows/ },
] as const;

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Checks what can be checked of an executable this machine may not run: its format (`file`) and
 * the version and commit compiled into it (the literal build.ts defines, found in its bytes).
 */
export function checkExecutable(path: string, format: RegExp, commit: string): string {
  const described = execFileSync("file", ["-b", path]).toString().trim();
  if (!format.test(described)) throw new Error(`${path}: expected ${format}, file says: ${described}`);
  const bytes = readFileSync(path);
  for (const literal of [JSON.stringify(commit), JSON.stringify(pkg.version)]) {
    if (bytes.indexOf(literal) < 0) throw new Error(`${path}: the version literal ${literal} is not in the executable`);
  }
  return described;
}

if (import.meta.main) {
  const started = performance.now();
  const commit = gitCommit();
  rmSync(OUT, { recursive: true, force: true });
  const sums: string[] = [];
  for (const { target, file, format } of RELEASE_TARGETS) {
    const t0 = performance.now();
    const path = await compile(join(OUT, file), { target, commit });
    if (basename(path) !== file) throw new Error(`bun wrote ${path}, expected ${file}`);
    const described = checkExecutable(path, format, commit);
    sums.push(`${sha256(path)}  ${file}`);
    console.log(`${file.padEnd(32)} ${mib(Bun.file(path).size).padStart(10)}  ${Math.round(performance.now() - t0)} ms  ${described.split(",").slice(0, 2).join(",")}`);
  }
  // sha256sum's own format (two spaces: text mode), so `sha256sum -c SHA256SUMS` checks them all.
  writeFileSync(join(OUT, "SHA256SUMS"), sums.join("\n") + "\n");
  // The one that runs here proves the version line end to end.
  const native = execFileSync(join(OUT, "cairn-linux-x64"), ["--version"]).toString().trim();
  if (native !== `${pkg.version} (${commit})`) throw new Error(`cairn-linux-x64 --version printed '${native}', expected '${pkg.version} (${commit})'`);
  console.log(`release ${native}: ${RELEASE_TARGETS.length} executables and SHA256SUMS in ${OUT}/ after ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
