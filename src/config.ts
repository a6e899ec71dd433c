// The configuration: one typed table of keys, read from defaults < cairn.toml < CAIRN_* env < flags.
// The only module that reads process.env or the config file.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve, win32 } from "node:path";
import { parse as parseToml } from "smol-toml";
import { checkTrustedProxies } from "./core/client-address";
import { parseRateLimits } from "./core/rate-limit";
import { ConfigTableError } from "./core/config-tables";
import { parseOidcProviders, type OidcProviderConfig } from "./core/oidc-providers";
import { parseSamlIdps, type SamlIdpConfig } from "./core/saml-idps";
import { DEFAULT_LDAP_ATTRIBUTES, ldapSettingsProblem, parseLdapAttributes, type LdapAttributeNames } from "./core/ldap-settings";

/** The settings that are tables or arrays of tables, by kind (core/config-tables.ts reads them alike). */
const TABLE_PARSERS = { "oidc-providers": parseOidcProviders, "saml-idps": parseSamlIdps, "ldap-attributes": parseLdapAttributes };

type Kind = "string" | "integer" | "boolean" | "list" | "bytes" | "oidc-providers" | "saml-idps" | "ldap-attributes";

interface KeySpec {
  kind: Kind;
  default: unknown;
  description: string;
  secret?: boolean;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** Every configuration key. Names follow the spec and InvenioRDM where they exist. */
export const CONFIG_KEYS = {
  HOST: { kind: "string", default: "127.0.0.1", description: "Address the server listens on." },
  PORT: { kind: "integer", default: 5000, description: "Port the server listens on." },
  BASE_URL: {
    kind: "string",
    default: "",
    description: "Public URL of the service, used in every link. Default: https://HOST:PORT (http:// with HTTP).",
  },
  APP_ALLOWED_HOSTS: {
    kind: "list",
    default: [],
    description: "Host names accepted in the Host header. Default: the host of BASE_URL (and the other loopback names when it is one). Others get 400.",
  },
  APP_TRUSTED_PROXIES: {
    kind: "list",
    default: [],
    description:
      "Addresses or CIDR ranges (10.0.0.0/8) of reverse proxies whose X-Forwarded-For is believed: the client is the last address they did not add. Empty: the socket's peer is the client (InvenioRDM counts proxies with WSGI_PROXIES; a list cannot be fooled by a client that reaches the server directly).",
  },
  CORS_ORIGINS: {
    kind: "list",
    default: ["*"],
    description:
      "Origins whose browser scripts may call the API (https://app.example.org), * for any (safe: tokens travel in the Authorization header, not in cookies). Empty: no CORS headers.",
  },
  RATELIMIT_ENABLED: {
    kind: "boolean",
    default: true,
    description:
      "Limit requests per user (with a token) or per client address (without); over the limit a 429 with Retry-After. Clients on the loopback address are not limited unless APP_TRUSTED_PROXIES is set.",
  },
  RATELIMIT_AUTHENTICATED_USER: {
    kind: "string",
    default: "25000 per hour;1000 per minute",
    description: "Limits for requests with a token, per user (InvenioRDM's default; Flask-Limiter notation, ; between limits).",
  },
  RATELIMIT_GUEST_USER: { kind: "string", default: "5000 per hour;500 per minute", description: "Limits for requests without a token, per client address (InvenioRDM's default)." },
  THEME_SITENAME: { kind: "string", default: "Cairn", description: "Name of the repository: the publisher of records that name none, in exports." },
  HTTP: { kind: "boolean", default: false, description: "Serve plain HTTP (behind a TLS-terminating proxy, or in tests)." },
  TLS_CERT: { kind: "string", default: "", description: "PEM certificate file. Default: a self-signed one made on first start in DATA/tls/." },
  TLS_KEY: { kind: "string", default: "", description: "PEM private key file for TLS_CERT." },
  SEARCH_DEFAULT_PAGE_SIZE: { kind: "integer", default: 10, description: "Items per page when a search gives no size." },
  SEARCH_MAX_PAGE_SIZE: { kind: "integer", default: 1000, description: "Largest accepted size (clients such as zen4R ask for 1,000); larger is a 400." },
  SEARCH_MAX_RESULTS_WINDOW: { kind: "integer", default: 10000, description: "Largest page*size; beyond it a 400." },
  SEARCH_READERS: {
    kind: "integer",
    default: 1,
    description:
      "Worker threads that run record searches, each on its own read-only connection, so a costly search never holds up other requests. 0: searches run on the request thread.",
  },
  SEARCH_TIMEOUT_MS: {
    kind: "integer",
    default: 10000,
    description: "Time budget of one record search (with SEARCH_READERS of 1 or more): a search still running then is stopped and answered 503.",
  },
  RDM_SEARCH_SORT_OPTIONS: {
    kind: "list",
    default: ["bestmatch", "newest", "oldest", "updated-desc", "updated-asc", "version", "mostviewed", "mostdownloaded"],
    description: "Sort options record searches offer (InvenioRDM's RDM_SEARCH sort list); others are a 400.",
  },
  MAX_CONTENT_LENGTH: { kind: "bytes", default: 10 * MiB, description: "Largest JSON request body in bytes; beyond it 413." },
  RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS: {
    kind: "list",
    default: [],
    description: "Host names that fetched files (storage class F) may be downloaded from. Empty: fetching refused.",
  },
  RDM_ALLOW_METADATA_ONLY_RECORDS: { kind: "boolean", default: true, description: "Allow records without files." },
  FILES_LINKS_ABSOLUTE: {
    kind: "boolean",
    default: false,
    description:
      "Render file-endpoint links absolute (as InvenioRDM does) instead of the spec's path-only form; turn on for the REST docs' upload.py and other requests-based scripts.",
  },
  RDM_ALLOW_RESTRICTED_RECORDS: { kind: "boolean", default: true, description: "Allow restricted records." },
  RDM_RECORDS_MAX_FILES_COUNT: { kind: "integer", default: 100, description: "Most files per record." },
  RDM_FILES_DEFAULT_MAX_FILE_SIZE: { kind: "bytes", default: 50 * GiB, description: "Largest file in bytes; beyond it 413." },
  FILES_VERIFY_INTERVAL_DAYS: { kind: "integer", default: 14, description: "Each stored file is re-hashed this often (0: every hour) by the integrity job." },
  FILES_STORAGE: {
    kind: "string",
    default: "local",
    description: "Where file bytes are kept: local (DATA/files/objects) or s3 (an S3-compatible bucket: AWS S3, MinIO, Garage, Ceph RGW, Backblaze B2, Wasabi).",
  },
  S3_ENDPOINT: { kind: "string", default: "", description: "URL of the S3-compatible service (https://s3.example.org:9000). Default: AWS S3 of S3_REGION." },
  S3_BUCKET: { kind: "string", default: "", description: "Bucket holding the files (it must exist). Required with FILES_STORAGE = s3." },
  S3_REGION: { kind: "string", default: "us-east-1", description: "Region the requests are signed for (MinIO, Garage and Ceph accept us-east-1 unless set otherwise)." },
  S3_ACCESS_KEY_ID: { kind: "string", default: "", description: "Access key of the S3 account." },
  S3_SECRET_ACCESS_KEY: { kind: "string", default: "", description: "Secret key of the S3 account.", secret: true },
  S3_PREFIX: { kind: "string", default: "", description: "Prefix of every object key (files/ keeps them apart in a shared bucket); an object's key is this and its id." },
  S3_PRESIGNED_DOWNLOADS: {
    kind: "boolean",
    default: false,
    description:
      "Answer a file download with a 302 to a short-lived presigned URL of the bucket instead of streaming the bytes through Cairn (the permission checks still run first).",
  },
  S3_PRESIGNED_EXPIRES_SECONDS: { kind: "integer", default: 300, description: "How long a presigned download URL stays valid." },
  DATACITE_ENABLED: { kind: "boolean", default: false, description: "Register DOIs with DataCite." },
  DATACITE_PREFIX: { kind: "string", default: "", description: "DOI prefix (e.g. 10.1234). No prefix: DOIs are off." },
  DATACITE_USERNAME: { kind: "string", default: "", description: "DataCite repository account." },
  DATACITE_PASSWORD: { kind: "string", default: "", description: "DataCite repository password.", secret: true },
  DATACITE_TEST_MODE: { kind: "boolean", default: true, description: "Use DataCite's test service." },
  DATACITE_FORMAT: { kind: "string", default: "{prefix}/{id}", description: "How a DOI is formed from the prefix and record id." },
  DATACITE_URL: { kind: "string", default: "", description: "DataCite REST API URL. Default: by DATACITE_TEST_MODE." },
  DATACITE_DATACENTER_SYMBOL: {
    kind: "string",
    default: "",
    description: "DataCite data centre symbol shown in OAI-PMH oai_datacite records. Default: DATACITE_USERNAME, else CAIRN.",
  },
  OAISERVER_ID_PREFIX: {
    kind: "string",
    default: "",
    description: "Namespace of OAI-PMH identifiers (oai:PREFIX:record-id). Default: the host name of BASE_URL.",
  },
  OAISERVER_PAGE_SIZE: { kind: "integer", default: 100, description: "Records, headers or sets per OAI-PMH list response." },
  OAISERVER_RESUMPTION_TOKEN_EXPIRE_SECONDS: {
    kind: "integer",
    default: 3600,
    description: "How long an OAI-PMH resumption token stays valid (it survives restarts).",
  },
  ADMIN_EMAIL: {
    kind: "string",
    default: "admin@localhost",
    description: "E-mail address of the administrator created on first start (`serve --admin-email`); also OAI-PMH Identify's adminEmail unless OAISERVER_ADMIN_EMAIL is set.",
  },
  BROWSER: {
    kind: "string",
    default: "",
    description:
      "Program that opens the front page on the desktop start (`cairn` with no command): called with the URL as its one argument. Default: xdg-open on Linux, open on macOS, cmd /c start on Windows.",
  },
  OAISERVER_ADMIN_EMAIL: {
    kind: "string",
    default: "",
    description: "adminEmail of OAI-PMH Identify. Default: the first administrator's e-mail address.",
  },
  COMMUNITIES_LOGO_MAX_FILE_SIZE: { kind: "bytes", default: 10 ** 6, description: "Largest community logo in bytes (InvenioRDM's default, 10^6); beyond it 400." },
  COMMUNITIES_SEARCH_SORT_OPTIONS: {
    kind: "list",
    default: ["bestmatch", "newest", "oldest", "updated-desc", "updated-asc", "version"],
    description: "Sort options community searches offer (InvenioRDM's COMMUNITIES_SEARCH sort list); others are a 400.",
  },
  COMMUNITIES_OAI_SETS_PREFIX: { kind: "string", default: "user-", description: "OAI-PMH set of each public community: this prefix and its slug (Zenodo's user-<slug>)." },
  MAIL_SERVER: { kind: "string", default: "", description: "SMTP host. Empty: mail stays in the outbox table only." },
  MAIL_PORT: { kind: "integer", default: 587, description: "SMTP port." },
  MAIL_USERNAME: { kind: "string", default: "", description: "SMTP user." },
  MAIL_PASSWORD: { kind: "string", default: "", description: "SMTP password.", secret: true },
  MAIL_USE_TLS: { kind: "boolean", default: true, description: "STARTTLS on the SMTP connection." },
  MAIL_USE_SSL: { kind: "boolean", default: false, description: "Implicit TLS on the SMTP connection." },
  MAIL_DEFAULT_SENDER: { kind: "string", default: "cairn@localhost", description: "From address of outgoing mail." },
  ACCOUNTS_DEFAULT_USER_VISIBILITY: {
    kind: "string",
    default: "public",
    description: "Profile visibility of new accounts: public (listed in the users directory; e-mail stays hidden) or restricted.",
  },
  ACCOUNTS_REGISTERABLE: { kind: "boolean", default: false, description: "Anyone may make an account at /signup. Off: accounts are made by administrators only." },
  ACCOUNTS_REGISTER_ALLOWED_DOMAINS: {
    kind: "list",
    default: [],
    description:
      "E-mail domains a new account may have, by sign-up or a first sign-in through a provider, an IdP or the directory (uni.example also takes its subdomains, dept.uni.example); existing accounts are not affected. Empty: any.",
  },
  ACCOUNTS_CONFIRM_EMAIL: {
    kind: "boolean",
    default: true,
    description: "A new account confirms its e-mail address through a one-use link (valid 24 hours) before it may sign in. Accounts administrators make are confirmed.",
  },
  ACCOUNTS_LOCAL_LOGIN_ENABLED: {
    kind: "boolean",
    default: true,
    description:
      "Password sign-in on /login. Off: /login shows only the sign-in providers' buttons; /login?local=1 still shows the password form, through which only administrators may sign in (to administer the repository while its identity provider is down).",
  },
  OAUTHCLIENT_AUTO_REDIRECT_TO_EXTERNAL_LOGIN: {
    kind: "boolean",
    default: false,
    description: "With exactly one sign-in provider and ACCOUNTS_LOCAL_LOGIN_ENABLED off, /login goes straight to that provider (/login?local=1 still shows the password form).",
  },
  JOBS_CONCURRENCY: { kind: "integer", default: 2, description: "Background jobs run at once." },
  JOBS_POLL_INTERVAL_MS: { kind: "integer", default: 1000, description: "How often the worker looks for due jobs." },
  JOBS_RETENTION_DAYS: { kind: "integer", default: 14, description: "Finished jobs older than this are pruned." },
  BACKUP_DIR: {
    kind: "string",
    default: "",
    description: "Folder the scheduled backup writes to (dated snapshots sharing one pool of files; outside the data directory). Empty: no scheduled backups.",
  },
  BACKUP_SCHEDULE: {
    kind: "string",
    default: "daily",
    description: "When the scheduled backup runs: hourly, daily, weekly, an interval between runs (6h, 2d; at least 5m), or HH:MM (every day at that UTC time).",
  },
  BACKUP_KEEP: { kind: "integer", default: 7, description: "Snapshots the scheduled backup keeps in BACKUP_DIR; older ones are removed after each backup." },
  STATS_ENABLED: { kind: "boolean", default: true, description: "Count record views and file downloads (COUNTER rules) and show them on records and in POST /api/stats." },
  STATS_EVENTS_RETENTION_DAYS: { kind: "integer", default: 90, description: "Raw view/download events older than this are deleted once aggregated; daily totals are kept." },
  STATS_AGGREGATE_INTERVAL_MS: {
    kind: "integer",
    default: 5000,
    description: "Longest wait before new views and downloads are folded into the totals (they show within this plus a second).",
  },
  OIDC_PROVIDERS: {
    kind: "oidc-providers",
    default: [],
    secret: true,
    description:
      "OpenID Connect sign-in providers (Keycloak, Entra ID, Google, Okta, ORCID): [[OIDC_PROVIDERS]] tables in cairn.toml with name, title, issuer, client_id, client_secret, scopes, claims, trust_email, sync_groups, type (oidc or orcid); CAIRN_OIDC_PROVIDERS takes the same as a JSON array. Each is a button on /login; register {BASE_URL}/oauth/authorized/{name} as its redirect URI.",
  },
  SAML_IDPS: {
    kind: "saml-idps",
    default: [],
    description:
      "SAML 2.0 identity providers (Shibboleth, ADFS, eduGAIN): [[SAML_IDPS]] tables in cairn.toml with name, title, metadata_file or metadata_url, attributes, trust_email, sync_groups, entity_id; CAIRN_SAML_IDPS takes the same as a JSON array. Each is a button on /login; give the IdP {BASE_URL}/saml/metadata/{name}.",
  },
  LDAP_URL: {
    kind: "string",
    default: "",
    description: "LDAP or Active Directory server for password sign-in on /login (ldaps://ldap.example.org, ldap://…:389). Empty: off. Tried after local accounts.",
  },
  LDAP_START_TLS: { kind: "boolean", default: false, description: "Upgrade an ldap:// connection with StartTLS before any bind." },
  LDAP_TLS_CA_FILE: { kind: "string", default: "", description: "PEM file of CA certificates trusted for the directory, besides the system's and Bun's own." },
  LDAP_BIND_DN: { kind: "string", default: "", description: "DN of the service account that searches for the person's entry. Empty: the search is anonymous." },
  LDAP_BIND_PASSWORD: { kind: "string", default: "", description: "Password of LDAP_BIND_DN.", secret: true },
  LDAP_SEARCH_BASE: { kind: "string", default: "", description: "DN people are searched under (the whole subtree), such as ou=people,dc=uni,dc=example." },
  LDAP_USER_FILTER: {
    kind: "string",
    default: "(|(uid={login})(mail={login}))",
    description: "Filter finding the person's entry; {login} is the typed name, escaped (RFC 4515). Exactly one entry must match.",
  },
  LDAP_ATTRIBUTES: {
    kind: "ldap-attributes",
    default: DEFAULT_LDAP_ATTRIBUTES,
    description:
      "Attributes holding the person's facts: a table with email (mail), name (displayName, else cn), affiliation (none), groups (memberOf: each DN's CN names a group).",
  },
  LDAP_SYNC_GROUPS: { kind: "boolean", default: false, description: "The directory's groups become the person's group memberships at each sign-in." },
  LDAP_TITLE: { kind: "string", default: "Directory account", description: 'The directory\'s name in messages ("Directory account did not sign you in: …").' },
  LOG_REQUESTS: { kind: "boolean", default: false, description: "Log one line per request to stderr." },
} satisfies Record<string, KeySpec>;

export type ConfigKey = keyof typeof CONFIG_KEYS;

type ValueOf<K extends Kind> = K extends "string"
  ? string
  : K extends "integer" | "bytes"
    ? number
    : K extends "boolean"
      ? boolean
      : K extends "oidc-providers"
        ? OidcProviderConfig[]
        : K extends "saml-idps"
          ? SamlIdpConfig[]
          : K extends "ldap-attributes"
            ? LdapAttributeNames
            : string[];

export type Config = { -readonly [K in ConfigKey]: ValueOf<(typeof CONFIG_KEYS)[K]["kind"]> } & {
  /** The data directory (flag --data, env CAIRN_DATA, default ./cairn-data). */
  DATA_DIR: string;
};

/** A configuration problem: the CLI prints the message and exits 2. */
export class ConfigError extends Error {}

// A Map, not an object literal: unit names such as "constructor" must not resolve.
const SIZE_UNITS = new Map<string, number>(
  Object.entries({ "": 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: MiB, mb: MiB, mib: MiB, g: GiB, gb: GiB, gib: GiB, t: 1024 * GiB, tb: 1024 * GiB, tib: 1024 * GiB }),
);

function coerce(key: string, kind: Kind, raw: unknown, source: string): unknown {
  const fail = (what: string): never => {
    throw new ConfigError(`${key} from ${source}: ${what}, got ${JSON.stringify(raw)}`);
  };
  switch (kind) {
    case "string":
      if (typeof raw === "string") return raw;
      if (typeof raw === "number") return String(raw);
      return fail("expected a string");
    case "integer": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      return Number.isSafeInteger(n) ? n : fail("expected a whole number");
    }
    case "bytes": {
      if (typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0) return raw;
      const m = typeof raw === "string" ? /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(raw) : null;
      const unit = m ? SIZE_UNITS.get(m[2]!.toLowerCase()) : undefined;
      return m && unit ? Math.floor(Number(m[1]) * unit) : fail("expected a size such as 10485760, 10MiB or 50GB");
    }
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (typeof raw === "string" && /^(1|true|yes|on)$/i.test(raw.trim())) return true;
      if (typeof raw === "string" && /^(0|false|no|off)$/i.test(raw.trim())) return false;
      return fail("expected true or false");
    case "oidc-providers":
    case "saml-idps":
    case "ldap-attributes":
      try {
        return TABLE_PARSERS[kind](raw);
      } catch (err) {
        // Not the value itself: it may hold client secrets.
        if (err instanceof ConfigTableError) throw new ConfigError(`${key} from ${source}: ${err.message}`);
        throw err;
      }
    case "list":
      if (Array.isArray(raw) && raw.every((v) => typeof v === "string")) return raw;
      if (typeof raw === "string")
        return raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
      return fail("expected a list of strings");
  }
}

export interface LoadOptions {
  /** Values from command-line flags, by key. */
  flags?: Partial<Record<ConfigKey | "DATA_DIR", unknown>>;
  /** Config file path; default DATA_DIR/cairn.toml when it exists. */
  configFile?: string;
  env?: Record<string, string | undefined>;
}

function readConfigFile(path: string, required: boolean): Record<string, unknown> {
  if (!existsSync(path)) {
    if (required) throw new ConfigError(`config file ${path} does not exist`);
    return {};
  }
  try {
    return parseToml(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`config file ${path} is not valid TOML: ${(err as Error).message.split("\n")[0]}`);
  }
}

/**
 * The data directory of the desktop start (`cairn` with no command): CAIRN_DATA when set, else the
 * platform's folder for application data (XDG on Linux, ignoring a relative XDG_DATA_HOME as the spec says).
 */
export function desktopDataDir(env: Record<string, string | undefined> = process.env, platform: string = process.platform, home = homedir()): string {
  if (env.CAIRN_DATA) return resolve(env.CAIRN_DATA);
  if (platform === "win32") return win32.join(env.APPDATA || win32.join(home, "AppData", "Roaming"), "Cairn");
  if (platform === "darwin") return join(home, "Library", "Application Support", "Cairn");
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, ".local", "share"), "cairn");
}

/** Builds the effective configuration; throws ConfigError naming the first bad key. */
export function loadConfig(options: LoadOptions = {}): Config {
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const dataDir = resolve(String(flags.DATA_DIR ?? env.CAIRN_DATA ?? "./cairn-data"));
  const filePath = options.configFile ?? env.CAIRN_CONFIG ?? join(dataDir, "cairn.toml");
  const fileValues = readConfigFile(filePath, Boolean(options.configFile ?? env.CAIRN_CONFIG));
  for (const key of Object.keys(fileValues)) {
    if (!(key in CONFIG_KEYS)) throw new ConfigError(`config file ${filePath}: unknown key ${key}`);
  }
  const config: Record<string, unknown> = { DATA_DIR: dataDir };
  for (const [key, spec] of Object.entries(CONFIG_KEYS) as [ConfigKey, KeySpec][]) {
    let value = spec.default;
    if (fileValues[key] !== undefined) value = coerce(key, spec.kind, fileValues[key], filePath);
    const fromEnv = env[`CAIRN_${key}`];
    if (fromEnv !== undefined) value = coerce(key, spec.kind, fromEnv, `CAIRN_${key}`);
    if (flags[key] !== undefined) value = coerce(key, spec.kind, flags[key], "the command line");
    config[key] = value;
  }
  return finish(config as Config);
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1"];
const COMMUNITY_SORT_NAMES = ["bestmatch", "newest", "oldest", "updated-desc", "updated-asc", "version"];
const RECORD_SORT_NAMES = ["bestmatch", "newest", "oldest", "updated-desc", "updated-asc", "version", "mostviewed", "mostdownloaded"];

/** `https://host[:port]`, nothing more: what a browser sends as Origin. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/+$/, "").toLowerCase();
  } catch {
    return false;
  }
}

/** Derived defaults and cross-key checks. */
function finish(config: Config): Config {
  if (config.PORT < 0 || config.PORT > 65535) throw new ConfigError(`PORT must be 0-65535, got ${config.PORT}`);
  if (!config.BASE_URL) {
    const host = config.HOST.includes(":") && !config.HOST.startsWith("[") ? `[${config.HOST}]` : config.HOST;
    config.BASE_URL = `${config.HTTP ? "http" : "https"}://${host}:${config.PORT}`;
  }
  let base: URL;
  try {
    base = new URL(config.BASE_URL);
  } catch {
    throw new ConfigError(`BASE_URL is not a URL: ${config.BASE_URL}`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") throw new ConfigError("BASE_URL must start with http:// or https://");
  config.BASE_URL = base.origin + base.pathname.replace(/\/+$/, "");
  if (config.APP_ALLOWED_HOSTS.length === 0) {
    const host = base.hostname.replace(/^\[|\]$/g, "");
    // A loopback install answers to every loopback name (its certificate names them all); a
    // public one only to its own name, as the spec requires. An explicit list is taken as given.
    config.APP_ALLOWED_HOSTS = LOOPBACK_NAMES.includes(host) ? [host, ...LOOPBACK_NAMES.filter((n) => n !== host)] : [host];
  }
  config.APP_ALLOWED_HOSTS = config.APP_ALLOWED_HOSTS.map((h) => h.toLowerCase());
  if (Boolean(config.TLS_CERT) !== Boolean(config.TLS_KEY)) throw new ConfigError("TLS_CERT and TLS_KEY go together");
  for (const key of ["RATELIMIT_AUTHENTICATED_USER", "RATELIMIT_GUEST_USER"] as const) {
    try {
      parseRateLimits(config[key]);
    } catch (err) {
      throw new ConfigError(`${key}: ${(err as Error).message}`);
    }
  }
  for (const origin of config.CORS_ORIGINS) {
    if (origin !== "*" && !isOrigin(origin)) throw new ConfigError(`CORS_ORIGINS: '${origin}' is not an origin such as https://app.example.org (or *)`);
  }
  try {
    checkTrustedProxies(config.APP_TRUSTED_PROXIES);
  } catch (err) {
    throw new ConfigError(`APP_TRUSTED_PROXIES: ${(err as Error).message}`);
  }
  const unknownSorts = config.RDM_SEARCH_SORT_OPTIONS.filter((o) => !RECORD_SORT_NAMES.includes(o));
  if (unknownSorts.length) throw new ConfigError(`RDM_SEARCH_SORT_OPTIONS: unknown option(s) ${unknownSorts.join(", ")}; known: ${RECORD_SORT_NAMES.join(", ")}`);
  if (!config.RDM_SEARCH_SORT_OPTIONS.includes("newest")) throw new ConfigError("RDM_SEARCH_SORT_OPTIONS must keep newest, the default sort without a query");
  const unknownCommunitySorts = config.COMMUNITIES_SEARCH_SORT_OPTIONS.filter((o) => !COMMUNITY_SORT_NAMES.includes(o));
  if (unknownCommunitySorts.length) {
    throw new ConfigError(`COMMUNITIES_SEARCH_SORT_OPTIONS: unknown option(s) ${unknownCommunitySorts.join(", ")}; known: ${COMMUNITY_SORT_NAMES.join(", ")}`);
  }
  if (!config.COMMUNITIES_SEARCH_SORT_OPTIONS.includes("newest")) throw new ConfigError("COMMUNITIES_SEARCH_SORT_OPTIONS must keep newest, the default sort without a query");
  if (!/^[A-Za-z0-9\-_.!~*'()]*$/.test(config.COMMUNITIES_OAI_SETS_PREFIX)) {
    throw new ConfigError("COMMUNITIES_OAI_SETS_PREFIX must be usable in an OAI setSpec: letters, digits and - _ . ! ~ * ' ( )");
  }
  if (config.FILES_STORAGE !== "local" && config.FILES_STORAGE !== "s3") throw new ConfigError(`FILES_STORAGE must be local or s3, got ${JSON.stringify(config.FILES_STORAGE)}`);
  if (config.FILES_STORAGE === "s3" && !config.S3_BUCKET) throw new ConfigError("S3_BUCKET is required when FILES_STORAGE is s3");
  if (config.S3_ENDPOINT && !/^https?:\/\/[^/]+\/?$/.test(config.S3_ENDPOINT))
    throw new ConfigError(`S3_ENDPOINT must be a URL such as https://s3.example.org:9000, got ${config.S3_ENDPOINT}`);
  if (config.ACCOUNTS_DEFAULT_USER_VISIBILITY !== "public" && config.ACCOUNTS_DEFAULT_USER_VISIBILITY !== "restricted") {
    throw new ConfigError(`ACCOUNTS_DEFAULT_USER_VISIBILITY must be public or restricted, got ${JSON.stringify(config.ACCOUNTS_DEFAULT_USER_VISIBILITY)}`);
  }
  if (config.LDAP_URL) {
    const problem = ldapSettingsProblem({
      url: config.LDAP_URL,
      startTls: config.LDAP_START_TLS,
      bindDn: config.LDAP_BIND_DN,
      bindPassword: config.LDAP_BIND_PASSWORD,
      searchBase: config.LDAP_SEARCH_BASE,
      userFilter: config.LDAP_USER_FILTER,
    });
    if (problem) throw new ConfigError(problem);
  }
  for (const key of [
    "SEARCH_DEFAULT_PAGE_SIZE",
    "SEARCH_MAX_PAGE_SIZE",
    "SEARCH_MAX_RESULTS_WINDOW",
    "SEARCH_TIMEOUT_MS",
    "JOBS_CONCURRENCY",
    "JOBS_POLL_INTERVAL_MS",
    "OAISERVER_PAGE_SIZE",
    "OAISERVER_RESUMPTION_TOKEN_EXPIRE_SECONDS",
    "STATS_EVENTS_RETENTION_DAYS",
    "STATS_AGGREGATE_INTERVAL_MS",
    "BACKUP_KEEP",
    "S3_PRESIGNED_EXPIRES_SECONDS",
  ] as const) {
    if (config[key] < 1) throw new ConfigError(`${key} must be at least 1, got ${config[key]}`);
  }
  return config;
}

/** The configuration as a table for `--help` and the README; secrets shown as set or not. */
export function describeConfig(): { key: ConfigKey; kind: Kind; default: string; description: string }[] {
  return (Object.entries(CONFIG_KEYS) as [ConfigKey, KeySpec][]).map(([key, spec]) => ({
    key,
    kind: spec.kind,
    default: Array.isArray(spec.default)
      ? spec.default.join(",")
      : typeof spec.default === "object" && spec.default !== null
        ? Object.entries(spec.default)
            .filter(([, v]) => v !== "")
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(",")
        : String(spec.default),
    description: spec.description,
  }));
}
