// Hardening seen only on a real server (`cairn serve` as a process, raw sockets): dot segments in
// the raw request target, Bun's header limit answered in JSON, client addresses behind a proxy,
// HSTS over HTTPS, and a data directory that only its owner can read.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { narrowPermissions } from "../../src/server/data-dir";
import { MAIN, cairn, cleanEnv, freePort, raw, serve } from "../helpers/cli";
import { databaseEnv, dropDataDirDatabases, prepareDataDir, testEngine } from "../helpers/data-dir";

let root = "";
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "cairn-hardening-"));
});
afterAll(async () => {
  await dropDataDirDatabases();
  rmSync(root, { recursive: true, force: true });
});

/** Stops the server; resolves to its exit code and everything it wrote to stderr. */
async function stop(proc: Bun.Subprocess<"ignore", "pipe", "pipe">) {
  proc.kill("SIGTERM");
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  return { code, stderr };
}

const tokenOf = (data: string) => /^token=(.+)$/m.exec(readFileSync(join(data, "admin-credentials.txt"), "utf8"))![1]!;
const modeOf = (path: string) => (lstatSync(path).mode & 0o777).toString(8);

describe("one server over HTTP", () => {
  const data = () => join(root, "http");
  let port = 0;
  let server: Awaited<ReturnType<typeof serve>>;
  let auth: Record<string, string> = {};
  let draftId = "";

  beforeAll(async () => {
    port = freePort();
    await prepareDataDir(data());
    server = await serve(["--data", data(), "--http", "--port", String(port)], { CAIRN_APP_TRUSTED_PROXIES: "127.0.0.1", CAIRN_RATELIMIT_GUEST_USER: "2 per day" });
    auth = { authorization: `Bearer ${tokenOf(data())}` };
    const created = await fetch(`http://127.0.0.1:${port}/api/records`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ metadata: { title: "Kept" }, files: { enabled: true } }),
    });
    expect(created.status).toBe(201);
    draftId = ((await created.json()) as { id: string }).id;
  });
  afterAll(async () => {
    expect((await stop(server.proc)).code).toBe(0);
  });

  test("dot segments in the raw target are refused, in every spelling, and nothing changes", async () => {
    const draft = `/api/records/${draftId}/draft`;
    const tries: [string, string, string?][] = [
      ["DELETE", `${draft}/files/%2e%2e`],
      ["PUT", `${draft}/files/%2e%2e`, "{}"],
      ["DELETE", `${draft}/files/%2E%2e`],
      ["DELETE", `${draft}/files/..`],
      ["DELETE", `${draft}/files/.%2e/`],
      ["GET", `${draft}/files/%2e/x.csv/content`],
      ["DELETE", `/api/records/${draftId}//../${draftId}/draft`],
      ["POST", `${draft}/files/./../../draft/actions/publish`],
    ];
    for (const [method, target, body] of tries) {
      const res = await raw(port, method, target, { ...auth, "content-type": "application/json" }, body);
      expect({ target, status: res.status, type: res.headers["content-type"] }).toEqual({ target, status: 400, type: "application/json" });
      expect(JSON.parse(res.body)).toEqual({ status: 400, message: expect.stringContaining("'.' or '..' segment") });
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
    const kept = await raw(port, "GET", draft, auth);
    expect(kept.status).toBe(200);
    expect(JSON.parse(kept.body).metadata.title).toBe("Kept");
    // Names with dots, a trailing slash and deep keys still reach their routes.
    expect((await raw(port, "GET", `${draft}/`, auth)).status).toBe(200);
    expect((await raw(port, "GET", `${draft}/files/..data/content`, auth)).status).toBe(404);
    expect((await raw(port, "GET", `${draft}/files/${"a/".repeat(80)}b.csv`, auth)).status).toBe(404);
  });

  test("a URL over 16 KiB is a 431 in the JSON error shape, not Bun's empty one", async () => {
    const res = await raw(port, "GET", `/api/records/${draftId}/draft?q=${"x".repeat(20_000)}`, auth);
    expect(res.status).toBe(431);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(res.body)).toEqual({ status: 431, message: "The request URL is longer than the limit of 16384 bytes; send long queries in fewer or shorter parameters." });
    const viaFetch = await fetch(`http://127.0.0.1:${port}/api/users?q=${"y".repeat(30_000)}`);
    expect(viaFetch.status).toBe(431);
    expect(await viaFetch.json()).toMatchObject({ status: 431 });
  });

  test("behind a trusted proxy, guests are limited by the address it forwards", async () => {
    const from = (address: string) => raw(port, "GET", "/api/users", { "X-Forwarded-For": address });
    const first = await from("192.0.2.10");
    expect(first.headers["x-ratelimit-limit"]).toBe("2");
    expect(first.headers["x-ratelimit-remaining"]).toBe("1");
    expect((await from("192.0.2.10")).headers["x-ratelimit-remaining"]).toBe("0");
    const refused = await from("192.0.2.10");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 429, message: expect.stringContaining("2 per 1 day") });
    expect((await from("192.0.2.11")).headers["x-ratelimit-remaining"]).toBe("1");
  });
});

describe("listening", () => {
  test("a port another program holds is said in one line", async () => {
    const data = await prepareDataDir(join(root, "taken"));
    const other = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const res = Bun.spawnSync([process.execPath, MAIN, "serve", "--data", data, "--http", "--port", String(other.port)], { env: cleanEnv() });
      expect(res.exitCode).toBe(2);
      expect(res.stderr.toString()).toBe(`cairn: 127.0.0.1:${other.port} is in use by another program\n`);
    } finally {
      other.stop(true);
    }
  });
});

describe("HTTPS", () => {
  test("responses carry HSTS", async () => {
    const port = freePort();
    const { proc } = await serve(["--data", await prepareDataDir(join(root, "https")), "--port", String(port)]);
    try {
      const res = await fetch(`https://127.0.0.1:${port}/api/users`, { tls: { rejectUnauthorized: false } } as RequestInit);
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31556926; includeSubDomains");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    } finally {
      expect((await stop(proc)).code).toBe(0);
    }
  });
});

describe("the data directory", () => {
  test("an existing one open to others is made private at start, with one warning naming what changed", async () => {
    const data = await prepareDataDir(join(root, "old"));
    // A data directory as an earlier version left it, under the usual umask.
    expect(cairn(["users", "list", "--data", data]).code).toBe(0);
    // Cairn's own files at its top: SQLite's database with its write-ahead log and shared-memory
    // index; on PostgreSQL, whose database is the server's, the cairn.toml naming it.
    const own = testEngine() === "sqlite" ? ["cairn.db", "cairn.db-wal", "cairn.db-shm"] : ["cairn.toml"];
    mkdirSync(join(data, "files", "objects", "ab"), { recursive: true });
    writeFileSync(join(data, "files", "objects", "ab", "abcdef"), "bytes");
    writeFileSync(join(root, "outside.txt"), "not ours");
    chmodSync(join(root, "outside.txt"), 0o644);
    symlinkSync(join(root, "outside.txt"), join(data, "files", "link"));
    writeFileSync(join(data, "notes.txt"), "the operator's own file");
    for (const dir of [data, join(data, "files"), join(data, "files", "objects"), join(data, "files", "objects", "ab")]) chmodSync(dir, 0o755);
    for (const file of [own[0]!, "notes.txt", "files/objects/ab/abcdef"]) chmodSync(join(data, file), 0o644);

    const port = freePort();
    const { proc } = await serve(["--data", data, "--http", "--port", String(port)]);
    let token = "";
    try {
      for (const path of ["", ...own, "admin-credentials.txt", "cairn.pid"]) expect({ path, mode: modeOf(join(data, path)) }).toEqual({ path, mode: path ? "600" : "700" });
      expect(modeOf(join(data, "files", "objects", "ab"))).toBe("700");
      expect(modeOf(join(data, "files", "objects", "ab", "abcdef"))).toBe("600");
      // Not Cairn's: the operator's file and the target of a link are left as they were.
      expect(modeOf(join(data, "notes.txt"))).toBe("644");
      expect((statSync(join(root, "outside.txt")).mode & 0o777).toString(8)).toBe("644");

      // What the server makes later is private too: a stored file and the folder it goes in.
      token = tokenOf(data);
      const auth = { authorization: `Bearer ${token}` };
      const draft = (await (
        await fetch(`http://127.0.0.1:${port}/api/records`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ files: { enabled: true } }),
        })
      ).json()) as { id: string };
      const files = `http://127.0.0.1:${port}/api/records/${draft.id}/draft/files`;
      expect((await fetch(files, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: '[{"key": "a.txt"}]' })).status).toBe(201);
      expect((await fetch(`${files}/a.txt/content`, { method: "PUT", headers: { ...auth, "content-type": "application/octet-stream" }, body: "hello" })).status).toBe(200);
      const committed = (await (await fetch(`${files}/a.txt/commit`, { method: "POST", headers: auth })).json()) as { file_id: string };
      const objectDir = join(data, "files", "objects", committed.file_id.slice(0, 2));
      expect(modeOf(objectDir)).toBe("700");
      expect(modeOf(join(objectDir, committed.file_id))).toBe("600");
    } finally {
      const { code, stderr } = await stop(proc);
      expect(code).toBe(0);
      const warnings = stderr.split("\n").filter((l) => l.startsWith("warning:"));
      expect(warnings).toEqual([
        `warning: ${data} was readable by other users; made private (directories 0700, files 0600): ., ${own[0]}, files/, files/objects/, files/objects/ab/, files/objects/ab/abcdef`,
      ]);
    }
    // Once private, a restart has nothing to say.
    const again = await serve(["--data", data, "--http", "--port", String(freePort())]);
    const { stderr } = await stop(again.proc);
    expect(stderr).not.toContain("warning:");
  });

  test("a new one is made private, and so is what a CLI command creates in it", async () => {
    const data = join(root, "fresh", "data");
    // Made by the command itself: on PostgreSQL the database is named by the environment.
    expect(cairn(["users", "list", "--data", data], await databaseEnv(data)).code).toBe(0);
    expect(modeOf(data)).toBe("700");
    for (const name of readdirSync(data)) expect({ name, mode: modeOf(join(data, name)) }).toEqual({ name, mode: lstatSync(join(data, name)).isDirectory() ? "700" : "600" });
  });

  test("a config file left open is narrowed too, and reported", () => {
    const data = mkdtempSync(join(root, "narrow-"));
    writeFileSync(join(data, "cairn.toml"), "PORT = 5000\n", { mode: 0o664 });
    expect(narrowPermissions(data)).toEqual({ changed: ["cairn.toml"], failed: [] });
    expect(modeOf(join(data, "cairn.toml"))).toBe("600");
  });
});
