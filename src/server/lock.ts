// One server per data directory: the pid file that says which process serves it.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../config";

const pidFile = (dataDir: string) => join(dataDir, "cairn.pid");

/** The pid of another live process serving `dataDir`, or null (no pid file, or its process has ended). */
export function runningServerPid(dataDir: string): number | null {
  const path = pidFile(dataDir);
  if (!existsSync(path)) return null;
  const pid = Number(readFileSync(path, "utf8").trim());
  if (!(pid > 0) || pid === process.pid) return null;
  try {
    // Signal 0 only asks whether the process exists (on Windows too, where Bun emulates it).
    return process.kill(pid, 0) ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the directory for this process; returns the release. The jobs table and the file store expect a single writer process. */
export function takePidLock(dataDir: string): () => void {
  const pid = runningServerPid(dataDir);
  if (pid !== null) throw new ConfigError(`another cairn server (pid ${pid}) is serving ${dataDir}`);
  const path = pidFile(dataDir);
  writeFileSync(path, String(process.pid), { mode: 0o600 });
  return () => {
    if (existsSync(path) && readFileSync(path, "utf8").trim() === String(process.pid)) unlinkSync(path);
  };
}
