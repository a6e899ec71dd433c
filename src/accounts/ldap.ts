// Password sign-in against an LDAP directory or Active Directory (LDAP_*): the person's entry found
// by a search (as the service account, or anonymously), the password proved by binding as that
// entry, then the entry mapped to an account by the one rule of external.ts. The password is only
// ever sent to the directory: nothing of it is stored.
import type { SignInClient } from "../sessions/service";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import tls from "node:tls";
import { Client, ResultCodeError, type Entry } from "ldapts";
import { HttpError } from "../core/errors";
import { createExternalSignIn, type ExternalDeps, type ExternalPerson, type ExternalSource } from "./external";

/** Milliseconds to open the connection, and for each operation (StartTLS, bind, search) on it. */
const CONNECT_TIMEOUT_MS = 5_000;
const OPERATION_TIMEOUT_MS = 10_000;
/** A typed name longer than this is no one's. */
const MAX_LOGIN_LENGTH = 256;

/** RFC 4515 section 3: the characters a filter's value must escape, as \XX. */
export const escapeFilterValue = (value: string) => value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, "0")}`);

/** The value of a DN's first RDN (`cn=Staff,ou=groups,…` → `Staff`), its escapes (RFC 4514) undone; a value that is no DN as it is. */
export function firstRdnValue(dn: string): string {
  const m = /^\s*[A-Za-z0-9.-]+\s*=\s*((?:\\[0-9A-Fa-f]{2}|\\.|[^,+;\\])*)/.exec(dn);
  if (!m) return dn.trim();
  const bytes: number[] = [];
  const raw = m[1]!.trim();
  for (let i = 0; i < raw.length; i++) {
    const hex = raw[i] === "\\" ? /^[0-9A-Fa-f]{2}/.exec(raw.slice(i + 1)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else {
      if (raw[i] === "\\") i++;
      bytes.push(...new TextEncoder().encode(raw[i]));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Active Directory's objectGUID (16 bytes, the first three fields little-endian) in the usual text form. */
export function guidText(bytes: Buffer): string {
  const h = (i: number) => bytes[i]!.toString(16).padStart(2, "0");
  const part = (idx: number[]) => idx.map(h).join("");
  return `${part([3, 2, 1, 0])}-${part([5, 4])}-${part([7, 6])}-${part([8, 9])}-${part([10, 11, 12, 13, 14, 15])}`;
}

/** An attribute's values as text, whatever letter case the server gave its name in. */
function valuesOf(entry: Entry, attribute: string): string[] {
  if (!attribute) return [];
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const v = key === undefined ? undefined : entry[key];
  const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
  return list.map((x) => (Buffer.isBuffer(x) ? x.toString("utf8") : String(x)).trim()).filter(Boolean);
}

export type LdapService = ReturnType<typeof createLdapService>;

export function createLdapService(deps: ExternalDeps) {
  const { config } = deps;
  const names = config.LDAP_ATTRIBUTES;
  const source: ExternalSource = {
    key: "ldap",
    title: config.LDAP_TITLE,
    // The institution's own directory: its mail attribute is the institution's record of the
    // person's address, kept by its administrators, not typed in by whoever made the entry.
    trustEmail: true,
    syncGroups: config.LDAP_SYNC_GROUPS,
  };
  const url = config.LDAP_URL ? new URL(config.LDAP_URL) : null;
  const external = createExternalSignIn(deps);
  const unreachable = () => new HttpError(502, `${source.title} cannot be reached at the moment: try again later.`);
  const misconfigured = (what: string) => new HttpError(502, `${source.title} sign-in is not working (${what}): tell the repository's administrators.`);

  let secureContext: tls.SecureContext | null = null;
  /** Trusted CAs: Bun's own, the system's and LDAP_TLS_CA_FILE's (read at the first sign-in, then kept: parsing them costs more than the sign-in). */
  const tlsOptions = (): tls.ConnectionOptions => {
    if (!secureContext) {
      const ca = [...tls.getCACertificates("default"), ...tls.getCACertificates("system")];
      if (config.LDAP_TLS_CA_FILE) ca.push(readFileSync(config.LDAP_TLS_CA_FILE, "utf8"));
      secureContext = tls.createSecureContext({ ca });
    }
    const host = url!.hostname.replace(/^\[|\]$/g, "");
    // The name the certificate must show: ldapts gives none to StartTLS's upgrade.
    return { secureContext, host, ...(isIP(host) ? {} : { servername: host }) };
  };

  const attributes = [names.email, names.name, "cn", names.affiliation, names.groups, "entryUUID", "objectGUID"].filter(Boolean);

  /** The one entry `login` names, or null (none, or more than one). */
  async function findEntry(client: Client, login: string): Promise<Entry | null> {
    try {
      if (config.LDAP_BIND_DN) await client.bind(config.LDAP_BIND_DN, config.LDAP_BIND_PASSWORD);
    } catch (err) {
      if (err instanceof ResultCodeError) throw misconfigured("the directory refused the service account LDAP_BIND_DN");
      throw err;
    }
    try {
      const { searchEntries } = await client.search(config.LDAP_SEARCH_BASE, {
        scope: "sub",
        filter: config.LDAP_USER_FILTER.replaceAll("{login}", escapeFilterValue(login)),
        attributes,
        explicitBufferAttributes: ["objectGUID"],
        sizeLimit: 2,
        timeLimit: Math.ceil(OPERATION_TIMEOUT_MS / 1000),
      });
      return searchEntries.length === 1 ? searchEntries[0]! : null;
    } catch (err) {
      // Two entries or more (the server stops at sizeLimit): the name is nobody's in particular.
      if (err instanceof ResultCodeError && err.code === 4) return null;
      if (err instanceof ResultCodeError) throw misconfigured(`the search under LDAP_SEARCH_BASE failed: ${err.message}`);
      throw err;
    }
  }

  /** The entry whose password `password` is, or null (no such entry, or the directory refused the bind). */
  async function check(login: string, password: string): Promise<Entry | null> {
    const client = new Client({
      url: config.LDAP_URL,
      connectTimeout: CONNECT_TIMEOUT_MS,
      timeout: OPERATION_TIMEOUT_MS,
      tlsOptions: url!.protocol === "ldaps:" ? tlsOptions() : undefined,
    });
    try {
      if (config.LDAP_START_TLS) await client.startTLS(tlsOptions());
      const entry = await findEntry(client, login);
      if (!entry) return null;
      try {
        await client.bind(entry.dn, password);
        return entry;
      } catch (err) {
        // Wrong password, or a lock the directory keeps (expired password, disabled account).
        if (err instanceof ResultCodeError) return null;
        throw err;
      }
    } catch (err) {
      if (err instanceof HttpError) throw err;
      // Refused connection, timeout, TLS failure (an untrusted certificate among them).
      throw unreachable();
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  /** What the entry says about the person. */
  function personOf(entry: Entry): ExternalPerson {
    const first = (attribute: string) => valuesOf(entry, attribute)[0] ?? "";
    const uuid = first("entryUUID").toLowerCase();
    const guid = entry.objectGUID;
    const guidBytes = Array.isArray(guid) ? guid[0] : guid;
    // A stable identifier (RFC 4530's entryUUID, AD's objectGUID) when the directory shows one:
    // a DN changes when a person is renamed or moved, and may later be given to someone else.
    const subject = uuid || (Buffer.isBuffer(guidBytes) && guidBytes.length === 16 ? guidText(guidBytes) : entry.dn.toLowerCase());
    return {
      subject,
      email: first(names.email) || null,
      emailVerified: true,
      fullName: (first(names.name) || first("cn")).slice(0, 255),
      affiliation: first(names.affiliation).slice(0, 255),
      groups: names.groups ? valuesOf(entry, names.groups).map(firstRdnValue) : null,
    };
  }

  return {
    enabled: url !== null,

    /**
     * The password sign-in's second chance (sessions' directory hook): a new session of the
     * directory entry's account when the directory proves the password, null when it does not
     * (no entry, wrong password). An empty password is refused before any bind: LDAP takes a bind
     * with a DN and no password as an anonymous one, which "succeeds" (RFC 4513 5.1.2).
     */
    async signIn(login: string, password: string, address: string | null, client?: SignInClient): Promise<{ secret: string; userId: number } | null> {
      const name = login.trim();
      if (!url || !name || name.length > MAX_LOGIN_LENGTH || !password) return null;
      const entry = await check(name, password);
      if (!entry) return null;
      const outcome = await external.signIn(source, personOf(entry), { next: "/", address, client });
      if (outcome.kind === "session") return { secret: outcome.secret, userId: outcome.userId };
      // The directory vouches for its addresses, so only `link-first` can come back: a local account
      // of the entry's address whose owner never confirmed it (external.ts links only confirmed ones).
      throw new HttpError(
        409,
        `An account with the e-mail address ${outcome.email} exists already, and its address is not confirmed: sign in to it with its password (or confirm its address) first, or ask the repository's administrators.`,
      );
    },
  };
}
