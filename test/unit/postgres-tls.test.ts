// TLS to PostgreSQL as libpq's URL parameters say it (src/core/postgres-tls.ts), against Debian's
// server started by the test with a certificate for 127.0.0.1 from a CA of the test's own: each mode
// encrypts; verify-full trusts only the given authority and only for the URL's host; a server
// without TLS is refused when TLS is asked for; the settings that cannot work are configuration
// errors at start.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config";
import { connectionOf } from "../../src/core/postgres-tls";
import { createPostgresPort } from "../../src/db/postgres/port";
import { DatabaseUnreachable } from "../../src/db/port";
import { makeCertificates } from "../helpers/certificates";
import { startPostgresCluster, type PostgresCluster } from "../helpers/postgres-cluster";

let secure: PostgresCluster;
let plain: PostgresCluster;
const folders: string[] = [];

beforeAll(async () => {
  [secure, plain] = [await startPostgresCluster({ tls: true }), await startPostgresCluster()];
});
afterAll(() => {
  secure.stop();
  plain.stop();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Whether the port's connection is encrypted, as the server sees it; or the error at start. */
async function encrypted(url: string): Promise<boolean | Error> {
  const port = createPostgresPort(url);
  try {
    await port.ready();
    const row = await port.statements.get<{ ssl: number }>("SELECT CASE WHEN ssl THEN 1 ELSE 0 END AS ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()");
    return row?.ssl === 1;
  } catch (error) {
    return error as Error;
  } finally {
    port.close();
  }
}

const withParams = (cluster: PostgresCluster, params: Record<string, string>, host = "127.0.0.1") => {
  const u = new URL(cluster.url);
  u.hostname = host;
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
};

describe("TLS to the database", () => {
  test("no sslmode (or disable): a plain connection, as before", async () => {
    expect(await encrypted(secure.url)).toBe(false);
    expect(await encrypted(withParams(secure, { sslmode: "disable" }))).toBe(false);
  });

  test("require, prefer: encrypted (the certificate not checked, as libpq's require)", async () => {
    expect(await encrypted(withParams(secure, { sslmode: "require" }))).toBe(true);
    expect(await encrypted(withParams(secure, { sslmode: "prefer" }))).toBe(true);
  });

  test("verify-full with sslrootcert: encrypted, the server's certificate checked against that authority and the host", async () => {
    expect(await encrypted(withParams(secure, { sslmode: "verify-full", sslrootcert: secure.ca! }))).toBe(true);
  });

  test("verify-full without the authority (the system's only): refused in one line, the database not reached", async () => {
    const result = await encrypted(withParams(secure, { sslmode: "verify-full" }));
    expect(result).toBeInstanceOf(DatabaseUnreachable);
    expect((result as Error).message).toStartWith(`cannot reach the database postgres://cairn@127.0.0.1:${secure.port}/postgres: `);
    expect((result as Error).message).toMatch(/certificate/i);
  });

  test("verify-full for another host name than the certificate's: refused; verify-ca (authority only) accepts it", async () => {
    const other = await encrypted(withParams(secure, { sslmode: "verify-full", sslrootcert: secure.ca! }, "localhost"));
    expect(other).toBeInstanceOf(DatabaseUnreachable);
    expect((other as Error).message).toMatch(/localhost|altname|host/i);
    expect(await encrypted(withParams(secure, { sslmode: "verify-ca", sslrootcert: secure.ca! }, "localhost"))).toBe(true);
  });

  test("verify-ca with another authority's certificate: refused", async () => {
    const result = await encrypted(withParams(secure, { sslmode: "verify-ca", sslrootcert: plainCa() }));
    expect(result).toBeInstanceOf(DatabaseUnreachable);
  });

  test("TLS asked of a server without it: refused, not sent in the clear", async () => {
    for (const sslmode of ["require", "verify-full"]) {
      const result = await encrypted(withParams(plain, { sslmode, ...(sslmode === "verify-full" ? { sslrootcert: secure.ca! } : {}) }));
      expect(result).toBeInstanceOf(DatabaseUnreachable);
    }
    // prefer falls back to a plain connection, as libpq's does.
    expect(await encrypted(withParams(plain, { sslmode: "prefer" }))).toBe(false);
  });
});

/** A CA file that did not sign the secure server's certificate. */
function plainCa(): string {
  const dir = mkdtempSync(join(tmpdir(), "cairn-other-ca-"));
  folders.push(dir);
  return makeCertificates(dir, "Another CA").ca;
}

describe("settings that cannot work are refused at start", () => {
  const load = (url: string) => () => loadConfig({ flags: { DATA_DIR: "/tmp/cairn-tls-config", DATABASE_URL: url }, env: {} });

  test("an unknown sslmode", () => {
    expect(load("postgres://u@127.0.0.1/db?sslmode=on")).toThrow(ConfigError);
    expect(load("postgres://u@127.0.0.1/db?sslmode=on")).toThrow('sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full (it is "on")');
  });

  test("an sslrootcert that cannot be read, or given without verification", () => {
    expect(load("postgres://u@127.0.0.1/db?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")).toThrow("sslrootcert /nonexistent/ca.pem cannot be read: ENOENT");
    expect(load(`postgres://u@127.0.0.1/db?sslmode=require&sslrootcert=${encodeURIComponent("/etc/ssl/certs/ca-certificates.crt")}`)).toThrow("give sslmode=verify-full");
  });

  test("the TLS parameters are taken out of the address postgres.js is given; the others stay", () => {
    const { url, ssl } = connectionOf("postgres://u:p@db.example.org:5433/cairn?sslmode=require&application_name=x");
    expect(url).toBe("postgres://u:p@db.example.org:5433/cairn?application_name=x");
    expect(ssl).toBe("require");
  });
});
