// The signals that ask a server to stop gracefully, per platform.
// POSIX: Ctrl-C (SIGINT) and SIGTERM (service managers, kill). Windows has no SIGTERM to catch:
// Ctrl-C is SIGINT, Ctrl-Break is SIGBREAK, and closing the console window arrives as SIGHUP.
export const STOP_SIGNALS: readonly NodeJS.Signals[] = process.platform === "win32" ? ["SIGINT", "SIGBREAK", "SIGHUP"] : ["SIGINT", "SIGTERM"];

/**
 * Resolves with the first stop signal's name. Listen before starting the server, so a signal that
 * arrives during start-up still ends in a clean stop rather than killing the process half way.
 */
export function stopRequested(): Promise<string> {
  return new Promise((resolve) => {
    for (const signal of STOP_SIGNALS) process.once(signal, () => resolve(signal));
  });
}

/** How often a worker looks whether its supervisor still runs. */
const SUPERVISOR_CHECK_MS = 1000;

/**
 * Resolves when the supervisor of this worker has ended (its parent is no longer that process): a
 * supervisor killed with SIGKILL cannot stop its workers, so they stop themselves.
 */
export function supervisorGone(supervisorPid: number): Promise<string> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (process.ppid === supervisorPid) return;
      clearInterval(timer);
      resolve("no supervisor");
    }, SUPERVISOR_CHECK_MS);
    timer.unref();
  });
}
