// The SAML_IDPS setting: SAML 2.0 identity providers (Shibboleth, ADFS, eduGAIN members), read from
// cairn.toml's [[SAML_IDPS]] tables or CAIRN_SAML_IDPS (JSON), checked at start.

/** Which SAML attribute (its Name, usually the urn:oid form) holds each fact about the person. */
export interface SamlAttributeNames {
  email: string;
  name: string;
  givenName: string;
  surname: string;
  /** The person's stable identifier at the IdP (the NameID is used when the assertion lacks it). */
  subject: string;
  affiliation: string;
  groups: string;
}

export interface SamlIdpConfig {
  /** [a-z0-9-]: the routes /saml/login/{name}, /saml/authorized/{name}, /saml/metadata/{name}. */
  name: string;
  /** The button's text on /login. */
  title: string;
  /** The IdP's metadata: a local file (read at start) … */
  metadataFile: string | null;
  /** … or a URL (fetched on first use). */
  metadataUrl: string | null;
  attributes: SamlAttributeNames;
  /** The IdP's e-mail addresses are believed (see parseSamlIdps). */
  trustEmail: boolean;
  syncGroups: boolean;
  /** Cairn's entity ID at this IdP; default: its metadata URL. */
  entityId: string | null;
}

/** The eduPerson / inetOrgPerson names (urn:oid forms) that Shibboleth and eduGAIN IdPs release. */
export const DEFAULT_SAML_ATTRIBUTES: SamlAttributeNames = {
  email: "urn:oid:0.9.2342.19200300.100.1.3", // mail
  name: "urn:oid:2.16.840.1.113730.3.1.241", // displayName
  givenName: "urn:oid:2.5.4.42", // givenName
  surname: "urn:oid:2.5.4.4", // sn
  subject: "urn:oid:1.3.6.1.4.1.5923.1.1.1.6", // eduPersonPrincipalName
  affiliation: "urn:oid:1.3.6.1.4.1.5923.1.1.1.9", // eduPersonScopedAffiliation
  groups: "urn:oid:1.3.6.1.4.1.5923.1.1.1.7", // eduPersonEntitlement
};

const NAME_PATTERN = /^[a-z0-9-]{1,40}$/;
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];
const KNOWN = ["name", "title", "metadata_file", "metadata_url", "attributes", "trust_email", "sync_groups", "entity_id"];

/** Thrown with what is wrong (config.ts prefixes the key and source). */
export class SamlIdpsError extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads the IdPs: an array of tables (TOML) or a JSON string of one (the environment). Names must
 * be unique and [a-z0-9-]; exactly one of metadata_file and metadata_url; a metadata URL must use
 * https (http only on a loopback address). trust_email defaults to true, unlike an OIDC provider's:
 * an IdP is configured by the institution for its own people, and its mail attribute comes from its
 * own directory, not from what someone typed at sign-up.
 */
export function parseSamlIdps(raw: unknown): SamlIdpConfig[] {
  let value = raw;
  if (typeof raw === "string") {
    if (!raw.trim()) return [];
    try {
      value = JSON.parse(raw);
    } catch {
      throw new SamlIdpsError("expected a JSON array of IdP objects");
    }
  }
  if (!Array.isArray(value)) throw new SamlIdpsError("expected an array of tables ([[SAML_IDPS]])");
  const seen = new Set<string>();
  return value.map((entry, i) => {
    if (!isRecord(entry)) throw new SamlIdpsError(`IdP ${i + 1}: expected a table`);
    const label = typeof entry.name === "string" && entry.name ? `IdP '${entry.name}'` : `IdP ${i + 1}`;
    const fail = (field: string, what: string): never => {
      throw new SamlIdpsError(`${label}: ${field} ${what}`);
    };
    const str = (field: string, required: boolean): string | null => {
      const v = entry[field];
      if (v === undefined || v === "") return required ? fail(field, "is required") : null;
      return typeof v === "string" ? v : fail(field, "must be a string");
    };
    const bool = (field: string, fallback: boolean): boolean => {
      const v = entry[field];
      if (v === undefined) return fallback;
      return typeof v === "boolean" ? v : fail(field, "must be true or false");
    };
    for (const key of Object.keys(entry)) if (!KNOWN.includes(key)) fail(key, `is not a known field (known: ${KNOWN.join(", ")})`);
    const name = str("name", true)!;
    if (!NAME_PATTERN.test(name)) fail("name", "must be 1-40 of a-z, 0-9 and -");
    if (seen.has(name)) fail("name", "is used by another IdP");
    seen.add(name);
    const metadataFile = str("metadata_file", false);
    const metadataUrl = str("metadata_url", false);
    if ((metadataFile === null) === (metadataUrl === null)) fail("metadata_file", "or metadata_url is required (one of them, not both)");
    if (metadataUrl !== null) {
      let url: URL | null = null;
      try {
        url = new URL(metadataUrl);
      } catch {
        fail("metadata_url", `is not a URL: ${metadataUrl}`);
      }
      if (url!.protocol !== "https:" && !(url!.protocol === "http:" && LOOPBACK_HOSTS.includes(url!.hostname)))
        fail("metadata_url", "must use https:// (http:// only on a loopback address)");
    }
    const attributes = { ...DEFAULT_SAML_ATTRIBUTES };
    if (entry.attributes !== undefined) {
      if (!isRecord(entry.attributes)) fail("attributes", 'must be a table such as { email = "mail" }');
      for (const [k, v] of Object.entries(entry.attributes as Record<string, unknown>)) {
        if (!Object.hasOwn(DEFAULT_SAML_ATTRIBUTES, k)) fail(`attributes.${k}`, `is not one of ${Object.keys(DEFAULT_SAML_ATTRIBUTES).join(", ")}`);
        if (typeof v !== "string" || !v) fail(`attributes.${k}`, "must be an attribute name");
        attributes[k as keyof SamlAttributeNames] = v as string;
      }
    }
    return {
      name,
      title: str("title", false) ?? name,
      metadataFile,
      metadataUrl,
      attributes,
      trustEmail: bool("trust_email", true),
      syncGroups: bool("sync_groups", false),
      entityId: str("entity_id", false),
    };
  });
}
