// The OIDC_PROVIDERS setting: institutional sign-in providers (OpenID Connect issuers, ORCID), read
// from cairn.toml's [[OIDC_PROVIDERS]] tables or CAIRN_OIDC_PROVIDERS (JSON), checked at start.

/** Which claim of the ID token (or userinfo) holds each fact about the person. */
export interface OidcClaimNames {
  email: string;
  name: string;
  affiliation: string;
  groups: string;
}

export interface OidcProviderConfig {
  /** [a-z0-9-]: the routes /oauth/login/{name} and /oauth/authorized/{name}. */
  name: string;
  /** The button's text on /login. */
  title: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  claims: OidcClaimNames;
  /** The provider's e-mail addresses are believed: a verified one confirms the account and may link to a local account of that address. */
  trustEmail: boolean;
  syncGroups: boolean;
  type: "oidc" | "orcid";
}

const DEFAULT_CLAIMS: OidcClaimNames = { email: "email", name: "name", affiliation: "affiliation", groups: "groups" };
const NAME_PATTERN = /^[a-z0-9-]{1,40}$/;
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];

/** Thrown with what is wrong (config.ts prefixes the key and source). */
export class OidcProvidersError extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads the providers: an array of tables (TOML) or a JSON string of one (the environment).
 * Names must be unique and [a-z0-9-]; issuer, client_id and name are required; an issuer must use
 * https (http only on a loopback address: a provider on the same machine, as in tests).
 */
export function parseOidcProviders(raw: unknown): OidcProviderConfig[] {
  let value = raw;
  if (typeof raw === "string") {
    if (!raw.trim()) return [];
    try {
      value = JSON.parse(raw);
    } catch {
      throw new OidcProvidersError("expected a JSON array of provider objects");
    }
  }
  if (!Array.isArray(value)) throw new OidcProvidersError("expected an array of tables ([[OIDC_PROVIDERS]])");
  const seen = new Set<string>();
  return value.map((entry, i) => {
    if (!isRecord(entry)) throw new OidcProvidersError(`provider ${i + 1}: expected a table`);
    const label = typeof entry.name === "string" && entry.name ? `provider '${entry.name}'` : `provider ${i + 1}`;
    const fail = (field: string, what: string): never => {
      throw new OidcProvidersError(`${label}: ${field} ${what}`);
    };
    const str = (field: string, required: boolean, fallback = ""): string => {
      const v = entry[field];
      if (v === undefined || v === "") return required ? fail(field, "is required") : fallback;
      return typeof v === "string" ? v : fail(field, "must be a string");
    };
    const bool = (field: string): boolean => {
      const v = entry[field];
      if (v === undefined) return false;
      return typeof v === "boolean" ? v : fail(field, "must be true or false");
    };
    const known = new Set(["name", "title", "issuer", "client_id", "client_secret", "scopes", "claims", "trust_email", "sync_groups", "type"]);
    for (const key of Object.keys(entry)) if (!known.has(key)) fail(key, `is not a known field (known: ${[...known].join(", ")})`);
    const name = str("name", true);
    if (!NAME_PATTERN.test(name)) fail("name", "must be 1-40 of a-z, 0-9 and -");
    if (seen.has(name)) fail("name", "is used by another provider");
    seen.add(name);
    const typeName = str("type", false, "oidc");
    if (typeName !== "oidc" && typeName !== "orcid") fail("type", `must be oidc or orcid, got ${JSON.stringify(typeName)}`);
    const type = typeName as OidcProviderConfig["type"];
    const issuer = str("issuer", true).replace(/\/+$/, "");
    let url: URL | null = null;
    try {
      url = new URL(issuer);
    } catch {
      fail("issuer", `is not a URL: ${issuer}`);
    }
    if (url!.protocol !== "https:" && !(url!.protocol === "http:" && LOOPBACK_HOSTS.includes(url!.hostname)))
      fail("issuer", "must use https:// (http:// only on a loopback address)");
    // ORCID grants only `openid` (its /authenticate); others the usual three.
    const scopes = entry.scopes ?? (type === "orcid" ? ["openid"] : ["openid", "email", "profile"]);
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === "string" && /^\S+$/.test(s))) fail("scopes", "must be a list of scope names");
    if (!(scopes as string[]).includes("openid")) fail("scopes", "must include openid");
    const claims = { ...DEFAULT_CLAIMS };
    if (entry.claims !== undefined) {
      if (!isRecord(entry.claims)) fail("claims", 'must be a table such as { email = "mail" }');
      for (const [k, v] of Object.entries(entry.claims as Record<string, unknown>)) {
        if (!(k in DEFAULT_CLAIMS)) fail(`claims.${k}`, `is not one of ${Object.keys(DEFAULT_CLAIMS).join(", ")}`);
        if (typeof v !== "string" || !v) fail(`claims.${k}`, "must be a claim name");
        claims[k as keyof OidcClaimNames] = v as string;
      }
    }
    return {
      name,
      title: str("title", false, name),
      issuer,
      clientId: str("client_id", true),
      clientSecret: str("client_secret", false),
      scopes: scopes as string[],
      claims,
      trustEmail: bool("trust_email"),
      syncGroups: bool("sync_groups"),
      type,
    };
  });
}
