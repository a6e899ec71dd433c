// A throw-away PostgreSQL server for the tests and the bench: Debian's own binaries (an independent
// implementation, never Cairn playing the other side), a new cluster in a temporary folder on a free
// port of 127.0.0.1, trust authentication for the `cairn` superuser, fsync off (nothing in it is
// kept; the bench asks for a durable one, as an installation runs it). PostgreSQL refuses to run as root: as root it runs as the `postgres` user. The server is a
// child process that the kernel stops when its parent ends (setpriv --pdeathsig).
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { makeCertificates } from "./certificates";
import { freePort } from "./free-port";

/** The newest installed server's binaries (Debian: /usr/lib/postgresql/<major>/bin), or null. */
export function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(root, majors[0]!, "bin") : null;
}

/** Why no test server can start here, or null. */
export function postgresMissing(): string | null {
  return postgresBin() ? null : "PostgreSQL's server is not installed (Debian: apt-get install postgresql)";
}

const RUNUSER = ["/usr/sbin/runuser", "/sbin/runuser"].find((p) => existsSync(p)) ?? "runuser";
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p)) ?? "setpriv";

export interface PostgresCluster {
  /** `postgres://cairn@127.0.0.1:PORT/postgres`: the superuser on the maintenance database. */
  url: string;
  port: number;
  /** The server's binaries. */
  bin: string;
  /** With `tls`: the CA file that signed the server's certificate (for 127.0.0.1). */
  ca: string | null;
  /** A URL of another database on the same server. */
  urlOf(database: string): string;
  /** Stops the server and starts it again on the same port, keeping its data (a database that goes away and comes back). */
  halt(): void;
  resume(): void;
  stop(): void;
}

export async function startPostgresCluster(options: { durable?: boolean; tls?: boolean } = {}): Promise<PostgresCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error(postgresMissing()!);
  const dir = mkdtempSync(join(tmpdir(), "cairn-pg-"));
  const asRoot = userInfo().uid === 0;
  const pgIds = asRoot ? { uid: Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim(), gid: Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString().trim() } : null;
  if (pgIds) chownSync(dir, Number(pgIds.uid), Number(pgIds.gid));
  // By their full paths: /usr/sbin is not on every PATH (a CI runner's, a fresh clone's).
  const as = (cmd: string[]) => (asRoot ? [RUNUSER, "-u", "postgres", "--", ...cmd] : cmd);
  const run = (cmd: string[]) => {
    const result = Bun.spawnSync(as(cmd), { stdout: "pipe", stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`${cmd[0]} failed (${result.exitCode}): ${result.stderr.toString()}${result.stdout.toString()}`);
  };
  const data = join(dir, "data");
  // C.UTF-8: byte order for text, as SQLite compares, and UTF-8 for every script.
  run([join(bin, "initdb"), "-D", data, "-U", "cairn", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"]);
  const port = freePort();
  // TLS (a certificate for 127.0.0.1 from a CA of the test's own, `tls.ca`) beside plain connections.
  const tls = options.tls ? makeCertificates(dir, "Test database CA") : null;
  if (tls && pgIds) for (const file of [tls.cert, tls.key]) chownSync(file, Number(pgIds.uid), Number(pgIds.gid));
  if (tls) chmodSync(tls.key, 0o600);
  const settings = [
    ...(tls
      ? [
          ["ssl", "on"],
          ["ssl_cert_file", tls.cert],
          ["ssl_key_file", tls.key],
        ]
      : []),
    ["port", String(port)],
    ["listen_addresses", "127.0.0.1"],
    ["unix_socket_directories", dir],
    ...(options.durable
      ? []
      : [
          ["fsync", "off"],
          ["synchronous_commit", "off"],
          ["full_page_writes", "off"],
        ]),
    ["max_connections", "300"],
    ["shared_buffers", "128MB"],
  ].flatMap(([k, v]) => ["-c", `${k}=${v}`]);
  // The server is this process's child, and setpriv asks the kernel to stop it (SIGINT: a fast
  // shutdown) when this process ends however it ends (a test killed by a timeout included), so no
  // server outlives its tests. As root, setpriv also runs it as the postgres user.
  const ids = pgIds ? ["--reuid", pgIds.uid, "--regid", pgIds.gid, "--init-groups"] : [];
  let server: ReturnType<typeof Bun.spawn> | null = null;
  const logPath = join(dir, "log");
  const resume = () => {
    server = Bun.spawn([SETPRIV, "--pdeathsig", "INT", ...ids, "--", join(bin, "postgres"), "-D", data, ...settings], {
      stdin: "ignore",
      stdout: Bun.file(logPath),
      stderr: Bun.file(logPath),
    });
    server.unref();
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const ready = Bun.spawnSync([join(bin, "pg_isready"), "-q", "-h", "127.0.0.1", "-p", String(port)]);
      if (ready.exitCode === 0) return;
      if (server.exitCode !== null) break;
      Bun.sleepSync(50);
    }
    const log = existsSync(logPath) ? readFileSync(logPath, "utf8") : "";
    throw new Error(`PostgreSQL did not start on port ${port}:\n${log}`);
  };
  resume();
  /** A fast shutdown (not an immediate one: with fsync and synchronous commits off, that may lose the last commits), waited for. */
  const halt = () => {
    if (!server || server.exitCode !== null) return;
    server.kill("SIGINT");
    while (server.exitCode === null && existsSync(join(data, "postmaster.pid"))) Bun.sleepSync(20);
  };
  const urlOf = (database: string) => `postgres://cairn@127.0.0.1:${port}/${database}`;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    halt();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", stop);
  return { url: urlOf("postgres"), port, bin, ca: tls?.ca ?? null, urlOf, halt, resume, stop };
}
