// The built executable under test: rebuilt when older than its sources, launched on a data
// directory with its start-up time to the first answer, its pid (for /proc) and admin token.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
export const EXECUTABLE = join(ROOT, "dist", "cairn");

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Builds dist/cairn (`npm run build`) if it is missing or older than src/, build.ts or the lockfile. */
export function ensureBuilt(say: (line: string) => void): { rebuilt: boolean; reason: string } {
  const sources = Math.max(newestMtime(join(ROOT, "src")), newestMtime(join(ROOT, "build.ts")), newestMtime(join(ROOT, "package-lock.json")));
  const reason = !existsSync(EXECUTABLE) ? "dist/cairn is missing" : statSync(EXECUTABLE).mtimeMs < sources ? "dist/cairn is older than src/" : "";
  if (!reason) {
    say("dist/cairn is up to date with src/");
    return { rebuilt: false, reason: "up to date" };
  }
  say(`${reason}: building it (npm run build)...`);
  const build = Bun.spawnSync([process.execPath, "build.ts"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
  say(build.stdout.toString().trim());
  return { rebuilt: true, reason };
}

/** A port nobody listens on now. */
function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export interface Launched {
  base: string;
  pid: number;
  /** ms from spawning the process to the first answered request (GET /ping). */
  startupMs: number;
  /** The administrator's API token, written by the first start into DATA/admin-credentials.txt. */
  token: () => string;
  stop: () => Promise<void>;
}

/** Spawns `cairn serve --http` (with `extra` arguments) on `data` and polls GET /ping every 2 ms until it answers. */
export async function launch(data: string, command: string[] = [EXECUTABLE], extra: string[] = []): Promise<Launched> {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const server = Bun.spawn([...command, "serve", "--http", "--port", String(port), "--data", data, ...extra], { stdout: "ignore", stderr: "inherit" });
  for (;;) {
    if (server.exitCode !== null) throw new Error(`${command.join(" ")} exited with ${server.exitCode} before answering`);
    if (performance.now() - started > 60_000) throw new Error(`${command.join(" ")} did not answer within 60 s`);
    const ok = await fetch(`${base}/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await Bun.sleep(2);
  }
  const startupMs = performance.now() - started;
  return {
    base,
    pid: server.pid,
    startupMs,
    token: () => /token=(\S+)/.exec(readFileSync(join(data, "admin-credentials.txt"), "utf8"))![1]!,
    async stop() {
      server.kill("SIGTERM");
      await server.exited;
    },
  };
}

/** `cairn serve --workers N`, once every worker serves (the first answers /ping before the others have started); with the serving pids. */
export async function launchWorkers(data: string, workers: number): Promise<Launched & { pids: number[] }> {
  const server = await launch(data, [EXECUTABLE], ["--workers", String(workers)]);
  const token = /token=(\S+)/.exec(readFileSync(join(data, "admin-credentials.txt"), "utf8"))![1]!;
  for (let i = 0; i < 600; i++) {
    const health = (await (await fetch(`${server.base}/api/administration/health`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      serving_processes: { pid: number }[];
    };
    // One worker is the server itself (no supervisor); with more, the workers.
    if (health.serving_processes.length === workers) return { ...server, pids: health.serving_processes.map((p) => p.pid) };
    await Bun.sleep(50);
  }
  await server.stop();
  throw new Error(`${workers} workers did not all serve within 30 s`);
}
