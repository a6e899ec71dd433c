// What the desktop start remembers in its data folder (cairn.desktop.json): the port it serves on,
// so bookmarks keep working, and the address and process of the server running there now.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface DesktopState {
  port: number;
  url: string;
  /** The process serving `url`, while it runs (compared with the pid lock to tell a live one). */
  pid: number;
}

const stateFile = (dataDir: string) => join(dataDir, "cairn.desktop.json");

export function readDesktopState(dataDir: string): DesktopState | null {
  try {
    const path = stateFile(dataDir);
    if (!existsSync(path)) return null;
    const state = JSON.parse(readFileSync(path, "utf8")) as DesktopState;
    return Number.isInteger(state.port) && state.port > 0 && state.port < 65536 && typeof state.url === "string" ? state : null;
  } catch {
    return null; // a damaged file only loses the remembered port
  }
}

export function writeDesktopState(dataDir: string, state: DesktopState): void {
  const path = stateFile(dataDir);
  writeFileSync(`${path}.tmp`, JSON.stringify(state), { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/** Whether nothing listens on 127.0.0.1:`port` now (another program may take it before we do: then serve says so). */
export function portIsFree(port: number): boolean {
  try {
    Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } }).stop(true);
    return true;
  } catch {
    return false;
  }
}

/** A port the system has free now. */
export function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}
