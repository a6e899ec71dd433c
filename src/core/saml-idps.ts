// The SAML_IDPS setting: SAML 2.0 identity providers (Shibboleth, ADFS, eduGAIN members), read from
// cairn.toml's [[SAML_IDPS]] tables or CAIRN_SAML_IDPS (JSON), checked at start.
import { parseTables } from "./config-tables";

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

const KNOWN = ["name", "title", "metadata_file", "metadata_url", "attributes", "trust_email", "sync_groups", "entity_id"];

/**
 * Reads the IdPs: an array of tables (TOML) or a JSON string of one (the environment). Names must
 * be unique and [a-z0-9-]; exactly one of metadata_file and metadata_url; a metadata URL must use
 * https (http only on a loopback address). trust_email defaults to true, unlike an OIDC provider's:
 * an IdP is configured by the institution for its own people, and its mail attribute comes from its
 * own directory, not from what someone typed at sign-up.
 */
export function parseSamlIdps(raw: unknown): SamlIdpConfig[] {
  return parseTables(raw, { item: "IdP", key: "SAML_IDPS", known: KNOWN }, (f, name) => {
    const metadataFile = f.str("metadata_file", false, null);
    const metadataUrl = f.str("metadata_url", false, null);
    if ((metadataFile === null) === (metadataUrl === null)) f.fail("metadata_file", "or metadata_url is required (one of them, not both)");
    return {
      name,
      title: f.str("title", false, name),
      metadataFile,
      metadataUrl: metadataUrl === null ? null : f.httpsUrl("metadata_url", metadataUrl),
      attributes: f.names("attributes", DEFAULT_SAML_ATTRIBUTES, '{ email = "mail" }', "an attribute name"),
      trustEmail: f.bool("trust_email", true),
      syncGroups: f.bool("sync_groups", false),
      entityId: f.str("entity_id", false, null),
    };
  });
}
