// `cairn serve --workers N`: a supervisor that serves nothing itself and starts N serving processes
// on one port. Linux spreads a port's connections over the sockets bound to it with SO_REUSEPORT;
// macOS and Windows accept the option but hand every connection to one socket, so elsewhere one
// process serves (said at start). Workers start one after another (the first one migrates the
// database, makes the administrator and the TLS certificate), a crashed one is started again, and a
// stop signal stops them all after their requests in flight.
import { availableParallelism } from "node:os";
import type { Subprocess } from "bun";
import { ConfigError, type Config } from "../config";
import { secureDataDir } from "./data-dir";
import { takePidLock } from "./lock";

/** How many serving processes WORKERS asks for on this machine ("auto": one per core). */
export function workerCount(workers: string, cores = availableParallelism()): number {
  return workers === "auto" ? Math.max(1, cores) : Number(workers);
}

/** Whether the kernel spreads one port's connections over several processes (SO_REUSEPORT balancing). */
export const kernelBalancesPorts = (platform: string = process.platform) => platform === "linux";

/** A worker that ran this long before ending is restarted at once; one that ends sooner waits, longer each time. */
const STEADY_MS = 30_000;
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker still running this long after its stop signal is killed. */
const STOP_GRACE_MS = 60_000;
/** How long a worker may take to start serving. */
const START_TIMEOUT_MS = 120_000;

/** The command that runs this program again: the executable itself, or Bun with its own flags (a --preload) and the entry script. */
function selfCommand(): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(Bun.main);
  return compiled ? [process.execPath] : [process.execPath, ...process.execArgv, Bun.main];
}

/** A free port on `host` now, or `port` itself when it is free; a taken one is refused in one line. */
function checkPort(host: string, port: number): number {
  try {
    const probe = Bun.listen({ hostname: host, port, socket: { data() {} } });
    const free = probe.port;
    probe.stop(true);
    return free;
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE") throw new ConfigError(`${host}:${port} is in use by another program`);
    throw error;
  }
}

interface Slot {
  index: number;
  process: Subprocess | null;
  startedAt: number;
  restartDelay: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export interface Supervisor {
  url: string;
  port: number;
  pids(): number[];
  stop(): Promise<void>;
}

/**
 * Starts `count` workers running `cairn serve` with `args` (the command's own arguments) on one
 * port; `configFor(port)` is the configuration with the port fixed (a port of 0 is chosen here,
 * once, so that every worker binds the same one).
 */
export async function superviseWorkers(
  configFor: (port?: number) => Config,
  count: number,
  args: string[],
  say: (line: string) => void = console.log,
  warn: (line: string) => void = console.error,
): Promise<Supervisor> {
  const first = configFor();
  secureDataDir(first.DATA_DIR, warn);
  const releaseLock = takePidLock(first.DATA_DIR, first.PORT);
  let config: Config;
  try {
    config = configFor(checkPort(first.HOST, first.PORT));
  } catch (error) {
    releaseLock();
    throw error;
  }
  const slots: Slot[] = Array.from({ length: count }, (_, i) => ({ index: i + 1, process: null, startedAt: 0, restartDelay: FIRST_RESTART_DELAY_MS, timer: null }));
  let stopping = false;

  /** Starts the slot's worker; resolves when it serves, rejects when it ends first. */
  function start(slot: Slot): Promise<void> {
    return new Promise((resolve, reject) => {
      let serving = false;
      const child = Bun.spawn([...selfCommand(), "serve", ...args, "--port", String(config.PORT)], {
        env: { ...process.env, CAIRN_WORKER_OF: `${slot.index}:${process.pid}` },
        stdio: ["ignore", "inherit", "inherit"],
        ipc(message) {
          if ((message as { serving?: boolean }).serving && !serving) {
            serving = true;
            resolve();
          }
        },
        onExit(_, exitCode, signal) {
          if (!serving) reject(new Error(`worker ${slot.index} ended before it served (${signal === null ? `exit code ${exitCode}` : String(signal)})`));
          if (slot.process === child) slot.process = null;
          if (serving) ended(slot, exitCode, signal === null ? null : String(signal));
        },
      });
      slot.process = child;
      slot.startedAt = performance.now();
      setTimeout(() => {
        if (!serving) child.kill("SIGKILL");
      }, START_TIMEOUT_MS).unref();
    });
  }

  /** A serving worker ended: unless everything is stopping, another takes its place. */
  function ended(slot: Slot, exitCode: number | null, signal: string | null) {
    if (stopping) return;
    const ranMs = performance.now() - slot.startedAt;
    slot.restartDelay = ranMs > STEADY_MS ? FIRST_RESTART_DELAY_MS : Math.min(slot.restartDelay * 2, MAX_RESTART_DELAY_MS);
    warn(`Worker ${slot.index} ended (${signal ?? `exit code ${exitCode}`}); starting another in ${(slot.restartDelay / 1000).toFixed(1)} s.`);
    slot.timer = setTimeout(() => {
      slot.timer = null;
      // A stop signal that reached the worker first (Ctrl+C goes to the whole group) is seen here.
      if (stopping) return;
      start(slot).catch((error: Error) => {
        warn(`${error.message}; trying again.`);
        ended(slot, null, null);
      });
    }, slot.restartDelay);
  }

  async function stopAll() {
    stopping = true;
    for (const slot of slots) if (slot.timer) clearTimeout(slot.timer);
    const running = slots.flatMap((s) => (s.process ? [s.process] : []));
    for (const child of running) child.kill("SIGTERM");
    const grace = setTimeout(() => running.forEach((child) => child.kill("SIGKILL")), STOP_GRACE_MS);
    await Promise.all(running.map((child) => child.exited));
    clearTimeout(grace);
    releaseLock();
  }

  try {
    // One after another: the first start migrates and prepares the data directory alone.
    for (const slot of slots) await start(slot);
  } catch (error) {
    await stopAll();
    throw new ConfigError(`${(error as Error).message}: see its messages above`);
  }
  say(`Cairn serving ${config.BASE_URL} with ${count} worker processes (pids ${slots.map((s) => s.process?.pid).join(", ")}), supervised by pid ${process.pid}`);
  let stopped: Promise<void> | null = null;
  return {
    url: config.BASE_URL,
    port: config.PORT,
    pids: () => slots.flatMap((s) => (s.process ? [s.process.pid] : [])),
    stop: () => (stopped ??= stopAll()),
  };
}
