// Several `cairn serve` processes on one database, as real processes: on the SQLite run two servers
// on one data directory; on the PostgreSQL run two servers with data directories of their own (two
// machines) on one database, with files on a local S3 server. What one does, the other sees; what
// must be counted or run once is, across both; a server killed in the middle of writes leaves the
// other serving and nothing half-written. And `cairn serve --workers 2`: two processes on one port.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, serve } from "../helpers/cli";
import { dropDataDirDatabases, prepareDataDir, readRows, testEngine, writeRows } from "../helpers/data-dir";
import { md5 } from "../helpers/files";
import { publishableDraft } from "../helpers/records";
import { pseudoRandomBytes, startS3Server, type S3TestServer } from "../helpers/s3-server";

const MiB = 1024 * 1024;
const DAY_MS = 86_400_000;
/**
 * The servers keep the real time (S3 signatures carry it), moved three minutes on when the file
 * starts in the last two minutes of a UTC day: the rate-limit test's window is a day, and the file
 * must not see it end. Both servers are moved alike, so they keep one time (as NTP keeps machines').
 */
const clockShiftMs = Date.now() % DAY_MS > DAY_MS - 120_000 ? 180_000 : 0;
const clock = () => (clockShiftMs ? { clockAt: Date.now() + clockShiftMs } : {});
/** How long a server may take to show what the other wrote (both read one database: at once; the bound leaves room for a busy machine). */
const SEEN_WITHIN_MS = 5_000;

let root = "";
let s3: S3TestServer | null = null;
const servers: Record<"A" | "B", { proc: Bun.Subprocess; port: number; dir: string }> = {} as never;
let token = "";
let adminPassword = "";

async function stop(proc: Bun.Subprocess) {
  if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
  proc.kill("SIGTERM");
  return proc.exited;
}

// Guests are limited per client address (APP_TRUSTED_PROXIES makes the forwarded one count): each
// request that is not about the limit comes from an address of its own.
let nextAddress = 0;
const someAddress = () => `198.51.100.${(nextAddress++ % 250) + 1}`;

interface Call {
  body?: string | Uint8Array;
  json?: unknown;
  guest?: boolean;
  address?: string;
  headers?: Record<string, string>;
}

function call(server: "A" | "B", method: string, path: string, options: Call = {}) {
  const headers: Record<string, string> = { "x-forwarded-for": options.address ?? someAddress(), ...options.headers };
  if (!options.guest) headers.authorization = `Bearer ${token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (body !== undefined) headers["content-type"] ??= "application/octet-stream";
  return fetch(`http://127.0.0.1:${servers[server].port}${path}`, { method, body, headers, redirect: "manual" });
}

/** Whether the process runs (a killed child stays until its parent has seen it end). */
function alive(pid: number) {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
}

const json = async (response: Promise<Response>) => (await response).json() as Promise<any>;

/** Polls `check` until it holds or `ms` pass; the last value. */
async function within<T>(ms: number, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const until = performance.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || performance.now() > until) return value;
    await Bun.sleep(50);
  }
}

async function startServer(name: "A" | "B", dir: string, env: Record<string, string>) {
  const port = freePort();
  const { proc, output } = await serve(["--data", dir, "--http", "--port", String(port)], env, clock());
  expect(output).toContain("Cairn serving");
  servers[name] = { proc, port, dir };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-processes-"));
  const onPostgres = testEngine() === "postgres";
  s3 = onPostgres ? await startS3Server() : null;
  const env = {
    CAIRN_APP_TRUSTED_PROXIES: "127.0.0.1",
    CAIRN_RATELIMIT_GUEST_USER: "10 per day",
    CAIRN_JOBS_POLL_INTERVAL_MS: "200",
    ...(s3 ? s3.env("shared/") : {}),
  };
  const dirA = await prepareDataDir(join(root, "a"));
  await startServer("A", dirA, env);
  // Two machines have a data directory each, with the same configuration (the database's address).
  let dirB = dirA;
  if (onPostgres) {
    dirB = join(root, "b");
    mkdirSync(dirB, { mode: 0o700 });
    copyFileSync(join(dirA, "cairn.toml"), join(dirB, "cairn.toml"));
  }
  await startServer("B", dirB, env);
  const credentials = readFileSync(join(dirA, "admin-credentials.txt"), "utf8");
  token = /^token=(.+)$/m.exec(credentials)![1]!;
  adminPassword = /^password=(.+)$/m.exec(credentials)![1]!;
}, 60_000);

afterAll(async () => {
  for (const server of Object.values(servers)) await stop(server.proc);
  await s3?.stop();
  await dropDataDirDatabases();
  rmSync(root, { recursive: true, force: true });
});

/** A draft with `files` through `via`, each uploaded whole (or, for a multipart layout, left to the test). */
async function createDraft(via: "A" | "B", title: string, files = true) {
  const draft = publishableDraft({ files: { enabled: files } });
  return (await json(call(via, "POST", "/api/records", { json: { ...draft, metadata: { ...draft.metadata, title } } }))).id as string;
}

async function uploadWhole(via: "A" | "B", id: string, key: string, content: string | Uint8Array) {
  expect((await call(via, "POST", `/api/records/${id}/draft/files`, { json: [{ key }] })).status).toBe(201);
  expect((await call(via, "PUT", `/api/records/${id}/draft/files/${key}/content`, { body: content })).status).toBe(200);
  expect((await call(via, "POST", `/api/records/${id}/draft/files/${key}/commit`)).status).toBe(200);
}

describe("two servers on one database", () => {
  test("a record published through A is read, searched, harvested and downloaded through B", async () => {
    const word = `Tussock${Date.now().toString(36)}`;
    const id = await createDraft("A", `${word} grassland survey`);
    await uploadWhole("A", id, "counts.csv", "site,count\nnorth,12\n");
    expect((await call("A", "POST", `/api/records/${id}/draft/actions/publish`)).status).toBe(202);

    const read = await json(call("B", "GET", `/api/records/${id}`, { guest: true }));
    expect([read.id, read.metadata.title, read.is_published]).toEqual([id, `${word} grassland survey`, true]);
    const found = await within(
      SEEN_WITHIN_MS,
      () => json(call("B", "GET", `/api/records?q=${word}`, { guest: true })),
      (r) => r.hits.total === 1,
    );
    expect(found.hits.hits.map((h: { id: string }) => h.id)).toEqual([id]);
    const harvest = await (await call("B", "GET", "/oai2d?verb=ListRecords&metadataPrefix=oai_dc", { guest: true })).text();
    expect(harvest).toContain(`${word} grassland survey`);
    const download = await call("B", "GET", `/api/records/${id}/files/counts.csv/content`, { guest: true });
    expect([download.status, await download.text()]).toEqual([200, "site,count\nnorth,12\n"]);
  });

  test("a session made on A works on B", async () => {
    const form = await call("A", "GET", "/login", { guest: true });
    const csrf = /cairn_login_csrf=([^;]+)/.exec(form.headers.getSetCookie().join("\n"))![1]!;
    const field = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signedIn = await call("A", "POST", "/login", {
      guest: true,
      body: new URLSearchParams({ csrf: field, login: "admin@localhost", password: adminPassword, next: "/account/settings/profile" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `cairn_login_csrf=${csrf}` },
    });
    expect(signedIn.status).toBe(303);
    const session = /cairn_session=([^;]+)/.exec(signedIn.headers.getSetCookie().join("\n"))![1]!;

    const onB = await call("B", "GET", "/account/settings/profile", { guest: true, headers: { cookie: `cairn_session=${session}` } });
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain("admin@localhost");
    const withoutSession = await call("B", "GET", "/account/settings/profile", { guest: true });
    expect(withoutSession.status).toBe(401);
    expect(await withoutSession.text()).not.toContain("admin@localhost");
  });

  test("a rate limit counts the requests to both", async () => {
    const address = "203.0.113.77";
    const statuses: number[] = [];
    // Ten a day between them: alternately, then once more on each.
    for (let i = 0; i < 12; i++) statuses.push((await call(i % 2 ? "B" : "A", "GET", "/api/records", { guest: true, address })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    const refused = await call("A", "GET", "/api/records", { guest: true, address });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another client is not held back by it.
    expect((await call("B", "GET", "/api/records", { guest: true, address: "203.0.113.78" })).status).toBe(200);
  });

  test("a scheduled job comes due once and runs once, on one of the two", async () => {
    const count = async () => (await readRows<{ n: number }>(servers.A.dir, "SELECT count(*) AS n FROM jobs WHERE name = 'jobs-prune'"))[0]!.n;
    const before = await count();
    await writeRows(servers.A.dir, "UPDATE job_schedules SET next_run_at = 0 WHERE name = 'jobs-prune'");
    const done = await within(
      SEEN_WITHIN_MS,
      () => readRows<{ status: string; claimed_by: string }>(servers.A.dir, "SELECT status, claimed_by FROM jobs WHERE name = 'jobs-prune' ORDER BY id"),
      (rows) => rows.length > before && rows.at(-1)!.status === "succeeded",
    );
    // Both servers looked at the schedule several times meanwhile (every 200 ms); give them a few more.
    await Bun.sleep(1000);
    expect(await count()).toBe(before + 1);
    const pids = [servers.A.proc.pid, servers.B.proc.pid].map(String);
    expect(pids).toContain(done.at(-1)!.claimed_by.split("/")[1]!);
  });

  test("a multipart upload started on A and continued on B completes", async () => {
    const id = await createDraft("A", "Multipart across servers");
    const partSize = 5 * MiB;
    const bytes = pseudoRandomBytes(partSize + 1000, 7);
    const base = `/api/records/${id}/draft/files`;
    const layout = [{ key: "scan.tif", size: bytes.length, transfer: { type: "M", parts: 2, part_size: partSize } }];
    expect((await call("A", "POST", base, { json: layout })).status).toBe(201);
    expect((await call("A", "PUT", `${base}/scan.tif/content/1`, { body: bytes.subarray(0, partSize) })).status).toBe(200);
    const seen = await json(call("B", "GET", `${base}/scan.tif`));
    expect(seen.transfer.uploaded_parts).toEqual([1]);
    expect((await call("B", "PUT", `${base}/scan.tif/content/2`, { body: bytes.subarray(partSize) })).status).toBe(200);
    const committed = await json(call("B", "POST", `${base}/scan.tif/commit`));
    expect([committed.status, committed.size, committed.checksum]).toEqual(["completed", bytes.length, `md5:${md5(bytes)}`]);
    const back = new Uint8Array(await (await call("A", "GET", `${base}/scan.tif/content`)).arrayBuffer());
    expect(md5(back)).toBe(md5(bytes));
  });

  test("a multipart upload of small parts, which stay on the disk that received them, is finished where it is committed", async () => {
    const id = await createDraft("A", "Small parts across servers");
    const base = `/api/records/${id}/draft/files`;
    expect((await call("A", "POST", base, { json: [{ key: "notes.txt", size: 10, transfer: { type: "M", parts: 3, part_size: 4 } }] })).status).toBe(201);
    expect((await call("A", "PUT", `${base}/notes.txt/content/1`, { body: "0123" })).status).toBe(200);
    expect((await call("B", "PUT", `${base}/notes.txt/content/2`, { body: "4567" })).status).toBe(200);
    expect((await call("B", "PUT", `${base}/notes.txt/content/3`, { body: "89" })).status).toBe(200);
    const commit = await call("B", "POST", `${base}/notes.txt/commit`);
    if (servers.A.dir === servers.B.dir) {
      // One data directory: every part is in the one file.
      expect(((await commit.json()) as { checksum: string }).checksum).toBe(`md5:${md5("0123456789")}`);
      return;
    }
    // Two machines: B cannot join a part A keeps on its disk, and asks for it again.
    expect([commit.status, ((await commit.json()) as { message: string }).message]).toEqual([
      409,
      "Part 1 went to another server, which kept it on its disk: upload it again, then commit.",
    ]);
    expect((await json(call("B", "GET", `${base}/notes.txt`))).transfer.uploaded_parts).toEqual([2, 3]);
    expect((await call("B", "PUT", `${base}/notes.txt/content/1`, { body: "0123" })).status).toBe(200);
    const committed = await json(call("B", "POST", `${base}/notes.txt/commit`));
    expect([committed.status, committed.checksum]).toEqual(["completed", `md5:${md5("0123456789")}`]);
  });

  // Last: it ends A.
  test("killing A in the middle of writes leaves B serving and nothing half-written", async () => {
    const created: string[] = [];
    const publishOne = async (n: number) => {
      const id = await createDraft("A", `Written while A was killed ${n}`, false);
      created.push(id);
      await call("A", "POST", `/api/records/${id}/draft/actions/publish`);
    };
    const before = (await readRows<{ n: number }>(servers.A.dir, "SELECT count(*) AS n FROM records"))[0]!.n;
    const writes = Array.from({ length: 24 }, (_, n) => publishOne(n).catch(() => undefined));
    // Some publications done, others under way: then A dies without a word.
    await within(
      10_000,
      async () => (await readRows<{ n: number }>(servers.A.dir, "SELECT count(*) AS n FROM records"))[0]!.n,
      (n) => n >= before + 3,
    );
    servers.A.proc.kill("SIGKILL");
    await servers.A.proc.exited;
    await Promise.all(writes);

    expect((await call("B", "GET", "/ping", { guest: true })).status).toBe(200);
    // Every published record is whole: readable, and in the search index B answers from.
    const published = await readRows<{ id: string }>(servers.B.dir, "SELECT id FROM records WHERE deletion_status = 'P' ORDER BY id");
    expect(published.length).toBeGreaterThanOrEqual(before + 3);
    const listed = await json(call("B", "GET", "/api/records?size=100&sort=newest"));
    expect(listed.hits.total).toBe(published.length);
    expect(listed.hits.hits.map((h: { id: string }) => h.id).sort()).toEqual(published.map((r) => r.id));
    // Each draft A made is a published record or a draft still, never both or neither; B publishes a draft left.
    const states: string[] = [];
    for (const id of created) {
      const [record, draft] = [(await call("B", "GET", `/api/records/${id}`)).status, (await call("B", "GET", `/api/records/${id}/draft`)).status];
      states.push(`${record}/${draft}`);
      expect(["200/404", "404/200"]).toContain(`${record}/${draft}`);
    }
    const left = created.find((_, i) => states[i] === "404/200") ?? (await createDraft("B", "Written after A was killed", false));
    expect((await call("B", "POST", `/api/records/${left}/draft/actions/publish`)).status).toBe(202);
    expect((await call("B", "GET", `/api/records/${left}`, { guest: true })).status).toBe(200);
  });
});

describe("cairn serve --workers 2", () => {
  test("two processes serve one port; a killed one is started again; SIGTERM stops them all", async () => {
    const dir = await prepareDataDir(join(root, "workers"));
    const port = freePort();
    const { proc, output } = await serve(["--data", dir, "--http", "--port", String(port), "--workers", "2"]);
    let stderr = "";
    void new Response(proc.stderr).text().then((t) => (stderr = t));
    try {
      const line = /Cairn serving (\S+) with 2 worker processes \(pids (\d+), (\d+)\), supervised by pid (\d+)/.exec(output);
      expect(line?.slice(1)).toEqual([`http://127.0.0.1:${port}`, expect.any(String), expect.any(String), String(proc.pid)]);
      const workerPids = [Number(line![2]), Number(line![3])];
      const admin = /^token=(.+)$/m.exec(readFileSync(join(dir, "admin-credentials.txt"), "utf8"))![1]!;
      const answeredBy = async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/administration/health`, { keepalive: false, headers: { authorization: `Bearer ${admin}`, connection: "close" } });
        return ((await res.json()) as { process: { pid: number } }).process.pid;
      };
      // New connections are spread over both processes.
      const seen = new Set<number>();
      for (let i = 0; i < 60 && seen.size < 2; i++) seen.add(await answeredBy());
      expect([...seen].sort()).toEqual([...workerPids].sort());
      const health = (await (
        await fetch(`http://127.0.0.1:${port}/api/administration/health`, { keepalive: false, headers: { authorization: `Bearer ${admin}`, connection: "close" } })
      ).json()) as {
        serving_processes: { pid: number }[];
      };
      expect(health.serving_processes.map((p) => p.pid).sort()).toEqual([...workerPids].sort());

      // A worker that crashes is replaced, and the port answers new connections meanwhile. (Until
      // the kernel has closed the dead one's socket, a connection it had queued is reset: see the
      // README on net.ipv4.tcp_migrate_req.)
      process.kill(workerPids[0]!, "SIGKILL");
      await within(
        5000,
        async () => alive(workerPids[0]!),
        (running) => !running,
      );
      expect((await fetch(`http://127.0.0.1:${port}/ping`, { keepalive: false, headers: { connection: "close" } })).status).toBe(200);
      const replaced = await within(
        20_000,
        async () => {
          const now = new Set<number>();
          for (let i = 0; i < 20; i++) now.add(await answeredBy().catch(() => 0));
          return now;
        },
        (now) => now.size === 2 && !now.has(workerPids[0]!) && !now.has(0),
      );
      expect(replaced.has(workerPids[1]!)).toBe(true);
      expect(replaced.size).toBe(2);
      expect(existsSync(join(dir, "cairn.pid"))).toBe(true);
    } finally {
      expect(await stop(proc)).toBe(0);
    }
    expect(stderr).toContain("Worker 1 ended (SIGKILL); starting another");
    // Every worker ended with the supervisor, and the data directory is free again.
    expect(await readRows(dir, "SELECT pid FROM server_instances")).toEqual([]);
    expect(existsSync(join(dir, "cairn.pid"))).toBe(false);
  }, 60_000);
});
