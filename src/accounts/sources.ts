// The names people see for the sign-in sources an identity can come from (sign_in_identities.provider):
// an OpenID Connect provider's name, `saml:{name}` for a SAML IdP, `ldap` for the directory.
import type { Config } from "../config";

/** The title of a source key that the configuration knows; null for any other key. */
export function knownSourceTitle(config: Config, key: string): string | null {
  if (key === "ldap") return "Directory (LDAP)";
  if (key.startsWith("saml:")) return config.SAML_IDPS.find((i) => i.name === key.slice(5))?.title ?? null;
  return config.OIDC_PROVIDERS.find((p) => p.name === key)?.title ?? null;
}

/** The title of a source key; a source no longer configured keeps its name. */
export const sourceTitle = (config: Config, key: string): string => knownSourceTitle(config, key) ?? (key.startsWith("saml:") ? key.slice(5) : key);
