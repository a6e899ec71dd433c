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
