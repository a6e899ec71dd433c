// TLS to PostgreSQL as libpq's URL parameters say it, so the address an IT department hands out works
// as it does for psql: `sslmode` (disable, allow, prefer, require: encrypted; verify-ca: and the
// certificate signed by a trusted authority; verify-full: and naming the host) and `sslrootcert`
// (a PEM file of the authorities to trust, or `system`). postgres.js knows the modes' names but
// reads no certificate file and would send `sslrootcert` to the server as a setting (refused), so
// both are taken out of the URL here and given as TLS options.
import { readFileSync } from "node:fs";
import type { ConnectionOptions } from "node:tls";

const MODES = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"] as const;
type Mode = (typeof MODES)[number];

export type Tls = false | "allow" | "prefer" | "require" | ConnectionOptions;

/** A DATABASE_URL's TLS settings that cannot work, said for the configuration's error; null when they can. */
export function tlsProblem(url: string): string | null {
  try {
    connectionOf(url);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The URL postgres.js is given (without the TLS parameters) and its `ssl` option. */
export function connectionOf(url: string): { url: string; ssl: Tls } {
  const u = new URL(url);
  const mode = (u.searchParams.get("sslmode") ?? "disable") as Mode;
  const rootcert = u.searchParams.get("sslrootcert");
  u.searchParams.delete("sslmode");
  u.searchParams.delete("sslrootcert");
  if (!MODES.includes(mode)) throw new Error(`DATABASE_URL's sslmode must be one of ${MODES.join(", ")} (it is "${mode}")`);
  if (rootcert !== null && mode !== "verify-ca" && mode !== "verify-full") {
    throw new Error("DATABASE_URL's sslrootcert is used only to verify the server: give sslmode=verify-full (or verify-ca) with it");
  }
  let ca: string | undefined;
  if (rootcert !== null && rootcert !== "system") {
    try {
      ca = readFileSync(rootcert, "utf8");
    } catch (error) {
      throw new Error(`DATABASE_URL's sslrootcert ${rootcert} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  const ssl: Tls =
    mode === "disable"
      ? false
      : mode === "verify-full"
        ? // The name checked against the URL's host (postgres.js gives TLS no name for an IP address).
          { rejectUnauthorized: true, host: u.hostname.replace(/^\[|\]$/g, ""), ...(ca ? { ca } : {}) }
        : mode === "verify-ca"
          ? // The authority checked, the name not (libpq's verify-ca).
            { rejectUnauthorized: true, ...(ca ? { ca } : {}), checkServerIdentity: () => undefined }
          : mode;
  return { url: u.toString(), ssl };
}
