// `cairn` with no command (a double-click) or `cairn start`: serves on this computer only, with the
// data in the platform's application-data folder, and opens the front page signed in as the
// administrator through a one-time link.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { desktopDataDir } from "../config";
import { systemClock } from "../core/time";
import { readDesktopState, freePort, portIsFree, writeDesktopState } from "../server/desktop-state";
import { runningServerPid } from "../server/lock";
import { startServer } from "../server/serve";
import { stopRequested } from "../server/signals";
import { issueSignInLink, SIGN_IN_LINK_PATH } from "../sessions/sign-in-link";
import { VERSION_LINE } from "../version";
import { configFrom, parse, UsageError, type Command } from "./args";

/** The program that opens a URL in the default browser; `cmd /c start ""` needs its arguments as written. */
function openerFor(program: string, url: string): { command: string; args: string[]; verbatim: boolean } {
  if (program) return { command: program, args: [url], verbatim: false };
  if (process.platform === "win32") return { command: "cmd", args: ["/c", "start", '""', url], verbatim: true };
  return { command: process.platform === "darwin" ? "open" : "xdg-open", args: [url], verbatim: false };
}

/** Hands `url` to the browser opener; a missing opener only costs the automatic opening. */
function openBrowser(program: string, url: string, say: (line: string) => void): Promise<void> {
  const { command, args, verbatim } = openerFor(program, url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true, windowsVerbatimArguments: verbatim });
    child.once("error", (err) => {
      say(`Could not open a browser (${command}: ${(err as NodeJS.ErrnoException).code ?? err.message}): open the sign-in link above yourself.`);
      resolve();
    });
    child.once("spawn", () => {
      child.unref();
      resolve();
    });
  });
}

const signInUrl = (base: string, dataDir: string) => `${base}${SIGN_IN_LINK_PATH}?token=${issueSignInLink(dataDir, systemClock).token}`;

const STOP_HINT = process.platform === "win32" ? "press Ctrl+C in this window, or close it" : "press Ctrl+C in this window";

export const startCommand: Command = {
  name: "start",
  summary: "Start Cairn for this computer only and open it in the browser (what `cairn` with no command does).",
  usage: `cairn [start] [--open | --no-open] [--data DIR] [--port N]

  Serves http://127.0.0.1 (this computer only) with the data in the application-data folder:
  $XDG_DATA_HOME/cairn or ~/.local/share/cairn on Linux, ~/Library/Application Support/Cairn on
  macOS, %APPDATA%\\Cairn on Windows (--data DIR or CAIRN_DATA for another). Prints the address
  and a link that signs the browser in as the administrator once, and opens it (--no-open: only
  print it; BROWSER names the program that opens it). The port is remembered in the data folder.
  When Cairn already runs there, opens that one instead. Stops on Ctrl+C.`,
  async run(argv) {
    const { values } = parse(argv, { open: { type: "boolean" }, "no-open": { type: "boolean" }, port: { type: "string" } });
    if (values.open && values["no-open"]) throw new UsageError("--open and --no-open go one at a time");
    const open = !values["no-open"];
    const dataDir = typeof values.data === "string" ? values.data : desktopDataDir();
    // Read first for BROWSER and the data directory's path (made absolute); the address comes below.
    const base = configFrom({ ...values, data: dataDir });
    const remembered = readDesktopState(base.DATA_DIR);
    const running = runningServerPid(base.DATA_DIR);
    if (running !== null) return await reportRunning(base.DATA_DIR, running, remembered, open, base.BROWSER);

    if (values.port !== undefined && !/^\d{1,5}$/.test(values.port)) throw new UsageError(`--port takes a number, got '${values.port}'`);
    let port = values.port !== undefined ? Number(values.port) : (remembered?.port ?? 0);
    if (port === 0 || (values.port === undefined && !portIsFree(port))) {
      const taken = port;
      port = freePort();
      if (taken) console.log(`Port ${taken} is in use by another program: Cairn uses port ${port} from now on.`);
    }
    const url = `http://127.0.0.1:${port}`;
    const config = configFrom({ ...values, data: base.DATA_DIR }, { HOST: "127.0.0.1", PORT: port, HTTP: true, BASE_URL: url });
    const received = stopRequested();
    const server = await startServer(config);
    writeDesktopState(config.DATA_DIR, { port: server.port, url, pid: process.pid });
    const link = signInUrl(url, config.DATA_DIR);
    console.log(
      [
        "",
        `Cairn ${VERSION_LINE} is running on this computer.`,
        `  Address:  ${url}/`,
        `  Sign in:  ${link}`,
        "            (signs this computer's browser in as the administrator; works once, within an hour)",
        `  Data:     ${config.DATA_DIR}`,
        `  Password: ${join(config.DATA_DIR, "admin-credentials.txt")} (the administrator's password and API token)`,
        `  To stop:  ${STOP_HINT}.`,
        "",
      ].join("\n"),
    );
    if (open) await openBrowser(config.BROWSER, link, console.log);
    console.log(`Received ${await received}; finishing requests and jobs...`);
    await server.stop();
    console.log("Stopped.");
    return 0;
  },
};

/** A server already serves this folder: point at it (with a fresh sign-in link when it is the desktop one). */
async function reportRunning(dataDir: string, pid: number, state: ReturnType<typeof readDesktopState>, open: boolean, browser: string): Promise<number> {
  if (!state || state.pid !== pid) {
    console.log(`Cairn is already running with its data in ${dataDir} (process ${pid}), started with \`cairn serve\`: its address is printed in its window.`);
    return 1;
  }
  const link = signInUrl(state.url, dataDir);
  console.log(
    [
      `Cairn is already running with its data in ${dataDir} (process ${pid}).`,
      `  Address:  ${state.url}/`,
      `  Sign in:  ${link}`,
      "  To stop it: press Ctrl+C in the window where it runs.",
    ].join("\n"),
  );
  if (open) await openBrowser(browser, link, console.log);
  return 0;
}
