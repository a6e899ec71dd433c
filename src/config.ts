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
import { ldapSettingsProblem, parseLdapAttributes, type LdapAttributeNames } from "./core/ldap-settings";
import { parseFooterLinks, type FooterLink } from "./core/footer-links";
import { imageFileProblem } from "./core/image-type";
import { isHexColor } from "./core/theme-color";
import { tlsProblem } from "./core/postgres-tls";

import { CONFIG_KEYS, GiB, MiB, type ConfigKey, type Kind, type KeySpec } from "./config-keys";

export { CONFIG_KEYS, type ConfigKey } from "./config-keys";

/** The settings that are tables or arrays of tables, by kind (core/config-tables.ts reads them alike). */
const TABLE_PARSERS = { "oidc-providers": parseOidcProviders, "saml-idps": parseSamlIdps, "ldap-attributes": parseLdapAttributes, "footer-links": parseFooterLinks };

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
            : K extends "footer-links"
              ? FooterLink[]
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

/** A size as settings take it (`10485760`, `10MiB`, `50GB`; units of 1024) in bytes, or null when it is not one (the CLI's sizes too). */
export function parseSize(raw: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(raw);
  const unit = m ? SIZE_UNITS.get(m[2]!.toLowerCase()) : undefined;
  return m && unit ? Math.floor(Number(m[1]) * unit) : null;
}

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
      return (typeof raw === "string" ? parseSize(raw) : null) ?? fail("expected a size such as 10485760, 10MiB or 50GB");
    }
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (typeof raw === "string" && /^(1|true|yes|on)$/i.test(raw.trim())) return true;
      if (typeof raw === "string" && /^(0|false|no|off)$/i.test(raw.trim())) return false;
      return fail("expected true or false");
    case "oidc-providers":
    case "saml-idps":
    case "ldap-attributes":
    case "footer-links":
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
    // DATABASE_URL is the name every hosting platform and PostgreSQL tool sets: read it too.
    const fromEnv = env[`CAIRN_${key}`] ?? (key === "DATABASE_URL" ? env.DATABASE_URL : undefined);
    if (fromEnv !== undefined) value = coerce(key, spec.kind, fromEnv, `CAIRN_${key}`);
    if (flags[key] !== undefined) value = coerce(key, spec.kind, flags[key], "the command line");
    config[key] = value;
  }
  return finish(config as Config);
}

/** The string settings that take one of a few words. */
const CHOICES: [ConfigKey, string[]][] = [
  ["ACCOUNTS_DEFAULT_USER_VISIBILITY", ["public", "restricted"]],
  ["ACCOUNTS_MODERATION", ["off", "first-publish"]],
  ["COMMUNITIES_CREATION", ["anyone", "administrators"]],
];

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

/** A header logo larger than this is a mistake (a photograph, an uncompressed scan): every first visit loads it. */
const LOGO_MAX_BYTES = 1024 * 1024;

/** Derived defaults and cross-key checks. */
function finish(config: Config): Config {
  if (config.PORT < 0 || config.PORT > 65535) throw new ConfigError(`PORT must be 0-65535, got ${config.PORT}`);
  if (!/^(auto|[1-9]\d{0,2})$/.test(config.WORKERS)) throw new ConfigError(`WORKERS must be a number of processes (1-999) or auto, got ${JSON.stringify(config.WORKERS)}`);
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
  if (config.DATABASE_URL && !/^postgres(ql)?:\/\//.test(config.DATABASE_URL)) {
    throw new ConfigError("DATABASE_URL must be a PostgreSQL address, postgres://user:password@host:5432/database (leave it empty for SQLite)");
  }
  const tls = config.DATABASE_URL ? tlsProblem(config.DATABASE_URL) : null;
  if (tls) throw new ConfigError(tls);
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
  if (!/^https?:\/\/[^/\s]+/.test(config.VOCABULARIES_ROR_DUMP_URL))
    throw new ConfigError(`VOCABULARIES_ROR_DUMP_URL must be an http:// or https:// URL, got ${config.VOCABULARIES_ROR_DUMP_URL}`);
  if (config.S3_ENDPOINT && !/^https?:\/\/[^/]+\/?$/.test(config.S3_ENDPOINT))
    throw new ConfigError(`S3_ENDPOINT must be a URL such as https://s3.example.org:9000, got ${config.S3_ENDPOINT}`);
  if (config.THEME_PRIMARY_COLOR && !isHexColor(config.THEME_PRIMARY_COLOR))
    throw new ConfigError(`THEME_PRIMARY_COLOR must be a colour such as #1f5fa8 (#rrggbb or #rgb), got ${JSON.stringify(config.THEME_PRIMARY_COLOR)}`);
  if (config.THEME_LOGO) {
    // Checked at start, so a typo is not a broken image on every page.
    config.THEME_LOGO = resolve(config.THEME_LOGO);
    const problem = imageFileProblem(config.THEME_LOGO, ["image/png", "image/svg+xml", "image/jpeg", "image/webp"], LOGO_MAX_BYTES);
    if (problem) throw new ConfigError(`THEME_LOGO: ${problem}`);
  }
  for (const [key, choices] of CHOICES) {
    if (!choices.includes(config[key] as string)) throw new ConfigError(`${key} must be ${choices.join(" or ")}, got ${JSON.stringify(config[key])}`);
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

/**
 * Set in the environment of the processes `cairn serve --workers N` starts (server/workers.ts):
 * which worker this is and its supervisor's pid, or null in any other process.
 */
export function workerRole(env: Record<string, string | undefined> = process.env): { index: number; supervisorPid: number } | null {
  const m = /^(\d+):(\d+)$/.exec(env.CAIRN_WORKER_OF ?? "");
  return m ? { index: Number(m[1]), supervisorPid: Number(m[2]) } : null;
}
