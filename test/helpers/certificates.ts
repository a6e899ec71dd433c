// Certificates for the test servers that speak TLS (slapd, PostgreSQL): a CA and a server
// certificate for 127.0.0.1 signed by it, made by Debian's openssl, valid ten years (so a run with
// the clock a year ahead still finds them valid).
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const OPENSSL = "/usr/bin/openssl";

function run(cmd: string[]): void {
  const result = Bun.spawnSync(cmd, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${cmd[0]} failed (${result.exitCode}): ${result.stderr.toString()}`);
}

/** A CA (`ca.pem`) and a certificate for 127.0.0.1 signed by it (`server.pem`, `server.key`), in `dir`. */
export function makeCertificates(dir: string, caName = "Test CA"): { ca: string; cert: string; key: string } {
  const conf = join(dir, "san.cnf");
  writeFileSync(conf, "basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  const f = (name: string) => join(dir, name);
  run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f("ca.key"), "-out", f("ca.pem"), "-days", "3650", "-subj", `/CN=${caName}`]);
  run([OPENSSL, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", f("server.key"), "-out", f("server.csr"), "-subj", "/CN=127.0.0.1"]);
  run([OPENSSL, "x509", "-req", "-in", f("server.csr"), "-CA", f("ca.pem"), "-CAkey", f("ca.key"), "-CAcreateserial", "-out", f("server.pem"), "-days", "3650", "-extfile", conf]);
  return { ca: f("ca.pem"), cert: f("server.pem"), key: f("server.key") };
}
