// `cairn serve` as a process: first start, HTTPS by default, one server per port of a data directory,
// resuming jobs a crashed server left, and a clean stop on SIGTERM.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN, cairn, cleanEnv, freePort, serve } from "../helpers/cli";
import { dropDataDirDatabases, prepareDataDir, readRows, writeRows } from "../helpers/data-dir";

let root = "";
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "cairn-serve-"));
});
afterAll(async () => {
  await dropDataDirDatabases();
  rmSync(root, { recursive: true, force: true });
});

async function stop(proc: Bun.Subprocess) {
  proc.kill("SIGTERM");
  return proc.exited;
}

describe("first start with --admin-email", () => {
  test("the first administrator has that address, and OAI-PMH Identify gives it as adminEmail", async () => {
    const data = await prepareDataDir(join(root, "admin-email"));
    const port = freePort();
    const { proc, output } = await serve(["--data", data, "--http", "--port", String(port), "--admin-email", "repository@library.example.org"]);
    try {
      expect(output).toContain("Created administrator repository@library.example.org;");
      expect(output).not.toContain("no deliverable adminEmail");
      expect(readFileSync(join(data, "admin-credentials.txt"), "utf8")).toContain("email=repository@library.example.org");
      const identify = await (await fetch(`http://127.0.0.1:${port}/oai2d?verb=Identify`)).text();
      expect(identify).toContain("<adminEmail>repository@library.example.org</adminEmail>");
      expect(identify).not.toContain("admin@127.0.0.1");
    } finally {
      expect(await stop(proc)).toBe(0);
    }
  });
});

describe("first start over HTTP", () => {
  const data = () => join(root, "http");
  let port = 0;

  test("creates the administrator and its token, and answers with it", async () => {
    port = freePort();
    await prepareDataDir(data());
    const { proc, output } = await serve(["--data", data(), "--http", "--port", String(port)]);
    try {
      const file = join(data(), "admin-credentials.txt");
      expect(output).toContain(`Created administrator admin@localhost; its password and API token are in ${file}`);
      // admin@localhost is nobody's address: the start says how to give OAI-PMH a real one.
      expect(output).toContain("OAI-PMH Identify has no deliverable adminEmail: start with --admin-email");
      expect(output).toContain(`Cairn serving http://127.0.0.1:${port}`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const token = /^token=(.+)$/m.exec(readFileSync(file, "utf8"))![1]!;
      const res = await fetch(`http://127.0.0.1:${port}/api/records`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ hits: { hits: [], total: 0 }, links: { self: `http://127.0.0.1:${port}/api/records?sort=newest&page=1&size=10` } });
      const bad = await fetch(`http://127.0.0.1:${port}/api/records`, { headers: { authorization: "Bearer wrong" } });
      expect(bad.status).toBe(401);
      expect(existsSync(join(data(), "cairn.pid"))).toBe(true);
    } finally {
      expect(await stop(proc)).toBe(0);
    }
    expect(existsSync(join(data(), "cairn.pid"))).toBe(false);
  });

  test("a second start keeps the administrator and resumes a job a crash left running", async () => {
    const now = Date.now();
    await writeRows(data(), "INSERT INTO jobs (name, status, attempts, run_at, lease_until, created, updated) VALUES ('jobs-prune', 'running', 1, ?1, ?2, ?1, ?1)", [
      now,
      now + 3_600_000,
    ]);
    const { proc, output } = await serve(["--data", data(), "--http", "--port", String(port)]);
    try {
      expect(output).not.toContain("Created administrator");
      let status = "";
      for (let i = 0; i < 100 && status !== "succeeded"; i++) {
        status = (await readRows<{ status: string }>(data(), "SELECT status FROM jobs ORDER BY id DESC LIMIT 1"))[0]!.status;
        if (status !== "succeeded") await Bun.sleep(50);
      }
      expect(status).toBe("succeeded");
      // The CLI runs a job against the data directory the server is using.
      const run = cairn(["jobs", "run", "db-optimize", "--data", data()]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ name: "db-optimize", status: "succeeded" });
      expect((await fetch(`http://127.0.0.1:${port}/api/records`)).status).toBe(200);
    } finally {
      expect(await stop(proc)).toBe(0);
    }
  });
});

describe("HTTPS by default", () => {
  test("serves a self-signed certificate made for the host names", async () => {
    const port = freePort();
    const data = await prepareDataDir(join(root, "https"));
    const { proc, output } = await serve(["--data", data, "--port", String(port)]);
    try {
      expect(output).toContain(`Cairn serving https://127.0.0.1:${port}`);
      const res = await fetch(`https://127.0.0.1:${port}/api/records`, { tls: { rejectUnauthorized: false } } as RequestInit);
      expect(res.status).toBe(200);
      const names = JSON.parse(readFileSync(join(data, "tls", "names.json"), "utf8"));
      expect(names).toEqual(["127.0.0.1", "::1", "localhost"]);
      expect(readFileSync(join(data, "tls", "cert.pem"), "utf8")).toStartWith("-----BEGIN CERTIFICATE-----");
      expect(statSync(join(data, "tls", "key.pem")).mode & 0o777).toBe(0o600);
    } finally {
      expect(await stop(proc)).toBe(0);
    }
  });

  test("a second server on the same data directory serves beside the first on another port, and is refused on the same one", async () => {
    const data = await prepareDataDir(join(root, "locked"));
    const port = freePort();
    const first = await serve(["--data", data, "--http", "--port", String(port)]);
    try {
      // Stopped after 20 s: a refused server that does not exit fails here rather than hanging the file.
      const samePort = Bun.spawnSync([process.execPath, MAIN, "serve", "--data", data, "--http", "--port", String(port)], {
        env: cleanEnv(),
        timeout: 20_000,
        killSignal: "SIGKILL",
      });
      expect(samePort.exitCode).toBe(2);
      expect(samePort.stderr.toString()).toBe(`cairn: another cairn server (pid ${first.proc.pid}) is serving ${data} on port ${port}\n`);

      const secondPort = freePort();
      const second = await serve(["--data", data, "--http", "--port", String(secondPort)]);
      try {
        expect(second.output).toContain("Cairn serving");
        expect(readFileSync(join(data, `cairn-${second.proc.pid}.pid`), "utf8")).toBe(`${second.proc.pid} ${secondPort}\n`);
        expect(readFileSync(join(data, "cairn.pid"), "utf8")).toBe(`${first.proc.pid} ${port}\n`);
      } finally {
        expect(await stop(second.proc)).toBe(0);
      }
      expect(existsSync(join(data, `cairn-${second.proc.pid}.pid`))).toBe(false);
    } finally {
      expect(await stop(first.proc)).toBe(0);
    }
  });

  test("missing TLS files are named", async () => {
    const data = await prepareDataDir(join(root, "tls-missing"));
    const res = Bun.spawnSync([process.execPath, MAIN, "serve", "--data", data, "--tls-cert", "/nope/cert.pem", "--tls-key", "/nope/key.pem"], {
      env: cleanEnv(),
    });
    expect(res.exitCode).toBe(2);
    expect(res.stderr.toString()).toBe("cairn: TLS file /nope/cert.pem does not exist\n");
  });
});
