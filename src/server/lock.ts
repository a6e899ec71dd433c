// Which servers serve a data directory: one pid file per serving instance (a `cairn serve` and the
// workers it supervises). Several instances may share a data directory, each on its own port (the
// processes share the database, and the file store's clean-up spares what others are writing); the
// same port twice is refused, as is a stale file's reuse. The first instance's file keeps the name
// `cairn.pid`; others are `cairn-<pid>.pid`.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../config";

const FIRST = "cairn.pid";
const isPidFile = (name: string) => name === FIRST || /^cairn-\d+\.pid$/.test(name);

export interface RunningServer {
  pid: number;
  /** The port it was started on (0: one the system chose). */
  port: number;
}

function alive(pid: number): boolean {
  try {
    // Signal 0 only asks whether the process exists (on Windows too, where Bun emulates it).
    return process.kill(pid, 0);
  } catch {
    return false;
  }
}

/** A pid file's server when its process is alive (and not this one), else null; a file from an older Cairn holds the pid alone. */
function serverOf(path: string): RunningServer | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  const [pid, port] = text.trim().split(/\s+/).map(Number);
  if (!(pid! > 0) || pid === process.pid || !alive(pid!)) return null;
  return { pid: pid!, port: port ?? 0 };
}

/** The live servers of `dataDir` other than this process. */
export function runningServers(dataDir: string): RunningServer[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter(isPidFile)
    .map((name) => serverOf(join(dataDir, name)))
    .filter((s): s is RunningServer => s !== null);
}

/** The pid of another live process serving `dataDir`, or null. */
export const runningServerPid = (dataDir: string): number | null => runningServers(dataDir)[0]?.pid ?? null;

/** Creates `path` holding this server's line unless it exists; false when it does. */
function createExclusive(path: string, port: number): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid} ${port}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Registers this process as a server of `dataDir` on `port`; returns the release. Refused when a
 * live server of the directory was started on the same port (0, a port the system chooses, never clashes).
 */
export function takePidLock(dataDir: string, port: number): () => void {
  const same = port === 0 ? undefined : runningServers(dataDir).find((s) => s.port === port);
  if (same) throw new ConfigError(`another cairn server (pid ${same.pid}) is serving ${dataDir} on port ${port}`);
  const first = join(dataDir, FIRST);
  // A file whose process has ended is a crash's leftover: taken over.
  if (existsSync(first) && serverOf(first) === null) unlinkSync(first);
  const path = createExclusive(first, port) ? first : join(dataDir, `cairn-${process.pid}.pid`);
  if (path !== first) {
    if (existsSync(path)) unlinkSync(path);
    createExclusive(path, port);
  }
  return () => {
    if (existsSync(path) && readFileSync(path, "utf8").trim().split(/\s+/)[0] === String(process.pid)) unlinkSync(path);
  };
}
