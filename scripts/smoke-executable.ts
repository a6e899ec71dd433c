// Proves the compiled executable runs alone: copies dist/cairn into an empty folder far from any
// node_modules, starts it on a fresh data directory, and checks that it answers GET /api/records.
// Prints the executable's size and its start-up time to the first answered request.
// Usage: bun scripts/smoke-executable.ts [EXECUTABLE] [RUNNER...] — a runner runs an executable of
// another architecture, e.g. `dist/release/cairn-linux-arm64 qemu-aarch64-static -L /usr/aarch64-linux-gnu`.
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const source = process.argv[2] ?? "dist/cairn";
const runner = process.argv.slice(3);
/** Under emulation everything is slower: start-up waits longer (qemu runs Bun's JIT about 10x slower). */
const startLimitMs = runner.length ? 120_000 : 15_000;
if (!existsSync(source)) throw new Error(`${source} is missing: run bun run build first`);
const dir = mkdtempSync(join(tmpdir(), "cairn-smoke-"));
for (let d = dir; d !== dirname(d); d = dirname(d)) {
  if (existsSync(join(d, "node_modules"))) throw new Error(`${d} has a node_modules folder: the smoke test would prove nothing`);
}
const exe = join(dir, "cairn");
copyFileSync(source, exe);
const env = { PATH: "/usr/bin:/bin", HOME: dir };
const fail = (message: string): never => {
  throw new Error(`smoke: ${message}`);
};

function freePort() {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** Starts the server, polls until GET /api/records answers; returns ms to that answer. */
async function startAndMeasure(args: string[], scheme: "http" | "https") {
  const port = freePort();
  const started = performance.now();
  const proc = Bun.spawn([...runner, exe, "serve", "--data", "./data", "--port", String(port), ...args], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  const url = `${scheme}://127.0.0.1:${port}/api/records`;
  let body: any = null;
  while (performance.now() - started < startLimitMs && body === null) {
    try {
      const res = await fetch(url, { tls: { rejectUnauthorized: false } } as RequestInit);
      if (res.status !== 200) fail(`GET ${url} answered ${res.status}: ${await res.text()}`);
      body = await res.json();
    } catch (err) {
      if (proc.exitCode !== null) fail(`the server exited with ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
      await Bun.sleep(runner.length ? 50 : 2);
    }
  }
  const ms = performance.now() - started;
  if (!body) fail(`no answer from ${url} within ${startLimitMs / 1000} s`);
  if (body.hits?.total !== 0 || !Array.isArray(body.hits?.hits) || !String(body.links?.self).startsWith(`${scheme}://127.0.0.1:${port}/api/records`)) {
    fail(`unexpected body ${JSON.stringify(body)}`);
  }
  proc.kill("SIGTERM");
  const code = await proc.exited;
  if (code !== 0) fail(`serve exited with ${code} after SIGTERM: ${await new Response(proc.stderr).text()}`);
  return ms;
}

try {
  const version = Bun.spawnSync([...runner, exe, "--version"], { cwd: dir, env });
  if (version.exitCode !== 0) fail(`--version exited ${version.exitCode}: ${version.stderr}`);
  // A build names its version and commit (build.ts), never "(source)".
  if (!/^\d+\.\d+\.\d+\S* \((?!source\))[^)]+\)$/.test(version.stdout.toString().trim())) fail(`--version printed '${version.stdout.toString().trim()}'`);
  const first = await startAndMeasure(["--http"], "http");
  if (!existsSync(join(dir, "data", "admin-credentials.txt"))) fail("no administrator credentials after first start");
  const again = await startAndMeasure(["--http"], "http");
  const https = await startAndMeasure([], "https");
  const user = Bun.spawnSync([...runner, exe, "users", "create", "--data", "./data", "--email", "smoke@example.org"], { cwd: dir, env });
  if (user.exitCode !== 0 || user.stdout.toString().trim() !== "2") fail(`users create: ${user.stderr}`);
  const mib = (statSync(exe).size / 1024 / 1024).toFixed(1);
  console.log(`smoke: ${version.stdout.toString().trim()} executable ${mib} MiB ran alone in ${dir}${runner.length ? ` under ${runner.join(" ")}` : ""}`);
  console.log(`smoke: first answer after ${first.toFixed(0)} ms on a new data directory, ${again.toFixed(0)} ms on a restart, ${https.toFixed(0)} ms over HTTPS`);
  console.log("smoke: OK");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
