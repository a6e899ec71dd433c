// The self-signed certificate a fresh install serves HTTPS with, made once and kept in DATA/tls/.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join } from "node:path";
import type * as X509 from "@peculiar/x509";

export interface TlsFiles {
  cert: string;
  key: string;
  /** True when this call made a new certificate. */
  created: boolean;
}

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString("base64").replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n")}-----END ${label}-----\n`;

/** Host names and addresses the certificate must name: the configured ones plus the loopback aliases. */
export const certificateNames = (hosts: string[]) => [...new Set([...hosts.map((h) => h.toLowerCase()), "localhost", "127.0.0.1", "::1"])].sort();

/**
 * @peculiar/x509, loaded when a certificate is made (once per data directory): held from the start
 * it would cost every server its memory. It resolves its services through tsyringe, which needs the
 * Reflect metadata API first.
 */
async function loadX509(): Promise<typeof X509> {
  await import("reflect-metadata");
  return import("@peculiar/x509");
}

async function makeCertificate(names: string[]) {
  const x509 = await loadX509();
  const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
      .toString("hex")
      .replace(/^[89a-f]/, "1"),
    name: `CN=${names.find((n) => !isIP(n)) ?? "localhost"}, O=Cairn self-signed`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 825 * 86_400_000),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((n) => (isIP(n) ? { type: "ip" as const, value: n } : { type: "dns" as const, value: n }))),
    ],
  });
  const key = await crypto.subtle.exportKey("pkcs8", keys.privateKey);
  return { cert: cert.toString("pem") + "\n", key: pem("PRIVATE KEY", key) };
}

/**
 * Returns the certificate and key in DATA/tls/, making them when missing or when the host names
 * changed since they were made (so a new BASE_URL does not keep serving a certificate for the old one).
 */
export async function ensureSelfSignedCertificate(dataDir: string, hosts: string[]): Promise<TlsFiles> {
  const dir = join(dataDir, "tls");
  const files = { cert: join(dir, "cert.pem"), key: join(dir, "key.pem"), names: join(dir, "names.json") };
  const names = certificateNames(hosts);
  const current = existsSync(files.names) ? readFileSync(files.names, "utf8") : "";
  if (existsSync(files.cert) && existsSync(files.key) && current === JSON.stringify(names)) {
    return { cert: readFileSync(files.cert, "utf8"), key: readFileSync(files.key, "utf8"), created: false };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = await makeCertificate(names);
  writeFileSync(files.key, made.key, { mode: 0o600 });
  writeFileSync(files.cert, made.cert);
  writeFileSync(files.names, JSON.stringify(names));
  return { ...made, created: true };
}
