// The OIDC_PROVIDERS setting: institutional sign-in providers (OpenID Connect issuers, ORCID), read
// from cairn.toml's [[OIDC_PROVIDERS]] tables or CAIRN_OIDC_PROVIDERS (JSON), checked at start.
import { parseTables } from "./config-tables";

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
const KNOWN = ["name", "title", "issuer", "client_id", "client_secret", "scopes", "claims", "trust_email", "sync_groups", "type"];

/**
 * Reads the providers: an array of tables (TOML) or a JSON string of one (the environment).
 * Names must be unique and [a-z0-9-]; issuer, client_id and name are required; an issuer must use
 * https (http only on a loopback address: a provider on the same machine, as in tests).
 */
export function parseOidcProviders(raw: unknown): OidcProviderConfig[] {
  return parseTables(raw, { item: "provider", key: "OIDC_PROVIDERS", known: KNOWN }, (f, name) => {
    const typeName = f.str("type", false, "oidc");
    if (typeName !== "oidc" && typeName !== "orcid") f.fail("type", `must be oidc or orcid, got ${JSON.stringify(typeName)}`);
    const type = typeName as OidcProviderConfig["type"];
    const issuer = f.httpsUrl("issuer", f.str("issuer", true).replace(/\/+$/, ""));
    // ORCID grants only `openid` (its /authenticate); others the usual three.
    const scopes = f.words("scopes", type === "orcid" ? ["openid"] : ["openid", "email", "profile"], "scope names");
    if (!scopes.includes("openid")) f.fail("scopes", "must include openid");
    return {
      name,
      title: f.str("title", false, name),
      issuer,
      clientId: f.str("client_id", true),
      clientSecret: f.str("client_secret", false, ""),
      scopes,
      claims: f.names("claims", DEFAULT_CLAIMS, '{ email = "mail" }', "a claim name"),
      trustEmail: f.bool("trust_email", false),
      syncGroups: f.bool("sync_groups", false),
      type,
    };
  });
}
