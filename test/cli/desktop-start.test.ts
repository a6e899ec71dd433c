// `cairn` with no command in an empty home folder: the data folder, the printed one-time link
// handed to the browser opener (a recorder here), the link signing the administrator in once, and
// a second start that finds the running one, then a restart that reuses the port and the folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SESSION_COOKIE } from "../../src/core/http";
import { MAIN, cairn, cleanEnv } from "../helpers/cli";
import { databaseEnv, dropDataDirDatabases, testEngine } from "../helpers/data-dir";

let home = "";
let opened = "";
let env: Record<string, string> = {};
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "cairn-desktop-"));
  opened = join(home, "opened.txt");
  const recorder = join(home, "browser.sh");
  writeFileSync(recorder, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
  chmodSync(recorder, 0o755);
  const base = Object.fromEntries(Object.entries(cleanEnv()).filter(([k]) => !k.startsWith("XDG_") && k !== "APPDATA"));
  // The data folder is the start's to make: on PostgreSQL its database is named by the environment.
  env = { ...base, HOME: join(home, "home"), CAIRN_BROWSER: recorder, ...(await databaseEnv(dataDir())) };
});
afterAll(async () => {
  await dropDataDirDatabases();
  rmSync(home, { recursive: true, force: true });
});

const dataDir = () => join(home, "home", ".local", "share", "cairn");
const LINK = /Sign in:\s+(http:\/\/127\.0\.0\.1:(\d+)\/login\/once\?token=[A-Za-z0-9_-]{43})\n/;

/** Starts `cairn` with no arguments and reads its output until it says how to stop it. */
async function start() {
  const proc = Bun.spawn([process.execPath, MAIN], { env, stdout: "pipe", stderr: "pipe" });
  let output = "";
  const reader = proc.stdout.getReader();
  const deadline = Date.now() + 20_000;
  while (!output.includes("To stop:") && Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    output += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const match = LINK.exec(output);
  if (!match) throw new Error(`no sign-in link in: ${output}${await new Response(proc.stderr).text()}`);
  return { proc, output, link: match[1]!, port: Number(match[2]) };
}

/** The lines the recorder got; it runs detached, so its line may land just after the start prints. */
async function openedLinks(count: number): Promise<string[]> {
  for (let i = 0; i < 200; i++) {
    const lines = existsSync(opened) ? readFileSync(opened, "utf8").split("\n").filter(Boolean) : [];
    if (lines.length >= count) return lines;
    await Bun.sleep(10);
  }
  throw new Error(`the browser opener got fewer than ${count} links`);
}

const sessionOf = (res: Response) => new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(res.headers.get("set-cookie") ?? "")?.[1];
const adminUsers = (port: number, secret?: string) => fetch(`http://127.0.0.1:${port}/api/users`, { headers: secret ? { cookie: `${SESSION_COOKIE}=${secret}` } : {} });

async function stop(proc: Bun.Subprocess) {
  proc.kill("SIGTERM");
  return proc.exited;
}

describe("the desktop start", () => {
  let port = 0;

  test("creates the data folder, opens the one-time link, which signs the administrator in once", async () => {
    const first = await start();
    port = first.port;
    try {
      expect(existsSync(dataDir())).toBe(true);
      // SQLite's database file; on PostgreSQL the database is the server's, and no cairn.db is made.
      expect(existsSync(join(dataDir(), "cairn.db"))).toBe(testEngine() === "sqlite");
      expect(first.output).toContain(`Data:     ${dataDir()}\n`);
      expect(first.output).toContain(`Address:  http://127.0.0.1:${port}/\n`);
      expect(first.output).toMatch(/Cairn \d+\.\d+\.\d+ \(source\) is running on this computer\./);
      expect(first.output).toContain("To stop:  press Ctrl+C in this window.");
      expect(await openedLinks(1)).toEqual([first.link]);
      // Not signed in, the administrator-only list is refused.
      expect((await adminUsers(port)).status).toBe(401);
      const signIn = await fetch(first.link, { redirect: "manual" });
      expect(signIn.status).toBe(303);
      expect(signIn.headers.get("location")).toBe("/");
      const secret = sessionOf(signIn)!;
      expect(secret).toBeDefined();
      const users = await adminUsers(port, secret);
      expect(users.status).toBe(200);
      expect(((await users.json()) as any).hits.hits.map((u: any) => [u.id, u.email])).toEqual([["1", "admin@localhost"]]);
      expect(await (await fetch(`http://127.0.0.1:${port}/`, { headers: { cookie: `${SESSION_COOKIE}=${secret}` } })).text()).toContain("Administrator");
      const again = await fetch(first.link, { redirect: "manual" });
      expect(again.status).toBe(410);
      expect(sessionOf(again)).toBeUndefined();

      // A second start while it runs: says so, and hands the opener a fresh link to the same server.
      const second = cairn([], env);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(`Cairn is already running with its data in ${dataDir()} (process ${first.proc.pid}).`);
      expect(second.stdout).toContain(`Address:  http://127.0.0.1:${port}/`);
      const links = await openedLinks(2);
      expect(links[1]).toStartWith(`http://127.0.0.1:${port}/login/once?token=`);
      expect(second.stdout).toContain(`Sign in:  ${links[1]}`);
      expect(sessionOf(await fetch(links[1]!, { redirect: "manual" }))).toBeDefined();
    } finally {
      expect(await stop(first.proc)).toBe(0);
    }
  });

  test("a restart reuses the folder and the port", async () => {
    const restart = await start();
    try {
      expect(restart.port).toBe(port);
      expect(restart.output).not.toContain("Created administrator");
      const signIn = await fetch(restart.link, { redirect: "manual" });
      expect((await adminUsers(port, sessionOf(signIn))).status).toBe(200);
    } finally {
      expect(await stop(restart.proc)).toBe(0);
    }
  });

  test("--no-open only prints the link; help stays help", async () => {
    expect(cairn(["--help"], env)).toMatchObject({ code: 0, stdout: expect.stringContaining("no command: start for this computer") });
    expect(cairn(["help"], env).code).toBe(0);
    expect(cairn(["start", "--help"], env)).toMatchObject({ code: 0, stdout: expect.stringContaining("cairn [start] [--open | --no-open]") });
    const before = (await openedLinks(2)).length;
    const proc = Bun.spawn([process.execPath, MAIN, "--no-open"], { env, stdout: "pipe", stderr: "pipe" });
    let output = "";
    const reader = proc.stdout.getReader();
    while (!output.includes("To stop:")) {
      const { done, value } = await reader.read();
      if (done) break;
      output += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    expect(await stop(proc)).toBe(0);
    expect(output).toMatch(LINK);
    expect(readFileSync(opened, "utf8").split("\n").filter(Boolean).length).toBe(before);
  });
});
